// Colours of the window's own parts (banner, problem marks) beside the
// charts' (widgets/chart_colours.h, which also decides light or dark).
#pragma once
#include <QColor>
#include <QPalette>

namespace rudp::gui {

// `a` moved towards `b` by t (0..1).
QColor blend(const QColor& a, const QColor& b, double t);
// A dark Fusion palette (tests and screenshots of the dark look; the app
// itself follows the system's palette).
QPalette darkPalette();

}  // namespace rudp::gui
