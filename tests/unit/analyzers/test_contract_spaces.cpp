// Contract features of ENet and KCP: independent seq spaces selected by a
// field (ENet channels, 0xFF included), numberings of never-retransmitted
// segments (ENet unreliable / unsequenced), and a sender that repeats fast
// retransmissions and sends them on its next flush (KCP, retx table).
#include <catch2/catch.hpp>

#include "harness.h"

using namespace anatest;

namespace {
// ENet-like: per-segment acks (an ACK carries the channel of what it acks),
// ts echo, one seq space per channel, two unreliable numberings.
Contract enetLike() {
  Contract c = grudpContract(16);
  c.ack_style = AckStyle::PerSegment;
  c.ack_bitmap = -1;
  c.seq_space = 7;  // the channel field
  c.seq_reliable_only = true;
  c.unreliable_seq.push_back({20, 16, 2, 7});    // useq, group = reliable seq, per channel
  c.unreliable_seq.push_back({21, 16, -1, -1});  // unsequenced group
  return c;
}
Segment rel(uint32_t channel, uint32_t seq, uint32_t ts, SegmentRole role = SegmentRole::Data) {
  Seg s;
  s.data(seq, ts, Reliability::Reliable, channel);
  s.s.role = role;
  s.s.space = channel;
  s.s.has |= Segment::Space;
  return s.s;
}
Segment ackOf(uint32_t channel, uint32_t seq, uint32_t echo) {
  Seg s;
  s.pureAck(0, 0);
  s.s.ack = seq;
  s.s.ts_echo = echo;
  s.s.channel = s.s.space = channel;
  s.s.has |= Segment::Ack | Segment::Echo | Segment::Channel | Segment::Space;
  return s.s;
}
Segment unrel(uint32_t channel, uint32_t group, uint32_t useq, uint32_t ts) {
  Segment s;
  s.role = SegmentRole::Data;
  s.reliability = Reliability::Unreliable;
  s.ts = ts;
  s.channel = s.space = channel;
  s.has = Segment::Ts | Segment::Channel | Segment::Space;
  s.numbers[0].set(Segment::Numbers::Number, useq);
  s.numbers[0].set(Segment::Numbers::Group, group);
  s.numbers[0].set(Segment::Numbers::Space, channel);
  return s;
}
Segment unseq(uint32_t group, uint32_t ts) {
  Segment s;
  s.role = SegmentRole::Data;
  s.reliability = Reliability::Unsequenced;
  s.ts = ts;
  s.has = Segment::Ts;
  s.numbers[1].set(Segment::Numbers::Number, group);
  return s;
}
}  // namespace

TEST_CASE("seq spaces: the same numbers on two channels are different seqs, acks go by their channel") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(enetLike(), cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t ms, std::vector<Segment> segs) {
    a.onPacket(++f, ms * kMs, d, segs.data(), segs.size(), 100);
  };
  send(C2S, 0, {rel(0xFF, 1, 0, SegmentRole::Connect)});
  send(S2C, 10, {ackOf(0xFF, 1, 0), rel(0xFF, 1, 10, SegmentRole::Accept)});
  send(C2S, 20, {ackOf(0xFF, 1, 10), rel(0, 1, 20), rel(0, 2, 20)});  // channel 0 starts at 1 too
  send(S2C, 30, {ackOf(0, 1, 20)});                                   // 2 was lost
  send(C2S, 40, {rel(0xFF, 2, 40, SegmentRole::Ping)});
  send(S2C, 50, {ackOf(0xFF, 2, 40)});
  send(C2S, 520, {rel(0, 2, 520)});  // resent on its timer
  send(S2C, 530, {ackOf(0, 2, 520)});
  send(C2S, 540, {rel(0xFF, 3, 540, SegmentRole::Ping)});  // never acked: resent
  send(C2S, 1040, {rel(0xFF, 3, 1040, SegmentRole::Ping)});
  send(S2C, 1050, {ackOf(0xFF, 3, 1040)});
  auto m = a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 2);
  CHECK(cs.retransmissions_timeout == 2);
  REQUIRE(r.retx.size() == 2);
  CHECK(r.retx[0].seq == 2);
  CHECK(r.retx[1].seq == 3);
  CHECK(cs.lost == 0);
  CHECK(cs.reordered == 0);
  CHECK(cs.network_duplicates == 0);
  CHECK(cs.rtt.samples == 5);  // every echo finds its copy in its channel
  CHECK(m.dir[1].rtt.samples == 1);
  CHECK(m.handshake_ms == Approx(20));  // CONNECT to the ack of the ACCEPT (VERIFY_CONNECT)
}

