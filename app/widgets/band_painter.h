// Stall and head-of-line (recovery) bands, shaded across every lane. Never
// thinned out: each band at least a pixel or two wide however far the zoom.
#pragma once
#include <QPainter>
#include <vector>

#include "widgets/legend_painter.h"
#include "widgets/timeline_scene.h"

namespace rudp::gui {

class BandPainter {
 public:
  BandPainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g) : p_(p), s_(s), g_(g) {}
  void paint(const DirectionTimeline& d);
  std::vector<LegendEntry> legend() const;

  // The pixel span [left, right) a band covers, after the minimum width.
  static std::pair<int, int> pixelSpan(const TimeAxis& time, int64_t start, int64_t end, int minWidth);
  static constexpr int kStallMinWidth = 2, kRecoveryMinWidth = 1;

 private:
  std::vector<TimeBand> visibleRecoveries(const DirectionTimeline& d) const;
  void paintBand(int64_t start, int64_t end, const QColor& fill, int minWidth, bool edges);

  QPainter& p_;
  const TimelineScene& s_;
  const TimelineGeometry& g_;
};

}  // namespace rudp::gui
