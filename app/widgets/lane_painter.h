// Base of the painters of one lane: the lane's rectangle and axes, a series
// painter clipped to the lane, and the lane's legend in its top-right corner.
#pragma once
#include <QPainter>
#include <vector>

#include "widgets/legend_painter.h"
#include "widgets/series_painter.h"
#include "widgets/timeline_scene.h"

namespace rudp::gui {

class LanePainter {
 public:
  LanePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g, Lane lane)
      : p_(p), s_(s), g_(g), m_lane(lane) {}
  virtual ~LanePainter() = default;

  virtual void paint(const DirectionTimeline& d) = 0;
  virtual std::vector<LegendEntry> legend() const = 0;
  void paintLegend();

 protected:
  const QRect& rect() const { return g_.layout.lane(m_lane); }
  const ValueAxis& axis() const { return g_.axis(m_lane); }
  SeriesPainter series() const { return SeriesPainter(p_, g_.time, axis(), rect().adjusted(1, 1, -1, -1)); }

  QPainter& p_;
  const TimelineScene& s_;
  const TimelineGeometry& g_;
  Lane m_lane;
};

}  // namespace rudp::gui
