// The checks of a TCP lab run (tests/netns/tcp_lab.sh) against the kernel's
// own counters, shared by the live lab test (test_tcp_lab.cpp) and the
// committed runs (test_tcp_lab_data.cpp). See test_tcp_lab.cpp and README.md.
#pragma once
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

namespace fs = std::filesystem;
using nlohmann::json;

#include "process.h"
#include "tcp_lab_hol.h"
#include "tcp_lab_pcap.h"

namespace tcplab {

using Proc = rudp::test::ProcessResult;
using rudp::test::run;

// --------------------------------------------- the simple retransmission rule
// Per direction: the union of sequence ranges seen so far (relative to the
// direction's first sequence number); a segment carrying data, SYN or FIN
// whose whole range is already in the union is a retransmission.
struct SimpleResult {
  std::set<uint32_t> retrans;            // frame numbers
  std::map<uint32_t, int64_t> relStart;  // frame -> relative start of its range
  std::map<uint32_t, int64_t> relEnd;
};

// Only segments from `sip` (one direction) are considered.
inline SimpleResult simpleRetrans(const std::vector<Seg>& segs, uint32_t sip) {
  SimpleResult r;
  SeqUnion seen;
  bool haveBase = false;
  uint32_t base = 0;
  for (const auto& s : segs) {
    if (s.sip != sip || s.rst()) continue;
    if (!haveBase) {
      base = s.seq;
      haveBase = true;
    }
    int64_t a = int32_t(s.seq - base);
    int64_t b = a + s.seqSpace();
    r.relStart[s.frame] = a;
    r.relEnd[s.frame] = b;
    if (s.seqSpace() == 0) continue;  // pure ACK, window update, probe
    if (seen.covers(a, b)) r.retrans.insert(s.frame);
    seen.add(a, b);
  }
  return r;
}

// ------------------------------------------------------------- tshark labels
inline const std::vector<std::string> kLabels = {"retransmission", "fast_retransmission",
                                                 "spurious_retransmission", "out_of_order", "lost_segment"};

// label -> frames, for the frames sent from `sport`.
inline std::map<std::string, std::set<uint32_t>> tsharkLabels(const std::string& cap) {
  std::map<std::string, std::set<uint32_t>> out;
  for (const auto& l : kLabels) {
    auto r = run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-Y", "tcp.analysis." + l, "-T", "fields", "-e",
                  "frame.number"});
    REQUIRE(r.status == 0);
    auto& set = out[l];
    std::istringstream in(r.out);
    uint32_t n;
    while (in >> n) set.insert(n);
  }
  return out;
}

