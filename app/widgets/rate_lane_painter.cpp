#include "widgets/rate_lane_painter.h"

namespace rudp::gui {

void RateLanePainter::paint(const DirectionTimeline& d) {
  if (!s_.has(packets() ? Layer::PacketRate : Layer::ByteRate)) return;
  QColor fill = colour();
  fill.setAlpha(60);
  series().paint(packets() ? d.packetRate : d.byteRate, SeriesPen::steps(colour(), 1.5, Qt::SolidLine, fill));
}

std::vector<LegendEntry> RateLanePainter::legend() const {
  if (!s_.has(packets() ? Layer::PacketRate : Layer::ByteRate)) return {};
  const qint64 ms = s_.data ? s_.data->rate_bucket_ns / 1'000'000 : 100;
  return {{MarkShape::Bar, colour(),
           (packets() ? QStringLiteral("packets/s") : QStringLiteral("wire bytes/s")) +
               QStringLiteral(" per %1 ms").arg(ms)}};
}

}  // namespace rudp::gui
