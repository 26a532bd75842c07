// A rate lane (packets/s or bytes/s): a filled step line of the per-bucket
// rate.
#pragma once
#include "widgets/lane_painter.h"

namespace rudp::gui {

class RateLanePainter : public LanePainter {
 public:
  // lane: Lane::PacketRate or Lane::ByteRate.
  RateLanePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g, Lane lane)
      : LanePainter(p, s, g, lane) {}
  void paint(const DirectionTimeline& d) override;
  std::vector<LegendEntry> legend() const override;

 private:
  bool packets() const { return m_lane == Lane::PacketRate; }
  void paintRateChanges(const DirectionTimeline& d);
  QColor colour() const { return packets() ? s_.colours.packetRate : s_.colours.byteRate; }
};

}  // namespace rudp::gui
