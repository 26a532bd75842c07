#include "endpoint.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace grudp_sim {

bool RecvState::seen(uint32_t seq) const {
  const uint32_t back = highest_ - seq;
  if (back >= kWindow) return true;  // too old to track: treat as already seen
  const uint32_t slot = seq % kWindow;
  return (seen_bits_[slot / 64] >> (slot % 64)) & 1u;
}

void RecvState::mark(uint32_t seq) {
  const uint32_t slot = seq % kWindow;
  seen_bits_[slot / 64] |= uint64_t(1) << (slot % 64);
}

RecvState::Result RecvState::on_receive(uint32_t seq, uint32_t ts, uint32_t truth_index) {
  Result r;
  if (!any_) {
    any_ = true;
    highest_ = seq;
    bits_ = 0;
    highest_ts_ = ts;
    highest_truth_ = truth_index;
    mark(seq);
    return r;
  }
  if (seq_after(seq, highest_)) {
    const uint32_t shift = seq - highest_;
    // Clear the duplicate-window slots the window slides over.
    for (uint32_t s = highest_ + 1, n = 0; n < std::min(shift, kWindow); ++s, ++n) {
      const uint32_t slot = s % kWindow;
      seen_bits_[slot / 64] &= ~(uint64_t(1) << (slot % 64));
    }
    bits_ = shift > 32 ? 0 : (shift == 32 ? 0 : (bits_ << shift));
    if (shift <= 32) bits_ |= uint32_t(1) << (shift - 1);  // old highest
    highest_ = seq;
    highest_ts_ = ts;
    highest_truth_ = truth_index;
    mark(seq);
    return r;
  }
  if (seq == highest_) {
    // A later copy of the highest seq: echo its ts (latest received copy).
    r.duplicate = true;
    highest_ts_ = ts;
    highest_truth_ = truth_index;
    return r;
  }
  r.duplicate = seen(seq);
  const uint32_t back = highest_ - seq;
  if (back <= 32) bits_ |= uint32_t(1) << (back - 1);
  if (!r.duplicate) mark(seq);
  return r;
}

void RtoEstimator::sample(double r) {
  if (samples_++ == 0) {
    srtt_ = r;
    rttvar_ = r / 2;
  } else {
    rttvar_ = 0.75 * rttvar_ + 0.25 * std::abs(srtt_ - r);
    srtt_ = 0.875 * srtt_ + 0.125 * r;
  }
  rto_ = std::clamp(srtt_ + std::max(1.0, 4 * rttvar_), min_, max_);
}

Outstanding* SendQueue::find(uint32_t seq) {
  if (q_.empty()) return nullptr;
  // Seqs are increasing (serially) along the deque: binary search on distance.
  const uint32_t base = q_.front().header.seq;
  const uint32_t d = seq - base;
  auto it = std::lower_bound(q_.begin(), q_.end(), d,
                             [base](const Outstanding& o, uint32_t v) { return o.header.seq - base < v; });
  if (it == q_.end() || it->header.seq != seq || it->acked) return nullptr;
  return &*it;
}

bool SendQueue::has_unacked() const {
  for (const auto& o : q_)
    if (!o.acked) return true;
  return false;
}

void SendQueue::pop_acked_front() {
  while (!q_.empty() && q_.front().acked) q_.pop_front();
}

AckOutcome SendQueue::apply_ack(uint32_t ack, uint32_t bits, int threshold) {
  AckOutcome out;
  for (auto& o : q_) {
    if (o.acked) continue;
    const uint32_t d = ack - o.header.seq;
    if (d == 0) {
      o.acked = true;
    } else if (d <= 32) {
      if ((bits >> (d - 1)) & 1u) {
        o.acked = true;
      } else if (threshold > 0 && !o.fast_done) {
        // Later packets acknowledged: `ack` itself plus bitmap bits for seqs
        // between this one and ack (bit i <-> seq ack-1-i, later iff i < d-1).
        const uint32_t mask = d - 1 >= 32 ? 0xFFFFFFFFu : ((uint32_t(1) << (d - 1)) - 1);
        const int later = 1 + std::popcount(bits & mask);
        if (later >= threshold) {
          o.fast_done = true;
          out.fast_retx.push_back(o.header.seq);
        }
      }
    }
    if (o.acked) ++out.newly_acked;
  }
  pop_acked_front();
  return out;
}

}  // namespace grudp_sim
