// The analyzer of one connection of a protocol that declares the analysis
// contract (GRUDP; KCP and ENet through the same contract).
//
//   ContractAnalyzer a(contract, cfg, &sink);
//   for each packet of the connection, in capture order:
//     a.onPacket(frame, ts_ns, dir, segs.data(), segs.size(), wire_bytes);
//   ConnectionMetrics m = a.finish();
//
// Per packet: O(1) amortized work (plus at most the 32 bitmap bits of an
// ack), no allocation once the per-direction seq window has grown to the
// outstanding span. Memory: two SeqWindows (16..4096 slots of 104 bytes),
// RTT samples (exact up to cfg.exact_rtt_samples), the remote-stall buffer
// (5 s of events) and fixed-size trackers per connection.
//
// Reading the traffic (GRUDP v1, generalised by the contract):
// - Every segment that consumes a seq is "data" of its direction; pure ACKs
//   (consumes_seq = false) only carry acks. Seqs wrap at 2^seq_bits.
// - A copy of a seq already captured with a different ts is a
//   retransmission (same ts: the network duplicated it). A reliable seq whose
//   first captured copy carries a ts later than the ts of a higher seq's copy
//   was sent after that higher seq, so it is a later copy whose earlier
//   copies were lost before the capture point: an inferred retransmission
//   (attempt >= 2, the earlier copies unknown). Otherwise a seq captured below
//   the highest captured seq is reordered.
// - Loss: a seq is lost when the peer's acks never cover it: judged once the
//   highest ack is kJudgeLag seqs past it (or at the end, for seqs the last
//   ack reaches). This is the same rule at every vantage: at the receiver its
//   acks are captured as sent (covered = arrived), at the sender a seq it
//   sent that no ack covers never arrived (unless every ack covering it was
//   lost too), in the middle both. A reliable seq the acks passed stays
//   pending (it will be retransmitted) and is lost only if it leaves the
//   window or the capture ends while the acks have passed it. A loss later
//   contradicted by a covering ack is taken back from `lost` (not from the
//   burst histogram). Without acks (AckStyle::None) a seq never captured
//   below the highest captured seq is lost.
// - RTT: see vantage.h for what a ts_echo sample measures at each vantage.
//   One sample per distinct (ack, ts_echo) pair, as a sender's estimator
//   takes them (a repeated echo includes the time the peer had nothing new).
//   Without ts_echo: the first ack covering a seq captured once (Karn).
// - Retransmission cause: spurious when the capture is at the sender and an
//   ack covering the seq was captured before the copy (the sender had it);
//   fast when an ack showing the seq missing behind later acked seqs came
//   after the previous copy (at the sender: within 1 ms before the copy) and
//   the copy came before the sender's retransmission timer (our RFC 6298
//   estimate x 2^(attempt-1), -5% - 5 ms) would have fired; else timeout.
//   At most one fast retransmission per seq. Exact at the sender's end;
//   elsewhere the timer is estimated from the reverse path.
// - Stalls: StallTracker on the capture's timeline (exact at the sender);
//   when the capture is at the receiver, RemoteStallEstimator rebuilds the
//   sender's timeline instead (remote_stall.h; those events are `estimated`).
// - Seq spaces (Contract::seq_space, ENet channels): everything above about
//   seqs holds per (direction, space); a space's SeqState is allocated on
//   first use and swapped into its Dir while its segments are handled.
// - Unreliable numberings (Contract::unreliable_seq): a skipped number is
//   lost when skipped, taken back if it arrives late (within 64).
// - Contract::retx (KCP): the sender's minimum RTO; fast retransmissions may
//   repeat and may leave on the sender's next flush (see contract_retransmissions.cpp).
// - HOL blocking: hol.h, with the missing seqs this window knows of (and,
//   until the flow's first seq is seen, "anything below may be missing").
#pragma once
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "analyzers/events.h"
#include "analyzers/hol.h"
#include "analyzers/jitter.h"
#include "analyzers/loss_run.h"
#include "analyzers/metrics.h"
#include "analyzers/rates.h"
#include "analyzers/remote_stall.h"
#include "analyzers/rtt.h"
#include "analyzers/seq_window.h"
#include "analyzers/stall.h"
#include "core/contract.h"
#include "flow/segment.h"

