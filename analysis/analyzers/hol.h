// Head-of-line blocking at the receiver of one direction.
//
// Reliable, sequenced (not UNSEQUENCED) data is delivered in order per
// channel. A packet that arrives while an earlier seq is missing may have to
// wait; whether it does is only known when the missing seq shows up: if it
// turns out reliable, sequenced and on the same channel, the packet waited
// until that arrival. A missing seq that is judged lost was unreliable (a
// reliable one would have come back) and blocks nothing.
//
// The blocked time of a packet is (time the last earlier same-channel
// reliable seq arrived) - (its own arrival); the direction reports the sum,
// the maximum and the number of packets that waited. Times are capture times,
// exact at the receiver's end. Pending packets are bounded by the seq window.
#pragma once
#include <cstdint>
#include <vector>

namespace rudp::ana {

class HolTracker {
 public:
  // A first copy of `seq` arrived. `missing_below`: some earlier seq inside
  // the window is still missing. `late`: it arrived below the highest seq.
  void onArrival(uint32_t seq, int64_t ns, bool ordered_reliable, uint32_t channel,
                 bool missing_below, bool late);
  // No seq below `frontier` is missing any more: settle the waits before it.
  void settle(uint32_t frontier);
  void settleAll() { settle_all_ = true; settle(0); }

  double totalMs() const { return total_ms_; }
  double maxMs() const { return max_ms_; }
  uint64_t blocked() const { return blocked_; }

 private:
  struct Pending {
    uint32_t seq, channel;
    int64_t arrival_ns, until_ns;
  };
  std::vector<Pending> pending_;  // in arrival order
  double total_ms_ = 0, max_ms_ = 0;
  uint64_t blocked_ = 0;
  bool settle_all_ = false;
};

}  // namespace rudp::ana
