// A bounded ring of per-seq state for one direction of a contract connection.
//
// Holds the seqs from `base()` to `top()` (the highest seq seen or acked):
// what copies were captured, whether the peer's acks covered it and whether
// its fate (delivered / lost) is settled. Capacity starts at 16 and doubles
// up to kMaxCap (4096) while the oldest slots are still unsettled; a slot is
// overwritten only when the window slides past it, so memory is bounded by
// the outstanding span, never by the packet count.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rudp::ana {

struct CopyInfo {
  uint32_t ts = 0;
  int32_t ip_id = -1;  // IPv4 identification, -1 unknown (tells a network duplicate from a copy)
  int64_t ns = 0;
  uint64_t frame = 0;
};

struct SeqSlot {
  enum Flag : uint16_t {
    Seen = 1 << 0,  // at least one copy captured
    Reliable = 1 << 1,
    Unsequenced = 1 << 2,
    Covered = 1 << 3,  // an ack captured so far covers it
    Judged = 1 << 4,   // fate settled (delivered or lost)
    Lost = 1 << 5,
    RetxCounted = 1 << 6,  // the first captured copy was counted as a retransmission
    Reordered = 1 << 7,
    FastDone = 1 << 8,  // one fast retransmission already seen
    HasTs = 1 << 9,
    Pending = 1 << 10,  // reliable, passed by the acks but not covered yet
    NakHole = 1 << 11,  // the hole was named by a loss list (NAK) since the last copy
  };
  uint32_t seq = 0;
  uint16_t flags = 0;
  uint16_t copies = 0;    // captured copies
  uint32_t first_ts = 0;  // ts of the first captured copy
  uint32_t channel = 0;
  uint64_t first_frame = 0;
  int64_t first_ns = 0;
  int64_t hole_ns = -1;   // latest ack since the last copy that showed this seq missing
  int64_t cover_ns = -1;  // capture time of the first ack that covered it
  float timer_ms = 0;     // the sender's expected retransmission timer after the last copy
  uint8_t hole_acks = 0;  // acks since the last copy that showed it missing (up to 255)
  CopyInfo last, prev;    // the two latest captured copies (ts_echo lookups)

  bool has(Flag f) const { return (flags & f) != 0; }
};

class SeqWindow {
 public:
  static constexpr uint32_t kMinCap = 16;  // a connection of a few packets stays small
  static constexpr uint32_t kMaxCap = 4096;
  bool started() const { return started_; }
  uint32_t base() const { return base_; }
  uint32_t top() const { return top_; }
  // Serial distance `seq - base`, valid (< span) when inside the window.
  uint32_t offset(uint32_t seq) const { return seq - base_; }
  bool contains(uint32_t seq) const { return started_ && offset(seq) <= top_ - base_; }
  SeqSlot& at(uint32_t seq) { return ring_[seq & (ring_.size() - 1)]; }
  const SeqSlot& at(uint32_t seq) const { return ring_[seq & (ring_.size() - 1)]; }

  size_t capacity() const { return ring_.size(); }
  void start(uint32_t seq);
  // Extends the window to `seq` (serially above top()). Slots about to be
  // overwritten are handed to `evict` first (oldest first).
  template <class Evict>
  void extend(uint32_t seq, Evict&& evict);
  // Moves base() down to `seq` (a seq older than the window arrived late,
  // e.g. the first packets of a flow lost and retransmitted). False when the
  // span would exceed kMaxCap or the window has already dropped seqs.
  bool prepend(uint32_t seq);
  // Advances base() to `seq` (serially above base(), at most top()+1).
  template <class Evict>
  void dropBelow(uint32_t seq, Evict&& evict);

 private:
  void grow();
  bool started_ = false, slid_ = false;  // slid: seqs were dropped off the bottom
  uint32_t base_ = 0, top_ = 0;
  std::vector<SeqSlot> ring_;
};

template <class Evict>
void SeqWindow::extend(uint32_t seq, Evict&& evict) {
  while (top_ != seq) {
    const uint32_t next = top_ + 1;
    if (next - base_ >= ring_.size()) {
      // Grow while the oldest slot is still unsettled, else slide.
      if (ring_.size() < kMaxCap && !at(base_).has(SeqSlot::Judged)) {
        grow();
        continue;
      }
      evict(at(base_));
      ++base_;
      slid_ = true;
    }
    SeqSlot& s = at(next);
    s = SeqSlot{};
    s.seq = next;
    top_ = next;
  }
}

template <class Evict>
void SeqWindow::dropBelow(uint32_t seq, Evict&& evict) {
  while (base_ != seq && base_ != top_ + 1) {
    evict(at(base_));
    ++base_;
    slid_ = true;
  }
}

}  // namespace rudp::ana