namespace rudp::ana {

class ContractAnalyzer {
 public:
  static constexpr uint32_t kJudgeLag = 128;      // seqs the ack must be past before a loss is judged
  static constexpr uint32_t kMaxJump = 1u << 16;  // a larger forward jump restarts the window

  ContractAnalyzer(const Contract& contract, const AnalyzerConfig& cfg, EventSink* sink);
  ContractAnalyzer(const ContractAnalyzer&) = delete;
  ContractAnalyzer& operator=(const ContractAnalyzer&) = delete;

  // `ip_id`: the IPv4 identification (-1 when unknown / IPv6). With it, a
  // copy with the same ts but a new IP id is a retransmission sent within the
  // same ts tick, not a network duplicate.
  void onPacket(uint64_t frame, int64_t ts_ns, Direction dir, const Segment* segs, size_t n,
                uint32_t wire_bytes, int32_t ip_id = -1);
  ConnectionMetrics finish();
  Vantage vantage() const { return vantage_; }
  // Heap + object bytes held now (for the memory benchmark).
  size_t memoryBytes() const;

 private:
  // The state of one seq space of one direction. A contract with
  // `seq.space` (ENet: per channel) has one per space value seen, allocated on
  // first use; the space in use is swapped into its Dir (below).
  struct SeqState {
    SeqWindow win;
    bool any_seen = false, any_ack = false, has_ref = false, has_echo = false;
    bool head_unknown = false;  // the flow's first seq not captured yet: earlier seqs may be missing
    uint32_t highest_seen = 0, max_ack = 0, judge_next = 0, frontier = 0;
    uint32_t seq_ref = 0;                  // last unwrapped seq (seq_bits < 32)
    uint32_t echo_ack = 0, echo_ts = 0;    // last sampled (ack, ts_echo)
    bool has_prev_ack = false;             // the highest ack so far and its bitmap:
    uint32_t prev_ack = 0, prev_bits = 0;  // seqs they covered need no second look
    LossRun loss_run;                      // in seq order
    HolTracker hol;
  };
  // One numbering of never-retransmitted segments (Contract::unreliable_seq)
  // in one space of one direction: gaps are losses.
  struct Numbering {
    uint32_t space = 0;  // the value of the numbering's space field (0 without one)
    uint8_t index = 0;   // Contract::unreliable_seq index
    bool started = false;
    uint32_t group = 0, high = 0;
    uint64_t seen = 0;  // bit i: high - i arrived (reordered arrivals take a loss back)
  };
  struct Dir : SeqState {
    Dir(Direction d, const AnalyzerConfig& cfg)
        : id(d), rtt(cfg), response(cfg), stall(d, cfg.stall_ms), rate(d), remote(d, cfg.stall_ms) {}
    Direction id;
    uint32_t space = 0;                                 // the seq space swapped in
    std::vector<std::pair<uint32_t, SeqState>> parked;  // the other spaces
    std::vector<Numbering> numberings;
    uint32_t outstanding = 0;  // reliable seqs captured and not yet covered (all spaces)
    RttTracker rtt;
    ResponseTracker response;
    JitterTracker jitter;
    StallTracker stall;
    RateTracker rate;
    RemoteStallEstimator remote;  // this direction's stalls when its sender is remote
    bool has_ts_ref = false;
    uint32_t ts_raw = 0;  // last ts, for unwrapping
    int64_t ts_u = 0;
    DirectionMetrics m;  // counters filled as we go
    uint64_t dup_seen = 0, dup_covered = 0;
    uint64_t jitter_frame = 0;        // the last frame fed to `jitter` (+1; 0 = none)
    bool new_data_in_packet = false;  // the packet being read carries a seq never seen before
  };

  void selectSpace(Dir& d, const Segment& s);
  template <class F>
  void eachSpace(Dir& d, F&& f) {
    f();
    for (auto& p : d.parked) {
      std::swap(static_cast<SeqState&>(d), p.second);
      std::swap(d.space, p.first);
      f();
    }
  }
  void onNumbered(Dir& d, const Segment& s, uint64_t frame, int64_t ns);

