// Finds the mark, point or band under a pixel, with the same geometry the
// painters use: marks within a few pixels, then points, then bands.
#pragma once
#include <QPoint>
#include <optional>

#include "widgets/timeline_hit.h"
#include "widgets/timeline_scene.h"

namespace rudp::gui {

class TimelineHitTester {
 public:
  static constexpr double kRadius = 6.0;  // pixels

  TimelineHitTester(const TimelineScene& s, const TimelineGeometry& g) : s_(s), g_(g) {}
  std::optional<TimelineHit> hitTest(QPoint p) const;

 private:
  std::optional<TimelineHit> hitEvents(QPointF p, const DirectionTimeline& d) const;
  std::optional<TimelineHit> hitRetransmission(QPointF p, const DirectionTimeline& d) const;
  std::optional<TimelineHit> hitLoss(QPointF p, const DirectionTimeline& d) const;
  std::optional<TimelineHit> hitRtt(QPointF p, const DirectionTimeline& d) const;
  std::optional<TimelineHit> hitSequence(QPointF p, const DirectionTimeline& d) const;
  std::optional<TimelineHit> hitGap(QPointF p, const DirectionTimeline& d) const;
  std::optional<TimelineHit> hitBands(QPointF p, const DirectionTimeline& d) const;
  TimelineHit rateChangeHit(const ana::RateChangeEvent& e, Lane lane) const;
  // The point of `series` nearest to p within kRadius; its index and distance.
  std::optional<std::pair<size_t, double>> nearest(const LodSeries& series, Lane lane, QPointF p) const;
  QString timeText(int64_t t) const;

  const TimelineScene& s_;
  const TimelineGeometry& g_;
};

}  // namespace rudp::gui
