// RTT from ts_echo, vantage detection, handshake, wrap at 2^32 and 2^16.
#include <catch2/catch.hpp>

#include "harness.h"

using namespace anatest;

namespace {
// A handshake and one exchange as a capture at the client sees it: the
// client's packets when sent, the server's when they arrive (one-way 25 ms,
// the server answers at once, the client acks after 10 ms and 2 ms).
void clientSideExchange(Feeder& f) {
  f.send(C2S, 0, Seg().data(100, 1000, Reliability::Reliable).role(SegmentRole::Connect));
  f.send(S2C, 50 * kMs,
         Seg().data(500, 9025, Reliability::Reliable).role(SegmentRole::Accept).ack(100, 0, 1000));
  f.send(C2S, 60 * kMs, Seg().data(101, 1060).ack(500, 0, 9025));
  f.send(S2C, 110 * kMs, Seg().data(501, 9085).ack(101, 1, 1060));
  f.send(C2S, 112 * kMs, Seg().data(102, 1112).ack(501, 1, 9085));
}
}  // namespace

TEST_CASE("ts_echo RTT samples at the client are exact round trips") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(grudpContract(), cfg, &r);
  Feeder f{a};
  clientSideExchange(f);
  REQUIRE(r.rtt.size() == 4);
  CHECK(r.rtt[0].dir == C2S);
  CHECK(r.rtt[0].rtt_ms == Approx(50.0));
  CHECK(r.rtt[0].frame == 2);
  CHECK(r.rtt[0].data_frame == 1);
  CHECK(r.rtt[1].dir == S2C);
  CHECK(r.rtt[1].rtt_ms == Approx(10.0));
  CHECK(r.rtt[1].span == RttSpan::ReceiverDelay);  // vantage known after the second sample
  CHECK(r.rtt[2].rtt_ms == Approx(50.0));
  CHECK(r.rtt[2].span == RttSpan::RoundTrip);
  CHECK(r.rtt[3].rtt_ms == Approx(2.0));
  auto m = a.finish();
  CHECK(m.vantage == Vantage::Client);
  CHECK(m.handshake_ms == Approx(60.0));  // CONNECT .. the ack of ACCEPT
  CHECK(m.connect_attempts == 1);
  CHECK(m.dir[0].rtt.samples == 2);
  CHECK(m.dir[0].rtt.p50 == Approx(50.0));
  CHECK(m.dir[0].rtt.span == RttSpan::RoundTrip);
  CHECK(m.dir[1].rtt.span == RttSpan::ReceiverDelay);
  CHECK(m.dir[0].lost == 0);
  CHECK(m.dir[0].retransmissions == 0);
  CHECK(m.dir[0].packets == 3);
  CHECK(m.dir[1].packets == 2);
  // Rates per 100 ms, reported as buckets close: the server's first bucket
  // closes at 110 ms, the client's at 112 ms, the rest at finish().
  REQUIRE(r.rates.size() == 4);
  CHECK(r.rates[0].dir == S2C);
  CHECK(r.rates[0].packets == 1);
  CHECK(r.rates[1].dir == C2S);
  CHECK(r.rates[1].start_ns == 0);
  CHECK(r.rates[1].packets == 2);
  CHECK(r.rates[1].bytes == 2 * 106);
  CHECK(r.rates[2].dir == C2S);
  CHECK(r.rates[2].start_ns == 100 * kMs);
  CHECK(r.rates[3].dir == S2C);
}

TEST_CASE("the same (ack, ts_echo) gives one sample, a server-side capture is detected") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(grudpContract(), cfg, &r);
  Feeder f{a};
  // At the server: client packets on arrival, server packets when sent.
  f.send(C2S, 0, Seg().data(100, 1000, Reliability::Reliable).role(SegmentRole::Connect));
  f.send(S2C, 1 * kMs,
         Seg().data(500, 9001, Reliability::Reliable).role(SegmentRole::Accept).ack(100, 0, 1000));
  f.send(C2S, 60 * kMs, Seg().data(101, 1035).ack(500, 0, 9001));
  f.send(S2C, 61 * kMs, Seg().pureAck(501, 9061).ack(101, 1, 1035));
  f.send(S2C, 70 * kMs, Seg().pureAck(501, 9070).ack(101, 1, 1035));  // same pair: no sample
  REQUIRE(r.rtt.size() == 3);
  auto m = a.finish();
  CHECK(m.vantage == Vantage::Server);
  CHECK(m.dir[1].rtt.samples == 1);
  CHECK(m.dir[1].rtt.min == Approx(59.0));
  CHECK(m.dir[1].rtt.span == RttSpan::RoundTrip);
  CHECK(m.dir[0].rtt.span == RttSpan::ReceiverDelay);
}

