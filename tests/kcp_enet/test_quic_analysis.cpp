// The QUIC analyzer (analyzers/quic_analyzer.h) on captures of the real
// quic-go (v0.65.0, lab.sh --proto quic), against the endpoints' own qlog:
// each endpoint's capture read as that endpoint reads its traffic gives its
// RTT estimator after every sample and the packets it declared lost.
//
// Where quic-go departs from RFC 9002 (the analyzer follows the RFC):
// - its latest_rtt is the sample after the ACK delay is taken off (the RFC's
//   latest_rtt is the raw one and only the smoothing uses the adjusted one);
//   compared here as quic-go logs it;
// - it computes in float32 microseconds (hence the 0.2 ms tolerance, which
//   also holds the capture's few microseconds from the endpoint's clock);
// - it skips a sample whose largest acknowledged packet was sent before the
//   previous sample's (never met in these runs: checked by the equal counts);
// - after a PTO it declares the oldest outstanding packet lost without a
//   packet_lost event: such packets' resends count as timeouts here.
#include <fstream>
#include <set>

#include "analyzers/quic_analyzer.h"
#include "capture/capture_reader.h"
#include "capture_files.h"
#include "cli/lab_qlog.h"
#include "decode/decoder.h"
#include "decode/quic_session.h"
#include "kcp_enet_checks.h"

using namespace kcpenet;
using rudp::Direction;

namespace {

struct Qlog {
  std::vector<std::array<double, 4>> rtt;              // distinct (min, smoothed, latest, variance) in order
  std::vector<std::pair<uint64_t, std::string>> lost;  // (1-RTT packet number, trigger)
  std::vector<double> pto_expired;                     // times (ms) the PTO timer fired
  // The endpoint's own times (ms) of the packets it sent and received, by
  // (packet type, number): quic-go numbers every space from one counter.
  std::map<std::pair<std::string, uint64_t>, double> sent, received;
};

Qlog readQlog(const std::string& dir, const std::string& side) {
  Qlog q;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.size() < side.size() + 7 || name.substr(name.size() - side.size() - 6) != side + ".sqlog")
      continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      if (!line.empty() && line[0] == '\x1e') line.erase(0, 1);
      const json j = json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.contains("name")) continue;
      const json& data = j["data"];
      if (j["name"] == "recovery:metrics_updated" && data.contains("latest_rtt")) {
        const std::array<double, 4> v{data["min_rtt"].get<double>(), data["smoothed_rtt"].get<double>(),
                                      data["latest_rtt"].get<double>(), data["rtt_variance"].get<double>()};
        if (q.rtt.empty() || q.rtt.back() != v) q.rtt.push_back(v);
      }
      const auto key = [&] {
        return std::make_pair(data["header"]["packet_type"].get<std::string>(),
                              data["header"]["packet_number"].get<uint64_t>());
      };
      if (j["name"] == "transport:packet_sent") q.sent.emplace(key(), j["time"].get<double>());
      if (j["name"] == "transport:packet_received") q.received.emplace(key(), j["time"].get<double>());
      if (j["name"] == "recovery:loss_timer_updated" && data.value("event_type", "") == "expired" &&
          data.value("timer_type", "") == "pto")
        q.pto_expired.push_back(j["time"].get<double>());
      if (j["name"] == "recovery:packet_lost")
        q.lost.emplace_back(data["header"]["packet_number"].get<uint64_t>(),
                            data["trigger"].get<std::string>());
    }
  }
  return q;
}

struct Read {
  std::vector<rudp::ana::QuicAnalyzer::Sample> rtt;
  std::vector<rudp::ana::QuicAnalyzer::Declared> declared;
  rudp::ana::ConnectionMetrics metrics;
  uint64_t datagrams = 0, datagrams_lost = 0;
};

