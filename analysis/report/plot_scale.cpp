#include "report/plot_scale.h"

#include <cmath>
#include <cstdio>

#include "core/nice_step.h"

namespace rudp::report {

PlotScale::PlotScale(double lo, double hi, double from_px, double to_px)
    : lo_(lo), hi_(hi), from_px_(from_px), to_px_(to_px) {
  if (!(hi_ > lo_)) hi_ = lo_ + 1e-3;
  k_ = (to_px_ - from_px_) / (hi_ - lo_);
}

double PlotScale::tickStep(int maxTicks) const { return niceStep(hi_ - lo_, maxTicks); }

std::vector<double> PlotScale::ticks(int maxTicks) const {
  const double step = tickStep(maxTicks);
  std::vector<double> out;
  for (double i = std::ceil(lo_ / step - 1e-9); i * step <= hi_ + step * 1e-9; i += 1)
    out.push_back(i * step == 0 ? 0.0 : i * step);  // no "-0"
  return out;
}

std::string PlotScale::tickLabel(double v, int maxTicks) const {
  const double step = tickStep(maxTicks);
  const int decimals = stepDecimals(step);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

}  // namespace rudp::report
