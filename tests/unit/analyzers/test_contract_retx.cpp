// Retransmissions: backoff chains, fast after a bitmap hole, spurious, copies
// inferred at the receiver, duplicates, reordering and the stall they cause.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace anatest;

namespace {
// Client-side capture; RTT 50 ms. Client seqs 100.., server seqs 500..
// Leaves the client at seq 110 (next), server at 510, time 590 ms.
struct ClientSide {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a{grudpContract(), cfg, &r};
  Feeder f{a};
  uint32_t cseq = 100, sseq = 500;
  ClientSide() {
    f.send(C2S, 0, Seg().data(cseq++, 0, Reliability::Reliable).role(SegmentRole::Connect));
    f.send(S2C, 50 * kMs,
           Seg().data(sseq++, 25, Reliability::Reliable).role(SegmentRole::Accept).ack(100, 0, 0));
    for (int i = 0; i < 9; ++i) {
      const int64_t t = 60 + 60 * i;
      f.send(C2S, t * kMs, Seg().data(cseq++, uint32_t(t)).ack(sseq - 1, 0xFFFFFFFFu, uint32_t(t - 35)));
      f.send(S2C, (t + 50) * kMs,
             Seg().data(sseq++, uint32_t(t + 25)).ack(cseq - 1, 0xFFFFFFFFu, uint32_t(t)));
    }
  }
};
}  // namespace

TEST_CASE("a timeout backoff chain 200/400/800 ms at the sender, and its stall") {
  ClientSide c;
  auto& f = c.f;
  // Reliable seq 110 sent at 1000 ms; the server hears nothing until copy 4.
  const uint64_t orig = f.send(C2S, 1000 * kMs, Seg().data(110, 1000, Reliability::Reliable));
  uint32_t sseq = c.sseq;
  int64_t t = 1050;
  const int64_t copies[] = {1200, 1600, 2400};
  uint64_t frames[3];
  int k = 0;
  for (; t < 2450; t += 50) {
    if (k < 3 && copies[k] <= t) {
      frames[k] = f.send(C2S, copies[k] * kMs, Seg().data(110, uint32_t(copies[k]), Reliability::Reliable));
      ++k;
    }
    f.send(S2C, t * kMs, Seg().data(sseq++, uint32_t(t)).ack(109, 0xFFFFFFFFu, 540));
  }
  const uint64_t done = f.send(S2C, 2450 * kMs, Seg().data(sseq++, 2450).ack(110, 0xFFFFFFFFu, 2400));
  auto m = c.a.finish();
  REQUIRE(c.r.retx.size() == 3);
  for (int i = 0; i < 3; ++i) {
    CHECK(c.r.retx[i].attempt == uint32_t(i + 2));
    CHECK(c.r.retx[i].cause == RetxCause::Timeout);
    CHECK(c.r.retx[i].original_frame == orig);
    CHECK(c.r.retx[i].frame == frames[i]);
  }
  CHECK(c.r.retx[0].since_previous_ms == Approx(200));
  CHECK(c.r.retx[1].since_previous_ms == Approx(400));
  CHECK(c.r.retx[2].since_previous_ms == Approx(800));
  CHECK(c.r.retx[2].previous_frame == frames[1]);
  CHECK(m.dir[0].retransmissions == 3);
  CHECK(m.dir[0].retransmissions_timeout == 3);
  CHECK(m.dir[0].lost == 0);  // finally delivered
  REQUIRE(m.dir[0].stalls.size() == 1);
  const StallEvent& s = m.dir[0].stalls[0];
  CHECK(s.start_ns == 1000 * kMs);
  CHECK(s.end_ns == 2450 * kMs);
  CHECK(s.duration_ms == Approx(1450));
  CHECK(s.first_frame == orig);
  CHECK(s.last_frame == done);
  CHECK(s.retransmissions == 3);
  CHECK(s.cause == StallCause::RetransmissionTimeout);
  CHECK_FALSE(s.open);
  CHECK(c.r.rtt.back().rtt_ms == Approx(50));  // echo of copy 4: no Karn ambiguity
  CHECK(m.dir[1].stalls.empty());
}

TEST_CASE("a fast retransmission after a bitmap hole, then a timeout of the same seq") {
  ClientSide c;
  auto& f = c.f;
  f.send(C2S, 1000 * kMs, Seg().data(110, 1000, Reliability::Reliable));  // lost
  f.send(C2S, 1033 * kMs, Seg().data(111, 1033));
  f.send(C2S, 1066 * kMs, Seg().data(112, 1066));
  f.send(C2S, 1099 * kMs, Seg().data(113, 1099));
  f.send(S2C, 1083 * kMs, Seg().data(600, 1058).ack(111, 0xFFFFFFFEu, 1033));  // 110 missing
  f.send(S2C, 1116 * kMs, Seg().data(601, 1091).ack(112, 0xFFFFFFFDu, 1066));
  f.send(S2C, 1149 * kMs, Seg().data(602, 1124).ack(113, 0xFFFFFFFBu, 1099));
  f.send(C2S, 1149 * kMs, Seg().data(110, 1149, Reliability::Reliable));  // fast, also lost
  f.send(C2S, 1550 * kMs, Seg().data(110, 1550, Reliability::Reliable));  // timer 200 x 2 after the fast copy
  f.send(S2C, 1600 * kMs, Seg().data(603, 1575).ack(113, 0xFFFFFFFFu, 1099));
  auto m = c.a.finish();
  REQUIRE(c.r.retx.size() == 2);
  CHECK(c.r.retx[0].cause == RetxCause::Fast);
  CHECK(c.r.retx[0].since_previous_ms == Approx(149));
  CHECK(c.r.retx[1].cause == RetxCause::Timeout);
  CHECK(c.r.retx[1].attempt == 3);
  CHECK(m.dir[0].retransmissions_fast == 1);
  CHECK(m.dir[0].retransmissions_timeout == 1);
  CHECK(m.dir[0].stalls.size() == 1);  // 1000 .. 1600: unreliable acks are no progress
}

TEST_CASE("a copy sent after the sender had the ack is spurious") {
  ClientSide c;
  auto& f = c.f;
  f.send(C2S, 1000 * kMs, Seg().data(110, 1000, Reliability::Reliable));
  f.send(S2C, 1050 * kMs, Seg().data(600, 1025).ack(110, 0xFFFFFFFFu, 1000));
  f.send(C2S, 1200 * kMs, Seg().data(110, 1200, Reliability::Reliable));
  auto m = c.a.finish();
  REQUIRE(c.r.retx.size() == 1);
  CHECK(c.r.retx[0].cause == RetxCause::Spurious);
  CHECK(m.dir[0].retransmissions_spurious == 1);
  CHECK(m.dir[0].duplicates == 1);  // at the sender: a copy of data already acked
}
