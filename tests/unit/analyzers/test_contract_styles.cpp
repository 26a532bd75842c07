// The other ack styles of the contract: cumulative (next seq expected) and
// per-segment with una (KCP), several segments per datagram, no ts_echo.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace anatest;

namespace {
Contract styled(AckStyle style, bool echo) {
  Contract c = grudpContract();
  c.ack_style = style;
  c.ack_bitmap = -1;
  if (!echo) c.ts_echo = -1;
  if (style == AckStyle::PerSegment) c.una = 10;
  return c;
}
Segment data(uint32_t seq, uint32_t ts) {
  Seg s;
  s.data(seq, ts, Reliability::Reliable);
  return s.s;
}
Segment cumAck(uint32_t next) {
  Seg s;
  s.pureAck(0, 0);
  s.s.ack = next;
  s.s.has |= Segment::Ack;
  return s.s;
}
Segment kcpAck(uint32_t sn, uint32_t una, uint32_t ts_of_sn) {
  Seg s;
  s.pureAck(0, 0);
  s.s.ack = sn;
  s.s.una = una;
  s.s.ts_echo = ts_of_sn;
  s.s.has |= Segment::Ack | Segment::Una | Segment::Echo;
  return s.s;
}
}  // namespace

TEST_CASE(
    "cumulative acks: one seq/ack RTT per ack, none from an ack over a resent seq, fast after a duplicate") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(styled(AckStyle::Cumulative, false), cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t ms, Segment s) { a.onPacket(++f, ms * kMs, d, &s, 1, 100); };
  send(C2S, 0, data(0, 0));
  send(C2S, 10, data(1, 10));
  send(C2S, 20, data(2, 20));
  send(S2C, 50, cumAck(1));    // 50 ms for seq 0
  send(S2C, 70, cumAck(3));    // 1 and 2: one sample, from the newest (2: 50 ms)
  send(C2S, 80, data(3, 80));  // lost
  send(C2S, 90, data(4, 90));
  send(S2C, 140, cumAck(3));  // duplicate ack: 3 is missing
  send(C2S, 140, data(3, 140));
  send(S2C, 190, cumAck(5));  // covers the copy of 3: 4's 100 ms would time the hole, not the path
  auto m = a.finish();
  const auto& cs = m.dir[0];
  REQUIRE(r.rtt.size() == 2);
  CHECK(r.rtt[0].source == RttSource::SeqAck);
  CHECK(r.rtt[0].rtt_ms == Approx(50));
  CHECK(r.rtt[0].data_frame == 1);
  CHECK(r.rtt[1].rtt_ms == Approx(50));
  CHECK(r.rtt[1].data_frame == 3);
  CHECK(cs.retransmissions == 1);
  CHECK(cs.retransmissions_fast == 1);
  CHECK(cs.lost == 0);
  REQUIRE(r.retx.size() == 1);
  CHECK(r.retx[0].since_previous_ms == Approx(60));
}

namespace {
Segment nak(uint32_t first, uint32_t last) {
  Seg s;
  s.pureAck(0, 0);
  s.s.has = Segment::Nak;
  s.s.nak_first = first;
  s.s.nak_last = last;
  return s.s;
}
}  // namespace

TEST_CASE("a loss list (NAK) makes the copy that follows it NAK-driven, however slow the sender") {
  Recorder r;
  AnalyzerConfig cfg;
  Contract c = styled(AckStyle::Cumulative, false);
  c.rto_min_ms = 300;
  ContractAnalyzer a(c, cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t us, Segment s) { a.onPacket(++f, us * 1000, d, &s, 1, 100); };
  // Seen at the sender: 80 ms round trips; 2, 4 and 5 lost; the peer NAKs a
  // gap when the next seq arrives and sends no duplicate acks.
  send(C2S, 0, data(0, 0));
  send(C2S, 10000, data(1, 10));
  send(C2S, 20000, data(2, 20));
  send(C2S, 30000, data(3, 30));
  send(C2S, 40000, data(4, 40));
  send(C2S, 50000, data(5, 50));
  send(C2S, 60000, data(6, 60));
  send(S2C, 80000, cumAck(1));
  send(S2C, 90000, cumAck(2));
  send(S2C, 110000, nak(2, 2));  // the copy of 2 leaves 900 us later (a busy sender)
  send(C2S, 110900, data(2, 110));
  send(S2C, 140000, nak(4, 5));  // a range
  send(C2S, 140040, data(4, 140));
  send(C2S, 140060, data(5, 140));
  send(C2S, 500000, data(3, 500));  // the acks after the copies were lost: 3 leaves on the timer
  send(S2C, 580000, cumAck(7));
  auto m = a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 4);
  CHECK(cs.retransmissions_fast == 3);
  CHECK(cs.retransmissions_timeout == 1);
  CHECK(cs.retransmissions_spurious == 0);
  REQUIRE(r.retx.size() == 4);
  CHECK(r.retx[0].seq == 2);
  CHECK(r.retx[0].cause == RetxCause::Fast);
  CHECK(r.retx[3].seq == 3);
  CHECK(r.retx[3].cause == RetxCause::Timeout);
}

