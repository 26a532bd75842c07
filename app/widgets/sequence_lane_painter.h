// The tcptrace-style sequence graph: seqs sent (the text colour, as tcptrace's
// white on black), retransmitted copies (red "R"), the peer's acks (green steps).
#pragma once
#include "widgets/lane_painter.h"

namespace rudp::gui {

class SequenceLanePainter : public LanePainter {
 public:
  SequenceLanePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g)
      : LanePainter(p, s, g, Lane::Sequence) {}
  void paint(const DirectionTimeline& d) override;
  std::vector<LegendEntry> legend() const override;

 private:
  void paintRetransmitted(const LodSeries& s);
};

}  // namespace rudp::gui