// Our seq/ack RTT samples (rtt_samples, source tcp_ack) against tshark's
// tcp.analysis.ack_rtt on the same capture, for the data sent from `dataIp`
// in direction `dir` (0 client->server). Every sample of ours must be one
// tshark also takes: the same ACK frame, the same acked data frame, the same
// value. tshark takes more: each extra one is classified as
//  - karn: the ACK covers a range in which a segment was sent twice (a
//    simple retransmission, or a hole below the highest seq filled later),
//    where Karn's rule takes no sample because the ACK may answer either copy;
//  - handshake: the ACK of a SYN (we time the handshake separately);
//  - unexplained: neither (the test requires none).
struct AckRttCompare {
  size_t ours = 0, tshark = 0, identical = 0, karn = 0, handshake = 0, unexplained = 0;
  double tsharkMin = 0, tsharkP50 = 0, tsharkMax = 0;  // tshark's samples, ms
  std::set<uint32_t> unexplainedFrames, mismatchFrames;
  std::string mismatchDetail;
  json toJson() const {
    return {{"ours", ours},
            {"tshark", tshark},
            {"identical", identical},
            {"tshark_only_karn", karn},
            {"tshark_only_handshake", handshake},
            {"tshark_only_unexplained", unexplained}};
  }
};
inline AckRttCompare compareAckRtt(const std::string& cap, const std::string& db, int dir,
                                   const std::vector<Seg>& segs, uint32_t dataIp,
                                   const std::string& dataIpStr) {
  AckRttCompare c;
  struct Sample {
    uint32_t data_frame;
    double ms;
  };
  std::map<uint32_t, Sample> ts, ours;
  auto t = run({TSHARK_EXECUTABLE, "-n", "-r", cap, "-o", "tcp.relative_sequence_numbers:FALSE", "-Y",
                "tcp.analysis.ack_rtt and ip.dst == " + dataIpStr, "-T", "fields", "-e", "frame.number", "-e",
                "tcp.analysis.acks_frame", "-e", "tcp.analysis.ack_rtt"});
  REQUIRE(t.status == 0);
  std::istringstream tin(t.out);
  for (uint32_t f, a; tin >> f >> a;) {
    double sec;
    tin >> sec;
    ts[f] = {a, sec * 1000};
  }
  auto o =
      run({"sqlite3", "-separator", " ", db,
           "SELECT r.frame, r.data_frame, r.rtt_ms FROM rtt_samples r JOIN rtt_source s ON s.id = r.source"
           " WHERE s.name = 'tcp_ack' AND r.dir = " +
               std::to_string(dir)});
  REQUIRE(o.status == 0);
  std::istringstream oin(o.out);
  for (uint32_t f, a; oin >> f >> a;) {
    double ms;
    oin >> ms;
    ours[f] = {a, ms};
  }
  c.ours = ours.size();
  c.tshark = ts.size();
  if (!ts.empty()) {
    std::vector<double> v;
    for (const auto& [f, smp] : ts) v.push_back(smp.ms);
    std::sort(v.begin(), v.end());
    c.tsharkMin = v.front();
    c.tsharkP50 = v[v.size() / 2];
    c.tsharkMax = v.back();
  }
  for (const auto& [f, smp] : ours) {
    auto it = ts.find(f);
    if (it != ts.end() && it->second.data_frame == smp.data_frame &&
        std::abs(it->second.ms - smp.ms) < 0.0015)
      ++c.identical;
    else {
      c.mismatchFrames.insert(f);
      std::ostringstream m;
      m << " [ack frame " << f << ": ours data frame " << smp.data_frame << " " << smp.ms << " ms, tshark ";
      if (it == ts.end())
        m << "none";
      else
        m << "data frame " << it->second.data_frame << " " << it->second.ms << " ms";
      c.mismatchDetail += m.str() + "]";
    }
  }
  // For the tshark-only samples: the data segments sent twice (a range seen
  // before, or starting below the highest seq sent or announced before it), and the
  // acker's highest ack before each ACK.
  std::map<uint32_t, const Seg*> byFrame;
  std::set<uint32_t> twice;
  {
    SeqUnion seen;
    bool haveBase = false, haveHigh = false;
    uint32_t base = 0, high = 0;
    for (const auto& sg : segs) {
      byFrame[sg.frame] = &sg;
      if (sg.sip != dataIp || sg.rst()) continue;
      if (sg.seqSpace() == 0) {
        // A pure ACK carries the next seq its sender will use: data below it
        // that arrives later is a retransmission (its first copy was lost).
        if (haveHigh && int32_t(sg.seq - high) > 0) high = sg.seq;
        continue;
      }
      if (!haveBase) {
        base = sg.seq;
        haveBase = true;
      }
      const int64_t a = int32_t(sg.seq - base), b = a + sg.seqSpace();
      if (seen.covers(a, b) || (haveHigh && int32_t(sg.seq - high) < 0)) twice.insert(sg.frame);
      seen.add(a, b);
      if (!haveHigh || int32_t(sg.seq + sg.seqSpace() - high) > 0) {
        high = sg.seq + sg.seqSpace();
        haveHigh = true;
      }
    }
  }
  for (const auto& [f, smp] : ts) {
    if (ours.count(f)) continue;
    const Seg* acked = byFrame.count(smp.data_frame) ? byFrame[smp.data_frame] : nullptr;
    const Seg* ackSeg = byFrame.count(f) ? byFrame[f] : nullptr;
    if (acked && acked->syn()) {
      ++c.handshake;
      continue;
    }
    // Karn: tshark timed a copy that was sent twice (a duplicate ACK answering
    // a retransmission included), or the ACK covers such a copy.
    bool karn = twice.count(smp.data_frame) > 0, havePrev = false;
    uint32_t prev = 0;
    for (const auto& sg : segs) {
      if (sg.frame >= f) break;
      if (sg.dip == dataIp && (sg.flags & 0x10) && (!havePrev || int32_t(sg.ack - prev) > 0)) {
        prev = sg.ack;
        havePrev = true;
      }
    }
    if (!karn && ackSeg && havePrev)
      for (uint32_t t : twice) {
        const Seg* sg = byFrame[t];
        if (t >= f) break;
        if (int32_t(sg->seq + sg->seqSpace() - prev) > 0 && int32_t(sg->seq - ackSeg->ack) < 0) karn = true;
      }
    if (karn)
      ++c.karn;
    else {
      ++c.unexplained;
      c.unexplainedFrames.insert(f);
    }
  }
  return c;
}

