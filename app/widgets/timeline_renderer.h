// Paints a whole timeline scene: the one paint routine behind the widget,
// the PNG and SVG exports and the benchmark.
#pragma once
#include <QImage>
#include <QPainter>
#include <QSize>

#include "widgets/timeline_scene.h"

namespace rudp::gui {

class TimelineRenderer {
 public:
  static void paint(QPainter& p, const TimelineScene& scene, const TimelineGeometry& g);
  static void paint(QPainter& p, const TimelineScene& scene, QSize size) {
    paint(p, scene, TimelineGeometry::compute(scene, size));
  }
  // `dpr`: device pixels per logical pixel.
  static QImage render(const TimelineScene& scene, QSize size, qreal dpr = 1.0);
};

}  // namespace rudp::gui
