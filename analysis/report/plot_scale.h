// Linear mapping from data values to pixels and "nice" tick values
// (1, 2 or 5 times a power of ten) for the report's SVG plots.
#pragma once
#include <string>
#include <vector>

namespace rudp::report {

class PlotScale {
 public:
  // Maps [lo, hi] to [from_px, to_px] (to_px < from_px for a y axis that
  // grows upwards). An empty range is widened so the mapping stays finite.
  PlotScale(double lo, double hi, double from_px, double to_px);
  double px(double v) const { return from_px_ + (v - lo_) * k_; }
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  // Ticks inside [lo, hi], at most `maxTicks` of them.
  std::vector<double> ticks(int maxTicks) const;
  // A tick's label with as many decimals as the step needs ("8", "8.5", "0.25").
  std::string tickLabel(double v, int maxTicks) const;

 private:
  double tickStep(int maxTicks) const;
  double lo_, hi_, from_px_, to_px_, k_;
};

}  // namespace rudp::report
