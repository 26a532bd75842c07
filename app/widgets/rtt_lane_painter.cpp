#include "widgets/rtt_lane_painter.h"

#include <QFontMetrics>
#include <algorithm>
#include <cmath>

namespace rudp::gui {

void RttLanePainter::paint(const DirectionTimeline& d) {
  if (s_.has(Layer::LimitLines)) paintLimitLines();
  SeriesPainter sp = series();
  if (s_.has(Layer::Rto))
    sp.paint(d.rto, SeriesPen::steps(s_.colours.rto, 1.5, Qt::DashLine));
  if (s_.has(Layer::RttSamples))
    sp.paint(d.rtt, SeriesPen::scatter(s_.colours.rttSample, 2.0));
  if (s_.has(Layer::Srtt))
    sp.paint(d.srtt, SeriesPen::line(s_.colours.srtt, 2.0));
}

void RttLanePainter::paintLimitLines() {
  const QRect& r = rect();
  const QFontMetrics fm(p_.font());
  double lastLabelY = 1e9;  // labels too close to the previous one are left out
  std::vector<double> limits = s_.limitLinesMs;
  std::sort(limits.begin(), limits.end());
  for (double limit : limits) {
    const double y = std::round(axis().y(limit)) + 0.5;
    if (y < r.top() || y > r.bottom()) continue;
    p_.setPen(QPen(s_.colours.limit, 1, Qt::DashDotLine));
    p_.drawLine(QPointF(r.left() + 1, y), QPointF(r.right() - 1, y));
    if (lastLabelY - y < fm.height()) continue;
    lastLabelY = y;
    const QString label = QStringLiteral("%1 ms").arg(limit);
    p_.drawText(QPointF(r.right() - fm.horizontalAdvance(label) - 6, y - 3), label);
  }
}

std::vector<LegendEntry> RttLanePainter::legend() const {
  std::vector<LegendEntry> out;
  if (s_.has(Layer::RttSamples)) out.push_back({MarkShape::Dot, s_.colours.rttSample, QStringLiteral("sample")});
  if (s_.has(Layer::Srtt)) out.push_back({MarkShape::Line, s_.colours.srtt, QStringLiteral("SRTT")});
  if (s_.has(Layer::Rto)) out.push_back({MarkShape::DashLine, s_.colours.rto, QStringLiteral("RTO")});
  if (s_.has(Layer::LimitLines) && !s_.limitLinesMs.empty())
    out.push_back({MarkShape::DashLine, s_.colours.limit, QStringLiteral("limits")});
  return out;
}

}  // namespace rudp::gui
