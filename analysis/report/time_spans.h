// Capture-time intervals (a direction's stalls) that answer "does [from, to]
// touch any of them?" in logarithmic time, so checking every loss of a long
// capture against every stall stays cheap.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace rudp::report {

class TimeSpans {
 public:
  template <class Range, class Span>
  TimeSpans(const Range& items, Span span) {
    for (const auto& item : items) spans_.push_back(span(item));
    std::sort(spans_.begin(), spans_.end());
    // From here on .second is the latest end of this span and every one
    // starting before it: the spans starting by `to` reach `from` iff that
    // running maximum does.
    for (size_t i = 1; i < spans_.size(); ++i)
      spans_[i].second = std::max(spans_[i].second, spans_[i - 1].second);
  }
  TimeSpans() = default;

  // Inclusive at both ends.
  bool touches(int64_t from, int64_t to) const {
    auto past = std::upper_bound(spans_.begin(), spans_.end(), std::make_pair(to, INT64_MAX));
    return past != spans_.begin() && std::prev(past)->second >= from;
  }

 private:
  std::vector<std::pair<int64_t, int64_t>> spans_;  // start, running maximum of the ends
};

}  // namespace rudp::report
