#include "widgets/text_label.h"

#include <QFontMetricsF>

namespace rudp::gui {

void drawLabel(QPainter& p, const QRectF& box, Qt::Alignment align, const QString& text) {
  const QFontMetricsF fm(p.font());
  const double w = fm.horizontalAdvance(text);
  double x = box.left();
  if (align & Qt::AlignRight)
    x = box.right() - w;
  else if (align & Qt::AlignHCenter)
    x = box.center().x() - w / 2;
  double y = box.center().y() + (fm.ascent() - fm.descent()) / 2;
  if (align & Qt::AlignTop)
    y = box.top() + fm.ascent();
  else if (align & Qt::AlignBottom)
    y = box.bottom() - fm.descent();
  p.drawText(QPointF(x, y), text);
}

}  // namespace rudp::gui
