// Clipping of lines to a rectangle before QPainter sees them: Qt strokes a
// wide or dashed line over its whole length, so a line running a million
// pixels off screen (a zoomed-in axis) costs seconds. Liang-Barsky per segment.
#pragma once
#include <QPolygonF>
#include <QRectF>
#include <vector>

namespace rudp::gui {

// The parts of `line` inside `r`, each a polyline of its own.
std::vector<QPolygonF> clipPolyline(const QPolygonF& line, const QRectF& r);
// Every point moved into `r` (exact for shapes made of horizontal and
// vertical edges, like the area under a step line).
QPolygonF clampPolygon(QPolygonF polygon, const QRectF& r);

}  // namespace rudp::gui
