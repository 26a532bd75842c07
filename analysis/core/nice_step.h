// "Nice" axis steps, 1, 2 or 5 times a power of ten: the one rule of the
// report's SVG plots and the window's charts.
#pragma once
#include <algorithm>
#include <cmath>

namespace rudp {

// The smallest nice step that cuts `range` into at most `count` parts.
inline double niceStep(double range, int count) {
  const double raw = range / std::max(count, 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (raw <= m * mag) return m * mag;
  return 10 * mag;
}

// Decimals a label needs to tell ticks `step` apart ("8", "8.5", "0.25").
inline int stepDecimals(double step) {
  return std::max(0, static_cast<int>(-std::floor(std::log10(step) + 1e-9)));
}

}  // namespace rudp
