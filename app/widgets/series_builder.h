// Collects the points of one LodSeries in time order, then builds it.
#pragma once
#include <cstdint>
#include <vector>

#include "widgets/lod_series.h"

namespace rudp::gui {

class SeriesBuilder {
 public:
  void add(int64_t t, double v, uint64_t frame = 0) {
    times_.push_back(t);
    values_.push_back(v);
    frames_.push_back(frame);
  }
  bool empty() const { return times_.empty(); }
  int64_t lastTime() const { return times_.back(); }
  // Sorts by time first when the points were not added in time order.
  LodSeries build();

 private:
  std::vector<int64_t> times_;
  std::vector<double> values_;
  std::vector<uint64_t> frames_;
};

// Serial-number unwrapping of a 32-bit sequence space: each value is taken as
// the nearest 64-bit number to the previous one.
class SeqUnwrapper {
 public:
  int64_t unwrap(uint32_t v) {
    if (!started_) {
      started_ = true;
      last_ = v;
      return last_;
    }
    last_ += static_cast<int32_t>(v - static_cast<uint32_t>(last_));
    return last_;
  }
  bool started() const { return started_; }

 private:
  bool started_ = false;
  int64_t last_ = 0;
};

}  // namespace rudp::gui
