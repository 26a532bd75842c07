// Pixel helpers for the rendering tests.
#pragma once
#include <QColor>
#include <QImage>
#include <QRect>
#include <cstdlib>

namespace rudp::test {

// Within `tolerance` per channel (antialiased edges blend; interiors match exactly).
inline bool sameColour(QRgb pixel, const QColor& c, int tolerance = 8) {
  return std::abs(qRed(pixel) - c.red()) <= tolerance && std::abs(qGreen(pixel) - c.green()) <= tolerance &&
         std::abs(qBlue(pixel) - c.blue()) <= tolerance;
}

// `over` (with its alpha) composed onto the opaque `under`.
inline QColor blend(const QColor& over, const QColor& under) {
  const double a = over.alphaF();
  return QColor::fromRgbF(over.redF() * a + under.redF() * (1 - a),
                          over.greenF() * a + under.greenF() * (1 - a),
                          over.blueF() * a + under.blueF() * (1 - a));
}

// Share of the sampled pixels of column x inside `rect` that differ between a and b.
inline double differingShare(const QImage& a, const QImage& b, int x, const QRect& rect) {
  int differ = 0, total = 0;
  for (int y = rect.top() + 2; y < rect.bottom() - 1; y += 2, ++total)
    differ += a.pixel(x, y) != b.pixel(x, y);
  return total ? double(differ) / total : 0;
}

}  // namespace rudp::test
