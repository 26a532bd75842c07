// loadTimelineData against the simulator's truth and the store: the marks,
// bands and the sequence graph hold exactly what happened.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "sim_capture.h"
#include "store/store_reader.h"

using namespace rudp;
using namespace rudp::gui;
using grudp_sim::ConnTruth;

namespace {
constexpr int64_t kClientTickNs = 33'400'000;  // 30 Hz: the analysis sees a stall end at the next packet

const grudp_sim::DirTruth& truthDir(const ConnTruth& c, Direction d) { return c.dir[static_cast<size_t>(d)]; }

// Captured copies of one direction by frame, as the capture holds them.
std::map<uint64_t, const grudp_sim::PacketRecord*> capturedByFrame(const grudp_sim::DirTruth& d) {
  std::map<uint64_t, const grudp_sim::PacketRecord*> out;
  for (const auto& p : d.packets)
    if (p.frame) out[p.frame] = &p;
  return out;
}
}  // namespace

TEST_CASE("timeline marks are the truth's retransmissions at their capture times") {
  const auto& cap = test::mainCapture();
  for (size_t i = 0; i < cap.truth.size(); ++i) {
    const auto data = cap.timeline(cap.connOf(i));
    // Client vantage: the client's own copies are captured as sent, so every
    // retransmission of its data is seen with its cause.
    const auto& truth = truthDir(cap.truth[i], Direction::ClientToServer);
    std::map<uint64_t, grudp_sim::RetxCause> expected;
    for (const auto& p : truth.packets)
      if (p.attempt > 1) expected[p.frame] = p.cause;
    const auto& marks = data->of(Direction::ClientToServer).retransmissions;
    REQUIRE(marks.size() == expected.size());
    for (const RetxMark& m : marks) {
      INFO("frame " << m.frame);
      REQUIRE(expected.count(m.frame) == 1);
      CHECK((m.cause == ana::RetxCause::Timeout) == (expected[m.frame] == grudp_sim::kTimeout));
      CHECK((m.cause == ana::RetxCause::Fast) == (expected[m.frame] == grudp_sim::kFast));
      CHECK(m.ts_ns == *data->timeOfFrame(m.frame));
    }
    CHECK(std::is_sorted(marks.begin(), marks.end(), [](auto& a, auto& b) { return a.ts_ns < b.ts_ns; }));
  }
}

TEST_CASE("stall bands are the truth's stalls and recovery bands span each seq's copies") {
  const auto& cap = test::mainCapture();
  const auto data = cap.timeline(cap.connOf(1));  // the outage from 4 to 5.5 s
  const auto& d = data->of(Direction::ClientToServer);
  const auto& truth = truthDir(cap.truth[1], Direction::ClientToServer);
  REQUIRE(d.stalls.size() == truth.stats.stalls.size());
  for (size_t k = 0; k < d.stalls.size(); ++k) {
    CHECK(std::abs(d.stalls[k].start_ns - cap.captureNs(truth.stats.stalls[k].start_ns)) < kClientTickNs);
    CHECK(std::abs(d.stalls[k].end_ns - cap.captureNs(truth.stats.stalls[k].end_ns)) < kClientTickNs);
  }
  const auto outage = std::find_if(d.stalls.begin(), d.stalls.end(), [&](const ana::StallEvent& s) {
    return s.start_ns <= cap.captureNs(4'100'000'000) && s.end_ns >= cap.captureNs(5'500'000'000);
  });
  CHECK(outage != d.stalls.end());

  // Each recovery band: from the original copy's capture to the last copy's.
  std::map<uint32_t, std::pair<int64_t, int64_t>> copies;  // seq -> first, last capture time
  for (const auto& p : truth.packets) {
    if (p.h.type == grudp_sim::kAck) continue;
    auto [it, fresh] = copies.try_emplace(p.h.seq, p.capture_ns, p.capture_ns);
    if (!fresh) it->second.second = p.capture_ns;
  }
  size_t retransmittedSeqs = 0;
  for (const auto& [seq, span] : copies) retransmittedSeqs += span.first != span.second;
  REQUIRE(d.recoveries.size() == retransmittedSeqs);
  for (const RecoveryBand& b : d.recoveries) {
    INFO("seq " << b.seq);
    CHECK(b.start_ns == cap.captureNs(copies.at(b.seq).first));
    CHECK(b.end_ns == cap.captureNs(copies.at(b.seq).second));
  }
  // The union covers every band and nothing more.
  for (const RecoveryBand& b : d.recoveries)
    CHECK(std::any_of(d.recoveryUnion.begin(), d.recoveryUnion.end(),
                      [&](const TimeBand& u) { return u.start_ns <= b.start_ns && b.end_ns <= u.end_ns; }));
  for (size_t k = 1; k < d.recoveryUnion.size(); ++k)
    CHECK(d.recoveryUnion[k].start_ns > d.recoveryUnion[k - 1].end_ns);
}

