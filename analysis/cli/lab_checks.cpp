#include "cli/lab_checks.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sstream>

#include "cli/lab_qlog.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace rudp::cli {
namespace {

// The capture's RTT samples are taken where the client sends, like the
// endpoints' own: within the ms rounding of the endpoints' clocks (the
// existing labs' tolerance).
constexpr double kRttToleranceMs = 2.0;
// ENet's roundTripTime and KCP's srtt are smoothed estimates the library
// keeps in whole ms, timed in its service call, which a busy machine runs
// late: CI once saw ENet's lowestRoundTripTime 63 ms where the capture's
// smallest sample (the path) was 60.24, so every sample carried ~2.7 ms of
// the client's own. A matching error (an ack paired with the wrong copy)
// would be off by a whole retransmission timeout, far more.
constexpr double kLibraryRttToleranceMs = 5.0;
// The path's RTT (the smallest sample) may exceed 2 x delay by the peer's
// ack scheduling and the relay's wake-up; it can never be below it.
constexpr double kPathSlackMs = 2.0;
// quic-go's RTT (its qlog) is its own clock's, in float32 ms; the capture's
// is the kernel's at c0, on the same host: the quic_loss runs differed by
// -0.74 to -0.08 ms in min_rtt (tests/kcp_enet/test_quic_analysis.cpp).
constexpr double kQlogRttToleranceMs = 1.0;

double value(const json& j) {
  if (j.is_number()) return j.get<double>();
  return std::nan("");
}

// The first line of a file as JSON (the workloads print one JSON line).
json readJsonFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return json::parse(all.str(), nullptr, /*allow_exceptions=*/false);
}

class Checker {
 public:
  explicit Checker(LabCheckResult& r) : r_(r) {}

  void equal(const std::string& what, double analysis, double counter) { within(what, analysis, counter, 0); }
  void within(const std::string& what, double analysis, double counter, double tolerance) {
    const bool ok = std::abs(analysis - counter) <= tolerance;  // false for NaN
    record(what, analysis, counter, tolerance, ok);
  }
  void between(const std::string& what, double analysis, double low, double high) {
    record(what, analysis, low, high - low, analysis >= low && analysis <= high);
  }

 private:
  void record(const std::string& what, double analysis, double counter, double tolerance, bool ok) {
    auto num = [](double v) { return std::isnan(v) ? json(nullptr) : json(v); };
    r_.checks.push_back({{"what", what},
                         {"analysis", num(analysis)},
                         {"counter", num(counter)},
                         {"tolerance", tolerance},
                         {"ok", ok}});
    if (ok) return;
    r_.pass = false;
    std::ostringstream line;
    line << what << ": analysis " << analysis << ", counter " << counter;
    if (tolerance > 0) line << " (tolerance " << tolerance << ")";
    r_.failures.push_back(line.str());
  }
  LabCheckResult& r_;
};

struct Cell {
  const json& c2s;  // the analysis, per direction
  const json& s2c;
  const json& counters;
  const json& client() const { return counters.at("client"); }
  const json& server() const { return counters.at("server"); }
  double nft(const char* key) const { return value(counters.at("nft").at(key)); }
};

// The path's RTT: the smallest client-to-server RTT sample. (Not TCP's
// handshake: a lost SYN or SYN-ACK adds the kernel's 1 s retransmission.)
double pathRtt(const Cell& x) { return value(x.c2s.at("rtt_ms").at("min")); }

void checkPath(Checker& k, const LabCell& cell, const Cell& x) {
  const json& relay = x.counters.at("relay");
  k.equal("relay: frames it could not queue", value(relay.at("overflow")) + value(relay.at("too_big")), 0);
  k.equal("relay: IPv4 frames still held at exit", value(relay.at("held_ipv4_at_exit")), 0);
  k.equal("relay: sends nftables refused = nft drops", value(relay.at("send_errors")),
          x.nft("drop_c2s") + x.nft("drop_s2c"));
  k.equal("c2s packets = router seen_c2s", value(x.c2s.at("packets")), x.nft("seen_c2s"));
  k.equal("s2c packets = router seen_s2c - drop_s2c", value(x.s2c.at("packets")),
          x.nft("seen_s2c") - x.nft("drop_s2c"));
  k.between(std::string("c2s smallest RTT sample") + " in [2 x delay, + " +
                std::to_string(int(kPathSlackMs)) + " ms]",
            pathRtt(x), 2 * cell.delay_ms, 2 * cell.delay_ms + kPathSlackMs);
}

