// Helpers for analyzer tests: a GRUDP-like contract, segment builders and a
// sink that records every event.
#pragma once
#include <vector>

#include "analyzers/contract_analyzer.h"

namespace anatest {

using namespace rudp;
using namespace rudp::ana;

inline Contract grudpContract(int seq_bits = 32) {
  Contract c;
  c.proto = "grudp";
  c.conn_id = 0;
  c.kind = 1;
  c.seq = 2;
  c.ack = 3;
  c.ack_bitmap = 4;
  c.ts = 5;
  c.ts_echo = 6;
  c.channel = 7;
  c.length = 8;
  c.window = 9;
  c.seq_bits = seq_bits;
  c.ack_style = AckStyle::HighestBitmap;
  return c;
}

struct Recorder : EventSink {
  std::vector<RttEvent> rtt;
  std::vector<RetransmissionEvent> retx;
  std::vector<LossEvent> loss;
  std::vector<StallEvent> stalls;
  std::vector<RateEvent> rates;
  void onRate(const RateEvent& e) override { rates.push_back(e); }
  void onRtt(const RttEvent& e) override { rtt.push_back(e); }
  void onRetransmission(const RetransmissionEvent& e) override { retx.push_back(e); }
  void onLoss(const LossEvent& e) override { loss.push_back(e); }
  void onStall(const StallEvent& e) override { stalls.push_back(e); }
};

constexpr int64_t kMs = 1000000;

// One GRUDP-style segment.
struct Seg {
  Segment s;
  Seg& data(uint32_t seq, uint32_t ts, Reliability r = Reliability::Unreliable, uint32_t channel = 0) {
    s.role = SegmentRole::Data;
    s.consumes_seq = true;
    s.seq = seq;
    s.ts = ts;
    s.reliability = r;
    s.channel = channel;
    s.has |= Segment::Seq | Segment::Ts | Segment::Channel;
    return *this;
  }
  Seg& pureAck(uint32_t next_seq, uint32_t ts) {
    s.role = SegmentRole::Ack;
    s.consumes_seq = false;
    s.seq = next_seq;
    s.ts = ts;
    s.has |= Segment::Ts;
    return *this;
  }
  Seg& ack(uint32_t a, uint32_t bits, uint32_t echo) {
    s.ack = a;
    s.ack_bits = bits;
    s.ts_echo = echo;
    s.has |= Segment::Ack | Segment::AckBits | Segment::Echo;
    return *this;
  }
  Seg& role(SegmentRole r) {
    s.role = r;
    return *this;
  }
  Seg& window(uint32_t w) {
    s.window = w;
    s.has |= Segment::Window;
    return *this;
  }
};

// Feeds packets with increasing frame numbers.
struct Feeder {
  ContractAnalyzer& a;
  uint64_t frame = 0;
  uint64_t send(Direction d, int64_t ns, const Seg& seg) {
    a.onPacket(++frame, ns, d, &seg.s, 1, 74 + 32);
    return frame;
  }
};

constexpr Direction C2S = Direction::ClientToServer;
constexpr Direction S2C = Direction::ServerToClient;

}  // namespace anatest
