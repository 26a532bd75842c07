#include "widgets/rtt_lane_painter.h"

#include <QFontMetrics>

#include "widgets/limit_labels.h"
#include "widgets/text_label.h"

namespace rudp::gui {

// Samples last: they are the measurement, the lines are derived from them
// and would otherwise cover them where they agree.
void RttLanePainter::paint(const DirectionTimeline& d) {
  if (s_.rttUnknown()) return;  // no RTT without a dissector or an echo found: the title says so
  if (s_.has(Layer::LimitLines)) paintLimitLines();
  SeriesPainter sp = series();
  if (s_.has(Layer::Rto)) sp.paint(d.rto, SeriesPen::steps(s_.colours.rto, 1.5, Qt::DashLine));
  if (s_.has(Layer::Srtt)) sp.paint(d.srtt, SeriesPen::line(s_.colours.srtt, 2.0));
  if (s_.has(Layer::RttSamples))
    sp.paint(d.rtt, SeriesPen::scatter(s_.colours.rttSample, kSampleDotRadius, kSampleColumnWidth));
}

void RttLanePainter::paintLimitLines() {
  const QRect& r = rect();
  p_.setPen(QPen(s_.colours.limit, 1, Qt::DashDotLine));
  for (double limit : s_.limitLinesMs) {
    const double y = limitLineY(axis(), limit);
    if (y >= r.top() && y <= r.bottom()) p_.drawLine(QPointF(r.left() + 1, y), QPointF(r.right() - 1, y));
  }
  // On the lines they name, over a backing that interrupts the other lines.
  QColor backing = s_.colours.plot;
  backing.setAlpha(225);
  p_.setPen(s_.colours.limit);
  for (const LimitLabel& label : placeLimitLabels(s_.limitLinesMs, axis(), r, QFontMetrics(p_.font()))) {
    p_.fillRect(label.box, backing);
    drawLabel(p_, label.box, Qt::AlignCenter, label.text);
  }
}

std::vector<LegendEntry> RttLanePainter::legend() const {
  std::vector<LegendEntry> out;
  if (s_.rttUnknown()) return out;
  if (s_.has(Layer::RttSamples))
    out.push_back(
        {MarkShape::Dot, s_.colours.rttSample,
         s_.rttInferred() ? QStringLiteral("sample, inferred from an echo") : QStringLiteral("sample")});
  if (s_.has(Layer::Srtt)) out.push_back({MarkShape::Line, s_.colours.srtt, QStringLiteral("SRTT")});
  if (s_.has(Layer::Rto)) out.push_back({MarkShape::DashLine, s_.colours.rto, QStringLiteral("RTO")});
  if (s_.has(Layer::LimitLines) && !s_.limitLinesMs.empty())
    out.push_back({MarkShape::DashLine, s_.colours.limit, QStringLiteral("limits")});
  return out;
}

}  // namespace rudp::gui