TEST_CASE("the sequence graph holds every captured seq, retransmitted copy and peer ack") {
  const auto& cap = test::mainCapture();
  const ConnTruth& conn = cap.truth[1];
  const auto data = cap.timeline(cap.connOf(1));
  for (Direction dir : {Direction::ClientToServer, Direction::ServerToClient}) {
    INFO("direction " << static_cast<int>(dir));
    const auto& d = data->of(dir);
    const uint32_t isn = dir == Direction::ClientToServer ? conn.client_isn : conn.server_isn;
    CHECK(static_cast<uint32_t>(d.seqBase) == isn);  // CONNECT / ACCEPT take the first seq

    // Sent: every captured seq-consuming packet, at its relative seq.
    const auto own = capturedByFrame(truthDir(conn, dir));
    std::vector<std::pair<uint64_t, double>> expectedSent, expectedRetx;
    for (const auto& [frame, p] : own) {
      if (p->h.type == grudp_sim::kAck) continue;
      expectedSent.emplace_back(frame, static_cast<double>(static_cast<uint32_t>(p->h.seq - isn)));
      if (p->attempt > 1) expectedRetx.emplace_back(frame, expectedSent.back().second);
    }
    auto pointsOf = [](const LodSeries& s) {
      std::vector<std::pair<uint64_t, double>> out;
      for (size_t i = 0; i < s.size(); ++i) out.emplace_back(s.frame(i), s.value(i));
      std::sort(out.begin(), out.end());
      return out;
    };
    CHECK(pointsOf(d.seqSent) == expectedSent);
    // At the sender every copy is seen as a copy; at the receiver a copy
    // whose original was lost looks like an original, so there the graph
    // holds what the analysis found.
    if (dir == Direction::ClientToServer) {
      CHECK(pointsOf(d.seqRetransmitted) == expectedRetx);
    } else {
      std::vector<std::pair<uint64_t, double>> found;
      for (const RetxMark& m : d.retransmissions) found.emplace_back(m.frame, static_cast<double>(m.seq));
      std::sort(found.begin(), found.end());
      CHECK(pointsOf(d.seqRetransmitted) == found);
      CHECK(std::includes(expectedRetx.begin(), expectedRetx.end(), found.begin(), found.end()));
    }

    // Acked: the peer's captured packets carrying an ack of this direction.
    const auto peer = capturedByFrame(truthDir(
        conn, dir == Direction::ClientToServer ? Direction::ServerToClient : Direction::ClientToServer));
    std::vector<std::pair<uint64_t, double>> expectedAcks;
    for (const auto& [frame, p] : peer)
      if (p->h.flags & grudp_sim::kAckFlag)
        expectedAcks.emplace_back(frame, static_cast<double>(static_cast<uint32_t>(p->h.ack - isn)));
    CHECK(pointsOf(d.seqAcked) == expectedAcks);
  }
}

TEST_CASE("RTT, rates, losses and frames come straight from the store") {
  const auto& cap = test::mainCapture();
  const int64_t conn = cap.connOf(0);
  const auto data = cap.timeline(conn);
  StoreReader reader(cap.db);
  const ConnectionRecord rec = *reader.connection(conn);
  CHECK(data->frames.size() == rec.summary.dir[0].packets + rec.summary.dir[1].packets);
  CHECK(data->first_ns == rec.summary.first_ts_ns);
  CHECK(data->last_ns == rec.summary.last_ts_ns);
  CHECK(data->origin_ns == reader.capture().first_ts_ns);
  CHECK(data->rttLimitsMs == std::vector<double>{150, 250, 300});
  for (Direction dir : {Direction::ClientToServer, Direction::ServerToClient}) {
    const auto& d = data->of(dir);
    const auto rtt = reader.rttSamples(conn, dir);
    REQUIRE(d.rtt.size() == rtt.size());
    for (size_t k = 0; k < rtt.size(); ++k) {
      CHECK(d.rtt.value(k) == rtt[k].rtt_ms);
      CHECK(d.srtt.value(k) == rtt[k].srtt_ms);
      CHECK(d.rto.value(k) == rtt[k].rto_ms);
      CHECK(d.rtt.frame(k) == rtt[k].frame);
    }
    // Rates per second over 100 ms buckets add back up to the packet count.
    double packets = 0;
    for (size_t k = 0; k < d.packetRate.size(); ++k) packets += d.packetRate.value(k) / 10;
    CHECK(std::llround(packets) == static_cast<long long>(rec.summary.dir[static_cast<size_t>(dir)].packets));
    // A loss sits at its lost copy when captured (the client's own data).
    const auto losses = reader.losses(conn, dir);
    REQUIRE(d.losses.size() == losses.size());
    for (const LossMark& m : d.losses) {
      if (const auto t = data->timeOfFrame(m.frame))
        CHECK(m.ts_ns == *t);
      else  // settled by the end of the capture, no packet to point at
        CHECK((m.frame == 0 && m.ts_ns == m.settled_ns));
    }
  }
  const auto own = capturedByFrame(truthDir(cap.truth[0], Direction::ClientToServer));
  for (const LossMark& m : data->of(Direction::ClientToServer).losses) {
    REQUIRE(own.count(m.frame) == 1);
    CHECK(own.at(m.frame)->h.seq == m.first_seq);
    CHECK(own.at(m.frame)->lost);
  }
}
