// Connection analyzers: configuration, streaming events and the sink.
//
// How to use (see contract_analyzer.h and tcp_analyzer.h):
//   ana::AnalyzerConfig cfg;                      // stall threshold, RTT limits
//   ana::ContractAnalyzer a(contract, cfg, &sink);   // one per connection
//   a.onPacket(frame, ts_ns, dir, segs.data(), segs.size(), wire_bytes);
//   ...                                           // every packet, capture order
//   ana::ConnectionMetrics m = a.finish();        // once, at the end
//
// Events are pushed to the sink while packets are fed, so the caller can
// write them out without keeping per-packet history. Events are emitted in
// detection order, which is usually but not always frame order: a
// retransmission inferred from a later packet's timestamp, a loss judged once
// the peer's acks have moved on and a stall closed by an ack are reported
// when the evidence arrives (their `frame` fields still name the packets).
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "flow/connection.h"

namespace rudp::ana {

// Where the capture was taken, detected from the traffic (see vantage.h).
enum class Vantage : uint8_t { Unknown, Client, Server, Middle };
const char* toString(Vantage v);

struct AnalyzerConfig {
  double stall_ms = 200.0;                                   // stall threshold
  std::array<double, 3> rtt_limits_ms{150.0, 250.0, 300.0};  // share of samples above
  double rto_min_ms = 200.0;                                 // RFC 6298 lower bound (games use 200, not 1 s)
  double rto_max_ms = 60000.0;
  uint32_t exact_rtt_samples = 8192;  // per direction; beyond: 0.1 ms histogram
};

enum class RttSource : uint8_t {
  TsEcho,        // capture(ack) - capture(copy whose ts the ack echoes); no Karn ambiguity
  SeqAck,        // first ack covering a seq sent once (Karn's rule)
  TcpAck,        // TCP ack of a segment sent once (Karn's rule)
  TcpTimestamp,  // TCP TSecr echoing a TSval
  InferredEcho,  // a flow no dissector claims: a field found echoing the counter (field_inference.h)
  SpinBit,       // QUIC without keys: one spin edge to the next in one direction (RFC 9000 17.4)
};
const char* toString(RttSource s);

// What an RTT sample measures depends on where the capture is (see vantage.h):
// at the data's sender it is the full round trip; at the data's receiver it is
// the receiver's ack delay; in the middle it is the part of the round trip
// beyond the capture point.
enum class RttSpan : uint8_t { Unknown, RoundTrip, ReceiverDelay, BeyondCapture };
const char* toString(RttSpan s);

struct RttEvent {
  uint64_t frame = 0;       // the packet carrying the ack
  uint64_t data_frame = 0;  // the captured copy of the acknowledged data
  int64_t ts_ns = 0;
  Direction dir{};  // direction whose data was acknowledged
  double rtt_ms = 0;
  RttSource source{};
  RttSpan span{};      // as known when emitted
  double srtt_ms = 0;  // RFC 6298 smoothed RTT after this sample
  double rto_ms = 0;   // RFC 6298 RTO after this sample
};

enum class RetxCause : uint8_t { Timeout, Fast, Spurious };
const char* toString(RetxCause c);

struct RetransmissionEvent {
  uint64_t frame = 0;  // this copy
  int64_t ts_ns = 0;
  Direction dir{};
  uint32_t seq = 0;
  uint64_t original_frame = 0;    // first captured copy (0: the original was not captured)
  uint64_t previous_frame = 0;    // previous captured copy (0: none captured)
  uint32_t attempt = 2;           // 2 = first retransmission; a lower bound when copies were missed
  double since_previous_ms = -1;  // -1: previous copy not captured
  RetxCause cause{};
};

struct LossEvent {
  uint64_t frame = 0;  // packet whose ack (or arrival) settled the loss
  int64_t ts_ns = 0;
  Direction dir{};
  uint32_t first_seq = 0;  // run of `count` consecutive lost seqs (a burst so far)
  uint32_t count = 1;
  uint64_t first_frame = 0;  // captured copy of first_seq (0: never captured)
};

// The last four are the silences of a flow analysed from timing alone
// (timing_analyzer.h): both directions quiet (a freeze); one direction quiet
// while the other kept sending, the quiet side being the capture host (a
// local hang), its peer (the peer or the path), or unknown.
enum class StallCause : uint8_t {
  RetransmissionTimeout,
  PeerSilent,
  ZeroWindow,
  AcksLost,
  BothQuiet,
  LocalQuiet,
  RemoteQuiet,
  OneSideQuiet,
};
const char* toString(StallCause c);

struct StallEvent {
  Direction dir{};  // direction whose data was waiting
  int64_t start_ns = 0, end_ns = 0;
  double duration_ms = 0;
  StallCause cause{};
  uint64_t first_frame = 0;      // the data packet that started the wait
  uint64_t last_frame = 0;       // the packet that ended it (ack; 0 if open)
  uint32_t retransmissions = 0;  // copies sent during the stall
  bool open = false;             // unresolved at the end of the capture
  bool estimated = false;        // rebuilt on the remote sender's timeline (remote_stall.h)
};

// A ticking stream's rate dropping or bursting (rate_watch.h).
enum class RateChangeKind : uint8_t { Drop, Burst };
const char* toString(RateChangeKind k);

struct RateChangeEvent {
  Direction dir{};
  RateChangeKind kind{};
  int64_t start_ns = 0, end_ns = 0;
  uint64_t first_frame = 0, last_frame = 0;
  uint64_t gaps = 0;    // packets in the run after its first
  double rate_hz = 0;   // gaps per second over the run
  double usual_hz = 0;  // one over the usual gap
  bool open = false;    // still going when the flow ends
};

// Traffic of one direction in one 100 ms bucket (only buckets with packets
// are reported; a missing bucket had none).
struct RateEvent {
  Direction dir{};
  int64_t start_ns = 0;  // bucket start: floor(ts / 100 ms) * 100 ms
  uint32_t packets = 0;
  uint64_t bytes = 0;  // wire bytes
};

// Analysis events of one connection (or one direction of it), each kind in
// the order the analyzers emitted it: what a timeline is drawn from.
struct EventLists {
  std::vector<RttEvent> rtts;
  std::vector<RetransmissionEvent> retransmissions;
  std::vector<LossEvent> losses;
  std::vector<StallEvent> stalls;
  std::vector<RateEvent> rates;
};

// The enumerator (of 0..last) whose toString() is `name`; `fallback` when none
// is (the store keeps these enums by name).
template <class E>
E fromString(std::string_view name, E last, E fallback) {
  for (int i = 0; i <= static_cast<int>(last); ++i)
    if (name == toString(static_cast<E>(i))) return static_cast<E>(i);
  return fallback;
}

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void onRate(const RateEvent&) {}
  virtual void onRtt(const RttEvent&) {}
  virtual void onRetransmission(const RetransmissionEvent&) {}
  virtual void onLoss(const LossEvent&) {}
  virtual void onStall(const StallEvent&) {}
};

}  // namespace rudp::ana
