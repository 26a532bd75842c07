#include "report/plot_scale.h"

#include <cmath>
#include <cstdio>

namespace rudp::report {

PlotScale::PlotScale(double lo, double hi, double from_px, double to_px)
    : lo_(lo), hi_(hi), from_px_(from_px), to_px_(to_px) {
  if (!(hi_ > lo_)) hi_ = lo_ + 1e-3;
  k_ = (to_px_ - from_px_) / (hi_ - lo_);
}

double PlotScale::tickStep(int maxTicks) const {
  const double raw = (hi_ - lo_) / std::max(1, maxTicks);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

std::vector<double> PlotScale::ticks(int maxTicks) const {
  const double step = tickStep(maxTicks);
  std::vector<double> out;
  for (double i = std::ceil(lo_ / step - 1e-9); i * step <= hi_ + step * 1e-9; i += 1)
    out.push_back(i * step == 0 ? 0.0 : i * step);  // no "-0"
  return out;
}

std::string PlotScale::tickLabel(double v, int maxTicks) const {
  const double step = tickStep(maxTicks);
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace rudp::report
