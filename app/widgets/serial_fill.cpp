#include "widgets/serial_fill.h"

#include <QImage>
#include <algorithm>
#include <cmath>

namespace rudp::gui {

namespace {
// Device pixels are the painter's pixels: pieces meet exactly.
bool unscaled(const QPainter& p) {
  const QTransform& t = p.deviceTransform();
  return t.type() <= QTransform::TxTranslate && t.dx() == std::floor(t.dx()) && t.dy() == std::floor(t.dy());
}

void withPen(QPainter& p, const QColor& c, auto draw) {
  p.save();
  p.setPen(QPen(c, 1));
  p.setBrush(Qt::NoBrush);
  draw();
  p.restore();
}
}  // namespace

// Painted on one pixel rather than computed, so the rounding is the engine's.
QColor blendedOver(const QColor& top, const QColor& base) {
  if (base.alpha() != 255) return top;
  QImage pixel(1, 1, QImage::Format_ARGB32_Premultiplied);
  pixel.fill(base);
  {
    QPainter p(&pixel);
    p.fillRect(QRect(0, 0, 1, 1), top);
  }
  return QColor::fromRgba(pixel.pixel(0, 0));
}

void fillRectInStrips(QPainter& p, const QRect& r, const QColor& c) {
  if (!unscaled(p) || c.alpha() == 255) {
    p.fillRect(r, c);
    return;
  }
  for (int top = r.top(); top <= r.bottom(); top += kSerialStripRows)
    p.fillRect(QRect(r.left(), top, r.width(), std::min(kSerialStripRows, r.bottom() - top + 1)), c);
}

void drawColumn(QPainter& p, int x, int top, int bottom, const QColor& c) {
  if (!unscaled(p)) {
    withPen(p, c, [&] { p.drawLine(QPointF(x + 0.5, top), QPointF(x + 0.5, bottom)); });
    return;
  }
  fillRectInStrips(p, QRect(x, top, 1, bottom - top + 1), c);
}

// A row of a step area may hold several runs (spans), not one.
constexpr int kPolygonStripRows = 16;

void drawPolygonInStrips(QPainter& p, const QPolygonF& area, const QRect& clip) {
  p.save();
  const QRect rows = clip & area.boundingRect().toAlignedRect();
  if (!unscaled(p) || rows.height() <= kPolygonStripRows) {
    p.setClipRect(clip);
    p.drawPolygon(area);
  } else {
    for (int top = rows.top(); top <= rows.bottom(); top += kPolygonStripRows) {
      p.setClipRect(
          QRect(clip.left(), top, clip.width(), std::min(kPolygonStripRows, rows.bottom() - top + 1)));
      p.drawPolygon(area);
    }
  }
  p.restore();
}

void outlineRect(QPainter& p, const QRect& r, const QColor& c) {
  if (!unscaled(p) || r.height() < 3) {
    withPen(p, c, [&] { p.drawRect(r.adjusted(0, 0, -1, -1)); });
    return;
  }
  p.fillRect(QRect(r.left(), r.top(), r.width(), 1), c);
  p.fillRect(QRect(r.left(), r.bottom(), r.width(), 1), c);
  const QRect sides(r.left(), r.top() + 1, 1, r.height() - 2);
  fillRectInStrips(p, sides, c);
  fillRectInStrips(p, sides.translated(r.width() - 1, 0), c);
}

}  // namespace rudp::gui
