// A time series with a min/max pyramid, so drawing costs follow pixels, not
// points: the visible range is found by binary search and the min/max of any
// run of points comes from the pyramid in O(log n). Built once (off the UI
// thread, in loadTimelineData), then read-only and shareable across threads.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <utility>
#include <vector>

namespace rudp::gui {

// A value interval; default-constructed it is empty (min > max).
struct ValueSpan {
  double min = std::numeric_limits<double>::infinity();
  double max = -std::numeric_limits<double>::infinity();
  bool empty() const { return min > max; }
  static ValueSpan none() { return {}; }
  void include(double v);
  void include(const ValueSpan& o);
};

class LodSeries {
 public:
  static constexpr size_t kFanout = 4;  // points per bucket of the first level

  LodSeries() = default;
  // `times` must be sorted; the three vectors have the same length.
  LodSeries(std::vector<int64_t> times, std::vector<double> values, std::vector<uint64_t> frames);

  size_t size() const { return m_times.size(); }
  bool empty() const { return m_times.empty(); }
  int64_t time(size_t i) const { return m_times[i]; }
  double value(size_t i) const { return m_values[i]; }
  uint64_t frame(size_t i) const { return m_frames.empty() ? 0 : m_frames[i]; }
  size_t levels() const { return m_pyramid.size(); }

  // Indices [first, last) of the points with from <= t < to.
  std::pair<size_t, size_t> indexRange(int64_t from, int64_t to) const;
  // Exact min/max of the points [begin, end), through the pyramid.
  ValueSpan span(size_t begin, size_t end) const;
  ValueSpan spanInTime(int64_t from, int64_t to) const;

  // One pixel column's points: [first, last) with their min and max.
  struct Column {
    int x = 0;
    size_t first = 0, last = 0;
    ValueSpan span;
  };
  // The columns x in [x0, x1) that hold points, where `columnOf(t)` is the
  // (monotone) column of time t. Binary searches per column boundary, so the
  // cost is O(columns * log n) whatever the number of points.
  std::vector<Column> columns(int x0, int x1, const std::function<int(int64_t)>& columnOf) const;

 private:
  void buildPyramid();
  std::vector<int64_t> m_times;
  std::vector<double> m_values;
  std::vector<uint64_t> m_frames;
  // m_pyramid[k][j]: min/max of points [j * 4^(k+1), (j+1) * 4^(k+1)).
  std::vector<std::vector<ValueSpan>> m_pyramid;
};

}  // namespace rudp::gui
