#include "widgets/chart_axes.h"

#include <algorithm>
#include <cmath>

#include "core/nice_step.h"

namespace rudp::gui {

int TimeAxis::column(int64_t t) const { return static_cast<int>(std::floor(x(t))); }

double ValueAxis::y(double v) const {
  if (log) {
    const double a = std::log10(std::max(v0, 1e-12)), b = std::log10(std::max(v1, v0 * 10));
    const double lv = std::log10(std::max(v, 1e-12));
    return top + height - (lv - a) * height / (b - a);
  }
  const double s = v1 - v0 == 0 ? 1 : v1 - v0;
  return top + height - (v - v0) * height / s;
}

double ValueAxis::value(double py) const {
  const double f = (top + height - py) / height;
  if (log) {
    const double a = std::log10(std::max(v0, 1e-12)), b = std::log10(std::max(v1, v0 * 10));
    return std::pow(10.0, a + f * (b - a));
  }
  return v0 + f * (v1 - v0);
}

std::vector<Tick> niceTicks(double lo, double hi, int approxCount) {
  std::vector<Tick> out;
  if (!(hi > lo)) return out;
  const double step = niceStep(hi - lo, approxCount);
  const int decimals = stepDecimals(step);
  for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) {
    const double clean = std::abs(v) < step * 1e-9 ? 0.0 : v;
    out.push_back(
        {clean, std::abs(clean) >= 10000 ? formatSi(clean) : QString::number(clean, 'f', decimals)});
  }
  return out;
}

std::vector<Tick> logTicks(double lo, double hi) {
  std::vector<Tick> out;
  for (double v = std::pow(10.0, std::floor(std::log10(std::max(lo, 1e-12)))); v <= hi * 1.0001; v *= 10)
    if (v >= lo * 0.9999) out.push_back({v, formatSi(v)});
  return out;
}

std::vector<Tick> timeTicks(int64_t t0, int64_t t1, int64_t origin, int approxCount) {
  std::vector<Tick> out;
  if (t1 <= t0) return out;
  const double step = niceStep(static_cast<double>(t1 - t0), approxCount);  // ns
  const double first = std::ceil(static_cast<double>(t0 - origin) / step) * step;
  for (double rel = first; rel <= static_cast<double>(t1 - origin); rel += step) {
    const int64_t t = origin + static_cast<int64_t>(std::llround(rel));
    out.push_back({static_cast<double>(t), formatTime(t, origin, step)});
  }
  return out;
}

double niceCeil(double v) {
  if (v <= 0) return 1;
  const double mag = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0})
    if (v <= m * mag * (1 + 1e-12)) return m * mag;
  return 10 * mag;
}

QString formatTime(int64_t t, int64_t origin, double resolutionNs) {
  const double s = static_cast<double>(t - origin) / 1e9;
  const int decimals = std::clamp(stepDecimals(resolutionNs / 1e9), 0, 9);
  return QString::number(s, 'f', decimals) + QStringLiteral(" s");
}

QString formatSi(double v) {
  const double a = std::abs(v);
  if (a >= 1e9) return QString::number(v / 1e9, 'g', 3) + QStringLiteral(" G");
  if (a >= 1e6) return QString::number(v / 1e6, 'g', 3) + QStringLiteral(" M");
  if (a >= 1e3) return QString::number(v / 1e3, 'g', 3) + QStringLiteral(" k");
  return QString::number(v, 'g', 3);
}

}  // namespace rudp::gui