inline std::string framesList(const std::set<uint32_t>& s, size_t max = 12) {
  std::string out;
  size_t i = 0;
  for (auto f : s) {
    if (i++ == max) {
      out += " ...";
      break;
    }
    out += (out.empty() ? "" : " ") + std::to_string(f);
  }
  return out.empty() ? "-" : out;
}

inline std::set<uint32_t> operator&(const std::set<uint32_t>& a, const std::set<uint32_t>& b) {
  std::set<uint32_t> r;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
  return r;
}
inline std::set<uint32_t> operator-(const std::set<uint32_t>& a, const std::set<uint32_t>& b) {
  std::set<uint32_t> r;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::inserter(r, r.end()));
  return r;
}
inline std::set<uint32_t> operator|(std::set<uint32_t> a, const std::set<uint32_t>& b) {
  a.insert(b.begin(), b.end());
  return a;
}

// ------------------------------------------------------------------ one cell
struct Cell {
  std::string name;
  double loss;  // percent, both directions
  bool nagle;
  std::string dropAt = "router";  // "endpoints" for topology "direct"
  int duration = 12;
  std::string topology = "routed";  // or "direct": two namespaces on one veth pair (a LAN)
};

inline const char* kDirs[2] = {"client_to_server", "server_to_client"};

// Checks the run in `dir` (client.pcap, server.pcap, truth.json); writes
// client.sqlite, server.sqlite and results.json there.
inline void checkCell(const Cell& cell, const fs::path& dir) {
  json truth = json::parse(std::ifstream(dir / "truth.json"));
  const std::string clientIp = truth["config"]["client"];
  const std::string serverAddr = truth["config"]["server"];
  const std::string serverIp = serverAddr.substr(0, serverAddr.find(':'));
  const uint32_t cip = ipv4(clientIp), sip = ipv4(serverIp);
  const bool router = cell.dropAt == "router";

  // ---- (a) the truth is sane
  const auto& wl = truth["workload"];
  CHECK(wl["client_exit"] == 0);
  CHECK(wl["server_exit"] == 0);
  CHECK(wl["client"]["rx_bytes"] == wl["server"]["tx_bytes"]);
  CHECK(wl["server"]["rx_bytes"] == wl["client"]["tx_bytes"]);
  CHECK(truth["captures"]["client"]["pcap_dropped"] == 0);
  CHECK(truth["captures"]["server"]["pcap_dropped"] == 0);

  std::vector<Seg> capClient = readPcap((dir / "client.pcap").string());
  std::vector<Seg> capServer = readPcap((dir / "server.pcap").string());

  json results;
  results["cell"] = {{"name", cell.name},      {"loss_percent", cell.loss}, {"nagle", cell.nagle},
                     {"drop_at", cell.dropAt}, {"topology", cell.topology}, {"duration_s", cell.duration}};
  std::ostringstream report;
  report << "\n=== " << cell.name << " (loss " << cell.loss << "%, nagle " << (cell.nagle ? "on" : "off")
         << ", drop at " << cell.dropAt << ", " << cell.duration << " s, cc "
         << truth["config"]["congestion_control"].get<std::string>() << ")\n";

  auto tsClient = tsharkLabels((dir / "client.pcap").string());
  auto tsServer = tsharkLabels((dir / "server.pcap").string());

  // Analyzer output, when the CLI runs on these files.
  json cliOut[2];  // [0] client capture, [1] server capture
  for (int i = 0; i < 2; ++i) {
    std::string cap = (dir / (i == 0 ? "client.pcap" : "server.pcap")).string();
    auto r = run({RUDPSCOPE_CLI, "analyze", cap, "--db",
                  (dir / (i == 0 ? "client.sqlite" : "server.sqlite")).string(), "--json", "-q"});
    INFO("rudpscope-cli analyze " << cap << ": " << r.err);
    CHECK(r.status == 0);
    if (r.status == 0) cliOut[i] = json::parse(r.out, nullptr, false);
  }
  auto cliDirection = [&](int capIdx, const char* dirName) -> const json* {
    const json& j = cliOut[capIdx];
    if (!j.is_object() || !j.contains("connections")) return nullptr;
    for (const auto& c : j["connections"])
      if (c.value("protocol", "") == "tcp" && c.value("server", "") == serverAddr &&
          c.contains("directions") && c["directions"].contains(dirName))
        return &c["directions"][dirName];
    return nullptr;
  };

  for (int d = 0; d < 2; ++d) {
    const char* dn = kDirs[d];
    const json& td = truth["directions"][dn];
    const int64_t retransSegs = td["TcpRetransSegs"];
    const int64_t dropped = td["dropped"];
    const uint32_t from = d == 0 ? cip : sip;
    // Sender's own capture and the receiver's capture for this direction.
    const auto& sndCap = d == 0 ? capClient : capServer;
    const auto& rcvCap = d == 0 ? capServer : capClient;
    const auto& sndTs = d == 0 ? tsClient : tsServer;
    const auto& rcvTs = d == 0 ? tsServer : tsClient;
    const int sndIdx = d == 0 ? 0 : 1, rcvIdx = 1 - sndIdx;
    const std::string sndName = d == 0 ? "client.pcap" : "server.pcap";
    const std::string rcvName = d == 0 ? "server.pcap" : "client.pcap";
    INFO("direction " << dn << ", results in " << dir.string());

    // (a) 0% loss: nothing dropped and nothing retransmitted, exactly.
    if (cell.loss == 0) {
      CHECK(dropped == 0);
      CHECK(retransSegs == 0);
    } else {
      CHECK(dropped > 0);
    }

    // Frame-for-frame: which of the sender's frames reached the receiver's
    // capture (same IP id, seq, ack, flags, length and TSval).
    std::vector<const Seg*> snd, rcv;
    for (const auto& s : sndCap)
      if (s.sip == from) snd.push_back(&s);
    for (const auto& s : rcvCap)
      if (s.sip == from) rcv.push_back(&s);
    std::multimap<decltype(Seg{}.key()), const Seg*> rcvByKey;
    for (auto* s : rcv) rcvByKey.emplace(s->key(), s);
    std::map<uint32_t, uint32_t> sndToRcv;  // sender frame -> receiver frame
    size_t missing = 0;
    for (auto* s : snd) {
      auto it = rcvByKey.find(s->key());
      if (it == rcvByKey.end()) {
        ++missing;
        continue;
      }
      sndToRcv[s->frame] = it->second->frame;
      rcvByKey.erase(it);
    }
    CHECK(rcvByKey.empty());  // the receiver saw nothing the sender did not send
    if (cell.topology == "routed") CHECK(td["router_seen"] == int64_t(snd.size()));
    if (router)
      CHECK(int64_t(missing) == dropped);  // lost exactly where nft dropped
    else
      CHECK(missing == 0);  // input-hook drops happen after the capture tap

    // (b) the simple count.
    SimpleResult simpleSnd = simpleRetrans(sndCap, from);
    SimpleResult simpleRcv = simpleRetrans(rcvCap, from);
    CHECK(int64_t(simpleSnd.retrans.size()) == retransSegs);
    if (!router) CHECK(int64_t(simpleRcv.retrans.size()) == retransSegs);

    // Truth at the receiver: which retransmissions reached it, and which of
    // those arrived with no earlier copy of their data, in order, so nothing
    // in the receiver's capture marks them (no hole filled, no duplicate).
    std::set<uint32_t> reachedRcvFrames;  // receiver frame numbers of true retransmissions
    for (auto f : simpleSnd.retrans)
      if (sndToRcv.count(f)) reachedRcvFrames.insert(sndToRcv[f]);
    std::set<uint32_t> invisible;
    {
      int64_t highest = INT64_MIN;
      for (auto* s : rcv) {
        int64_t a = simpleRcv.relStart[s->frame], b = simpleRcv.relEnd[s->frame];
        if (s->seqSpace() && reachedRcvFrames.count(s->frame) && !simpleRcv.retrans.count(s->frame) &&
            a >= highest)
          invisible.insert(s->frame);
        highest = std::max(highest, b);
      }
    }
    // Truly spurious retransmissions: every earlier copy of the range had
    // already reached the receiver's capture point (router mode) -- the
    // receiver already had the data. Frame numbers in the sender's capture.
    // Unknown when the receiver's input hook drops (after its capture tap).
    std::set<uint32_t> spuriousSnd;
    if (router) {
      SeqUnion arrived;
      bool haveBase = false;
      uint32_t base = 0;
      for (auto* s : snd) {
        if (!haveBase) {
          base = s->seq;
          haveBase = true;
        }
        if (!s->seqSpace() || s->rst()) continue;
        int64_t a = int32_t(s->seq - base), b = a + s->seqSpace();
        if (simpleSnd.retrans.count(s->frame) && arrived.covers(a, b)) spuriousSnd.insert(s->frame);
        if (sndToRcv.count(s->frame)) arrived.add(a, b);
      }
    }
    // Data segments lost between the two capture points, their bursts (runs
    // of consecutive lost data segments in the sender's order), and real
    // reordering on the path: data frames arriving after a frame the sender
    // sent later. Unknown (null) for losses at the receiver's input hook.
    int64_t lostData = 0;
    std::map<int, int64_t> lossBursts;
    {
      int run = 0;
      for (auto* s : snd) {
        if (!s->seqSpace()) continue;
        if (!sndToRcv.count(s->frame)) {
          ++lostData;
          ++run;
          continue;
        }
        if (run) lossBursts[run]++;
        run = 0;
      }
      if (run) lossBursts[run]++;
    }
    int64_t reorderedTrue = 0;
    {
      std::map<uint32_t, size_t> sndPos;
      for (size_t i = 0; i < snd.size(); ++i)
        if (sndToRcv.count(snd[i]->frame)) sndPos[sndToRcv[snd[i]->frame]] = i;
      size_t maxPos = 0;
      bool any = false;
      for (auto* s : rcv) {
        size_t pos = sndPos[s->frame];
        if (s->seqSpace() && any && pos < maxPos) ++reorderedTrue;
        if (!any || pos > maxPos) maxPos = pos;
        any = true;
      }
    }
    json lossBurstsJ = json::object();
    for (auto [len, n] : lossBursts) lossBurstsJ[std::to_string(len)] = n;

    std::set<uint32_t> spuriousRcv;
    for (auto f : spuriousSnd)
      if (sndToRcv.count(f)) spuriousRcv.insert(sndToRcv[f]);

    // tshark, restricted to this direction's frames.
    auto only = [](const std::set<uint32_t>& labels, const std::vector<const Seg*>& frames) {
      std::set<uint32_t> all;
      for (auto* s : frames) all.insert(s->frame);
      return labels & all;
    };
    auto tsAt = [&](const std::map<std::string, std::set<uint32_t>>& ts,
                    const std::vector<const Seg*>& frames,
                    const std::string& l) { return only(ts.at(l), frames); };
    json jd;
    jd["truth"] = {{"TcpRetransSegs", retransSegs},
                   {"dropped", dropped},
                   {"sender_frames", snd.size()},
                   {"receiver_frames", rcv.size()},
                   {"retrans_reached_receiver", reachedRcvFrames.size()},
                   {"retrans_reached_invisible_in_order", invisible.size()},
                   {"retrans_spurious", router ? json(spuriousSnd.size()) : json(nullptr)},
                   {"lost_data_segments", router ? json(lostData) : json(nullptr)},
                   {"loss_bursts", router ? lossBurstsJ : json(nullptr)},
                   {"reordered", reorderedTrue},
                   {"tcpi_total_retrans", wl[d == 0 ? "client" : "server"]["tcpi_total_retrans"]},
                   {"kernel", td["sender_nstat_delta"]}};
    report << "  " << dn << ": TcpRetransSegs " << retransSegs << " (fast "
           << td["sender_nstat_delta"]["TcpExtTCPFastRetrans"] << ", slow-start "
           << td["sender_nstat_delta"]["TcpExtTCPSlowStartRetrans"] << ", timeouts "
           << td["sender_nstat_delta"]["TcpExtTCPTimeouts"] << ", loss probes "
           << td["sender_nstat_delta"]["TcpExtTCPLossProbes"] << ", syn "
           << td["sender_nstat_delta"]["TcpExtTCPSynRetrans"] << ", DSACKs received "
           << td["sender_nstat_delta"]["TcpExtTCPDSACKRecv"] << "), nft dropped " << dropped
           << ", frames sent " << snd.size() << ", reached " << rcv.size()
           << "; retransmissions reaching the receiver " << reachedRcvFrames.size() << " ("
           << invisible.size() << " in order with no earlier copy there), truly spurious "
           << spuriousSnd.size() << ", lost data segments " << (router ? std::to_string(lostData) : "?")
           << " in bursts " << lossBurstsJ.dump() << ", reordered " << reorderedTrue << "\n";
    CHECK(reorderedTrue == 0);  // one FIFO path: the lab itself never reorders

    for (int at = 0; at < 2; ++at) {  // 0: sender's capture, 1: receiver's capture
      const bool atSender = at == 0;
      const auto& frames = atSender ? snd : rcv;
      const auto& ts = atSender ? sndTs : rcvTs;
      const auto& simple = atSender ? simpleSnd.retrans : simpleRcv.retrans;
      // The true retransmissions present in this capture (frame numbers).
      const std::set<uint32_t> trueRetr = atSender ? simpleSnd.retrans : reachedRcvFrames;
      const std::set<uint32_t> trueSpur = atSender ? spuriousSnd : spuriousRcv;
      auto tRetr = tsAt(ts, frames, "retransmission");
      auto tFast = tsAt(ts, frames, "fast_retransmission");
      auto tSpur = tsAt(ts, frames, "spurious_retransmission");
      auto tOoo = tsAt(ts, frames, "out_of_order");
      auto tLost = tsAt(ts, frames, "lost_segment");
      auto tAny = tRetr | tFast | tSpur;
      json jc = {{"capture", atSender ? sndName : rcvName},
                 {"vantage", atSender ? "sender" : "receiver"},
                 {"simple_count", simple.size()},
                 {"true_retransmissions_present", trueRetr.size()},
                 {"tshark_retransmission", tRetr.size()},
                 {"tshark_fast_retransmission", tFast.size()},
                 {"tshark_spurious_retransmission", tSpur.size()},
                 {"tshark_out_of_order", tOoo.size()},
                 {"tshark_lost_segment", tLost.size()},
                 {"true_retrans_tshark_calls_out_of_order", (trueRetr & tOoo).size()},
                 {"true_retrans_tshark_unlabelled", (trueRetr - tAny - tOoo).size()},
                 {"tshark_retrans_not_true", (tAny - trueRetr).size()},
                 {"tshark_ooo_not_retrans", (tOoo - trueRetr).size()},
                 {"true_spurious", trueSpur.size()},
                 {"tshark_spurious_truly_spurious", (tSpur & trueSpur).size()},
                 {"fast_flag_without_retransmission_flag", (tFast - tRetr).size()},
                 {"spurious_flag_without_retransmission_flag", (tSpur - tRetr).size()}};
      // Our simple rule never calls anything a retransmission that is not one.
      CHECK((simple - trueRetr).empty());
      report << "    at " << (atSender ? "sender  " : "receiver") << " (" << jc["capture"].get<std::string>()
             << "): simple " << simple.size() << ", true present " << trueRetr.size() << "; tshark retrans "
             << tRetr.size() << " fast " << tFast.size() << " spurious " << tSpur.size() << " ooo "
             << tOoo.size() << " lost_segment " << tLost.size() << " | true retrans tshark calls ooo "
             << (trueRetr & tOoo).size() << " [" << framesList(trueRetr & tOoo) << "], unlabelled "
             << (trueRetr - tAny - tOoo).size() << " [" << framesList(trueRetr - tAny - tOoo)
             << "], tshark retrans not true " << (tAny - trueRetr).size() << " ["
             << framesList(tAny - trueRetr) << "], tshark spurious " << tSpur.size()
             << " of which truly spurious " << (tSpur & trueSpur).size() << " (true spurious "
             << trueSpur.size() << ")\n";

      // (c) the analyzer, when wired.
      const json* cd = cliDirection(atSender ? sndIdx : rcvIdx, dn);
      if (cd && cd->contains("retransmissions")) {
        int64_t ours = (*cd)["retransmissions"];
        json mine = json::object();
        for (const char* k : {"retransmissions", "retransmissions_fast", "retransmissions_timeout",
                              "retransmissions_spurious", "lost", "loss_bursts", "reordered", "duplicates",
                              "network_duplicates"})
          if (cd->contains(k)) mine[k] = (*cd)[k];
        jc["rudpscope"] = mine;
        report << "      rudpscope: " << mine.dump() << "\n";
        // The lab's single FIFO path never reorders: a copy filling a hole
        // must not be taken for reordering. Receiver-side loss is reported
        // only: a segment lost twice is one hole the receiver sees once.
        CHECK(mine["reordered"] == reorderedTrue);
        if (!atSender && router && mine.contains("lost") && mine["lost"] != lostData)
          WARN(dn << " at receiver: rudpscope lost " << mine["lost"] << ", truth (data segments "
                  << "dropped before the capture) " << lostData);
        // At the receiver a copy is spurious when the receiver had acked
        // its bytes before it came: truly spurious, since the copies
        // before it had arrived (known only when the router drops).
        if (!atSender && router) CHECK(mine["retransmissions_spurious"] == trueSpur.size());
        if (atSender || !router) {
          CHECK(ours == retransSegs);  // the capture saw every copy the sender sent
          // Fast = Linux's TCPFastRetrans (SACK/RACK loss detection, also
          // after a tail loss probe); the rest are RTOs and probes that
          // resend the last segment.
          CHECK(mine["retransmissions_fast"] == td["sender_nstat_delta"]["TcpExtTCPFastRetrans"]);
        } else {
          // Every retransmission that reached the capture must be found,
          // except those that arrived in order with no earlier copy (nothing
          // in the capture distinguishes them from an original); none may be
          // invented.
          CHECK(ours >= int64_t(trueRetr.size() - invisible.size()));
          CHECK(ours <= int64_t(trueRetr.size()));
        }
      } else {
        jc["rudpscope"] = nullptr;
      }
      jd[atSender ? "at_sender" : "at_receiver"] = jc;
    }

    // HOL blocking at the receiver, where its capture is what its stack got.
    if (router) {
      const fs::path readsPath = dir / (d == 0 ? "reads-server.txt" : "reads-client.txt");
      const bool haveReads = fs::exists(readsPath);
      const HolTruth hol =
          holTruth(rcvCap, from, haveReads ? readAppReads(readsPath.string()) : std::vector<AppRead>{});
      // The receiver's namespace counters are recorded with the other direction (it sends that one).
      json kernel = {{"TcpExtTCPOFOQueue",
                      truth["directions"][kDirs[1 - d]]["sender_nstat_delta"]["TcpExtTCPOFOQueue"]}};
      const json& receiverWorkload = wl[d == 0 ? "server" : "client"];
      if (receiverWorkload.contains("tcpi_rcv_ooopack"))
        kernel["tcpi_rcv_ooopack"] = receiverWorkload["tcpi_rcv_ooopack"];
      const json* atReceiver = cliDirection(rcvIdx, dn);
      REQUIRE(atReceiver);
      jd["hol_at_receiver"] = checkHolAtReceiver(hol, *atReceiver, kernel, haveReads, report);
    }

    // tshark's ack_rtt for this direction's data (ACKs come from the receiver),
    // and sample by sample against ours.
    for (int at = 0; at < 2; ++at) {
      std::string cap = (dir / (at == 0 ? sndName : rcvName)).string();
      const char* where = at == 0 ? "at_sender" : "at_receiver";
      const std::string db =
          (dir / (cap.find("client") != std::string::npos ? "client.sqlite" : "server.sqlite")).string();
      AckRttCompare cmp =
          compareAckRtt(cap, db, d, at == 0 ? sndCap : rcvCap, from, d == 0 ? clientIp : serverIp);
      jd[where]["tshark_ack_rtt_ms"] = {
          {"samples", cmp.tshark}, {"min", cmp.tsharkMin}, {"p50", cmp.tsharkP50}, {"max", cmp.tsharkMax}};
      jd[where]["ack_rtt_vs_tshark"] = cmp.toJson();
      report << "    " << where << " ack RTT vs tshark ack_rtt: " << cmp.toJson().dump() << "\n";
      INFO(where << ": samples of ours tshark does not take or times differently: "
                 << framesList(cmp.mismatchFrames) << cmp.mismatchDetail
                 << "; tshark-only samples not explained by Karn's rule: "
                 << framesList(cmp.unexplainedFrames));
      CHECK(cmp.identical == cmp.ours);
      CHECK(cmp.unexplained == 0);
    }
    jd["kernel_srtt_ms"] = wl[d == 0 ? "client" : "server"]["tcpi_rtt_us"].get<double>() / 1000.0;
    results["directions"][dn] = jd;
  }

  const json* c2s = cliDirection(0, "client_to_server");
  if (!c2s || !c2s->contains("retransmissions"))
    WARN(
        "rudpscope-cli analyze --json has no TCP `retransmissions` yet: comparison with the "
        "kernel truth not wired (checked: truth sanity and the simple count only)");

  std::ofstream(dir / "results.json") << results.dump(2) << "\n";
  std::cout << report.str() << std::flush;
}

}  // namespace tcplab
