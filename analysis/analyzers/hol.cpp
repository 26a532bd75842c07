#include "analyzers/hol.h"

#include <algorithm>

#include "core/seq32.h"

namespace rudp::ana {

void HolTracker::account(int64_t old_until, const Entry& e) {
  // Adds what the entry's wait grew by since it was last counted.
  if (e.until_ns <= old_until) return;
  if (old_until <= e.arrival_ns) ++blocked_;
  total_ms_ += double(e.until_ns - old_until) / 1e6;
  max_ms_ = std::max(max_ms_, double(e.until_ns - e.arrival_ns) / 1e6);
}

void HolTracker::onArrival(uint32_t seq, int64_t ns, bool ordered, uint32_t channel, bool missing_below,
                           bool late) {
  if (!ordered) return;
  if (late) {
    // Later same-channel packets that arrived before this one waited for it.
    for (Entry& p : pending_)
      if (p.channel == channel && seqAfter(p.seq, seq)) p.until_ns = std::max(p.until_ns, ns);
    for (Entry& d : done_)
      if (d.channel == channel && seqAfter(d.seq, seq) && ns > d.until_ns) {
        const int64_t old = d.until_ns;
        d.until_ns = ns;
        account(old, d);
      }
  }
  if (missing_below && pending_.size() < kMaxPending) {
    if (pending_.empty() || seqAfter(min_seq_, seq)) min_seq_ = seq;
    pending_.push_back({seq, channel, ns, ns});
  }
}

void HolTracker::settle(uint32_t frontier) {
  if (pending_.empty() || (!settle_all_ && !seqAfter(frontier, min_seq_))) return;
  size_t keep = 0;
  bool any = false;
  for (size_t i = 0; i < pending_.size(); ++i) {
    const Entry& p = pending_[i];
    if (!settle_all_ && seqAfter(p.seq, frontier)) {
      if (!any || seqAfter(min_seq_, p.seq)) min_seq_ = p.seq;
      any = true;
      pending_[keep++] = p;
      continue;
    }
    account(p.arrival_ns, p);
    if (done_.size() < kDone) {
      done_.push_back(p);
    } else {
      done_[done_next_] = p;
      done_next_ = (done_next_ + 1) % kDone;
    }
  }
  pending_.resize(keep);
}

}  // namespace rudp::ana
