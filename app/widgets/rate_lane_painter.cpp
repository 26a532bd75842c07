#include "widgets/rate_lane_painter.h"

#include <algorithm>

#include "widgets/band_painter.h"
#include "widgets/serial_fill.h"

namespace rudp::gui {

void RateLanePainter::paint(const DirectionTimeline& d) {
  if (!s_.has(packets() ? Layer::PacketRate : Layer::ByteRate)) return;
  paintRateChanges(d);
  QColor fill = colour();
  fill.setAlpha(60);
  series().paint(packets() ? d.packetRate : d.byteRate, SeriesPen::steps(colour(), 1.5, Qt::SolidLine, fill));
}

// A drop or burst of a ticking stream: a band over the rate lane, under the
// rate line (its tooltip comes from the hit tester).
void RateLanePainter::paintRateChanges(const DirectionTimeline& d) {
  const QRect lane = rect().adjusted(1, 1, -1, -1);
  for (const ana::RateChangeEvent& e : d.rateChanges) {
    if (e.end_ns < s_.t0 || e.start_ns >= s_.t1) continue;
    auto [l, r] = BandPainter::pixelSpan(g_.time, e.start_ns, e.end_ns, BandPainter::kStallMinWidth);
    l = std::max(l, lane.left());
    r = std::min(r, lane.right() + 1);
    if (r > l) fillRectInStrips(p_, QRect(l, lane.top(), r - l, lane.height()), s_.colours.rateChangeBand);
  }
}

std::vector<LegendEntry> RateLanePainter::legend() const {
  if (!s_.has(packets() ? Layer::PacketRate : Layer::ByteRate)) return {};
  const qint64 ms = s_.data ? s_.data->rate_bucket_ns / 1'000'000 : 100;
  std::vector<LegendEntry> out{{MarkShape::Bar, colour(),
                                (packets() ? QStringLiteral("packets/s") : QStringLiteral("wire bytes/s")) +
                                    QStringLiteral(" per %1 ms").arg(ms)}};
  if (packets() && s_.dir() && !s_.dir()->rateChanges.empty())
    out.push_back({MarkShape::Band, s_.colours.rateChangeBand, QStringLiteral("rate drop or burst")});
  return out;
}

}  // namespace rudp::gui