void checkTcp(Checker& k, const LabCell& cell, const Cell& x) {
  const json& nstat = x.counters.at("nstat-client").at("kernel");
  k.equal("c2s retransmissions = client TcpRetransSegs", value(x.c2s.at("retransmissions")),
          value(nstat.value("TcpRetransSegs", json(0))));
  const std::string cc = cell.stack.substr(4);
  k.equal("client congestion control is " + cc, x.client().value("cc", "") == cc, 1);
  k.equal("server congestion control is " + cc, x.server().value("cc", "") == cc, 1);
  k.equal("client rx_bytes = server tx_bytes", value(x.client().at("rx_bytes")),
          value(x.server().at("tx_bytes")));
  k.equal("server rx_bytes = client tx_bytes", value(x.server().at("rx_bytes")),
          value(x.client().at("tx_bytes")));
  k.equal("rx_errors (both ends)", value(x.client().at("rx_errors")) + value(x.server().at("rx_errors")), 0);
}

// compare_capture.py's RTT statistics: count, min, median_low, max, mean.
void checkGrudpRtt(Checker& k, const json& samples, const json& rtt) {
  std::vector<double> v;
  for (const auto& s : samples) v.push_back(s.at("rtt_ms").get<double>());
  std::sort(v.begin(), v.end());
  k.equal("c2s RTT samples = client's", value(rtt.at("samples")), double(v.size()));
  if (v.empty()) return;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  k.within("c2s RTT min = client's", value(rtt.at("min")), v.front(), kRttToleranceMs);
  k.within("c2s RTT p50 = client's", value(rtt.at("p50")), v[(v.size() - 1) / 2], kRttToleranceMs);
  k.within("c2s RTT max = client's", value(rtt.at("max")), v.back(), kRttToleranceMs);
  k.within("c2s RTT mean = client's", value(rtt.at("mean")), mean, kRttToleranceMs);
}

void checkGrudp(Checker& k, const Cell& x) {
  const json& c = x.client().at("connections").at(0);
  const json& s = x.server().at("connections").at(0);
  // No impairment in the endpoints: the capture at the client has every copy it wrote.
  k.equal("c2s packets = client sent_wire", value(x.c2s.at("packets")), value(c.at("sent_wire").at("total")));
  k.equal("c2s retransmissions = client retransmissions", value(x.c2s.at("retransmissions")),
          value(c.at("retransmissions").at("total")));
  k.equal("s2c packets = client received", value(x.s2c.at("packets")), value(c.at("received").at("total")));
  k.equal("s2c packets = server sent_wire - drop_s2c", value(x.s2c.at("packets")),
          value(s.at("sent_wire").at("total")) - x.nft("drop_s2c"));
  k.equal("client and server closed", c.at("state") == "closed" && s.at("state") == "closed", 1);
  checkGrudpRtt(k, c.at("rtt_samples"), x.c2s.at("rtt_ms"));
}

void checkEnet(Checker& k, const Cell& x, uint64_t disconnectResends) {
  const json& cp = x.client().at("peer");
  k.equal("c2s packets = client totalSentPackets", value(x.c2s.at("packets")),
          value(x.client().at("host").at("totalSentPackets")));
  k.equal("c2s retransmissions - DISCONNECT resends = client packetsLost",
          value(x.c2s.at("retransmissions")) - double(disconnectResends), value(cp.at("packetsLost_final")));
  k.equal("c2s fast retransmissions (ENet has none)", value(x.c2s.at("retransmissions_fast")), 0);
  k.equal("s2c packets = server totalSentPackets - drop_s2c", value(x.s2c.at("packets")),
          value(x.server().at("host").at("totalSentPackets")) - x.nft("drop_s2c"));
  k.within("c2s RTT p50 = client roundTripTime (median per tick)", value(x.c2s.at("rtt_ms").at("p50")),
           value(cp.at("roundTripTime_median_per_tick")), kLibraryRttToleranceMs);
  const json &ca = x.client().at("app"), &sa = x.server().at("app");
  k.equal("reliable messages received = sent (both ways)",
          value(ca.at("recv_reliable")) + value(sa.at("recv_reliable")),
          value(sa.at("sent_reliable")) + value(ca.at("sent_reliable")));
  k.equal("messages received damaged", value(ca.at("recv_bad")) + value(sa.at("recv_bad")), 0);
}

