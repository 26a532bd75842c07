// Loss bursts, receiver-side duplicates/reordering/inferred copies, HOL.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace anatest;

namespace {
uint32_t bitsFor(uint32_t ack, const std::vector<uint32_t>& got) {
  uint32_t bits = 0;
  for (uint32_t s : got)
    if (s != ack && ack - s <= 32) bits |= 1u << (ack - 1 - s);
  return bits;
}

// A capture at the server: client packets on arrival (one-way 25 ms), the
// server's when sent. The handshake gives the vantage away.
struct ServerSide {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a{grudpContract(), cfg, &r};
  Feeder f{a};
  ServerSide() {
    f.send(C2S, 0, Seg().data(100, 0, Reliability::Reliable).role(SegmentRole::Connect));
    f.send(S2C, 1 * kMs, Seg().data(500, 1, Reliability::Reliable).role(SegmentRole::Accept).ack(100, 0, 0));
    f.send(C2S, 60 * kMs, Seg().data(101, 35).ack(500, 0, 1));
    f.send(S2C, 62 * kMs, Seg().pureAck(501, 62).ack(101, 1, 35));
  }
};
}  // namespace

TEST_CASE("loss bursts of 1, 2 and 3 at the sender") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(grudpContract(), cfg, &r);
  Feeder f{a};
  std::vector<uint32_t> got;
  const std::vector<uint32_t> lost = {42, 45, 46, 50, 51, 52};
  for (uint32_t s = 40; s <= 60; ++s) {
    f.send(C2S, int64_t(s) * 33 * kMs, Seg().data(s, s * 33));
    if (std::find(lost.begin(), lost.end(), s) == lost.end()) got.push_back(s);
  }
  f.send(S2C, 61 * 33 * kMs, Seg().data(7, 1).ack(60, bitsFor(60, got), 60 * 33));
  auto m = a.finish();
  CHECK(m.dir[0].lost == 6);
  CHECK(m.dir[0].loss_bursts.size() == 3);
  CHECK(m.dir[0].loss_bursts.at(1) == 1);
  CHECK(m.dir[0].loss_bursts.at(2) == 1);
  CHECK(m.dir[0].loss_bursts.at(3) == 1);
  CHECK(m.dir[0].mean_loss_burst == Approx(2.0));
  REQUIRE(r.loss.size() == 3);
  CHECK(r.loss[0].first_seq == 42);
  CHECK(r.loss[1].first_seq == 45);
  CHECK(r.loss[1].count == 2);
  CHECK(r.loss[2].first_seq == 50);
  CHECK(r.loss[2].count == 3);
  CHECK(r.loss[2].first_frame == 11);  // seq 50 was captured (at the sender)
}

TEST_CASE("at the receiver: reordering, duplicates and copies whose originals were lost") {
  ServerSide c;
  auto& f = c.f;
  // 102 and 103 swap; 104 arrives twice (two copies: the ack was slow).
  f.send(C2S, 100 * kMs, Seg().data(103, 80));
  f.send(C2S, 101 * kMs, Seg().data(102, 70));
  f.send(C2S, 130 * kMs, Seg().data(104, 105, Reliability::Reliable));
  f.send(C2S, 131 * kMs, Seg().data(104, 105, Reliability::Reliable));  // network duplicate
  f.send(S2C, 140 * kMs, Seg().pureAck(501, 140).ack(104, 0b111, 105));
  f.send(C2S, 330 * kMs, Seg().data(104, 305, Reliability::Reliable));  // retransmitted copy
  // 105 lost before the capture; 106, 107 arrive; then 105's copy, sent later.
  f.send(C2S, 340 * kMs, Seg().data(106, 315));
  f.send(C2S, 373 * kMs, Seg().data(107, 348));
  f.send(C2S, 560 * kMs, Seg().data(105, 535, Reliability::Reliable));
  // 110 lost; its copy overtakes 111, which the network held back.
  f.send(C2S, 400 * kMs, Seg().data(108, 375));
  f.send(C2S, 433 * kMs, Seg().data(109, 408));
  f.send(C2S, 700 * kMs, Seg().data(110, 675, Reliability::Reliable));
  f.send(C2S, 720 * kMs, Seg().data(111, 441));
  auto m = c.a.finish();
  CHECK(m.vantage == Vantage::Server);
  const auto& cs = m.dir[0];
  CHECK(cs.reordered == 1);  // 102 (111 came after 110, in seq order)
  CHECK(cs.network_duplicates == 1);
  CHECK(cs.duplicates == 1);       // 104's second copy reached a receiver that had it
  CHECK(cs.retransmissions == 3);  // 104 (seen twice), 105 and 110 (inferred)
  CHECK(cs.retransmissions_inferred == 2);
  REQUIRE(c.r.retx.size() == 3);
  CHECK(c.r.retx[0].seq == 104);
  CHECK(c.r.retx[0].attempt == 2);
  CHECK(c.r.retx[1].seq == 105);
  CHECK(c.r.retx[1].original_frame == 0);
  CHECK(c.r.retx[2].seq == 110);
}

TEST_CASE("head-of-line blocking waits for the same channel only, unsequenced never waits") {
  ServerSide c;
  auto& f = c.f;
  // 102 (reliable, channel 0) is lost and comes back at 500 ms.
  f.send(C2S, 400 * kMs, Seg().data(103, 380, Reliability::Reliable, 0));     // waits 100
  f.send(C2S, 410 * kMs, Seg().data(104, 390, Reliability::Reliable, 1));     // other channel
  f.send(C2S, 420 * kMs, Seg().data(105, 400, Reliability::Unsequenced, 3));  // unsequenced
  f.send(C2S, 430 * kMs, Seg().data(106, 410, Reliability::Reliable, 0));     // waits 70
  f.send(C2S, 440 * kMs, Seg().data(107, 420, Reliability::Unreliable, 0));   // unreliable
  f.send(C2S, 500 * kMs, Seg().data(102, 480, Reliability::Reliable, 0));
  auto m = c.a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.hol_observable);
  CHECK(cs.hol_blocked_packets == 2);
  CHECK(cs.hol_blocking_ms == Approx(170));
  CHECK(cs.hol_max_ms == Approx(100));
  CHECK(cs.retransmissions == 1);  // 102's copy was sent after 103..107
}

TEST_CASE("an unreliable seq missing at the receiver blocks nothing and is lost") {
  ServerSide c;
  auto& f = c.f;
  f.send(C2S, 400 * kMs, Seg().data(103, 380, Reliability::Reliable, 0));  // 102 never comes
  f.send(S2C, 410 * kMs, Seg().pureAck(501, 410).ack(103, 0b10, 380));
  auto m = c.a.finish();
  CHECK(m.dir[0].lost == 1);
  CHECK(m.dir[0].hol_blocked_packets == 0);
}
