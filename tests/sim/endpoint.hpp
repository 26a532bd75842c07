// Per-endpoint protocol state: the sequence counter, what has been received
// from the peer (for ack/ack_bits/ts_echo), the RTO estimator and the queue of
// reliable packets awaiting acknowledgement. Pure logic, no event scheduling.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "wire.hpp"

namespace grudp_sim {

constexpr uint32_t kNoIndex = 0xFFFFFFFFu;

// Serial-number comparison (RFC 1982 style) for 32-bit wrapping seqs.
inline bool seq_after(uint32_t a, uint32_t b) { return int32_t(a - b) > 0; }

// ack + ack_bits cover 33 seqs, so a sender must not number a new packet 33 or
// more past its oldest unacked reliable packet: the receiver's ack could never
// cover that packet again and it would be retransmitted until the sender gives up.
constexpr uint32_t kAckSpan = 33;

// The receive side: highest seq seen from the peer, the 32-bit bitmap behind
// it and the ts of the latest received copy of that highest seq.
class RecvState {
 public:
  struct Result {
    bool duplicate = false;
  };
  Result on_receive(uint32_t seq, uint32_t ts, uint32_t truth_index);

  bool any() const { return any_; }
  uint32_t ack() const { return highest_; }
  uint32_t ack_bits() const { return bits_; }
  uint32_t ts_echo() const { return highest_ts_; }
  // Truth index of the copy whose ts is echoed (kNoIndex without truth).
  uint32_t echoed_copy() const { return highest_truth_; }

 private:
  bool seen(uint32_t seq) const;
  void mark(uint32_t seq);

  bool any_ = false;
  uint32_t highest_ = 0;
  uint32_t bits_ = 0;
  uint32_t highest_ts_ = 0;
  uint32_t highest_truth_ = kNoIndex;
  // Duplicate detection over the last kWindow seqs (older arrivals count as
  // duplicates, which only happens for absurdly late packets).
  static constexpr uint32_t kWindow = 4096;
  std::array<uint64_t, kWindow / 64> seen_bits_{};
};

// RFC 6298 estimator, in milliseconds.
class RtoEstimator {
 public:
  RtoEstimator(double initial_ms, double min_ms, double max_ms)
      : rto_(initial_ms), min_(min_ms), max_(max_ms) {}
  void sample(double rtt_ms);
  double rto_ms() const { return rto_; }
  double srtt_ms() const { return srtt_; }
  int samples() const { return samples_; }

 private:
  double srtt_ = 0, rttvar_ = 0, rto_;
  double min_, max_;
  int samples_ = 0;
};

// A reliable packet kept until acknowledged; retransmissions reuse all of it
// except ts (and the piggybacked ack fields).
struct Outstanding {
  Header header;
  std::vector<uint8_t> payload;
  int attempt = 1;
  bool acked = false;
  bool fast_done = false;  // at most one fast retransmission per packet
};

struct AckOutcome {
  int newly_acked = 0;              // reliable packets acknowledged by this ack
  std::vector<uint32_t> fast_retx;  // seqs to retransmit now
};

class SendQueue {
 public:
  void push(Outstanding o) { q_.push_back(std::move(o)); }
  Outstanding* find(uint32_t seq);
  bool empty() const { return q_.empty(); }
  bool has_unacked() const;
  // Applies ack/ack_bits; `threshold` later-acked packets past a hole trigger
  // a fast retransmission (0 disables).
  AckOutcome apply_ack(uint32_t ack, uint32_t bits, int threshold);
  void clear() { q_.clear(); }
  size_t size() const { return q_.size(); }
  // Seq of the oldest unacknowledged reliable packet (queue must not be empty).
  uint32_t oldest() const { return q_.front().header.seq; }

 private:
  void pop_acked_front();
  std::deque<Outstanding> q_;  // in seq order (seqs are assigned at first send)
};

}  // namespace grudp_sim