TEST_CASE("seqs wrap at 2^32: loss and retransmission across the wrap") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer b(grudpContract(), cfg, &r);
  Feeder g{b};
  g.send(C2S, 0, Seg().data(0xFFFFFFFEu, 5000, Reliability::Reliable).role(SegmentRole::Connect));
  g.send(S2C, 50 * kMs,
         Seg().data(7, 100, Reliability::Reliable).role(SegmentRole::Accept).ack(0xFFFFFFFEu, 0, 5000));
  g.send(C2S, 52 * kMs, Seg().data(0xFFFFFFFFu, 5052).ack(7, 0, 100));               // lost on the way
  g.send(C2S, 85 * kMs, Seg().data(0, 5085, Reliability::Reliable).ack(7, 0, 100));  // lost too
  g.send(C2S, 118 * kMs, Seg().data(1, 5118).ack(7, 0, 100));
  // The server saw 0xFFFFFFFE and 1: bitmap behind 1 has bit 2 (0xFFFFFFFE).
  g.send(S2C, 168 * kMs, Seg().data(8, 218).ack(1, 0b100, 5118));
  g.send(C2S, 170 * kMs, Seg().data(0, 5170, Reliability::Reliable).ack(8, 1, 218));  // a copy 85 ms later
  g.send(S2C, 220 * kMs, Seg().data(9, 270).ack(1, 0b101, 5118));
  g.send(C2S, 222 * kMs, Seg().data(2, 5222).ack(9, 0b11, 270));
  auto m = b.finish();
  CHECK(m.vantage == Vantage::Client);
  const auto& cs = m.dir[0];
  CHECK(cs.retransmissions == 1);
  REQUIRE(r.retx.size() == 1);
  CHECK(r.retx[0].seq == 0);
  CHECK(r.retx[0].attempt == 2);
  CHECK(r.retx[0].since_previous_ms == Approx(85.0));
  CHECK(r.retx[0].original_frame == 4);
  CHECK(r.retx[0].cause == RetxCause::Timeout);  // the hole ack came 2 ms before: not its trigger
  CHECK(cs.lost == 1);                           // 0xFFFFFFFF, unreliable, never acked
  REQUIRE(r.loss.size() == 1);
  CHECK(r.loss[0].first_seq == 0xFFFFFFFFu);
  CHECK(cs.loss_bursts.at(1) == 1);
  CHECK(cs.loss_unknown == 1);  // seq 2: sent after the last ack
}

TEST_CASE("16-bit seqs wrap at 2^16") {
  Recorder r;
  AnalyzerConfig cfg;
  ContractAnalyzer a(grudpContract(16), cfg, &r);
  Feeder f{a};
  f.send(C2S, 0, Seg().data(65534, 100, Reliability::Reliable).role(SegmentRole::Connect));
  f.send(S2C, 40 * kMs,
         Seg().data(10, 50, Reliability::Reliable).role(SegmentRole::Accept).ack(65534, 0, 100));
  f.send(C2S, 41 * kMs, Seg().data(65535, 141).ack(10, 0, 50));
  f.send(C2S, 74 * kMs, Seg().data(0, 174).ack(10, 0, 50));
  f.send(C2S, 107 * kMs, Seg().data(1, 207).ack(10, 0, 50));
  // Received 65534, 0, 1: ack 1, bit0 = 0, bit1 = 65535 (missing), bit2 = 65534.
  f.send(S2C, 150 * kMs, Seg().data(11, 160).ack(1, 0b101, 207));
  auto m = a.finish();
  CHECK(m.dir[0].lost == 1);
  REQUIRE(r.loss.size() == 1);
  CHECK(r.loss[0].first_seq == 65535);
  CHECK(m.dir[0].reordered == 0);
  CHECK(m.dir[0].rtt.samples == 2);
  CHECK(r.rtt.back().rtt_ms == Approx(43.0));
}
