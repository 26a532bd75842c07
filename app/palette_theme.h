// Light or dark: Qt 6.4 has no colour-scheme hint (6.5 adds one), so the app
// decides from the palette, as Wireshark does: dark when the window text is
// lighter than the window.
#pragma once
#include <QColor>
#include <QPalette>

namespace rudp::gui {

bool isDark(const QPalette& palette);
// `a` moved towards `b` by t (0..1).
QColor blend(const QColor& a, const QColor& b, double t);
// A dark Fusion palette (tests and screenshots of the dark look; the app
// itself follows the system's palette).
QPalette darkPalette();

}  // namespace rudp::gui
