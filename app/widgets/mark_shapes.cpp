#include "widgets/mark_shapes.h"

#include <QPolygonF>

namespace rudp::gui {

MarkShape shapeOf(ana::RetxCause cause) {
  switch (cause) {
    case ana::RetxCause::Timeout: return MarkShape::TriangleDown;
    case ana::RetxCause::Fast: return MarkShape::Diamond;
    case ana::RetxCause::Spurious: return MarkShape::HollowSquare;
  }
  return MarkShape::Dot;
}

QColor colourOf(ana::RetxCause cause, const ChartColours& c) {
  switch (cause) {
    case ana::RetxCause::Timeout: return c.retxTimeout;
    case ana::RetxCause::Fast: return c.retxFast;
    case ana::RetxCause::Spurious: return c.retxSpurious;
  }
  return c.text;
}

const char* labelOf(ana::RetxCause cause) {
  switch (cause) {
    case ana::RetxCause::Timeout: return "timeout";
    case ana::RetxCause::Fast: return "fast";
    case ana::RetxCause::Spurious: return "spurious";
  }
  return "";
}

namespace {
void drawLineMark(QPainter& p, QPointF c, double h, const QColor& colour, Qt::PenStyle style) {
  QPen pen(colour, 2, style);
  pen.setCapStyle(Qt::FlatCap);
  p.setPen(pen);
  p.drawLine(QPointF(c.x() - h, c.y()), QPointF(c.x() + h, c.y()));
}
}  // namespace

void drawMark(QPainter& p, MarkShape shape, QPointF c, double size, const QColor& colour) {
  const double h = size / 2;
  p.save();
  p.setRenderHint(QPainter::Antialiasing, true);
  switch (shape) {
    case MarkShape::TriangleDown:
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawPolygon(QPolygonF(
          {QPointF(c.x() - h, c.y() - h), QPointF(c.x() + h, c.y() - h), QPointF(c.x(), c.y() + h)}));
      break;
    case MarkShape::Diamond:
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawPolygon(QPolygonF({QPointF(c.x(), c.y() - h), QPointF(c.x() + h, c.y()),
                               QPointF(c.x(), c.y() + h), QPointF(c.x() - h, c.y())}));
      break;
    case MarkShape::HollowSquare:
      p.setPen(QPen(colour, 2));
      p.setBrush(Qt::NoBrush);
      p.drawRect(QRectF(c.x() - h + 1, c.y() - h + 1, size - 2, size - 2));
      break;
    case MarkShape::Cross:
      p.setPen(QPen(colour, 2));
      p.drawLine(QPointF(c.x() - h + 1, c.y() - h + 1), QPointF(c.x() + h - 1, c.y() + h - 1));
      p.drawLine(QPointF(c.x() - h + 1, c.y() + h - 1), QPointF(c.x() + h - 1, c.y() - h + 1));
      break;
    case MarkShape::Dot:
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawEllipse(c, h * 0.5, h * 0.5);
      break;
    case MarkShape::Bar:
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawRect(QRectF(c.x() - h, c.y() - h * 0.6, size, size * 0.6));
      break;
    case MarkShape::Band:
      p.setPen(Qt::NoPen);
      p.setBrush(colour);
      p.drawRect(QRectF(c.x() - h, c.y() - h, size, size));
      break;
    case MarkShape::DashLine: drawLineMark(p, c, h, colour, Qt::DashLine); break;
    case MarkShape::Line: drawLineMark(p, c, h, colour, Qt::SolidLine); break;
  }
  p.restore();
}

}  // namespace rudp::gui
