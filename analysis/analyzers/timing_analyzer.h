// The analyzer of a UDP flow no dissector claims: what timing alone tells.
//
//   TimingAnalyzer a(cfg, &sink, addressEvidence);
//   for each packet of the flow, in capture order:
//     a.onPacket(frame, ts_ns, dir, wire_bytes, ttl, payload, payload_len);
//   ConnectionMetrics m = a.finish();   // m.timing_only is set
//
// Without a dissector there are no sequence numbers or acks, so loss,
// retransmissions and RTT are unknown (the metrics leave them at zero and
// `timing_only` tells every view so). What is measured, per direction:
// packets, bytes, the gap distribution and the tick (jitter.h), rates per
// 100 ms, and silences:
// - a freeze: no packet either way for longer than the stall threshold and
//   kSilenceTicks median gaps of its faster direction (a request answered
//   once a second is a rhythm, not a freeze)
//   (StallCause::BothQuiet; its direction is the one that spoke last);
// - a one-sided silence: a direction quiet for longer than both the stall
//   threshold and kSilenceTicks of its median gap while the other direction
//   kept sending: no freeze inside it (else the freeze is the event; the
//   other side's packets still in flight when a freeze begins, or a lone
//   heartbeat inside a long quiet, do not make it one-sided). Its cause says who
//   went quiet as seen from the capture: LocalQuiet when the quiet side is
//   the capture host (a local hang), RemoteQuiet when it is the peer (the
//   peer or the path), OneSideQuiet when the capture cannot tell.
// Payloads: a sequence counter found in them (counter_inference.h) gives the
// packets lost before the capture, duplicates and reordering; a sender
// timestamp gives jitter, and an ack echo of the other direction's counter
// gives RTT samples (field_inference.h); all inferred, and
// DirectionMetrics::seq_field, ts_field and ack_field name the fields. The
// fields are chosen once, from both directions' first packets together (an
// echo is judged against the other side's counter): when both directions
// have kSample packets, or one has kPending, or at the end.
// Rate drops and bursts of a direction with a tick (rate_watch.h) are its
// rate_changes.
// Silences are judged only in a stream: a flow of at least kMinStreamPackets
// packets. A DNS-style exchange of a few datagrams seconds apart has gaps,
// not stalls.
// The capture host's side is known from the IP TTL / hop limit (packets a
// host sends leave with 64, 128 or 255 and every router lowers it) and,
// failing that, from the address: of a private and a public address the
// private one is on the capture's side of the NAT.
//
// O(1) per packet; memory: the gap histogram and at most kMaxCandidates
// silence candidates per direction.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "analyzers/counter_inference.h"
#include "analyzers/events.h"
#include "analyzers/field_inference.h"
#include "analyzers/jitter.h"
#include "analyzers/metrics.h"
#include "analyzers/rate_watch.h"
#include "analyzers/rates.h"
#include "analyzers/rtt.h"

namespace rudp::ana {

// Which endpoint is on the capture's side, from the addresses alone.
struct AddressEvidence {
  bool client_private = false, server_private = false;
};

class TimingAnalyzer {
 public:
  static constexpr double kSilenceTicks = 5;
  static constexpr uint64_t kMinStreamPackets = 50;
  // A tick is claimed only when this share of the gaps lie within
  // kTickTolerance of the median gap (one packet per tick, a little jitter);
  // else the flow has no steady tick and tick_hz stays 0.
  static constexpr double kMinOnTick = 0.5;
  static constexpr double kTickTolerance = 0.2;
  static constexpr size_t kMaxCandidates = 4096;
  static constexpr size_t kPending = 4 * CounterFinder::kSample;

  TimingAnalyzer(const AnalyzerConfig& cfg, EventSink* sink, AddressEvidence addresses);
  void onPacket(uint64_t frame, int64_t ts_ns, Direction dir, uint32_t wire_bytes, uint8_t ttl,
                const uint8_t* payload, size_t payload_len);
  ConnectionMetrics finish();

 private:
  // A gap of one direction longer than the stall threshold.
  struct Candidate {
    int64_t start_ns = 0, end_ns = 0;
    uint64_t first_frame = 0, last_frame = 0;
    int64_t longest_both_quiet_ns = 0;  // the longest gap of the whole flow inside it
  };
  struct Dir {
    Dir(Direction d, const AnalyzerConfig& cfg)
        : id(d), rate(d), pace(d, int64_t(cfg.stall_ms * 1e6)), rtt(cfg) {}
    Direction id;
    uint64_t packets = 0, bytes = 0;
    int64_t last_ns = 0;
    uint64_t last_frame = 0;
    int64_t longest_both_quiet_ns = 0;  // since this direction's latest packet
    bool ttl_seen = false, ttl_all_initial = true;
    JitterTracker gaps;
    RateTracker rate;
    RateWatch pace;
    std::vector<Candidate> candidates;
    std::vector<StallEvent> stalls;
    std::vector<SampledPacket> pending;  // until the fields are chosen
    InferredField seq_field, ts_field, ack_field;
    std::optional<CounterTracker> counter;  // once a counter was found
    std::optional<JitterTracker> ts_jitter;
    std::optional<EchoRtt> echo_rtt;  // this direction's counter, echoed by the other's ack field
    RttTracker rtt;
  };
  Dir& dir(Direction d) { return dirs_[static_cast<size_t>(d)]; }
  Dir& other(const Dir& d) { return dirs_[d.id == Direction::ClientToServer ? 1 : 0]; }
  void noteFreeze(uint64_t frame, int64_t ts_ns);
  void noteSilence(Dir& d, uint64_t frame, int64_t ts_ns);
  Vantage vantage() const;
  StallCause oneSidedCause(Vantage v, Direction quiet) const;
  int64_t freezeThresholdNs() const;
  void reportSilences(Direction d, Vantage v, int64_t end_ns, int64_t freezeNs);
  void emit(StallEvent e);
  void hold(Dir& d, const uint8_t* payload, size_t len, int64_t ts_ns, uint64_t frame);
  void chooseFields();
  static void shareEchoStyle(InferredField& a, InferredField& b);
  void readFields(Dir& d, const uint8_t* payload, size_t len, int64_t ts_ns, uint64_t frame);

  AnalyzerConfig cfg_;
  EventSink* sink_;
  AddressEvidence addresses_;
  int64_t thr_ns_;
  std::array<Dir, 2> dirs_{Dir(Direction::ClientToServer, cfg_), Dir(Direction::ServerToClient, cfg_)};
  bool fields_chosen_ = false;
  std::vector<StallEvent> freezes_found_;  // gaps over the threshold; judged at finish
  bool any_ = false;
  int64_t last_ns_ = 0;
  uint64_t last_frame_ = 0;
  Direction last_dir_{};
};

// True when a packet with this IPv4 TTL / IPv6 hop limit left its sender
// without crossing a router (the usual initial values).
bool initialTtl(uint8_t ttl);

}  // namespace rudp::ana