// The capture of `side` read as that side's sender: its own direction.
Read analyse(const std::string& dir, const std::string& side) {
  rudp::quic::KeyLog keys;
  REQUIRE(keys.addFile(dir + "/" + side + ".keylog").empty());
  auto reader = rudp::CaptureReader::open(dir + "/" + side + ".pcap");
  rudp::Decoder decoder(reader->linkType());
  rudp::quic::QuicSession session(&keys);
  rudp::ana::AnalyzerConfig cfg;
  rudp::ana::QuicAnalyzer analyzer(cfg, nullptr);
  rudp::RawPacket raw;
  rudp::DecodedPacket pkt;
  rudp::quic::Datagram d;
  while (reader->next(raw)) {
    decoder.decode(raw, pkt);
    if (pkt.l4 != rudp::L4::UDP || !pkt.payload) continue;
    if (!session.read({pkt.src, pkt.sport}, {pkt.dst, pkt.dport}, pkt.payload, pkt.payload_len, d)) continue;
    const Direction dirOf = d.from_client ? Direction::ClientToServer : Direction::ServerToClient;
    analyzer.onDatagram(pkt.frame, pkt.ts_ns, dirOf, d, pkt.origlen,
                        session.parameters(d.connection, d.from_client));
  }
  const Direction own = side == "client" ? Direction::ClientToServer : Direction::ServerToClient;
  Read r;
  for (const auto& v : analyzer.rttHistory(own))
    if (r.rtt.empty() || r.rtt.back().after.smoothed != v.after.smoothed ||
        r.rtt.back().after.adjusted != v.after.adjusted)
      r.rtt.push_back(v);
  r.declared = analyzer.declared(own);
  r.datagrams = analyzer.datagramsSent(own);
  r.datagrams_lost = analyzer.datagramsLost(own);
  r.metrics = analyzer.finish();
  return r;
}

const char* qlogType(rudp::quic::Space s) {
  return s == rudp::quic::Space::Initial     ? "initial"
         : s == rudp::quic::Space::Handshake ? "handshake"
                                             : "1RTT";
}

}  // namespace

TEST_CASE("quic: each endpoint's RTT samples and estimator, read from its capture, are quic-go's (qlog)") {
  std::array<std::vector<double>, 4> gaps;  // capture - endpoint: min, smoothed, latest (adjusted), variance
  size_t flips = 0;
  for (const char* run : {"quic_loss0", "quic_loss5"})
    for (const std::string side : {"client", "server"}) {
      INFO(run << " " << side);
      const Qlog truth = readQlog(dataDir(run), side);
      const Read ours = analyse(dataDir(run), side);
      // The same samples, one per ACK that newly acknowledged its largest
      // number with an ack-eliciting packet among the new ones: the same
      // count, each from a packet quic-go sent and an ACK it received.
      REQUIRE(ours.rtt.size() == truth.rtt.size());
      for (size_t i = 0; i < ours.rtt.size(); ++i) {
        INFO("sample " << i);
        const auto& s = ours.rtt[i];
        CHECK(truth.sent.count({qlogType(s.space), s.acked}) == 1);
        CHECK(truth.received.count({qlogType(s.space), s.ack_packet}) == 1);
        const auto& [min, smoothed, latest, variance] = truth.rtt[i];
        gaps[0].push_back(s.after.min - min);
        gaps[1].push_back(s.after.smoothed - smoothed);
        gaps[3].push_back(s.after.rttvar - variance);
        // RFC 9002 takes the ACK delay off when the sample stays at least
        // min_rtt: where the sample less the delay sits within the stack
        // time of min_rtt, the capture and quic-go may decide differently.
        const double margin = s.after.latest - s.after.min - s.ack_delay_ms;
        if (std::abs((s.after.adjusted - latest)) > 1.0 && std::abs(margin) < 1.0) {
          ++flips;
          continue;
        }
        gaps[2].push_back(s.after.adjusted - latest);
      }
    }
  WARN(flips << " samples where the ACK delay was taken off on one side only");
  CHECK(flips < 20);
  // The capture's times are the wire's. quic-go stamps a packet sent before
  // it packs and encrypts it and one received when its loop reads it: its
  // samples hold its own stack time, which a capture cannot see (2 cores,
  // both endpoints and two tcpdumps busy).
  const char* names[] = {"min_rtt", "smoothed_rtt", "latest_rtt", "rttvar"};
  for (size_t k = 0; k < 4; ++k) {
    auto g = gaps[k];
    std::sort(g.begin(), g.end());
    REQUIRE(g.size() > 500);
    WARN(names[k] << ": capture - quic-go over " << g.size() << " samples: min " << g.front() << " median "
                  << g[g.size() / 2] << " max " << g.back() << " ms");
    // Each sample's min and latest within 1 ms; the smoothed values carry a
    // flipped sample for a while, so their median.
    if (k == 0 || k == 2) {
      CHECK(g.front() > -1.0);
      CHECK(g.back() < 1.0);
    } else {
      CHECK(std::abs(g[g.size() / 2]) < 0.3);
    }
  }
}

