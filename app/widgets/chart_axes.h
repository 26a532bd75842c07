// Mapping between data and pixels, and the tick positions of an axis.
#pragma once
#include <QRectF>
#include <QString>
#include <cstdint>
#include <vector>

namespace rudp::gui {

// Capture time [t0, t1) onto the pixels [left, left + width).
struct TimeAxis {
  int64_t t0 = 0, t1 = 1;
  double left = 0, width = 1;

  double x(int64_t t) const { return left + static_cast<double>(t - t0) * width / span(); }
  int64_t time(double px) const { return t0 + static_cast<int64_t>((px - left) * span() / width); }
  // The pixel column a time falls in; the one rule that painting, LOD and
  // hit testing share.
  int column(int64_t t) const;
  double span() const { return static_cast<double>(t1 - t0); }
  double nsPerPixel() const { return span() / width; }
};

// Values [v0, v1] onto a rectangle's height, v0 at the bottom.
struct ValueAxis {
  double v0 = 0, v1 = 1;
  double top = 0, height = 1;
  bool log = false;  // log10 scale (v0 > 0)

  double y(double v) const;
  double value(double py) const;
};

// Values [v0, v1] onto the pixels [left, left + width] (statistics charts).
struct HorizontalAxis {
  double v0 = 0, v1 = 1;
  double left = 0, width = 1;
  double x(double v) const { return left + (v - v0) * width / (v1 - v0 == 0 ? 1 : v1 - v0); }
  double value(double px) const { return v0 + (px - left) * (v1 - v0) / width; }
};

struct Tick {
  double value = 0;
  QString label;
};

// About `approxCount` ticks on "nice" numbers (1, 2, 5 x 10^k) in [lo, hi].
std::vector<Tick> niceTicks(double lo, double hi, int approxCount);
// Decades (1, 10, 100, ...) for a log axis.
std::vector<Tick> logTicks(double lo, double hi);
// Ticks on the time axis, labelled in seconds relative to `origin`.
std::vector<Tick> timeTicks(int64_t t0, int64_t t1, int64_t origin, int approxCount);
// The smallest nice number >= v (for the top of an automatic range).
double niceCeil(double v);

// "12.345 s" relative to the origin, with as many decimals as `resolutionNs` needs.
QString formatTime(int64_t t, int64_t origin, double resolutionNs);
// 1.2 k, 3.4 M ... for rates and counts.
QString formatSi(double v);

}  // namespace rudp::gui
