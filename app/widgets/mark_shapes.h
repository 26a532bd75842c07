// The shapes of the timeline's marks, shared by the lanes, the legends and
// the hit tester: a timeout is a filled triangle pointing down, a fast
// retransmission a filled diamond, a spurious one a hollow square, a loss a
// cross.
#pragma once
#include <QColor>
#include <QPainter>
#include <QPointF>

#include "analyzers/events.h"
#include "widgets/chart_colours.h"

namespace rudp::gui {

enum class MarkShape { TriangleDown, Diamond, HollowSquare, Cross, Dot, Bar, DashLine, Line, Band };

inline constexpr double kMarkSize = 11.0;  // pixels across

MarkShape shapeOf(ana::RetxCause cause);
QColor colourOf(ana::RetxCause cause, const ChartColours& c);
const char* labelOf(ana::RetxCause cause);  // "timeout", "fast", "spurious"

// Draws `shape` centred on `c`, `size` pixels across.
void drawMark(QPainter& p, MarkShape shape, QPointF c, double size, const QColor& colour);

}  // namespace rudp::gui
