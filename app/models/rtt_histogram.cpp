#include "models/rtt_histogram.h"

#include <algorithm>
#include <cmath>

namespace rudp::gui {

namespace {
// The value at share q of sorted samples (nearest rank).
double at(const std::vector<double>& sorted, double q) {
  const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double binWidth(const std::vector<double>& sorted) {
  const double iqr = at(sorted, 0.75) - at(sorted, 0.25);
  const double spread = 2 * iqr / std::cbrt(static_cast<double>(sorted.size()));
  const double range = sorted.back() - sorted.front();
  return niceCeiling(std::max({spread, range / kMaxRttBins, 0.1}));
}
}  // namespace

double niceCeiling(double v) {
  const double decade = std::pow(10.0, std::floor(std::log10(v)));
  for (double step : {1.0, 2.0, 5.0})
    if (step * decade >= v * (1 - 1e-12)) return step * decade;
  return 10 * decade;
}

RttHistogramPlan planRttHistogram(std::vector<double> samplesMs) {
  RttHistogramPlan plan;
  if (samplesMs.empty()) return plan;
  std::sort(samplesMs.begin(), samplesMs.end());
  plan.cutoff = kRttCutoffOverP99 * at(samplesMs, 0.99);
  const auto end = std::upper_bound(samplesMs.begin(), samplesMs.end(), plan.cutoff);
  plan.beyond = static_cast<size_t>(samplesMs.end() - end);
  samplesMs.erase(end, samplesMs.end());
  plan.shown = std::move(samplesMs);
  plan.width = binWidth(plan.shown);
  return plan;
}

}  // namespace rudp::gui
