// The two-level analyzer (contract version 2) on hand-built datagrams:
// resend causes, split messages, losses placed between their neighbours,
// RTT from packet acks, head-of-line blocking by ordering index, and the
// one-value-per-datagram rule.
#include <catch2/catch.hpp>

#include "analyzers/two_level_analyzer.h"
#include "harness.h"

using namespace anatest;

namespace {

constexpr Direction kCs = Direction::ClientToServer, kSc = Direction::ServerToClient;

Message reliable(uint32_t id, MessageClass cls = MessageClass::Reliable) {
  Message m;
  m.has_id = true;
  m.id = id;
  m.cls = cls;
  return m;
}

Message ordered(uint32_t id, uint32_t index, uint32_t channel = 0) {
  Message m = reliable(id, MessageClass::ReliableOrdered);
  m.has_order = true;
  m.order_index = index;
  m.channel = channel;
  return m;
}

Message fragment(uint32_t id, uint32_t split_id, uint32_t index, uint32_t count) {
  Message m = reliable(id, MessageClass::ReliableOrdered);
  m.split = true;
  m.split_id = split_id;
  m.split_index = index;
  m.split_count = count;
  return m;
}

TwoLevelDatagram packet(uint32_t number, std::vector<Message> msgs) {
  TwoLevelDatagram d;
  d.has_number = true;
  d.number = number;
  d.messages = std::move(msgs);
  return d;
}

TwoLevelDatagram acks(std::vector<AckRecord> records, bool nak = false) {
  TwoLevelDatagram d;
  d.acks = std::move(records);
  d.nak = nak;
  return d;
}

struct Run {
  Recorder rec;
  AnalyzerConfig cfg;
  TwoLevelContract contract;
  TwoLevelAnalyzer a{contract, cfg, &rec};
  uint64_t frame = 0;
  void feed(int64_t ms, Direction dir, const TwoLevelDatagram& d) {
    a.onPacket(++frame, ms * kMs, dir, d, 100);
  }
};

}  // namespace

TEST_CASE("a resend's cause comes from its previous copy's packet: NAKed, acknowledged, or neither") {
  Run r;
  r.feed(0, kCs, packet(0, {reliable(0)}));
  r.feed(1, kCs, packet(1, {reliable(1)}));
  r.feed(2, kCs, packet(2, {reliable(2)}));
  r.feed(30, kSc, acks({{1, 1}}));             // frame 4: packet 1 arrived
  r.feed(31, kSc, acks({{0, 0}}, true));       // frame 5: packet 0 did not
  r.feed(32, kCs, packet(3, {reliable(0)}));   // frame 6: fast, after the NAK
  r.feed(40, kCs, packet(4, {reliable(1)}));   // frame 7: spurious, its packet was acked
  r.feed(400, kCs, packet(5, {reliable(2)}));  // frame 8: timeout
  const ConnectionMetrics m = r.a.finish();
  const DirectionMetrics& cs = m.dir[0];
  CHECK(cs.retransmissions == 3);
  CHECK(cs.retransmissions_fast == 1);
  CHECK(cs.retransmissions_spurious == 1);
  CHECK(cs.retransmissions_timeout == 1);
  REQUIRE(r.rec.retx.size() == 3);
  CHECK(r.rec.retx[0].frame == 6);
  CHECK(r.rec.retx[0].cause == RetxCause::Fast);
  CHECK(r.rec.retx[0].original_frame == 1);
  CHECK(r.rec.retx[1].cause == RetxCause::Spurious);
  CHECK(r.rec.retx[2].cause == RetxCause::Timeout);
  CHECK(r.rec.retx[2].since_previous_ms == Approx(398.0));
  // The NAK is a datagram lost after the capture point.
  CHECK(cs.lost == 1);
  REQUIRE(r.rec.loss.size() == 1);
  CHECK(r.rec.loss[0].first_frame == 1);
  // One RTT sample: packet 1 (frame 2, 1 ms) acked at 30 ms.
  REQUIRE(r.rec.rtt.size() == 1);
  CHECK(r.rec.rtt[0].rtt_ms == Approx(29.0));
  CHECK(r.rec.rtt[0].data_frame == 2);
  CHECK(cs.rtt.samples == 1);
}

