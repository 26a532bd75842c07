// The RTT lane: samples (dots), SRTT (line), RTO (dashed) and the genre's
// limit lines.
#pragma once
#include "widgets/lane_painter.h"

namespace rudp::gui {

class RttLanePainter : public LanePainter {
 public:
  // Samples: 4 px dots one by one, 3 px columns when dense.
  static constexpr double kSampleDotRadius = 2.0;
  static constexpr int kSampleColumnWidth = 3;

  RttLanePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g)
      : LanePainter(p, s, g, Lane::Rtt) {}
  void paint(const DirectionTimeline& d) override;
  std::vector<LegendEntry> legend() const override;

 private:
  void paintLimitLines();
};

}  // namespace rudp::gui