void checkKcp(Checker& k, const Cell& x) {
  const json &cs = x.client().at("snmp"), &ss = x.server().at("snmp");
  k.equal("c2s packets = client OutPkts", value(x.c2s.at("packets")), value(cs.at("OutPkts")));
  k.equal("c2s segments = client OutSegs", value(x.c2s.at("segments")), value(cs.at("OutSegs")));
  k.equal("c2s retransmissions = client RetransSegs", value(x.c2s.at("retransmissions")),
          value(cs.at("RetransSegs")));
  k.equal("c2s fast = client FastRetransSegs + EarlyRetransSegs", value(x.c2s.at("retransmissions_fast")),
          value(cs.at("FastRetransSegs")) + value(cs.at("EarlyRetransSegs")));
  k.equal("c2s timeout = client LostSegs", value(x.c2s.at("retransmissions_timeout")),
          value(cs.at("LostSegs")));
  k.equal("s2c packets = server OutPkts - drop_s2c", value(x.s2c.at("packets")),
          value(ss.at("OutPkts")) - x.nft("drop_s2c"));
  k.equal("s2c segments = client InSegs", value(x.s2c.at("segments")), value(cs.at("InSegs")));
  k.within("c2s RTT p50 = client srtt (median per tick)", value(x.c2s.at("rtt_ms").at("p50")),
           value(x.client().at("session").at("srtt_median_per_tick")), kLibraryRttToleranceMs);
  const json &ca = x.client().at("app"), &sa = x.server().at("app");
  k.equal("messages received = sent (both ways)", value(ca.at("recv_msgs")) + value(sa.at("recv_msgs")),
          value(sa.at("sent_msgs")) + value(ca.at("sent_msgs")));
  k.equal("messages received damaged", value(ca.at("recv_bad")) + value(sa.at("recv_bad")), 0);
}

// UDT's perfmon totals, sampled by each end before it closed.
void checkUdt(Checker& k, const Cell& x) {
  const json& cp = x.client().at("perfmon");
  k.equal("c2s data packets = client pktSentTotal", value(x.c2s.at("data_packets")),
          value(cp.at("pktSentTotal")));
  k.equal("c2s retransmissions = client pktRetransTotal", value(x.c2s.at("retransmissions")),
          value(cp.at("pktRetransTotal")));
  k.within("c2s RTT p50 = client msRTT (smoothed)", value(x.c2s.at("rtt_ms").at("p50")),
           value(cp.at("msRTT")), kLibraryRttToleranceMs);
  k.equal("messages received = sent (both ways)",
          value(x.client().at("received")) + value(x.server().at("received")),
          value(x.server().at("sent")) + value(x.client().at("sent")));
}

// quic-go's qlog of the client (lab_qlog.h). Where quic-go departs from
// RFC 9002: when its PTO fires it gives the oldest outstanding packet up
// before each of its two probes (QueueProbePacket), without a packet_lost
// and without keeping it. An ACK naming such a packet as its largest takes
// no RTT sample in quic-go and one in the analysis (RFC 9002: the packet was
// in flight); a given-up packet the analysis's thresholds declare lost is
// not in the qlog's packet_lost, one acked later is lost in neither. The
// analysis's "lost" leaves out losses an ACK later proved spurious; so does
// the figure it is compared with.
void checkQuic(Checker& k, const Cell& x) {
  const json& q = x.counters.at("qlog-client");
  k.equal("c2s RTT samples = client qlog's RTT updates (+ ACKs of packets its PTO gave up)",
          value(x.c2s.at("rtt_ms").at("samples")),
          value(q.at("rtt_updates")) + value(q.at("pto_given_up_acked_largest")));
  k.within("c2s RTT min = client qlog's min_rtt", value(x.c2s.at("rtt_ms").at("min")),
           value(q.at("min_rtt_ms")), kQlogRttToleranceMs);
  const double lost = value(q.at("packets_lost")) - value(q.at("packets_lost_spurious"));
  k.between("c2s lost = client qlog's packet_lost not acked later (+ packets its PTO gave up)",
            value(x.c2s.at("lost")), lost, lost + value(q.at("pto_given_up")));
  k.equal("c2s retransmissions = client qlog's STREAM frames resent", value(x.c2s.at("retransmissions")),
          value(q.at("stream_resends")));
  const json &ca = x.client().at("events"), &sa = x.server().at("events");
  k.equal("events received = sent (both ways)", value(ca.at("recv")) + value(sa.at("recv")),
          value(sa.at("sent")) + value(ca.at("sent")));
  k.equal("client connected, TLS 1.3 with DATAGRAM support",
          x.client().at("connected") == true && x.client().at("tls").at("used_datagrams") == true, 1);
}