TEST_CASE(
    "unreliable numberings: a skipped number is lost, per channel and group; a late one is taken back") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(enetLike(), cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t ms, std::vector<Segment> segs) {
    a.onPacket(++f, ms * kMs, d, segs.data(), segs.size(), 100);
  };
  send(C2S, 0, {rel(0xFF, 1, 0, SegmentRole::Connect)});
  send(C2S, 33, {unrel(1, 0, 1, 33), unseq(1, 33)});
  send(C2S, 66, {unrel(1, 0, 3, 66)});                    // useq 2 lost
  send(C2S, 100, {unrel(1, 0, 2, 100), unseq(3, 100)});   // 2 late after all; unsequenced 2 lost
  send(C2S, 133, {unrel(2, 0, 2, 133)});                  // channel 2 began at 2: 1 lost
  send(C2S, 166, {rel(1, 1, 166), unrel(1, 1, 2, 166)});  // after reliable 1 the numbers restart: 1 lost
  send(C2S, 200, {unrel(1, 0, 4, 200)});                  // a late one of an older group: nothing
  auto m = a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.lost == 3);
  CHECK(cs.reordered == 1);
  CHECK(cs.retransmissions == 0);
  CHECK(r.loss.size() == 4);    // reported when skipped (the late one's stays in the events)
  CHECK(cs.gaps.samples == 5);  // one gap per datagram with a new number (not the late ones)
}

TEST_CASE(
    "retx.fast_repeat and fast_deferred: a fast copy may wait for the next flush, repeat, and a timer copy "
    "stays a timeout") {
  Contract c = grudpContract();
  c.ack_style = AckStyle::PerSegment;
  c.ack_bitmap = -1;
  c.una = 10;
  c.rto_min_ms = 100;
  c.fast_repeat = true;
  c.fast_deferred = true;
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(c, cfg, &r);
  uint64_t f = 0;
  auto send = [&](Direction d, int64_t ms, std::vector<Segment> segs) {
    a.onPacket(++f, ms * kMs, d, segs.data(), segs.size(), 100);
  };
  auto data = [](uint32_t seq, uint32_t ts) {
    Seg s;
    s.data(seq, ts, Reliability::Reliable);
    return s.s;
  };
  auto ack = [](uint32_t sn, uint32_t una, uint32_t echo) {
    Seg s;
    s.pureAck(0, 0);
    s.s.ack = sn;
    s.s.una = una;
    s.s.ts_echo = echo;
    s.s.has |= Segment::Ack | Segment::Una | Segment::Echo;
    return s.s;
  };
  for (uint32_t i = 0; i < 10; ++i) {  // RTT samples of 2 ms: the timer is the 100 ms floor
    send(C2S, 10 * i, {data(i, 10 * i)});
    send(S2C, 10 * i + 2, {ack(i, i + 1, 10 * i)});
  }
  send(C2S, 200, {data(10, 200), data(11, 200)});
  send(S2C, 202, {ack(11, 10, 200)});  // 10 missing
  send(C2S, 230, {data(10, 230)});     // next flush, 28 ms after the ack: fast
  send(C2S, 240, {data(12, 240)});
  send(S2C, 242, {ack(12, 10, 240)});   // 10 missing again
  send(C2S, 270, {data(10, 270)});      // fast once more
  send(C2S, 280, {data(20 - 7, 280)});  // seq 13, lost
  send(C2S, 400, {data(13, 400)});      // 120 ms later, no ack showed it missing: timeout
  send(S2C, 402, {ack(10, 14, 270)});
  auto m = a.finish();
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 3);
  CHECK(cs.retransmissions_fast == 2);
  CHECK(cs.retransmissions_timeout == 1);
  CHECK(cs.lost == 0);
}
