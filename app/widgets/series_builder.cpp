#include "widgets/series_builder.h"

#include <algorithm>
#include <numeric>

namespace rudp::gui {

LodSeries SeriesBuilder::build() {
  if (!std::is_sorted(m_times.begin(), m_times.end())) {
    std::vector<size_t> order(m_times.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m_times[a] < m_times[b]; });
    std::vector<int64_t> t(order.size());
    std::vector<double> v(order.size());
    std::vector<uint64_t> f(order.size());
    for (size_t i = 0; i < order.size(); ++i) {
      t[i] = m_times[order[i]];
      v[i] = m_values[order[i]];
      f[i] = m_frames[order[i]];
    }
    m_times.swap(t);
    m_values.swap(v);
    m_frames.swap(f);
  }
  LodSeries s(std::move(m_times), std::move(m_values), std::move(m_frames));
  m_times.clear();
  m_values.clear();
  m_frames.clear();
  return s;
}

}  // namespace rudp::gui
