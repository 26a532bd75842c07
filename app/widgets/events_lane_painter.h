// The events lane: one row of retransmission marks (shape and colour by
// cause) and one row of loss marks (a cross, with the run length of a burst).
// Every mark is drawn, however far out the zoom: a mark is skipped only when
// the same shape was just drawn in the same pixel column (identical pixels).
#pragma once
#include "widgets/lane_painter.h"

namespace rudp::gui {

class EventsLanePainter : public LanePainter {
 public:
  EventsLanePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g)
      : LanePainter(p, s, g, Lane::Events) {}
  void paint(const DirectionTimeline& d) override;
  std::vector<LegendEntry> legend() const override;

 private:
  void paintRetransmissions(const std::vector<RetxMark>& marks);
  void paintLosses(const std::vector<LossMark>& marks);
};

// The marks whose time is in [t0, t1), as an index range (marks sorted by ts_ns).
template <class Mark>
std::pair<size_t, size_t> visibleMarks(const std::vector<Mark>& marks, int64_t t0, int64_t t1) {
  auto less = [](const Mark& m, int64_t t) { return m.ts_ns < t; };
  auto b = std::lower_bound(marks.begin(), marks.end(), t0, less);
  auto e = std::lower_bound(b, marks.end(), t1, less);
  return {static_cast<size_t>(b - marks.begin()), static_cast<size_t>(e - marks.begin())};
}

}  // namespace rudp::gui
