// Where the parts of the timeline go for a given size: the header, the lanes
// stacked on one time axis, the axis itself.
#pragma once
#include <QFontMetrics>
#include <QRect>
#include <array>
#include <optional>

namespace rudp::gui {

enum class Lane { Rtt, Events, Sequence, PacketRate, ByteRate };
inline constexpr int kLaneCount = 5;
inline constexpr std::array<Lane, kLaneCount> kAllLanes{Lane::Rtt, Lane::Events, Lane::Sequence,
                                                        Lane::PacketRate, Lane::ByteRate};
const char* laneTitle(Lane lane);

struct TimelineLayout {
  QRect header;    // title and band legend
  QRect plot;      // the union of the lanes (bands and cursors span it)
  QRect timeAxis;  // tick labels under the lanes
  std::array<QRect, kLaneCount> lanes;

  static TimelineLayout compute(QSize size, const QFontMetrics& fm);
  const QRect& lane(Lane l) const { return lanes[static_cast<size_t>(l)]; }
  std::optional<Lane> laneAt(QPoint p) const;
};

}  // namespace rudp::gui
