// Where the RTT lane's limit-line labels go: each centred on its line at the
// lane's right edge; a label that would cover one already placed moves to
// its left, so close limits ("250 ms" and "300 ms" 4 px apart at a 2 s
// range) all stay readable and each still sits on its own line.
#pragma once
#include <QFontMetrics>
#include <QRect>
#include <QString>
#include <vector>

#include "widgets/chart_axes.h"

namespace rudp::gui {

struct LimitLabel {
  double limitMs = 0;
  double lineY = 0;  // the line's pixel centre
  QRect box;         // the label's background, text centred in it
  QString text;
};

// Labels of the limits inside `lane` (limits outside it get none), top to
// bottom; a label with no room left in the lane's width is left out.
std::vector<LimitLabel> placeLimitLabels(std::vector<double> limitsMs, const ValueAxis& axis,
                                         const QRect& lane, const QFontMetrics& fm);
// The pixel row a limit line is drawn on.
double limitLineY(const ValueAxis& axis, double limitMs);

}  // namespace rudp::gui
