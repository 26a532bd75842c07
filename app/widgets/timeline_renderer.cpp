#include "widgets/timeline_renderer.h"

#include "widgets/band_painter.h"
#include "widgets/events_lane_painter.h"
#include "widgets/rate_lane_painter.h"
#include "widgets/rtt_lane_painter.h"
#include "widgets/sequence_lane_painter.h"
#include "widgets/timeline_frame_painter.h"

namespace rudp::gui {

void TimelineRenderer::paint(QPainter& p, const TimelineScene& scene, const TimelineGeometry& g) {
  p.save();
  p.setFont(scene.font);
  TimelineFramePainter frame(p, scene, g);
  frame.paintBackground();
  frame.paintHeader();
  frame.paintLanes();
  frame.paintTimeAxis();
  const DirectionTimeline* d = scene.dir();
  if (!d) {
    frame.paintEmptyMessage(QStringLiteral("Select a connection"));
    p.restore();
    return;
  }
  BandPainter bands(p, scene, g);
  bands.paint(*d);
  RttLanePainter rtt(p, scene, g);
  EventsLanePainter events(p, scene, g);
  SequenceLanePainter sequence(p, scene, g);
  RateLanePainter packets(p, scene, g, Lane::PacketRate), bytes(p, scene, g, Lane::ByteRate);
  LanePainter* lanes[] = {&rtt, &events, &sequence, &packets, &bytes};
  for (LanePainter* lane : lanes) lane->paint(*d);
  frame.paintLaneTitles();
  for (LanePainter* lane : lanes) lane->paintLegend();
  LegendPainter(p, scene.colours)
      .paintRightAligned(bands.legend(), g.layout.header.topRight() + QPoint(-14, 3), false);
  frame.paintMarkedFrame();
  p.restore();
}

QImage TimelineRenderer::render(const TimelineScene& scene, QSize size, qreal dpr) {
  QImage image(size * dpr, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(dpr);
  QPainter p(&image);
  paint(p, scene, size);
  return image;
}

}  // namespace rudp::gui