TEST_CASE("the fragments of one split message resent together are one resend") {
  Run r;
  for (uint32_t i = 0; i < 4; ++i) r.feed(int64_t(i), kCs, packet(i, {fragment(10 + i, 7, i, 4)}));
  for (uint32_t i = 0; i < 4; ++i) r.feed(500 + int64_t(i), kCs, packet(4 + i, {fragment(10 + i, 7, i, 4)}));
  // A second round of one fragment is the message's third copy: one more resend.
  r.feed(1200, kCs, packet(8, {fragment(12, 7, 2, 4)}));
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].retransmissions == 2);
  REQUIRE(r.rec.retx.size() == 2);
  CHECK(r.rec.retx[0].frame == 5);
  CHECK(r.rec.retx[0].attempt == 2);
  CHECK(r.rec.retx[1].frame == 9);
  CHECK(r.rec.retx[1].attempt == 3);
  CHECK(m.dir[0].data_packets == 9);
}

TEST_CASE("datagrams lost before the capture are placed between the neighbours that arrived") {
  Run r;
  r.feed(0, kSc, packet(0, {}));
  r.feed(10, kSc, packet(1, {}));
  r.feed(50, kSc, packet(5, {}));  // 2, 3, 4 lost: the run starts at 10 + 40 / 4 ms
  r.feed(60, kSc, packet(4, {}));  // a late arrival below the highest is reordering, not a loss taken back
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[1].lost == 3);
  CHECK(m.dir[1].loss_bursts == std::map<uint32_t, uint64_t>{{3, 1}});
  CHECK(m.dir[1].reordered == 1);
  REQUIRE(r.rec.loss.size() == 1);
  CHECK(r.rec.loss[0].ts_ns == 20 * kMs);
  CHECK(r.rec.loss[0].count == 3);
  CHECK(r.rec.loss[0].frame == 3);
}

TEST_CASE("24-bit packet numbers wrap and keep counting") {
  Run r;
  r.feed(0, kCs, packet(0xFFFFFE, {reliable(0xFFFFFF)}));
  r.feed(1, kCs, packet(0xFFFFFF, {}));
  r.feed(2, kCs, packet(1, {reliable(0)}));  // 0 lost across the wrap
  r.feed(9, kSc, acks({{0xFFFFFE, 1}}));
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].lost == 1);
  CHECK(m.dir[0].rtt.samples == 1);
  CHECK(m.dir[0].response.samples == 2);
  CHECK(m.dir[0].retransmissions == 0);
}

TEST_CASE("head-of-line blocking waits for the earlier ordering index, per channel") {
  Run r;
  r.feed(0, kCs, packet(0, {ordered(0, 0, 1)}));
  r.feed(10, kCs, packet(2, {ordered(2, 2, 1)}));  // index 1 (packet 1) arrives later
  r.feed(20, kCs, packet(3, {ordered(3, 3, 1)}));
  r.feed(25, kCs, packet(4, {ordered(4, 0, 2)}));  // another channel is not blocked
  r.feed(50, kCs, packet(1, {ordered(1, 1, 1)}));
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].hol_blocked_packets == 2);
  CHECK(m.dir[0].hol_blocking_ms == Approx(40.0 + 30.0));
  CHECK(m.dir[0].hol_max_ms == Approx(40.0));
}

TEST_CASE("a datagram with two packet numbers is counted but not analysed") {
  Run r;
  TwoLevelDatagram d = packet(0, {reliable(0)});
  d.repeated_number = true;
  r.feed(0, kCs, d);
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].packets == 1);
  CHECK(m.dir[0].data_packets == 0);
}

