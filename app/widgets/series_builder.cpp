#include "widgets/series_builder.h"

#include <algorithm>
#include <numeric>

namespace rudp::gui {

LodSeries SeriesBuilder::build() {
  if (!std::is_sorted(times_.begin(), times_.end())) {
    std::vector<size_t> order(times_.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return times_[a] < times_[b]; });
    std::vector<int64_t> t(order.size());
    std::vector<double> v(order.size());
    std::vector<uint64_t> f(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
      t[i] = times_[order[i]];
      v[i] = values_[order[i]];
      f[i] = frames_[order[i]];
    }
    times_.swap(t);
    values_.swap(v);
    frames_.swap(f);
  }
  LodSeries s(std::move(times_), std::move(values_), std::move(frames_));
  times_.clear();
  values_.clear();
  frames_.clear();
  return s;
}

}  // namespace rudp::gui
