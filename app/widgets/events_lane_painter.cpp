#include "widgets/events_lane_painter.h"

#include <QFontMetrics>
#include <array>
#include <climits>

namespace rudp::gui {

void EventsLanePainter::paint(const DirectionTimeline& d) {
  p_.save();
  p_.setClipRect(rect().adjusted(1, 1, -1, -1));
  if (s_.has(Layer::RetxMarks)) paintRetransmissions(d.retransmissions);
  if (s_.has(Layer::LossMarks)) paintLosses(d.losses);
  p_.restore();
}

void EventsLanePainter::paintRetransmissions(const std::vector<RetxMark>& marks) {
  auto [b, e] = visibleMarks(marks, s_.t0, s_.t1);
  // Drawn in two passes so the rarer, more telling timeouts end on top.
  std::array<int, 3> lastColumn{INT_MIN, INT_MIN, INT_MIN};
  for (ana::RetxCause pass : {ana::RetxCause::Fast, ana::RetxCause::Spurious, ana::RetxCause::Timeout}) {
    for (size_t i = b; i < e; ++i) {
      const RetxMark& m = marks[i];
      if (m.cause != pass) continue;
      const int x = g_.time.column(m.ts_ns);
      int& last = lastColumn[static_cast<size_t>(m.cause)];
      if (x == last) continue;
      last = x;
      drawMark(p_, shapeOf(m.cause), QPointF(x + 0.5, g_.rows.retx), kMarkSize,
               colourOf(m.cause, s_.colours));
    }
  }
}

void EventsLanePainter::paintLosses(const std::vector<LossMark>& marks) {
  auto [b, e] = visibleMarks(marks, s_.t0, s_.t1);
  const QFontMetrics fm(p_.font());
  const bool labels = e - b < 400;  // burst lengths when they can be read
  int lastColumn = INT_MIN;
  uint32_t lastCount = 0;
  for (size_t i = b; i < e; ++i) {
    const LossMark& m = marks[i];
    const int x = g_.time.column(m.ts_ns);
    if (x == lastColumn && m.count <= lastCount) continue;
    lastColumn = x;
    lastCount = m.count;
    drawMark(p_, MarkShape::Cross, QPointF(x + 0.5, g_.rows.loss), kMarkSize - 2, s_.colours.loss);
    if (labels && m.count > 1) {
      p_.setPen(s_.colours.loss);
      p_.drawText(QPointF(x + kMarkSize / 2 + 1, g_.rows.loss + fm.ascent() / 2.0 - 1),
                  QString::number(m.count));
    }
  }
}

std::vector<LegendEntry> EventsLanePainter::legend() const {
  std::vector<LegendEntry> out;
  if (s_.data && s_.data->encrypted) return out;  // its headers are not read
  if (s_.data && s_.data->timing_only) {          // only losses, from a counter found in the payload
    if (s_.has(Layer::LossMarks) && s_.dir() && !s_.dir()->losses.empty())
      out.push_back({MarkShape::Cross, s_.colours.loss, QStringLiteral("loss, inferred from a counter")});
    return out;
  }
  if (s_.has(Layer::RetxMarks))
    for (ana::RetxCause c : {ana::RetxCause::Timeout, ana::RetxCause::Fast, ana::RetxCause::Spurious})
      out.push_back({shapeOf(c), colourOf(c, s_.colours), QString::fromLatin1(labelOf(c))});
  if (s_.has(Layer::LossMarks))
    out.push_back({MarkShape::Cross, s_.colours.loss, QStringLiteral("loss (burst length)")});
  return out;
}

}  // namespace rudp::gui