TEST_CASE("quic: the packets each endpoint declared lost, read from its capture, are quic-go's (qlog)") {
  for (const char* run : {"quic_loss0", "quic_loss5"})
    for (const std::string side : {"client", "server"}) {
      INFO(run << " " << side);
      const Qlog truth = readQlog(dataDir(run), side);
      const Read ours = analyse(dataDir(run), side);
      // Every packet_lost event is one of ours, by the same threshold.
      std::map<uint64_t, bool> declared;  // number -> packet threshold
      for (const auto& d : ours.declared) declared[d.number] = d.packet_threshold;
      for (const auto& [number, trigger] : truth.lost) {
        INFO("packet " << number);
        REQUIRE(declared.count(number));
        CHECK(declared[number] == (trigger == "reordering_threshold"));
      }
      // The others quic-go gave up on when its PTO fired before the
      // thresholds did (QueueProbePacket declares the oldest outstanding
      // packet lost without a packet_lost event): a PTO expired after each
      // was sent, and there are no more of them than PTOs.
      size_t extra = 0;
      for (const auto& d : ours.declared) {
        if (std::any_of(truth.lost.begin(), truth.lost.end(),
                        [&](const auto& l) { return l.first == d.number; }))
          continue;
        ++extra;
        const double sentAt = truth.sent.at({"1RTT", d.number});
        INFO("extra packet " << d.number << " sent at " << sentAt << " ms");
        CHECK(std::any_of(truth.pto_expired.begin(), truth.pto_expired.end(),
                          [&](double t) { return t > sentAt; }));
      }
      CHECK(extra <= truth.pto_expired.size());
      CHECK(ours.declared.size() == truth.lost.size() + extra);
    }
}

namespace {

// From a sender's qlog (the lab's own reader, cli/lab_qlog.h): the STREAM
// frames that carry bytes of a stream already sent (resends), and its
// DATAGRAM frames.
json sentTruth(const std::string& dir, const std::string& side) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find("_" + side + ".sqlog") != std::string::npos)
      return rudp::cli::summariseQlog(e.path().string());
  FAIL("no " << side << " qlog in " << dir);
  return {};
}

}  // namespace

TEST_CASE("quic: analyze --json gives each QUIC connection the figures its endpoints' qlog holds") {
  for (const std::string side : {"client", "server"}) {
    INFO("quic_loss5 " << side);
    const std::string dir = dataDir("quic_loss5");
    rudp::test::TempDir tmp("quic-analyze");
    const auto r =
        run({RUDPSCOPE_CLI, "analyze", dir + "/" + side + ".pcap", "-o",
             "tls.keylog_file:" + dir + "/" + side + ".keylog", "--db", tmp / "a.sqlite", "--json", "-q"});
    INFO(r.err);
    REQUIRE(r.status == 0);
    const json c = connection(json::parse(r.out), "quic");
    CHECK(c["client"] == kClientIp + ":" + c["client"].get<std::string>().substr(kClientIp.size() + 1));
    const json& own = c["directions"][side == "client" ? "client_to_server" : "server_to_client"];
    const Qlog truth = readQlog(dir, side);
    const Read ours = analyse(dir, side);
    const json sent = sentTruth(dir, side);
    // Every packet the endpoint sent is in its capture (the helper's count
    // against qlog: loss5 950 client, 678 server).
    CHECK(own["packets"].get<uint64_t>() + (side == "client" ? 2u : 1u) >= truth.sent.size());
    CHECK(own["rtt_ms"]["samples"] == ours.rtt.size());
    CHECK(own["rtt_ms"]["samples"] == truth.rtt.size());
    CHECK(own["lost"] == ours.declared.size());
    CHECK(own["retransmissions"] == sent["stream_resends"]);
    CHECK(ours.datagrams == sent["datagrams_sent"]);
  }
}

