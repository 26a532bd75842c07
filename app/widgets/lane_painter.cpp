#include "widgets/lane_painter.h"

namespace rudp::gui {

void LanePainter::paintLegend() {
  LegendPainter(p_, s_.colours).paintRightAligned(legend(), rect().topRight() + QPoint(-2, 2));
}

}  // namespace rudp::gui
