// Translucent fills that stay on the painting thread. Qt 6.4's raster engine
// hands every blend of more than ~96 spans (the rows of a fill, or the pixels
// of a 1 px line) that is not an opaque solid fill to its GUI thread pool
// (qdrawhelper.cpp, QT_THREAD_PARALLEL_FILLS). On a busy two-core machine the
// hand-offs cost more than the blending: a timeline frame made ~1000 of them,
// for grid lines, lane borders and bands. These draw the same pixels in
// pieces the engine blends serially.
#pragma once
#include <QColor>
#include <QPainter>
#include <QPolygonF>
#include <QRect>

namespace rudp::gui {

// Below the engine's threshold: (rows + 32) / 64 segments must stay 1.
inline constexpr int kSerialStripRows = 64;

// The colour `top` leaves on the opaque `base`, exactly as the engine blends
// it: drawn opaque over `base` it is the serial fast path with the same pixels.
// `top` itself when `base` is not opaque.
QColor blendedOver(const QColor& top, const QColor& base);

// fillRect(r, c), in strips of at most kSerialStripRows rows. One fillRect
// when the painter scales (strips could then meet on fractional rows).
void fillRectInStrips(QPainter& p, const QRect& r, const QColor& c);

// drawLine(QPointF(x + 0.5, top), QPointF(x + 0.5, bottom)) with a 1 px pen
// of colour c: column x from row top to row bottom.
void drawColumn(QPainter& p, int x, int top, int bottom, const QColor& c);

// drawPolygon(area) with the painter's pen and brush, clipped to `clip`, in
// strips of clip of at most kSerialStripRows rows (the engine rasterises the
// whole polygon for each; a strip's pixels are blended once, as before).
void drawPolygonInStrips(QPainter& p, const QPolygonF& area, const QRect& clip);

// The outline drawRect(r.adjusted(0, 0, -1, -1)) draws with a 1 px pen of
// colour c: the border pixels of r, each once.
void outlineRect(QPainter& p, const QRect& r, const QColor& c);

}  // namespace rudp::gui
