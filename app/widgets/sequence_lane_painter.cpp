#include "widgets/sequence_lane_painter.h"

#include <QFontMetrics>

namespace rudp::gui {

void SequenceLanePainter::paint(const DirectionTimeline& d) {
  SeriesPainter sp = series();
  if (s_.data && s_.data->gapsOnly()) {
    sp.paint(d.gaps, SeriesPen::scatter(s_.colours.seqSent, 1.6));
    return;
  }
  if (s_.has(Layer::SeqAcked)) sp.paint(d.seqAcked, SeriesPen::steps(s_.colours.seqAcked, 1.5));
  if (s_.has(Layer::SeqSent)) sp.paint(d.seqSent, SeriesPen::scatter(s_.colours.seqSent, 1.6));
  if (s_.has(Layer::SeqRetransmitted)) paintRetransmitted(d.seqRetransmitted);
}

// Few enough to read: tcptrace's "R" at each copy; else columns like any series.
void SequenceLanePainter::paintRetransmitted(const LodSeries& s) {
  auto [b, e] = s.indexRange(s_.t0, s_.t1);
  if (e - b > 300) {
    series().paint(s, SeriesPen::scatter(s_.colours.seqRetransmitted, 2.5));
    return;
  }
  p_.save();
  p_.setClipRect(rect().adjusted(1, 1, -1, -1));
  QFont f = p_.font();
  f.setBold(true);
  p_.setFont(f);
  const QFontMetrics fm(f);
  p_.setPen(s_.colours.seqRetransmitted);
  const int w = fm.horizontalAdvance(QLatin1Char('R'));
  for (size_t i = b; i < e; ++i) {
    const QPointF c(g_.time.x(s.time(i)), axis().y(s.value(i)));
    p_.drawText(QPointF(c.x() - w / 2.0, c.y() + fm.ascent() / 2.0 - 1), QStringLiteral("R"));
  }
  p_.restore();
}

std::vector<LegendEntry> SequenceLanePainter::legend() const {
  std::vector<LegendEntry> out;
  if (s_.data && s_.data->gapsOnly())
    return {{MarkShape::Dot, s_.colours.seqSent, QStringLiteral("gap to the previous packet")}};
  if (s_.has(Layer::SeqSent)) out.push_back({MarkShape::Dot, s_.colours.seqSent, QStringLiteral("sent")});
  if (s_.has(Layer::SeqRetransmitted))
    out.push_back({MarkShape::Dot, s_.colours.seqRetransmitted, QStringLiteral("retransmitted (R)")});
  if (s_.has(Layer::SeqAcked))
    out.push_back({MarkShape::Line, s_.colours.seqAcked, QStringLiteral("acked by peer")});
  return out;
}

}  // namespace rudp::gui