  // contract_analyzer.cpp
  void onData(Dir& d, const Segment& s, uint64_t frame, int64_t ns, int32_t ip_id);
  void firstCopy(Dir& d, SeqSlot& slot, const Segment& s, uint32_t seq, uint64_t frame, int64_t ns,
                 int32_t ip_id);
  uint32_t unwrap(Dir& d, uint32_t seq);
  bool carriesNewData(const Dir& d, const Segment* segs, size_t n) const;
  void advanceFrontier(Dir& d);
  void restart(Dir& d, uint32_t seq);
  double tsMs(Dir& d, uint32_t ts);
  double holdMaxMs(const Dir& d) const;
  // contract_acks.cpp
  void onAck(Dir& d, const Segment& s, uint64_t frame, int64_t ns);
  // onAck by ack style; each returns the seq loss is judged up to.
  uint32_t ackBitmap(Dir& d, const Segment& s, uint32_t ack, bool advanced, uint64_t frame, int64_t ns);
  uint32_t ackCumulative(Dir& d, uint32_t ack, bool advanced, uint64_t frame, int64_t ns);
  uint32_t ackPerSegment(Dir& d, const Segment& s, uint32_t ack, bool advanced, uint64_t frame, int64_t ns);
  void extendTo(Dir& d, uint32_t top);
  void tellRemoteSenders(Dir& d, const Segment& s, uint32_t ack, int64_t ns, uint64_t frame);
  void onNak(Dir& d, const Segment& s, int64_t ns);
  // Marks `seq` acknowledged; `rttSample`: it may give a seq/ack RTT sample.
  bool cover(Dir& d, uint32_t seq, uint64_t frame, int64_t ns, bool rttSample = true);
  void coverCumulative(Dir& d, uint32_t ack, uint64_t frame, int64_t ns);
  void addRtt(Dir& d, RttEvent ev);
  void markHole(SeqSlot& slot, int64_t ns) const;
  void echoSample(Dir& d, uint32_t ack, uint32_t ts_echo, uint64_t frame, int64_t ns);
  void judgeUpTo(Dir& d, uint32_t end, uint64_t frame, int64_t ns);
  void judge(Dir& d, SeqSlot& slot, bool final, uint64_t frame, int64_t ns);
  void lossRun(Dir& d, bool lost, uint32_t seq, uint64_t seq_frame, uint64_t frame, int64_t ns);
  void evict(Dir& d, SeqSlot& slot);
  // contract_retransmissions.cpp
  void retransmission(Dir& d, SeqSlot& slot, bool direct, uint64_t frame, int64_t ns, uint32_t ts);
  bool laterCopy(Dir& d, uint32_t seq, uint32_t ts);
  void flagEarlierCopies(Dir& d, uint32_t seq, uint32_t ts);
  double senderRtoMs(const Dir& d) const;
  double sinceOriginalMs(Dir& d, uint32_t seq, uint32_t ts);
  bool tsAfter(uint32_t a, uint32_t b) const;

  Dir& other(const Dir& d) { return dirs_[d.id == Direction::ClientToServer ? 1 : 0]; }
  const Dir& other(const Dir& d) const { return dirs_[d.id == Direction::ClientToServer ? 1 : 0]; }

  AnalyzerConfig cfg_;  // copies: the caller's may go away
  AckStyle ack_style_;
  double ts_unit_ms_;
  uint32_t ts_bits_;
  EventSink* sink_;
  uint32_t seq_mask_, ts_mask_;
  bool echo_rtt_;  // the contract has ts_echo: no seq/ack RTT
  bool spaces_;    // the contract has seq.space
  std::array<uint32_t, Segment::kNumberings> un_mask_{};
  std::array<bool, Segment::kNumberings> un_group_{};
  bool per_datagram_jitter_;
  bool fast_repeat_, fast_deferred_;  // Contract::fast_repeat / fast_deferred
  int fast_acks_;                     // Contract::fast_acks              // unreliable
                                      // numberings: one gap sample per datagram
  std::array<Dir, 2> dirs_;
  Vantage vantage_ = Vantage::Unknown;
  int64_t first_ns_ = -1, last_ns_ = 0, connect_ns_ = -1, accept_ns_ = -1;
  int64_t last_advance_ns_ = 0;  // the remote stall estimators run every 250 ms
  static constexpr int64_t kAdvanceEveryNs = 250000000;
  ConnectionMetrics conn_;
  bool finished_ = false;
};

}  // namespace rudp::ana