TEST_CASE("quic: without the key log, a QUIC connection says once that it is encrypted and what to give") {
  const std::string capture = dataDir("quic_loss0") + "/client.pcap";
  rudp::test::TempDir tmp("quic-nokeys");
  const auto r = run({RUDPSCOPE_CLI, "analyze", capture, "--db", tmp / "a.sqlite", "-q"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  size_t told = 0;
  for (size_t at = 0;
       (at = r.out.find("QUIC, encrypted: give the key log to analyse it", at)) != std::string::npos; ++at)
    ++told;
  CHECK(told == 1);
  const json c = connection(analyze(capture), "quic");
  CHECK(c["analysis"] == "encrypted: give the key log to analyse it (-o tls.keylog_file:FILE)");
  // The Initial and Handshake packets still open: the handshake's RTT sample.
  const json& c2s = c["directions"]["client_to_server"];
  CHECK(c2s["rtt_ms"]["samples"] == 1);
  // The rest is timing, as for any flow not decoded: every datagram, the
  // gaps between the client's read from the capture's own times; no loss
  // or resend figure, which would need the headers.
  std::vector<double> sent;
  for (const auto& row : decode(capture, {"frame.time_epoch", "ip.src"}))
    if (row[1] == kClientIp) sent.push_back(std::stod(row[0]) * 1000);
  double gapMax = 0;
  for (size_t i = 1; i < sent.size(); ++i) gapMax = std::max(gapMax, sent[i] - sent[i - 1]);
  CHECK(c2s["packets"] == sent.size());
  CHECK(c2s["gap_max"].get<double>() == Approx(gapMax).margin(1e-3));
  CHECK(c2s["stalls"] == json::array());
  for (const char* headerFigure : {"lost", "retransmissions", "loss_bursts", "jitter_ms"})
    CHECK_FALSE(c2s.contains(headerFigure));
  // The report's problems name it too.
  const auto report =
      run({RUDPSCOPE_CLI, "report", capture, "--db", tmp / "a.sqlite", "-w", tmp / "r.html", "-q"});
  INFO(report.err);
  REQUIRE(report.status == 0);
  std::ifstream html(tmp / "r.html");
  const std::string text((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  CHECK(text.find("QUIC, encrypted: give the key log to analyse it") != std::string::npos);
}

// The server's Initial that carries the ServerHello lost before the
// capture point, its Handshake and 1-RTT packets captured first: the key log
// has the connection's secrets, but their cipher is not known until the
// ServerHello's resend. Seen in the lab (1 run in 11 at 5 % loss), where the
// connection was analysed as "encrypted: give the key log". Made here from
// the committed run by swapping the contents of its frames 3 (the server's
// Initial) and 4 (its Handshake and first 1-RTT packet), times kept.
TEST_CASE(
    "quic: a 1-RTT packet met before the ServerHello does not make a connection with keys 'encrypted'") {
  const std::string dir = dataDir("quic_loss5");
  auto reader = rudp::CaptureReader::open(dir + "/client.pcap");
  std::vector<std::pair<int64_t, rudp::testgen::Bytes>> frames;
  for (rudp::RawPacket raw; reader->next(raw);)
    frames.emplace_back(raw.ts_ns, rudp::testgen::Bytes(raw.data, raw.data + raw.caplen));
  REQUIRE(frames.size() > 4);
  std::swap(frames[2].second, frames[3].second);
  rudp::test::TempDir tmp("quic-pending");
  rudp::testgen::PcapBuilder pcap(reader->linkType());
  for (const auto& [ts, bytes] : frames) pcap.packet(ts / 1000, bytes);
  const std::string swapped = tmp / "swapped.pcap";
  rudp::testgen::writeFile(swapped, pcap.bytes());
  const auto keyed = [&](const std::string& capture) {
    return connection(analyze(capture, {"-o", "tls.keylog_file:" + dir + "/client.keylog"}), "quic");
  };
  // The swap is the case: the first 1-RTT packet does not open yet.
  const auto rows = decode(swapped, {"frame.number", "quic.header_form", "quic.packet_number"},
                           {"-o", "tls.keylog_file:" + dir + "/client.keylog"});
  REQUIRE(rows.size() > 3);
  CHECK(rows[2][1] == "1,0");  // its Handshake and 1-RTT packets, ...
  CHECK(rows[2][2] == "");     // ... neither opened
  const json c = keyed(swapped), original = keyed(dir + "/client.pcap");
  CHECK(original["analysis"] == "decoded");
  CHECK(c["analysis"] == "decoded");  // not "encrypted: give the key log ..."
  const json &ours = c["directions"]["client_to_server"],
             &before = original["directions"]["client_to_server"];
  CHECK(ours["packets"] == before["packets"]);
  CHECK(ours["lost"] == before["lost"]);
  CHECK(ours["retransmissions"] == before["retransmissions"]);
  CHECK(ours["rtt_ms"]["samples"].get<uint64_t>() > 0);
}

namespace {

// The 1-RTT packets `sender` sent that carried more than ACKs (those that
// count in flight, RFC 9002 2), from its own capture; and the ones the peer's
// capture holds. quic-go numbers its spaces from one counter, so a number
// names one packet.
std::set<uint64_t> oneRttNumbers(const std::string& dir, const std::string& capture, bool fromClient,
                                 bool inFlightOnly) {
  rudp::quic::KeyLog keys;
  REQUIRE(keys.addFile(dir + "/" + capture + ".keylog").empty());
  auto reader = rudp::CaptureReader::open(dir + "/" + capture + ".pcap");
  rudp::Decoder decoder(reader->linkType());
  rudp::quic::QuicSession session(&keys);
  rudp::RawPacket raw;
  rudp::DecodedPacket pkt;
  rudp::quic::Datagram d;
  std::set<uint64_t> out;
  while (reader->next(raw)) {
    decoder.decode(raw, pkt);
    if (pkt.l4 != rudp::L4::UDP || !pkt.payload) continue;
    if (!session.read({pkt.src, pkt.sport}, {pkt.dst, pkt.dport}, pkt.payload, pkt.payload_len, d)) continue;
    if (d.from_client != fromClient) continue;
    for (const auto& p : d.packets) {
      if (p.header.type != rudp::quic::PacketType::OneRtt || !p.decrypted) continue;
      const bool inFlight = std::any_of(p.frames.begin(), p.frames.end(), [](const rudp::quic::Frame& f) {
        return rudp::quic::ackEliciting(f.type) || f.is(rudp::quic::frame::kPadding);
      });
      if (inFlight || !inFlightOnly) out.insert(p.packet_number);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("quic: the losses each sender declared are the in-flight packets its peer's capture lacks") {
  const std::string dir = dataDir("quic_loss5");
  for (const bool client : {true, false}) {
    const std::string own = client ? "client" : "server", peer = client ? "server" : "client";
    INFO(own << " as the sender");
    const auto sent = oneRttNumbers(dir, own, client, true);
    const auto arrived = oneRttNumbers(dir, peer, client, false);
    std::set<uint64_t> dropped;  // by the lab's nftables rule, between the two captures
    for (uint64_t n : sent)
      if (!arrived.count(n)) dropped.insert(n);
    std::set<uint64_t> declared;
    for (const auto& d : analyse(dir, own).declared) declared.insert(d.number);
    // Packets of ACKs or CONNECTION_CLOSE alone are not in flight: never
    // declared lost. Every declared loss was dropped; a dropped packet not
    // declared is one of the sender's last in flight, its loss timer still
    // running when the connection closed.
    std::set<uint64_t> undeclared;
    for (uint64_t n : dropped)
      if (!declared.count(n)) undeclared.insert(n);
    for (uint64_t n : declared) CHECK(dropped.count(n) == 1);
    const std::vector<uint64_t> last(std::prev(sent.end(), 3), sent.end());
    for (uint64_t n : undeclared) {
      INFO("dropped, not declared: " << n);
      CHECK(std::find(last.begin(), last.end(), n) != last.end());
    }
    CHECK(declared.size() == (client ? 45u : 21u));
  }
}

TEST_CASE("quic: compare gives the QUIC connection's figures, and no goodput it cannot measure") {
  rudp::test::TempDir tmp("quic-compare");
  const std::string dir = dataDir("quic_loss5");
  const std::string capture = tmp / "quic_loss5.pcap";
  fs::copy_file(dir + "/client.pcap", capture);
  const auto r = run(
      {RUDPSCOPE_CLI, "compare", capture, "-o", "tls.keylog_file:" + dir + "/client.keylog", "--json", "-q"});
  INFO(r.err);
  REQUIRE(r.status == 0);
  const json out = json::parse(r.out);
  size_t found = 0;
  for (const json& row : out.at("connections")) {
    if (row.at("protocol") != "quic" || row.at("dir") != "c2s") continue;
    ++found;
    CHECK(row.at("retransmissions") == 9);  // as analyze (test above) and the qlog
    CHECK(row.at("lost") == 45);
    // The store's QUIC rows hold no stream byte counts: unknown, not 0.
    CHECK(row.at("payload_bytes").is_null());
    CHECK(row.at("goodput").is_null());
  }
  CHECK(found == 1);
}

TEST_CASE("quic: without the key log, aioquic's spin bit gives each direction one RTT sample per spin edge") {
  // tests/kcp_enet/aioquic_capture.py: aioquic spins (quic-go does not: its
  // captures keep the handshake's one sample, test above). truth.json holds
  // the capture times of each side's spin edges, from the spin value the
  // sender itself put in each datagram, and the path's round trip.
  const std::string dir = dataDir("aioquic_loss5");
  std::ifstream in(dir + "/truth.json");
  const json truth = json::parse(in);
  rudp::test::TempDir tmp("quic-spin");
  const std::string capture = tmp / "client.pcap";
  fs::copy_file(dir + "/client.pcap", capture);
  const json c = connection(analyze(capture), "quic");
  CHECK(c["analysis"] == "encrypted: give the key log to analyse it (-o tls.keylog_file:FILE)");
  const double pathRtt = truth.at("path_rtt_ms").get<double>();
  for (const auto& [side, dirName] :
       {std::pair{"client", "client_to_server"}, {"server", "server_to_client"}}) {
    INFO(side);
    const auto edges = truth.at(side).at("spin_edges_ns").get<std::vector<int64_t>>();
    REQUIRE(edges.size() > 10);
    std::vector<double> rtt;
    for (size_t i = 1; i < edges.size(); ++i) rtt.push_back(double(edges[i] - edges[i - 1]) / 1e6);
    const json& r = c["directions"][dirName]["rtt_ms"];
    CHECK(r["samples"] == rtt.size());
    CHECK(r["min"].get<double>() == Approx(*std::min_element(rtt.begin(), rtt.end())).margin(1e-6));
    CHECK(r["max"].get<double>() == Approx(*std::max_element(rtt.begin(), rtt.end())).margin(1e-6));
    double sum = 0;
    for (double x : rtt) sum += x;
    CHECK(r["mean"].get<double>() == Approx(sum / double(rtt.size())).margin(1e-6));
    // One edge to the next is a round trip wherever the capture is: never
    // below the path's, and above it by the senders' waits (a 60 Hz input
    // every 16.7 ms, an ACK delay) plus a lost packet's recovery.
    CHECK(r["span"] == "round_trip");
    CHECK(r["min"].get<double>() >= pathRtt);
  }
}
