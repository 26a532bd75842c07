#include "analyzers/hol.h"

#include <algorithm>

namespace rudp::ana {

void HolTracker::onArrival(uint32_t seq, int64_t ns, bool ordered, uint32_t channel,
                           bool missing_below, bool late) {
  if (!ordered) return;
  if (late) {
    // Later same-channel packets that arrived before this one waited for it.
    for (Pending& p : pending_)
      if (p.channel == channel && int32_t(p.seq - seq) > 0) p.until_ns = std::max(p.until_ns, ns);
  }
  if (missing_below && pending_.size() < 8192) pending_.push_back({seq, channel, ns, ns});
}

void HolTracker::settle(uint32_t frontier) {
  size_t keep = 0;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Pending& p = pending_[i];
    if (!settle_all_ && int32_t(p.seq - frontier) > 0) {
      pending_[keep++] = p;
      continue;
    }
    if (p.until_ns > p.arrival_ns) {
      const double ms = double(p.until_ns - p.arrival_ns) / 1e6;
      total_ms_ += ms;
      max_ms_ = std::max(max_ms_, ms);
      ++blocked_;
    }
  }
  pending_.resize(keep);
}

}  // namespace rudp::ana