// The RakNet binding exposes no statistics: the messages delivered, and the
// connection kept.
void checkRaknet(Checker& k, const Cell& x) {
  double sent = 0, received = 0;
  for (const char* kind : {"input", "event", "blob"})  // the reliable ones
    for (const json* end : {&x.client(), &x.server()}) {
      sent += value(end->at("app").at("sent").at(kind));
      received += value(end->at("app").at("recv").at(kind));
    }
  k.equal("reliable messages received = sent (both ways)", received, sent);
  k.equal("client connected and never lost the connection",
          x.client().at("connected") == true && x.client().at("lost_connection") == false, 1);
}

// The stack's connection: exactly one (KCP: the one with a conv).
const json* stackConnection(const json& connections, const std::string& protocol) {
  const json* found = nullptr;
  int n = 0;
  for (const auto& c : connections)
    if (c.value("protocol", "") == protocol && (protocol != "kcp" || !c.at("conn_id").is_null())) {
      found = &c;
      ++n;
    }
  return n == 1 ? found : nullptr;
}

void addFigures(LabCheckResult& r, const Cell& x) {
  const json& rtt = x.c2s.at("rtt_ms");
  r.figures = {{"path_rtt_ms", pathRtt(x)},
               {"c2s_rtt_min_ms", rtt.at("min")},
               {"c2s_rtt_p50_ms", rtt.at("p50")},
               {"c2s_rtt_p95_ms", rtt.at("p95")},
               {"c2s_packets", x.c2s.at("packets")},
               {"c2s_retransmissions", x.c2s.at("retransmissions")},
               {"s2c_retransmissions", x.s2c.at("retransmissions")},
               {"drop_c2s", x.nft("drop_c2s")},
               {"drop_s2c", x.nft("drop_s2c")}};
}

}  // namespace

std::string labProtocol(const std::string& stack) {
  if (stack.rfind("tcp-", 0) == 0) return "tcp";
  if (stack == "raknet") return "raknet4";  // the dissectors' names: Wireshark owns raknet and udt
  if (stack == "udt") return "udt4";
  return stack;
}

json readLabCounters(const std::string& countersDir) {
  json all = json::object();
  for (const char* stem : {"client", "server", "nft", "relay", "nstat-client", "nstat-server"}) {
    const fs::path p = fs::path(countersDir) / (std::string(stem) + ".json");
    if (fs::exists(p)) all[stem] = readJsonFile(p);
  }
  if (!fs::is_directory(countersDir)) return all;
  for (const auto& e : fs::directory_iterator(countersDir))  // quic-go: <odcid>_client.sqlog
    for (const std::string side : {"client", "server"})
      if (e.path().filename().string().ends_with("_" + side + ".sqlog"))
        all["qlog-" + side] = summariseQlog(e.path().string());
  return all;
}

LabCheckResult checkLabCell(const LabCell& cell, const json& counters, const json& connections,
                            uint64_t enetDisconnectResends) {
  LabCheckResult r;
  Checker k(r);
  const json* conn = stackConnection(connections, labProtocol(cell.stack));
  k.equal("connections of " + labProtocol(cell.stack) + " in the capture", conn ? 1 : 0, 1);
  if (!conn) return r;
  try {
    const Cell x{conn->at("directions").at("client_to_server"), conn->at("directions").at("server_to_client"),
                 counters};
    addFigures(r, x);
    checkPath(k, cell, x);
    if (labProtocol(cell.stack) == "tcp") checkTcp(k, cell, x);
    if (cell.stack == "grudp") checkGrudp(k, x);
    if (cell.stack == "enet") checkEnet(k, x, enetDisconnectResends);
    if (cell.stack == "kcp") checkKcp(k, x);
    if (cell.stack == "udt") checkUdt(k, x);
    if (cell.stack == "raknet") checkRaknet(k, x);
    if (cell.stack == "quic") checkQuic(k, x);
  } catch (const json::exception& e) { k.equal(std::string("counters readable (") + e.what() + ")", 0, 1); }
  return r;
}

}  // namespace rudp::cli
