#include "widgets/histogram_bins.h"

#include <algorithm>
#include <cmath>

#include "widgets/chart_axes.h"

namespace rudp::gui {

std::vector<HistogramBin> binsOfValues(const std::vector<double>& values, double width, int targetBins) {
  if (values.empty()) return {};
  const auto [lo, hi] = std::minmax_element(values.begin(), values.end());
  if (width <= 0) {
    const auto ticks = niceTicks(0, std::max(*hi - std::min(*lo, 0.0), 1e-9), std::max(targetBins, 1));
    width = ticks.size() > 1 ? ticks[1].value - ticks[0].value : 1;
  }
  const double start = std::floor(*lo / width) * width;
  const size_t n = static_cast<size_t>(std::floor((*hi - start) / width)) + 1;
  std::vector<HistogramBin> bins(n);
  for (size_t i = 0; i < n; ++i) {
    bins[i].from = start + static_cast<double>(i) * width;
    bins[i].to = bins[i].from + width;
  }
  for (double v : values)
    bins[std::min(n - 1, static_cast<size_t>(std::floor((v - start) / width)))].count += 1;
  return bins;
}

std::vector<HistogramBin> binsOfCounts(const std::map<uint32_t, uint64_t>& counts) {
  std::vector<HistogramBin> bins;
  bins.reserve(counts.size());
  for (auto [key, count] : counts)
    bins.push_back({static_cast<double>(key), static_cast<double>(key) + 1, static_cast<double>(count),
                    QString::number(key)});
  return bins;
}

}  // namespace rudp::gui
