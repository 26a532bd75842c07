#include "widgets/limit_labels.h"

#include <algorithm>
#include <cmath>

namespace rudp::gui {

namespace {
constexpr int kGap = 4;  // between labels, and from the lane's right edge

const QRect* overlapping(const QRect& box, const std::vector<LimitLabel>& placed) {
  for (const LimitLabel& l : placed)
    if (l.box.adjusted(-kGap / 2, 0, kGap / 2, 0).intersects(box)) return &l.box;
  return nullptr;
}
}  // namespace

double limitLineY(const ValueAxis& axis, double limitMs) { return std::round(axis.y(limitMs)) + 0.5; }

std::vector<LimitLabel> placeLimitLabels(std::vector<double> limitsMs, const ValueAxis& axis,
                                         const QRect& lane, const QFontMetrics& fm) {
  std::sort(limitsMs.begin(), limitsMs.end(), std::greater<>());
  limitsMs.erase(std::unique(limitsMs.begin(), limitsMs.end()), limitsMs.end());
  std::vector<LimitLabel> placed;
  for (double limit : limitsMs) {
    const double y = limitLineY(axis, limit);
    if (y < lane.top() || y > lane.bottom()) continue;
    LimitLabel label{limit, y, {}, QStringLiteral("%1 ms").arg(limit)};
    const int w = fm.horizontalAdvance(label.text) + 8, h = fm.height() + 2;
    label.box = QRect(lane.right() - kGap - w, static_cast<int>(std::floor(y)) - h / 2, w, h);
    while (const QRect* other = overlapping(label.box, placed)) label.box.moveRight(other->left() - kGap);
    if (label.box.left() <= lane.left()) continue;
    placed.push_back(label);
  }
  return placed;
}

}  // namespace rudp::gui
