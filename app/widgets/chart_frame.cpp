#include "widgets/chart_frame.h"
#include "widgets/text_label.h"

#include <cmath>

namespace rudp::gui {

ChartFrame::ChartFrame(QSize size, const QFont& font, bool title, int legendRows) : size_(size), font_(font) {
  const QFontMetrics fm(font);
  const int line = fm.height();
  int top = 6;
  if (title) {
    title_ = QRect(0, top, size.width(), line + 4);
    top = title_.bottom() + 3;
  }
  if (legendRows > 0) {
    legend_ = QRect(0, top, size.width(), legendRows * (line + 4));
    top = legend_.bottom() + 3;
  }
  const int left = line + 6 + fm.horizontalAdvance(QStringLiteral("00.0 k")) + 10;
  const int bottom = 2 * line + 14;
  plot_ = QRect(left, top + 4, std::max(size.width() - left - 16, 10),
                std::max(size.height() - top - 4 - bottom, 10));
}

void ChartFrame::paintBackground(QPainter& p, const ChartColours& c) const {
  p.fillRect(QRect(QPoint(0, 0), size_), c.background);
  p.fillRect(plot_, c.plot);
}

void ChartFrame::paintTitle(QPainter& p, const ChartColours& c, const QString& text) const {
  if (title_.isEmpty() || text.isEmpty()) return;
  QFont bold = font_;
  bold.setBold(true);
  p.save();
  p.setFont(bold);
  p.setPen(c.text);
  drawLabel(p, title_.adjusted(plot_.left(), 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
  p.restore();
}

void ChartFrame::paintYAxis(QPainter& p, const ChartColours& c, const ValueAxis& axis,
                            const std::vector<Tick>& ticks, const QString& label) const {
  const QFontMetrics fm(font_);
  for (const Tick& t : ticks) {
    const double y = std::round(axis.y(t.value)) + 0.5;
    if (y < plot_.top() - 1 || y > plot_.bottom() + 2) continue;  // the axis ends sit on the frame
    p.setPen(QPen(c.grid, 1));
    p.drawLine(QPointF(plot_.left(), y), QPointF(plot_.right(), y));
    p.setPen(c.axis);
    p.drawLine(QPointF(plot_.left() - 4, y), QPointF(plot_.left(), y));
    p.setPen(c.dimText);
    drawLabel(p, QRect(0, static_cast<int>(y) - fm.height() / 2, plot_.left() - 7, fm.height()),
              Qt::AlignRight | Qt::AlignVCenter, t.label);
  }
  p.save();
  p.setPen(c.text);
  p.translate(fm.height() / 2.0 + 3, plot_.center().y());
  p.rotate(-90);
  drawLabel(p, QRect(-plot_.height() / 2, -fm.height() / 2, plot_.height(), fm.height()), Qt::AlignCenter,
            label);
  p.restore();
}

void ChartFrame::paintXAxis(QPainter& p, const ChartColours& c, const HorizontalAxis& axis,
                            const std::vector<Tick>& ticks, const QString& label) const {
  const QFontMetrics fm(font_);
  for (const Tick& t : ticks) {
    const double x = std::round(axis.x(t.value)) + 0.5;
    if (x < plot_.left() - 1 || x > plot_.right() + 2) continue;
    p.setPen(QPen(c.grid, 1));
    p.drawLine(QPointF(x, plot_.top()), QPointF(x, plot_.bottom()));
    p.setPen(c.axis);
    p.drawLine(QPointF(x, plot_.bottom()), QPointF(x, plot_.bottom() + 4));
    p.setPen(c.dimText);
    const int w = fm.horizontalAdvance(t.label) + 8;
    drawLabel(p, QRect(static_cast<int>(x) - w / 2, plot_.bottom() + 6, w, fm.height()), Qt::AlignCenter,
              t.label);
  }
  p.setPen(c.text);
  drawLabel(p, QRect(plot_.left(), plot_.bottom() + 8 + fm.height(), plot_.width(), fm.height() + 2),
            Qt::AlignCenter, label);
}

void ChartFrame::paintBorder(QPainter& p, const ChartColours& c) const {
  p.setPen(c.axis);
  p.setBrush(Qt::NoBrush);
  p.drawRect(plot_.adjusted(0, 0, -1, -1));
}

}  // namespace rudp::gui
