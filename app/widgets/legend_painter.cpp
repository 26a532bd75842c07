#include "widgets/legend_painter.h"
#include "widgets/text_label.h"

#include <QFontMetrics>
#include <algorithm>

namespace rudp::gui {

QSize LegendPainter::size(const std::vector<LegendEntry>& entries) const {
  const QFontMetrics fm(p_.font());
  int w = 0;
  for (const LegendEntry& e : entries) w += kSwatch + kPad + fm.horizontalAdvance(e.text) + kSpacing;
  return {std::max(w - kSpacing, 0) + 2 * kPad, std::max(fm.height(), kSwatch) + 2};
}

QRect LegendPainter::paintRightAligned(const std::vector<LegendEntry>& entries, QPoint topRight, bool box) {
  const QSize s = size(entries);
  const QPoint topLeft(topRight.x() - s.width(), topRight.y());
  paintAt(entries, topLeft, box);
  return QRect(topLeft, s);
}

std::vector<std::vector<LegendEntry>> LegendPainter::wrap(const std::vector<LegendEntry>& entries,
                                                          const QFont& font, int width) {
  const QFontMetrics fm(font);
  std::vector<std::vector<LegendEntry>> rows;
  int used = 0;
  for (const LegendEntry& e : entries) {
    const int w = kSwatch + kPad + fm.horizontalAdvance(e.text) + kSpacing;
    if (rows.empty() || (used + w > width && !rows.back().empty())) {
      rows.emplace_back();
      used = 2 * kPad;
    }
    rows.back().push_back(e);
    used += w;
  }
  return rows;
}

void LegendPainter::paintAt(const std::vector<LegendEntry>& entries, QPoint topLeft, bool box) {
  if (entries.empty()) return;
  const QFontMetrics fm(p_.font());
  const QSize s = size(entries);
  p_.save();
  if (box) {
    QColor bg = m_colours.plot;
    bg.setAlpha(225);
    p_.setPen(Qt::NoPen);
    p_.setBrush(bg);
    p_.drawRoundedRect(QRect(topLeft, s), 3, 3);
  }
  int x = topLeft.x() + kPad;
  const double cy = topLeft.y() + s.height() / 2.0;
  for (const LegendEntry& e : entries) {
    drawMark(p_, e.shape, QPointF(x + kSwatch / 2.0, cy), kSwatch * 0.75, e.colour);
    x += kSwatch + kPad;
    p_.setPen(m_colours.text);
    const int w = fm.horizontalAdvance(e.text);
    drawLabel(p_, QRect(x, topLeft.y(), w + 2, s.height()), Qt::AlignLeft | Qt::AlignVCenter, e.text);
    x += w + kSpacing;
  }
  p_.restore();
}

}  // namespace rudp::gui
