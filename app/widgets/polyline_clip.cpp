#include "widgets/polyline_clip.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace rudp::gui {

namespace {
// The part of segment a-b inside r, if any.
std::optional<std::pair<QPointF, QPointF>> clipSegment(QPointF a, QPointF b, const QRectF& r) {
  const double dx = b.x() - a.x(), dy = b.y() - a.y();
  double t0 = 0, t1 = 1;
  const double p[4] = {-dx, dx, -dy, dy};
  const double q[4] = {a.x() - r.left(), r.right() - a.x(), a.y() - r.top(), r.bottom() - a.y()};
  for (int i = 0; i < 4; ++i) {
    if (p[i] == 0) {
      if (q[i] < 0) return std::nullopt;
      continue;
    }
    const double t = q[i] / p[i];
    if (p[i] < 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1) return std::nullopt;
  }
  return std::pair{QPointF(a.x() + t0 * dx, a.y() + t0 * dy), QPointF(a.x() + t1 * dx, a.y() + t1 * dy)};
}
}  // namespace

std::vector<QPolygonF> clipPolyline(const QPolygonF& line, const QRectF& r) {
  std::vector<QPolygonF> out;
  bool joined = false;  // the last piece ends where the previous segment ended
  for (qsizetype i = 1; i < line.size(); ++i) {
    const auto seg = clipSegment(line[i - 1], line[i], r);
    if (!seg) {
      joined = false;
      continue;
    }
    if (!joined || out.back().back() != seg->first) out.push_back(QPolygonF{seg->first});
    out.back().append(seg->second);
    joined = seg->second == line[i];
  }
  return out;
}

QPolygonF clampPolygon(QPolygonF polygon, const QRectF& r) {
  for (QPointF& p : polygon)
    p = QPointF(std::clamp(p.x(), r.left(), r.right()), std::clamp(p.y(), r.top(), r.bottom()));
  return polygon;
}

}  // namespace rudp::gui
