// Shared by the KCP/ENet tests: decoding through rudpscope-cli, the truth
// computed from the two captures of a lab run (client.pcap at the client,
// server.pcap at the server, loss in a router between them), and the checks
// of `rudpscope-cli analyze --json` against the libraries' own counters.
#pragma once
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "process.h"

namespace kcpenet {

namespace fs = std::filesystem;
using json = nlohmann::json;
using rudp::test::run;
using rudp::test::splitLines;

inline const std::string kClientIp = "10.78.1.2";
inline const std::string kServerIp = "10.78.2.2";

inline std::string dataDir(const std::string& run_name) {
  return (fs::path(RUDPSCOPE_SOURCE_DIR) / "tests" / "kcp_enet" / "data" / run_name).string();
}

inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

inline uint64_t num(const std::string& s) { return std::stoull(s, nullptr, 0); }

// One row per frame, one entry per requested field (occurrences joined by ',').
using Rows = std::vector<std::vector<std::string>>;

// `extra`: more options ("-o", "tls.keylog_file:K").
inline Rows decode(const std::string& capture, const std::vector<std::string>& fields,
                   const std::vector<std::string>& extra = {}) {
  std::vector<std::string> argv = {RUDPSCOPE_CLI, "decode", capture};
  argv.insert(argv.end(), extra.begin(), extra.end());
  for (const auto& f : fields) {
    argv.push_back("-e");
    argv.push_back(f);
  }
  auto r = run(argv);
  INFO("decode " << capture << ": " << r.err);
  REQUIRE(r.status == 0);
  Rows rows;
  for (const auto& line : splitLines(r.out)) {
    auto cols = split(line, '\t');
    cols.resize(fields.size());
    rows.push_back(cols);
  }
  return rows;
}

inline json readJson(const std::string& path) {
  std::ifstream in(path);
  INFO("reading " << path);
  REQUIRE(in.good());
  std::string line;
  std::getline(in, line);  // the workloads print one JSON line
  return json::parse(line);
}

inline json analyze(const std::string& capture, const std::vector<std::string>& extra = {}) {
  rudp::test::TempDir dir("kcpenet");
  std::vector<std::string> argv = {RUDPSCOPE_CLI,    "analyze", capture, "--db",
                                   dir / "a.sqlite", "--json",  "-q"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  auto r = run(argv);
  INFO("analyze " << capture << ": " << r.err);
  REQUIRE(r.status == 0);
  return json::parse(r.out);
}

// Nearest rank, as the analyzer's percentiles: the smallest sample with at
// least q*n samples at or below it.
inline double nearestRank(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const auto rank = std::max<size_t>(1, size_t(std::ceil(q * double(v.size()) - 1e-9)));
  return v.at(rank - 1);
}

// The JSON carries times to the microsecond; a capture time as a double is
// good to a quarter of one.
inline void checkMs(const json& value, double truth) {
  CHECK_THAT(value.get<double>(), Catch::Matchers::WithinAbs(truth, 0.002));
}

// A figure's samples, p50, p95, p99 and max (an RttStats in the JSON) against
// the true samples.
inline void checkPercentiles(const json& figure, const std::vector<double>& truth) {
  REQUIRE(!truth.empty());
  CHECK(figure["samples"] == truth.size());
  checkMs(figure["p50"], nearestRank(truth, 0.50));
  checkMs(figure["p95"], nearestRank(truth, 0.95));
  checkMs(figure["p99"], nearestRank(truth, 0.99));
  checkMs(figure["max"], *std::max_element(truth.begin(), truth.end()));
}

// The single connection of `proto` in an analyze result.
inline json connection(const json& a, const std::string& proto) {
  json found;
  int n = 0;
  for (const auto& c : a.at("connections"))
    if (c.at("protocol") == proto) {
      found = c;
      ++n;
    }
  INFO("connections of " << proto << ": " << a.at("connections").dump());
  REQUIRE(n == 1);
  return found;
}

// A reliable copy as the contract sees it: the sender's seq and ts, in its
// seq space (ENet: the channel; KCP: one space).
struct Copy {
  std::string src;
  uint32_t seq = 0, ts = 0;
  uint32_t space = 0;
  uint32_t cmd = 0;  // ENet: the command number (4 DISCONNECT)
};

// KCP: every PUSH segment (kcp.sn and kcp.ts occur on PUSH segments only).
inline std::vector<Copy> kcpCopies(const std::string& capture) {
  auto rows = decode(capture, {"ip.src", "kcp.sn", "kcp.ts"});
  std::vector<Copy> out;
  for (const auto& r : rows) {
    auto sn = split(r[1], ','), ts = split(r[2], ',');
    REQUIRE(sn.size() == ts.size());
    for (size_t i = 0; i < sn.size(); ++i) out.push_back({r[0], uint32_t(num(sn[i])), uint32_t(num(ts[i]))});
  }
  return out;
}

// ENet: every reliable command (ACKNOWLEDGE flag), channel 0xFF included,
// with its reliable seq, its channel (a seq space of its own) and its
// datagram's sent time.
inline std::vector<Copy> enetCopies(const std::string& capture) {
  auto rows =
      decode(capture, {"ip.src", "enet.sent_time", "enet.command", "enet.channel", "enet.reliable_seq"});
  std::vector<Copy> out;
  for (const auto& r : rows) {
    auto cb = split(r[2], ','), ch = split(r[3], ','), rs = split(r[4], ',');
    REQUIRE(cb.size() == ch.size());
    REQUIRE(cb.size() == rs.size());
    for (size_t i = 0; i < cb.size(); ++i) {
      if (!(num(cb[i]) & 0x80)) continue;
      REQUIRE(!r[1].empty());  // reliable commands always travel with a sent time
      out.push_back({r[0], uint32_t(num(rs[i])), uint32_t(num(r[1])), uint32_t(num(ch[i])),
                     uint32_t(num(cb[i]) & 0x0F)});
    }
  }
  return out;
}

// ENet: resends of `src`'s DISCONNECT (copies beyond the first). They leave
// after the client's last counter snapshot, like the DISCONNECT itself.
inline uint64_t enetDisconnectResends(const std::vector<Copy>& copies, const std::string& src) {
  uint64_t n = 0;
  for (const Copy& c : copies) n += c.src == src && c.cmd == 4;
  return n > 0 ? n - 1 : 0;
}

struct RetxTruth {
  uint64_t sent = 0;      // copies the sender sent again (attempt >= 2), at the sender's capture
  uint64_t arrived = 0;   // of those, the ones in the receiver's capture
  uint64_t knowable = 0;  // of those, the ones the receiver's capture can tell from originals:
                          // an earlier copy of the seq arrived, or a higher seq arrived
                          // before it with an older ts (it was sent after that higher seq)
};

// tsBefore: a before b in the sender's clock of `bits` bits.
inline bool tsBefore(uint32_t a, uint32_t b, int bits) {
  const uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : ((1u << bits) - 1);
  const uint32_t d = (b - a) & mask;
  return d != 0 && d < (mask >> 1);
}

inline RetxTruth retxTruth(const std::vector<Copy>& sender, const std::vector<Copy>& receiver,
                           const std::string& src, int ts_bits) {
  RetxTruth t;
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, int> attempt;  // (space, seq, ts) -> attempt number
  std::map<std::pair<uint32_t, uint32_t>, int> copies;              // (space, seq) -> copies
  for (const auto& c : sender) {
    if (c.src != src) continue;
    const int a = ++copies[{c.space, c.seq}];
    attempt[{c.space, c.seq, c.ts}] = a;
    if (a >= 2) ++t.sent;
  }
  std::set<std::pair<uint32_t, uint32_t>> seen;
  std::vector<Copy> arrived;
  for (const auto& c : receiver) {
    if (c.src != src) continue;
    auto it = attempt.find({c.space, c.seq, c.ts});
    REQUIRE(it != attempt.end());  // the receiver got nothing the sender did not send
    if (it->second >= 2) {
      ++t.arrived;
      bool known = seen.count({c.space, c.seq}) > 0;
      for (size_t i = 0; !known && i < arrived.size(); ++i)
        known =
            arrived[i].space == c.space && arrived[i].seq > c.seq && tsBefore(arrived[i].ts, c.ts, ts_bits);
      if (known) ++t.knowable;
    }
    seen.insert({c.space, c.seq});
    arrived.push_back(c);
  }
  return t;
}

// ENet commands per (source, command number), from a capture.
struct EnetCommands {
  std::map<std::string, std::map<int, uint64_t>> by_cmd;  // src -> command number -> count
  std::map<std::string, uint64_t> peer_resends;           // src -> resent channel-0xFF commands
  std::map<std::string, uint64_t> data_resends;           // src -> resent data-channel commands
};

inline EnetCommands enetCommands(const std::string& capture) {
  auto rows = decode(capture, {"ip.src", "enet.command", "enet.channel", "enet.reliable_seq"});
  EnetCommands e;
  std::map<std::tuple<std::string, uint32_t, uint32_t>, int> copies;
  for (const auto& r : rows) {
    auto cb = split(r[1], ','), ch = split(r[2], ','), rs = split(r[3], ',');
    REQUIRE(cb.size() == ch.size());
    REQUIRE(cb.size() == rs.size());
    for (size_t i = 0; i < cb.size(); ++i) {
      const uint32_t b = uint32_t(num(cb[i])), c = uint32_t(num(ch[i])), s = uint32_t(num(rs[i]));
      ++e.by_cmd[r[0]][int(b & 0x0F)];
      if ((b & 0x80) && ++copies[{r[0], c, s}] >= 2) ++(c == 0xFF ? e.peer_resends : e.data_resends)[r[0]];
    }
  }
  return e;
}

inline uint64_t count(const std::map<int, uint64_t>& m, std::initializer_list<int> cmds) {
  uint64_t n = 0;
  for (int c : cmds)
    if (auto it = m.find(c); it != m.end()) n += it->second;
  return n;
}

inline uint64_t allCommands(const std::map<int, uint64_t>& m) {
  uint64_t n = 0;
  for (const auto& [c, k] : m) n += k;
  return n;
}

inline uint64_t u(const json& j, const char* key) { return j.at(key).get<uint64_t>(); }

// KCP analysis of one capture: the connection of the conv (FEC parity
// shards, which carry no conv, join it by address pair) and its packets per
// direction.
struct KcpAnalysis {
  json conv;                                // the conv's connection
  std::map<std::string, uint64_t> packets;  // direction -> datagrams of the conv's connection
  size_t connections = 0;                   // KCP connections in the capture
};

inline KcpAnalysis analyzeKcp(const std::string& capture) {
  const json a = analyze(capture);
  KcpAnalysis k;
  int with_conv = 0;
  for (const auto& c : a.at("connections")) {
    if (c.at("protocol") != "kcp") continue;
    ++k.connections;
    if (!c.at("conn_id").is_null()) {
      k.conv = c;
      ++with_conv;
    }
  }
  INFO("connections: " << a.at("connections").dump());
  REQUIRE(with_conv == 1);
  for (const auto& [dir, d] : k.conv.at("directions").items())
    k.packets[dir] = d.at("packets").get<uint64_t>();
  return k;
}

struct KcpRunOptions {
  bool fec = false;     // FEC framing: receivers' InSegs include segments FEC recovered
  bool session = true;  // kcp_workload (srtt, app counters); kcptun logs SNMP only
};

// Everything a lab run must satisfy exactly (KCP): run folder with
// client.pcap, server.pcap, client.json, server.json, nft.json.
inline void checkKcpRun(const std::string& dir, KcpRunOptions opt = {}) {
  const json cj = readJson(dir + "/client.json"), sj = readJson(dir + "/server.json"),
             nft = readJson(dir + "/nft.json");
  const json& cs = cj.at("snmp");
  const json& ss = sj.at("snmp");
  const KcpAnalysis atClient = analyzeKcp(dir + "/client.pcap");
  const KcpAnalysis atServer = analyzeKcp(dir + "/server.pcap");
  if (opt.session) {
    CHECK(atClient.conv.at("conn_id") == cj.at("conv"));
    CHECK(atServer.conv.at("conn_id") == sj.at("conv"));
  }
  const auto cl = kcpCopies(dir + "/client.pcap"), sv = kcpCopies(dir + "/server.pcap");
  const json none = json::object();

  struct Way {
    const char* name;
    const json& snd;            // sender's SNMP
    const json& rcv;            // receiver's SNMP
    const KcpAnalysis& at_snd;  // analysis at the sender's capture
    const KcpAnalysis& at_rcv;  // analysis at the receiver's capture
    const std::string& src;
    const std::vector<Copy>& snd_copies;
    const std::vector<Copy>& rcv_copies;
    uint64_t drops, seen;
    const json& snd_session;
  };
  const Way ways[] = {
      {"client_to_server", cs, ss, atClient, atServer, kClientIp, cl, sv, u(nft, "drop_c2s"),
       u(nft, "seen_c2s"), opt.session ? cj.at("session") : none},
      {"server_to_client", ss, cs, atServer, atClient, kServerIp, sv, cl, u(nft, "drop_s2c"),
       u(nft, "seen_s2c"), opt.session ? sj.at("session") : none},
  };
  for (const Way& w : ways) {
    const json& ds = w.at_snd.conv.at("directions").at(w.name);
    const json& dr = w.at_rcv.conv.at("directions").at(w.name);
    const RetxTruth truth = retxTruth(w.snd_copies, w.rcv_copies, w.src, 32);
    INFO(w.name << "\n at the sender: " << ds.dump() << "\n at the receiver: " << dr.dump()
                << "\n sender snmp: " << w.snd.dump() << "\n truth: sent " << truth.sent << " arrived "
                << truth.arrived << " knowable " << truth.knowable);
    // The capture at the sender sees every datagram and segment kcp-go sent.
    CHECK(w.seen == u(w.snd, "OutPkts"));
    CHECK(w.at_snd.packets.at(w.name) == u(w.snd, "OutPkts"));
    CHECK(u(ds, "segments") == u(w.snd, "OutSegs"));
    // Retransmissions: every copy.
    CHECK(truth.sent == u(w.snd, "RetransSegs"));
    CHECK(u(ds, "retransmissions") == u(w.snd, "RetransSegs"));
    CHECK(u(ds, "retransmissions_fast") + u(ds, "retransmissions_timeout") == u(w.snd, "RetransSegs"));
    CHECK(u(ds, "retransmissions_spurious") == 0);
    // Nothing reliable is lost for good.
    CHECK(u(ds, "lost") == 0);
    CHECK(u(dr, "lost") == 0);
    // The receiver's capture misses exactly what the router dropped.
    CHECK(w.at_rcv.packets.at(w.name) == u(w.snd, "OutPkts") - w.drops);
    if (!opt.fec) CHECK(u(dr, "segments") == u(w.rcv, "InSegs"));
    // Retransmissions that reached the receiver: all that can be told apart.
    CHECK(u(dr, "retransmissions") == truth.knowable);
    CHECK(u(dr, "retransmissions") <= truth.arrived);
    if (opt.session) {
      // RTT of this direction's data (acks of the peer), at the sender's
      // capture, vs kcp-go's own smoothed RTT (integer ms; median of the
      // value sampled every tick: the final value is one EWMA state).
      const double p50 = ds.at("rtt_ms").at("p50").get<double>();
      CHECK(u(ds.at("rtt_ms"), "samples") > 100);
      CHECK(std::abs(p50 - w.snd_session.at("srtt_median_per_tick").get<double>()) <= 2.0);
    }
  }
  if (opt.session) {
    // The applications got every message intact.
    CHECK(u(cj.at("app"), "recv_bad") == 0);
    CHECK(u(sj.at("app"), "recv_bad") == 0);
    CHECK(u(cj.at("app"), "recv_msgs") == u(sj.at("app"), "sent_msgs"));
    CHECK(u(sj.at("app"), "recv_msgs") == u(cj.at("app"), "sent_msgs"));
  }
}

// Fast (kcp-go's FastRetransSegs + EarlyRetransSegs: after acks that
// skipped the segment) vs timeout (LostSegs) retransmissions, at the sender.
// One direction's fast/timeout split, analysed at its sender, against the
// sender's kcp-go SNMP counters.
inline void checkKcpSplitAtSender(const std::string& capture, const char* direction, const json& sender) {
  const KcpAnalysis k = analyzeKcp(capture);
  const json& d = k.conv.at("directions").at(direction);
  const json& sn = sender.at("snmp");
  INFO(direction << ": fast " << u(d, "retransmissions_fast") << " timeout "
                 << u(d, "retransmissions_timeout") << "; kcp-go Fast " << u(sn, "FastRetransSegs")
                 << " Early " << u(sn, "EarlyRetransSegs") << " Lost " << u(sn, "LostSegs"));
  CHECK(u(d, "retransmissions") == u(sn, "RetransSegs"));
  CHECK(u(d, "retransmissions_fast") == u(sn, "FastRetransSegs") + u(sn, "EarlyRetransSegs"));
  CHECK(u(d, "retransmissions_timeout") == u(sn, "LostSegs"));
}

inline void checkKcpSplit(const std::string& dir) {
  checkKcpSplitAtSender(dir + "/client.pcap", "client_to_server", readJson(dir + "/client.json"));
  checkKcpSplitAtSender(dir + "/server.pcap", "server_to_client", readJson(dir + "/server.json"));
}

// With FEC, one connection per conversation (parity shards included).
inline void checkKcpOneConnection(const std::string& dir) {
  CHECK(analyzeKcp(dir + "/client.pcap").connections == 1);
  CHECK(analyzeKcp(dir + "/server.pcap").connections == 1);
}

// ENet: datagrams, commands, resends (all channels), RTT.
inline void checkEnetRun(const std::string& dir) {
  const json cj = readJson(dir + "/client.json"), sj = readJson(dir + "/server.json"),
             nft = readJson(dir + "/nft.json");
  const json atClient = connection(analyze(dir + "/client.pcap"), "enet");
  const json atServer = connection(analyze(dir + "/server.pcap"), "enet");
  const auto cl = enetCopies(dir + "/client.pcap"), sv = enetCopies(dir + "/server.pcap");
  const EnetCommands cmdC = enetCommands(dir + "/client.pcap"), cmdS = enetCommands(dir + "/server.pcap");
  struct Way {
    const char* name;
    const json& snd;
    const json& at_snd;
    const json& at_rcv;
    const std::string& src;
    const std::vector<Copy>& snd_copies;
    const std::vector<Copy>& rcv_copies;
    const EnetCommands& snd_cmds;
    uint64_t drops, seen;
  };
  const Way ways[] = {
      {"client_to_server", cj, atClient, atServer, kClientIp, cl, sv, cmdC, u(nft, "drop_c2s"),
       u(nft, "seen_c2s")},
      {"server_to_client", sj, atServer, atClient, kServerIp, sv, cl, cmdS, u(nft, "drop_s2c"),
       u(nft, "seen_s2c")},
  };
  for (const Way& w : ways) {
    const json& ds = w.at_snd.at("directions").at(w.name);
    const json& dr = w.at_rcv.at("directions").at(w.name);
    const json& peer = w.snd.at("peer");
    const json& host = w.snd.at("host");
    const auto& cmds = w.snd_cmds.by_cmd.at(w.src);
    const uint64_t peer_resends =
        w.snd_cmds.peer_resends.count(w.src) ? w.snd_cmds.peer_resends.at(w.src) : 0;
    const RetxTruth truth = retxTruth(w.snd_copies, w.rcv_copies, w.src, 16);
    INFO(w.name << "\n at the sender: " << ds.dump() << "\n at the receiver: " << dr.dump() << "\n sender: "
                << w.snd.dump() << "\n channel-0xFF resends " << peer_resends << ", all resends: sent "
                << truth.sent << " arrived " << truth.arrived << " knowable " << truth.knowable);
    // Datagrams: host->totalSentPackets; commands: peer->packetsSent counts
    // every command but ACKs (resends included); the client's DISCONNECT
    // went out after its last snapshot.
    CHECK(w.seen == u(host, "totalSentPackets"));
    CHECK(u(ds, "packets") == u(host, "totalSentPackets"));
    CHECK(u(ds, "segments") == allCommands(cmds));
    CHECK(allCommands(cmds) - count(cmds, {1, 4}) == u(peer, "packetsSent_final"));
    // packetsLost counts every resend: data channels plus channel 0xFF, each
    // its own seq space (but not a resent DISCONNECT: after the snapshot).
    CHECK(truth.sent - enetDisconnectResends(w.snd_copies, w.src) == u(peer, "packetsLost_final"));
    CHECK(u(ds, "retransmissions") == truth.sent);
    CHECK(u(ds, "retransmissions_timeout") == u(ds, "retransmissions"));  // ENet has no fast retransmit
    CHECK(u(ds, "retransmissions_fast") == 0);
    CHECK(u(dr, "packets") == u(host, "totalSentPackets") - w.drops);
    CHECK(u(dr, "retransmissions") == truth.knowable);
    CHECK(u(dr, "retransmissions") <= truth.arrived);
    // RTT: ENet's roundTripTime (integer ms, never below 1).
    const json& rtt = ds.at("rtt_ms");
    CHECK(u(rtt, "samples") > 50);
    CHECK(std::abs(rtt.at("p50").get<double>() - peer.at("roundTripTime").get<double>()) <= 2.0);
    CHECK(std::abs(rtt.at("p50").get<double>() - peer.at("roundTripTime_median_per_tick").get<double>()) <=
          2.0);
  }
  CHECK(u(cj.at("app"), "recv_bad") == 0);
  CHECK(u(sj.at("app"), "recv_bad") == 0);
  CHECK(u(cj.at("app"), "recv_reliable") == u(sj.at("app"), "sent_reliable"));
  CHECK(u(sj.at("app"), "recv_reliable") == u(cj.at("app"), "sent_reliable"));
}

// ENet's never-resent commands of `src` in one capture, by numbering:
// SEND_UNRELIABLE(_FRAGMENT) by (channel, reliable seq) and unreliable seq,
// SEND_UNSEQUENCED by unsequenced group (one numbering per peer).
using EnetNumbered =
    std::set<std::tuple<int, uint32_t, uint32_t, uint32_t>>;  // (kind, channel, group, number)

inline EnetNumbered enetNumbered(const std::string& capture, const std::string& src) {
  auto rows = decode(capture, {"ip.src", "enet.cmd", "enet.channel", "enet.reliable_seq",
                               "enet.unreliable_seq", "enet.unsequenced_group"});
  EnetNumbered out;
  for (const auto& r : rows) {
    if (r[0] != src) continue;
    auto cmd = split(r[1], ','), ch = split(r[2], ','), rs = split(r[3], ','), us = split(r[4], ','),
         ug = split(r[5], ',');
    size_t ui = 0, gi = 0;
    for (size_t i = 0; i < cmd.size(); ++i) {
      const uint64_t c = num(cmd[i]);
      if (c == 7 || c == 12) {
        REQUIRE(ui < us.size());
        out.insert({0, uint32_t(num(ch[i])), uint32_t(num(rs[i])), uint32_t(num(us[ui++]))});
      } else if (c == 9) {
        REQUIRE(gi < ug.size());
        out.insert({1, 0, 0, uint32_t(num(ug[gi++]))});
      }
    }
  }
  return out;
}

// Dropped never-resent commands a receiver can tell from the numbers: a
// later number of the same numbering and group arrived (the last ones
// before a new group or the end of the capture leave no trace).
inline uint64_t enetTellableDrops(const EnetNumbered& sent, const EnetNumbered& arrived) {
  uint64_t n = 0;
  for (const auto& x : sent) {
    if (arrived.count(x)) continue;
    const auto& [k, ch, g, num] = x;
    for (const auto& y : arrived)
      if (std::get<0>(y) == k && std::get<1>(y) == ch && std::get<2>(y) == g && std::get<3>(y) > num) {
        ++n;
        break;
      }
  }
  return n;
}

// CONNECT to the client's ACK of VERIFY_CONNECT in one capture, in ms.
inline double enetHandshakeMs(const std::string& capture) {
  auto rows = decode(capture, {"frame.time_relative", "ip.src", "enet.cmd", "enet.channel"});
  double connect = -1, verify = -1;
  for (const auto& r : rows) {
    auto cmd = split(r[2], ','), ch = split(r[3], ',');
    for (size_t i = 0; i < cmd.size() && i < ch.size(); ++i) {
      const uint64_t c = num(cmd[i]);
      if (c == 2 && connect < 0) connect = std::stod(r[0]);
      if (c == 3 && verify < 0) verify = std::stod(r[0]);
      if (c == 1 && num(ch[i]) == 0xFF && r[1] == kClientIp && connect >= 0 && verify >= 0)
        return (std::stod(r[0]) - connect) * 1000.0;
    }
  }
  return -1;
}

// ENet's other numberings: unreliable/unsequenced commands that never
// arrived are lost at the receiver, resends equal packetsLost, the tick rate
// (30 Hz) and the handshake (CONNECT to the ACK of VERIFY_CONNECT).
inline void checkEnetRunFull(const std::string& dir) {
  const json cj = readJson(dir + "/client.json"), sj = readJson(dir + "/server.json");
  const json aClient = analyze(dir + "/client.pcap"), aServer = analyze(dir + "/server.pcap");
  const json atClient = connection(aClient, "enet");
  const json atServer = connection(aServer, "enet");
  const EnetCommands cmdC = enetCommands(dir + "/client.pcap"), cmdS = enetCommands(dir + "/server.pcap");
  CHECK(std::abs(atClient.at("handshake_ms").get<double>() - enetHandshakeMs(dir + "/client.pcap")) < 0.01);
  CHECK(std::abs(atServer.at("handshake_ms").get<double>() - enetHandshakeMs(dir + "/server.pcap")) < 0.01);
  struct Way {
    const char* name;
    const json& snd;
    const json& at_snd;
    const json& at_rcv;
    const std::string& src;
    const EnetCommands& snd_cmds;
    const EnetCommands& rcv_cmds;
  };
  const Way ways[] = {
      {"client_to_server", cj, atClient, atServer, kClientIp, cmdC, cmdS},
      {"server_to_client", sj, atServer, atClient, kServerIp, cmdS, cmdC},
  };
  for (const Way& w : ways) {
    const json& ds = w.at_snd.at("directions").at(w.name);
    const json& dr = w.at_rcv.at("directions").at(w.name);
    // SEND_UNRELIABLE, SEND_UNSEQUENCED, SEND_UNRELIABLE_FRAGMENT are never resent.
    const uint64_t unrel_sent = count(w.snd_cmds.by_cmd.at(w.src), {7, 9, 12});
    const uint64_t unrel_arrived = count(w.rcv_cmds.by_cmd.at(w.src), {7, 9, 12});
    const uint64_t tellable = enetTellableDrops(
        enetNumbered(dir + "/" + (w.src == kClientIp ? "client" : "server") + ".pcap", w.src),
        enetNumbered(dir + "/" + (w.src == kClientIp ? "server" : "client") + ".pcap", w.src));
    INFO(w.name << ": retransmissions " << u(ds, "retransmissions") << " vs packetsLost "
                << u(w.snd.at("peer"), "packetsLost_final") << "; lost at the receiver " << u(dr, "lost")
                << " vs unreliable commands dropped " << unrel_sent - unrel_arrived << " (" << tellable
                << " followed by a later number of their numbering); sender " << ds.dump() << "\n receiver "
                << dr.dump());
    const uint64_t discResends = enetDisconnectResends(
        enetCopies(dir + "/" + (w.src == kClientIp ? "client" : "server") + ".pcap"), w.src);
    CHECK(u(ds, "retransmissions") - discResends == u(w.snd.at("peer"), "packetsLost_final"));
    // Every drop the numbers reveal, exactly; the committed run has no
    // other (the workload's unreliable channel carries no reliable commands).
    CHECK(u(dr, "lost") == tellable);
    CHECK(unrel_sent - unrel_arrived - tellable <= 2);
    CHECK(u(ds, "lost") == 0);  // the sender's capture has every command it sent
    CHECK(ds.at("tick_hz").get<double>() == 30.0);
    CHECK(dr.at("tick_hz").get<double>() == 30.0);
  }
}

}  // namespace kcpenet
