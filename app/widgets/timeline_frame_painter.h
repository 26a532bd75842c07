// The timeline's frame: background, header, lane backgrounds with their value
// ticks and titles, the shared time axis with its grid, and the cursor at the
// marked packet.
#pragma once
#include <QPainter>

#include "widgets/timeline_scene.h"

namespace rudp::gui {

class TimelineFramePainter {
 public:
  TimelineFramePainter(QPainter& p, const TimelineScene& s, const TimelineGeometry& g)
      : p_(p), s_(s), g_(g) {}

  void paintBackground();
  void paintHeader();
  void paintLanes();       // backgrounds, value grid and ticks, titles
  void paintTimeAxis();    // labels under the lanes and the vertical grid
  void paintLaneTitles();  // over the data, under the legends
  void paintMarkedFrame();
  void paintEmptyMessage(const QString& text);

 private:
  void paintValueTicks(Lane lane);
  void paintEventRowLabels();
  void paintLaneTitle(Lane lane);
  QColor gridOnPlot() const;

  QPainter& p_;
  const TimelineScene& s_;
  const TimelineGeometry& g_;
};

// "client → server" / "server → client".
QString directionText(Direction d);

}  // namespace rudp::gui
