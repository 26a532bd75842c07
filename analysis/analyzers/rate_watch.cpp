#include "analyzers/rate_watch.h"

#include <algorithm>

namespace rudp::ana {

const char* toString(RateChangeKind k) { return k == RateChangeKind::Drop ? "drop" : "burst"; }

RateWatch::Pace RateWatch::paceOf(int64_t gap_ns) const {
  if (double(gap_ns) >= kSlowFactor * usual_ns_) return Pace::Slow;
  if (double(gap_ns) <= kFastFactor * usual_ns_) return Pace::Fast;
  return Pace::Usual;
}

void RateWatch::add(int64_t ns, uint64_t frame) {
  const Packet p{ns, frame};
  if (usual_ns_ > 0) {
    judge(last_, p);
  } else {
    early_.push_back(p);
    if (early_.size() > kReferenceGaps) {
      std::vector<int64_t> gaps;
      for (size_t i = 1; i < early_.size(); ++i) gaps.push_back(early_[i].ns - early_[i - 1].ns);
      std::nth_element(gaps.begin(), gaps.begin() + long(gaps.size() / 2), gaps.end());
      usual_ns_ = std::max<double>(double(gaps[gaps.size() / 2]), 1);
      std::vector<Packet> early = std::move(early_);
      for (size_t i = 1; i < early.size(); ++i) judge(early[i - 1], early[i]);
    }
  }
  last_ = p;
  any_ = true;
}

void RateWatch::judge(const Packet& from, const Packet& to) {
  const int64_t gap = to.ns - from.ns;
  if (gap > silence_ns_) return close(false);
  const Pace pace = paceOf(gap);
  if (run_ == Pace::Usual) {
    if (pace != Pace::Usual) start(pace, from, to);
    return;
  }
  if (pace == run_) {
    run_gaps_ += stray_ ? 2 : 1;
    stray_ = false;
    run_last_ = to;
    return;
  }
  if (!stray_) {
    stray_ = true;
    return;
  }
  close(false);
  if (pace != Pace::Usual) start(pace, from, to);
}

void RateWatch::start(Pace pace, const Packet& from, const Packet& to) {
  run_ = pace;
  run_first_ = from;
  run_last_ = to;
  run_gaps_ = 1;
  stray_ = false;
}

void RateWatch::close(bool open) {
  const int64_t span = run_last_.ns - run_first_.ns;
  if (run_ != Pace::Usual && span >= kMinRunNs && run_gaps_ >= kMinRunGaps && out_.size() < kMaxChanges) {
    RateChangeEvent e;
    e.dir = dir_;
    e.kind = run_ == Pace::Slow ? RateChangeKind::Drop : RateChangeKind::Burst;
    e.start_ns = run_first_.ns;
    e.end_ns = run_last_.ns;
    e.first_frame = run_first_.frame;
    e.last_frame = run_last_.frame;
    e.gaps = run_gaps_;
    e.rate_hz = double(run_gaps_) * 1e9 / double(span);
    e.usual_hz = 1e9 / usual_ns_;
    e.open = open;
    out_.push_back(e);
  }
  run_ = Pace::Usual;
  stray_ = false;
}

std::vector<RateChangeEvent> RateWatch::finish() {
  // A run still going (a stray gap at the very end does not end it).
  close(true);
  return std::move(out_);
}

}  // namespace rudp::ana
