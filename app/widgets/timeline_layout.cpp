#include "widgets/timeline_layout.h"

#include <algorithm>

namespace rudp::gui {

const char* laneTitle(Lane lane) {
  switch (lane) {
    case Lane::Rtt: return "RTT (ms)";
    case Lane::Events: return "Retransmissions and losses";
    case Lane::Sequence: return "Sequence numbers (relative)";
    case Lane::PacketRate: return "Packets/s";
    case Lane::ByteRate: return "Bytes/s";
  }
  return "";
}

namespace {
// Relative heights; the events lane holds two rows of marks and stays small.
constexpr std::array<double, kLaneCount> kWeights{3.0, 0, 3.0, 1.3, 1.3};
constexpr int kGap = 8;
}  // namespace

TimelineLayout TimelineLayout::compute(QSize size, const QFontMetrics& fm) {
  TimelineLayout l;
  const int line = fm.height();
  const int left = fm.horizontalAdvance(QStringLiteral("000.0 M")) + 14;
  const int right = 14;
  const int headerH = line + 10;
  const int axisH = 2 * line + 10;
  l.header = QRect(0, 0, size.width(), headerH);
  const int width = std::max(size.width() - left - right, 10);
  const int top = headerH + 2;
  const int bottom = std::max(size.height() - axisH, top + 5 * 10);
  l.plot = QRect(left, top, width, bottom - top);
  l.timeAxis = QRect(left, bottom, width, axisH);

  const int eventsH = std::max(2 * line + 34, 60);
  const int flexible = std::max(l.plot.height() - eventsH - kGap * (kLaneCount - 1), kLaneCount * 10);
  double weights = 0;
  for (double w : kWeights) weights += w;
  int y = top;
  for (size_t i = 0; i < kLaneCount; ++i) {
    const int h = kWeights[i] == 0 ? eventsH : static_cast<int>(flexible * kWeights[i] / weights);
    l.lanes[i] = QRect(left, y, width, h);
    y += h + kGap;
  }
  // Rounding leaves a few pixels: the last lane takes them.
  l.lanes.back().setBottom(bottom - 1);
  return l;
}

std::optional<Lane> TimelineLayout::laneAt(QPoint p) const {
  for (size_t i = 0; i < kLaneCount; ++i)
    if (lanes[i].contains(p)) return kAllLanes[i];
  return std::nullopt;
}

}  // namespace rudp::gui
