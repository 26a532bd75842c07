// Head-of-line blocking at the receiver of one direction.
//
// Reliable, sequenced (not UNSEQUENCED) data is delivered in order per
// channel. A packet that arrives while an earlier seq is missing may have to
// wait; whether it does is only known when the missing seq shows up: if it
// turns out reliable, sequenced and on the same channel, the packet waited
// until that arrival. A missing seq that never arrives blocks nothing (it was
// unreliable, or the sender gave up).
//
// The blocked time of a packet is (arrival of the last earlier same-channel
// reliable seq) - (its own arrival); the direction reports the sum, the
// maximum and the number of packets that waited. Times are capture times,
// exact at the receiver's end.
//
// Packets wait in `pending` until nothing below them is missing; then they
// move to a ring of the last kDone settled ones, which a very late arrival
// (a seq already given up as lost) still updates. Memory is bounded by
// kMaxPending + kDone entries.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rudp::ana {

class HolTracker {
 public:
  static constexpr size_t kMaxPending = 8192, kDone = 256;
  // A first copy of `seq` arrived. `missing_below`: some earlier seq inside
  // the window is still missing. `late`: it arrived below the highest seq.
  void onArrival(uint32_t seq, int64_t ns, bool ordered_reliable, uint32_t channel, bool missing_below,
                 bool late);
  // No seq below `frontier` is missing any more: settle the waits before it.
  void settle(uint32_t frontier);
  void settleAll() {
    settle_all_ = true;
    settle(0);
    settle_all_ = false;
  }

  double totalMs() const { return total_ms_; }
  double maxMs() const { return max_ms_; }
  uint64_t blocked() const { return blocked_; }
  size_t memoryBytes() const { return (pending_.capacity() + done_.capacity()) * sizeof(Entry); }

 private:
  struct Entry {
    uint32_t seq, channel;
    int64_t arrival_ns, until_ns;
  };
  void account(int64_t old_until, const Entry& e);
  std::vector<Entry> pending_;  // in arrival order
  uint32_t min_seq_ = 0;        // lowest seq pending (settle is a no-op below it)
  std::vector<Entry> done_;     // ring of settled entries
  size_t done_next_ = 0;
  double total_ms_ = 0, max_ms_ = 0;
  uint64_t blocked_ = 0;
  bool settle_all_ = false;
};

}  // namespace rudp::ana
