#include "widgets/lod_series.h"

#include <algorithm>
#include <cassert>

namespace rudp::gui {

void ValueSpan::include(double v) {
  if (empty()) {
    min = max = v;
    return;
  }
  min = std::min(min, v);
  max = std::max(max, v);
}

void ValueSpan::include(const ValueSpan& o) {
  if (o.empty()) return;
  if (empty()) {
    *this = o;
    return;
  }
  min = std::min(min, o.min);
  max = std::max(max, o.max);
}

LodSeries::LodSeries(std::vector<int64_t> times, std::vector<double> values, std::vector<uint64_t> frames)
    : times_(std::move(times)), values_(std::move(values)), frames_(std::move(frames)) {
  assert(times_.size() == values_.size());
  assert(frames_.empty() || frames_.size() == times_.size());
  assert(std::is_sorted(times_.begin(), times_.end()));
  buildPyramid();
}

void LodSeries::buildPyramid() {
  size_t below = values_.size();
  auto spanBelow = [&](size_t level, size_t i) {
    if (level == 0) return ValueSpan{values_[i], values_[i]};
    return pyramid_[level - 1][i];
  };
  while (below > kFanout) {
    const size_t level = pyramid_.size();
    std::vector<ValueSpan> buckets((below + kFanout - 1) / kFanout, ValueSpan::none());
    for (size_t i = 0; i < below; ++i) buckets[i / kFanout].include(spanBelow(level, i));
    pyramid_.push_back(std::move(buckets));
    below = pyramid_.back().size();
  }
}

std::pair<size_t, size_t> LodSeries::indexRange(int64_t from, int64_t to) const {
  auto first = std::lower_bound(times_.begin(), times_.end(), from);
  auto last = std::lower_bound(first, times_.end(), to);
  return {static_cast<size_t>(first - times_.begin()), static_cast<size_t>(last - times_.begin())};
}

// Walks up the pyramid: the ragged ends of the range are read at the current
// level, the whole buckets in between one level higher.
ValueSpan LodSeries::span(size_t begin, size_t end) const {
  ValueSpan out = ValueSpan::none();
  size_t b = begin, e = std::min(end, size());
  auto at = [&](size_t level, size_t i) {
    return level == 0 ? ValueSpan{values_[i], values_[i]} : pyramid_[level - 1][i];
  };
  for (size_t level = 0; b < e; ++level) {
    const size_t nb = (b + kFanout - 1) / kFanout, ne = e / kFanout;
    if (level >= pyramid_.size() || nb >= ne) {
      for (size_t i = b; i < e; ++i) out.include(at(level, i));
      break;
    }
    for (size_t i = b; i < nb * kFanout; ++i) out.include(at(level, i));
    for (size_t i = ne * kFanout; i < e; ++i) out.include(at(level, i));
    b = nb;
    e = ne;
  }
  return out;
}

ValueSpan LodSeries::spanInTime(int64_t from, int64_t to) const {
  auto [b, e] = indexRange(from, to);
  return span(b, e);
}

std::vector<LodSeries::Column> LodSeries::columns(int x0, int x1,
                                                  const std::function<int(int64_t)>& columnOf) const {
  std::vector<Column> out;
  auto firstAtOrAfter = [&](size_t from, int column) {
    auto it = std::partition_point(times_.begin() + static_cast<std::ptrdiff_t>(from), times_.end(),
                                   [&](int64_t t) { return columnOf(t) < column; });
    return static_cast<size_t>(it - times_.begin());
  };
  size_t i = firstAtOrAfter(0, x0);
  while (i < size()) {
    const int x = columnOf(times_[i]);
    if (x >= x1) break;
    const size_t next = firstAtOrAfter(i, x + 1);
    out.push_back({x, i, next, span(i, next)});
    i = next;
  }
  return out;
}

}  // namespace rudp::gui
