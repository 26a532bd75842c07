// The RTT lane: samples (dots), SRTT (line), RTO (dashed) and the genre's
// limit lines.
#pragma once
#include "widgets/lane_painter.h"

namespace rudp::gui {

class RttLanePainter : public LanePainter {
 public:
  RttLanePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g)
      : LanePainter(p, s, g, Lane::Rtt) {}
  void paint(const DirectionTimeline& d) override;
  std::vector<LegendEntry> legend() const override;

 private:
  void paintLimitLines();
};

}  // namespace rudp::gui
