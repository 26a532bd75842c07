// Collects the points of one LodSeries in time order, then builds it.
#pragma once
#include <cstdint>
#include <vector>

#include "widgets/lod_series.h"

namespace rudp::gui {

class SeriesBuilder {
 public:
  void add(int64_t t, double v, uint64_t frame = 0) {
    m_times.push_back(t);
    m_values.push_back(v);
    m_frames.push_back(frame);
  }
  bool empty() const { return m_times.empty(); }
  // Sorts by time first when the points were not added in time order.
  LodSeries build();

 private:
  std::vector<int64_t> m_times;
  std::vector<double> m_values;
  std::vector<uint64_t> m_frames;
};

// Serial-number unwrapping of a 32-bit sequence space: each value is taken as
// the nearest 64-bit number to the previous one.
class SeqUnwrapper {
 public:
  int64_t unwrap(uint32_t v) {
    if (!m_started) {
      m_started = true;
      m_last = v;
      return m_last;
    }
    m_last += static_cast<int32_t>(v - static_cast<uint32_t>(m_last));
    return m_last;
  }
  bool started() const { return m_started; }

 private:
  bool m_started = false;
  int64_t m_last = 0;
};

}  // namespace rudp::gui
