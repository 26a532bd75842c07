#include "widgets/band_painter.h"

#include <algorithm>

#include "widgets/serial_fill.h"

namespace rudp::gui {

std::pair<int, int> BandPainter::pixelSpan(const TimeAxis& time, int64_t start, int64_t end, int minWidth) {
  const int left = time.column(start);
  const int right = std::max(time.column(end) + 1, left + minWidth);
  return {left, right};
}

// Recovery inside a stall is part of the stall: only the parts outside the
// stalls get the recovery shade, so the two colours never mix.
std::vector<TimeBand> BandPainter::visibleRecoveries(const DirectionTimeline& d) const {
  std::vector<TimeBand> out;
  auto first = std::lower_bound(d.recoveryUnion.begin(), d.recoveryUnion.end(), s_.t0,
                                [](const TimeBand& b, int64_t t) { return b.end_ns < t; });
  for (auto it = first; it != d.recoveryUnion.end() && it->start_ns < s_.t1; ++it) {
    TimeBand rest = *it;
    if (s_.has(Layer::StallBands))
      for (const ana::StallEvent& st : d.stalls) {
        if (st.end_ns <= rest.start_ns || st.start_ns >= rest.end_ns) continue;
        if (st.start_ns > rest.start_ns) out.push_back({rest.start_ns, st.start_ns});
        rest.start_ns = st.end_ns;
        if (rest.start_ns >= rest.end_ns) break;
      }
    if (rest.start_ns < rest.end_ns) out.push_back(rest);
  }
  return out;
}

void BandPainter::paint(const DirectionTimeline& d) {
  p_.save();
  p_.setRenderHint(QPainter::Antialiasing, false);
  if (s_.has(Layer::RecoveryBands))
    for (const TimeBand& b : visibleRecoveries(d))
      paintBand(b.start_ns, b.end_ns, s_.colours.recoveryBand, kRecoveryMinWidth, false);
  if (s_.has(Layer::StallBands))
    for (const ana::StallEvent& st : d.stalls)
      if (st.end_ns >= s_.t0 && st.start_ns < s_.t1)
        paintBand(st.start_ns, st.end_ns, s_.colours.stallBand, kStallMinWidth, true);
  p_.restore();
}

// Each lane gets its own piece, so the gaps between lanes stay clear.
void BandPainter::paintBand(int64_t start, int64_t end, const QColor& fill, int minWidth, bool edges) {
  const QRect& plot = g_.layout.plot;
  auto [l, r] = pixelSpan(g_.time, start, end, minWidth);
  l = std::max(l, plot.left() + 1);
  r = std::min(r, plot.right());
  if (r <= l) return;
  QColor edge = fill;
  edge.setAlpha(std::min(255, fill.alpha() * 3));
  for (Lane lane : kAllLanes) {
    const QRect lr = g_.layout.lane(lane).adjusted(0, 1, 0, -1);
    fillRectInStrips(p_, QRect(l, lr.top(), r - l, lr.height()), fill);
    if (edges && r - l > 4) {
      fillRectInStrips(p_, QRect(l, lr.top(), 1, lr.height()), edge);
      fillRectInStrips(p_, QRect(r - 1, lr.top(), 1, lr.height()), edge);
    }
  }
}

std::vector<LegendEntry> BandPainter::legend() const {
  std::vector<LegendEntry> out;
  if (s_.has(Layer::StallBands))
    out.push_back({MarkShape::Band, s_.colours.stallBand, QStringLiteral("stall")});
  if (s_.has(Layer::RecoveryBands))
    out.push_back({MarkShape::Band, s_.colours.recoveryBand, QStringLiteral("head-of-line recovery")});
  return out;
}

}  // namespace rudp::gui
