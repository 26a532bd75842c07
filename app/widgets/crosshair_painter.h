// The crosshair over the cached chart: a vertical line through every lane, a
// horizontal one in the lane under the mouse, and their values at the axes.
#pragma once
#include <QPainter>
#include <QPoint>
#include <QString>
#include <optional>

#include "widgets/timeline_hit.h"
#include "widgets/timeline_scene.h"

namespace rudp::gui {

class CrosshairPainter {
 public:
  CrosshairPainter(const TimelineScene& s, const TimelineGeometry& g) : s_(s), g_(g) {}
  void paint(QPainter& p, QPoint at) const;
  // The tooltip: time, the value under the mouse in the lane's unit, and
  // the nearest mark or point when there is one.
  QString text(QPoint at, const std::optional<TimelineHit>& hit) const;

 private:
  QString valueText(Lane lane, double v) const;
  void label(QPainter& p, const QRect& box, const QString& text) const;

  const TimelineScene& s_;
  const TimelineGeometry& g_;
};

}  // namespace rudp::gui
