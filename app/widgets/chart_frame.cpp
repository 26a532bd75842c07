#include "widgets/chart_frame.h"
#include "widgets/text_label.h"

#include <cmath>

namespace rudp::gui {

ChartFrame::ChartFrame(QSize size, const QFont& font, bool title, int legendRows)
    : m_size(size), m_font(font) {
  const QFontMetrics fm(font);
  const int line = fm.height();
  int top = 6;
  if (title) {
    m_title = QRect(0, top, size.width(), line + 4);
    top = m_title.bottom() + 3;
  }
  if (legendRows > 0) {
    m_legend = QRect(0, top, size.width(), legendRows * (line + 4));
    top = m_legend.bottom() + 3;
  }
  const int left = line + 6 + fm.horizontalAdvance(QStringLiteral("00.0 k")) + 10;
  const int bottom = 2 * line + 14;
  m_plot = QRect(left, top + 4, std::max(size.width() - left - 16, 10),
                 std::max(size.height() - top - 4 - bottom, 10));
}

void ChartFrame::paintBackground(QPainter& p, const ChartColours& c) const {
  p.fillRect(QRect(QPoint(0, 0), m_size), c.background);
  p.fillRect(m_plot, c.plot);
}

void ChartFrame::paintTitle(QPainter& p, const ChartColours& c, const QString& text) const {
  if (m_title.isEmpty() || text.isEmpty()) return;
  QFont bold = m_font;
  bold.setBold(true);
  p.save();
  p.setFont(bold);
  p.setPen(c.text);
  drawLabel(p, m_title.adjusted(m_plot.left(), 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
  p.restore();
}

void ChartFrame::paintYAxis(QPainter& p, const ChartColours& c, const ValueAxis& axis,
                            const std::vector<Tick>& ticks, const QString& label) const {
  const QFontMetrics fm(m_font);
  for (const Tick& t : ticks) {
    const double y = std::round(axis.y(t.value)) + 0.5;
    if (y < m_plot.top() - 1 || y > m_plot.bottom() + 2) continue;  // the axis ends sit on the frame
    p.setPen(QPen(c.grid, 1));
    p.drawLine(QPointF(m_plot.left(), y), QPointF(m_plot.right(), y));
    p.setPen(c.axis);
    p.drawLine(QPointF(m_plot.left() - 4, y), QPointF(m_plot.left(), y));
    p.setPen(c.dimText);
    drawLabel(p, QRect(0, static_cast<int>(y) - fm.height() / 2, m_plot.left() - 7, fm.height()),
              Qt::AlignRight | Qt::AlignVCenter, t.label);
  }
  p.save();
  p.setPen(c.text);
  p.translate(fm.height() / 2.0 + 3, m_plot.center().y());
  p.rotate(-90);
  drawLabel(p, QRect(-m_plot.height() / 2, -fm.height() / 2, m_plot.height(), fm.height()), Qt::AlignCenter,
            label);
  p.restore();
}

void ChartFrame::paintXAxis(QPainter& p, const ChartColours& c, const HorizontalAxis& axis,
                            const std::vector<Tick>& ticks, const QString& label) const {
  const QFontMetrics fm(m_font);
  for (const Tick& t : ticks) {
    const double x = std::round(axis.x(t.value)) + 0.5;
    if (x < m_plot.left() - 1 || x > m_plot.right() + 2) continue;
    p.setPen(QPen(c.grid, 1));
    p.drawLine(QPointF(x, m_plot.top()), QPointF(x, m_plot.bottom()));
    p.setPen(c.axis);
    p.drawLine(QPointF(x, m_plot.bottom()), QPointF(x, m_plot.bottom() + 4));
    p.setPen(c.dimText);
    const int w = fm.horizontalAdvance(t.label) + 8;
    drawLabel(p, QRect(static_cast<int>(x) - w / 2, m_plot.bottom() + 6, w, fm.height()), Qt::AlignCenter,
              t.label);
  }
  p.setPen(c.text);
  drawLabel(p, QRect(m_plot.left(), m_plot.bottom() + 8 + fm.height(), m_plot.width(), fm.height() + 2),
            Qt::AlignCenter, label);
}

void ChartFrame::paintBorder(QPainter& p, const ChartColours& c) const {
  p.setPen(c.axis);
  p.setBrush(Qt::NoBrush);
  p.drawRect(m_plot.adjusted(0, 0, -1, -1));
}

}  // namespace rudp::gui