TEST_CASE("per-segment acks with una (KCP): several segments in one datagram") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(styled(AckStyle::PerSegment, true), cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t ms, std::vector<Segment> segs) {
    a.onPacket(++f, ms * kMs, d, segs.data(), segs.size(), 200);
  };
  send(C2S, 0, {data(10, 1000), data(11, 1000), data(12, 1000)});  // the receiver never gets 11
  send(S2C, 40, {kcpAck(10, 11, 1000), kcpAck(12, 11, 1000)});     // 11 missing behind 12
  send(C2S, 40, {data(11, 1040)});                                 // fast
  send(S2C, 80, {kcpAck(11, 13, 1040), data(500, 7000)});
  auto m = a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 1);
  CHECK(cs.retransmissions_fast == 1);
  CHECK(cs.lost == 0);
  CHECK(cs.rtt.samples == 3);  // echo of 10's ts, of 12's (same ts, other seq), of 11's copy
  CHECK(cs.rtt.max == Approx(40));
  CHECK(m.dir[0].packets == 2);
  CHECK(m.dir[1].packets == 2);
}

TEST_CASE("per-segment style: a data segment's una alone acknowledges") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(styled(AckStyle::PerSegment, true), cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t ms, Segment s) { a.onPacket(++f, ms * kMs, d, &s, 1, 100); };
  send(C2S, 0, data(10, 1000));
  send(C2S, 10, data(11, 1010));
  Segment push = data(500, 7000);  // a server data segment carrying una = 12
  push.una = 12;
  push.has |= Segment::Una;
  send(S2C, 60, push);
  auto m = a.finish();
  CHECK(m.dir[0].lost == 0);
  CHECK(m.dir[0].loss_unknown == 0);
  CHECK(m.dir[0].stalls.empty());
}

TEST_CASE("a jump of the seqs far ahead restarts the window instead of walking to it") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(grudpContract(), cfg, &r);
  Feeder f{a};
  f.send(C2S, 0, Seg().data(100, 0));
  f.send(C2S, 33 * kMs, Seg().data(101, 33));
  f.send(S2C, 50 * kMs, Seg().data(5, 1).ack(0x80000000u, 0, 0));  // garbage ack: ignored
  f.send(C2S, 66 * kMs, Seg().data(0x40000000u, 66));              // new numbering
  f.send(C2S, 99 * kMs, Seg().data(0x40000002u, 99));
  f.send(S2C, 120 * kMs, Seg().data(6, 2).ack(0x40000002u, 0b10, 99));
  auto m = a.finish();
  CHECK(m.dir[0].lost == 1);          // 0x40000001
  CHECK(m.dir[0].loss_unknown == 2);  // 100 and 101: never acked
  CHECK(m.dir[0].retransmissions == 0);
}

TEST_CASE("an ack exactly 2^31 from the highest seq is ignored, not walked to (fuzz timeout b3302f)") {
  // At a distance of exactly 2^31 serial arithmetic calls each number
  // "before" the other; the window once walked 2^31 seqs here.
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(grudpContract(), cfg, &r);
  Feeder f{a};
  f.send(C2S, 0, Seg().data(100, 0));
  f.send(C2S, 33 * kMs, Seg().data(101, 33));
  f.send(S2C, 50 * kMs, Seg().data(5, 1).ack(101u + 0x80000000u, 0, 0));
  f.send(S2C, 60 * kMs, Seg().data(6, 2).ack(101, 0b1, 33));
  auto m = a.finish();
  CHECK(m.dir[0].lost == 0);
  CHECK(m.dir[0].loss_unknown == 0);
  CHECK(m.dir[0].rtt.samples == 1);
  CHECK(a.memoryBytes() < 200000);
}
