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
    : m_times(std::move(times)), m_values(std::move(values)), m_frames(std::move(frames)) {
  assert(m_times.size() == m_values.size());
  assert(m_frames.empty() || m_frames.size() == m_times.size());
  assert(std::is_sorted(m_times.begin(), m_times.end()));
  buildPyramid();
}

void LodSeries::buildPyramid() {
  size_t below = m_values.size();
  auto spanBelow = [&](size_t level, size_t i) {
    if (level == 0) return ValueSpan{m_values[i], m_values[i]};
    return m_pyramid[level - 1][i];
  };
  while (below > kFanout) {
    const size_t level = m_pyramid.size();
    std::vector<ValueSpan> buckets((below + kFanout - 1) / kFanout, ValueSpan::none());
    for (size_t i = 0; i < below; ++i) buckets[i / kFanout].include(spanBelow(level, i));
    m_pyramid.push_back(std::move(buckets));
    below = m_pyramid.back().size();
  }
}

std::pair<size_t, size_t> LodSeries::indexRange(int64_t from, int64_t to) const {
  auto first = std::lower_bound(m_times.begin(), m_times.end(), from);
  auto last = std::lower_bound(first, m_times.end(), to);
  return {static_cast<size_t>(first - m_times.begin()), static_cast<size_t>(last - m_times.begin())};
}

// Walks up the pyramid: the ragged ends of the range are read at the current
// level, the whole buckets in between one level higher.
ValueSpan LodSeries::span(size_t begin, size_t end) const {
  ValueSpan out = ValueSpan::none();
  size_t b = begin, e = std::min(end, size());
  auto at = [&](size_t level, size_t i) {
    return level == 0 ? ValueSpan{m_values[i], m_values[i]} : m_pyramid[level - 1][i];
  };
  for (size_t level = 0; b < e; ++level) {
    const size_t nb = (b + kFanout - 1) / kFanout, ne = e / kFanout;
    if (level >= m_pyramid.size() || nb >= ne) {
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
    auto it = std::partition_point(m_times.begin() + static_cast<std::ptrdiff_t>(from), m_times.end(),
                                   [&](int64_t t) { return columnOf(t) < column; });
    return static_cast<size_t>(it - m_times.begin());
  };
  size_t i = firstAtOrAfter(0, x0);
  while (i < size()) {
    const int x = columnOf(m_times[i]);
    if (x >= x1) break;
    const size_t next = firstAtOrAfter(i, x + 1);
    out.push_back({x, i, next, span(i, next)});
    i = next;
  }
  return out;
}

}  // namespace rudp::gui