TEST_CASE("a NAK of consecutive packets is one loss run, and events carry the numbers as sent") {
  Run r;  // 24-bit packet numbers
  const uint32_t numbers[] = {0xFFFFFE, 0xFFFFFF, 0, 1};
  for (uint32_t i = 0; i < 4; ++i) r.feed(int64_t(i), kCs, packet(numbers[i], {reliable(7 + i)}));
  r.feed(20, kSc, acks({{0xFFFFFE, 0xFFFFFF}, {1, 1}}, true));  // 0xFFFFFE, 0xFFFFFF and 1; 0 arrived
  r.feed(21, kSc, acks({{0, 0}}));
  r.feed(22, kCs, packet(2, {reliable(7)}));
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].lost == 3);
  CHECK(m.dir[0].loss_bursts == std::map<uint32_t, uint64_t>{{1, 1}, {2, 1}});
  REQUIRE(r.rec.loss.size() == 2);
  CHECK(r.rec.loss[0].first_seq == 0xFFFFFE);
  CHECK(r.rec.loss[0].count == 2);
  CHECK(r.rec.loss[0].first_frame == 1);
  CHECK(r.rec.loss[1].first_seq == 1);
  REQUIRE(r.rec.retx.size() == 1);
  CHECK(r.rec.retx[0].seq == 7);
  CHECK(r.rec.retx[0].cause == RetxCause::Fast);
}

TEST_CASE("a split message gives one response time: first fragment sent to its last fragment delivered") {
  Run r;
  r.feed(0, kCs, packet(0, {fragment(10, 7, 0, 3)}));
  r.feed(5, kCs, packet(1, {fragment(11, 7, 1, 3)}));
  r.feed(6, kCs, packet(2, {fragment(12, 7, 2, 3)}));
  r.feed(7, kCs, packet(3, {reliable(20)}));
  r.feed(40, kSc, acks({{0, 1}, {3, 3}}));  // fragment 2's packet lost
  r.feed(300, kCs, packet(4, {fragment(12, 7, 2, 3)}));
  r.feed(340, kSc, acks({{4, 4}}));
  const ConnectionMetrics m = r.a.finish();
  // Message 20: 7 -> 40 ms; the split message: 0 -> 340 ms, once.
  CHECK(m.dir[0].response.samples == 2);
  CHECK(m.dir[0].response.min == Approx(33.0));
  CHECK(m.dir[0].response.max == Approx(340.0));
}

TEST_CASE("the spacing of a direction is its datagrams that carry a first copy or an unreliable message") {
  Run r;
  Message snapshot;  // unreliable
  for (uint32_t i = 0; i < 10; ++i) r.feed(int64_t(i) * 50, kCs, packet(i, {reliable(i)}));
  r.feed(460, kCs, packet(10, {reliable(3)}));  // resends only: not part of the tick
  r.feed(500, kCs, packet(11, {snapshot}));
  r.feed(550, kCs, packet(12, {reliable(3), reliable(10)}));
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].gaps.samples == 11);
  CHECK(m.dir[0].gaps.max == Approx(50.0));
  CHECK(m.dir[0].gaps.p50 == Approx(50.0));
  CHECK(m.dir[0].gaps.tick_hz == 20.0);
  CHECK_FALSE(m.dir[0].jitter_ms.has_value());
}

TEST_CASE("a message unacknowledged for 65536 packets is no longer outstanding") {
  Run r;
  r.feed(0, kCs, packet(0, {reliable(0)}));  // never acknowledged
  const uint32_t n = uint32_t(TwoLevelAnalyzer::kKeepPackets) + 2;
  for (uint32_t i = 1; i <= n; ++i) {
    r.feed(int64_t(i), kCs, packet(i, {reliable(i)}));
    r.feed(int64_t(i) + 1, kSc, acks({{i, i}}));
  }
  // Five idle seconds, then one message acknowledged 40 ms later: a wait of
  // 40 ms, not one from the last ack before the idle time.
  const int64_t later = int64_t(n) + 5000;
  r.feed(later, kCs, packet(n + 1, {reliable(n + 1)}));
  r.feed(later + 40, kSc, acks({{n + 1, n + 1}}));
  const ConnectionMetrics m = r.a.finish();
  CHECK(m.dir[0].stalls.empty());
  CHECK(m.dir[0].response.samples == n + 1);
}
