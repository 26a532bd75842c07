// One line of text placed in a box by alignment. It goes through QPainter's
// drawText(QPointF) path: the QRect overload lays the text out with a
// QTextLayout on every call, which costs milliseconds per frame with the
// dozens of tick labels a chart has.
#pragma once
#include <QPainter>
#include <QRectF>
#include <QString>

namespace rudp::gui {

void drawLabel(QPainter& p, const QRectF& box, Qt::Alignment align, const QString& text);

}  // namespace rudp::gui
