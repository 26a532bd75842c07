// A snapshot of what the timeline shows: the data, the direction, the visible
// range, layers and colours. Painting and hit testing are functions of a
// scene and a size, so the same code draws the widget, PNG and SVG exports
// and benchmark frames, on any thread.
#pragma once
#include <QFont>
#include <QSize>
#include <QString>
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "widgets/chart_axes.h"
#include "widgets/chart_colours.h"
#include "widgets/timeline_data.h"
#include "widgets/timeline_layout.h"

namespace rudp::gui {

enum class Layer : uint32_t {
  RttSamples = 1u << 0,
  Srtt = 1u << 1,
  Rto = 1u << 2,
  LimitLines = 1u << 3,
  StallBands = 1u << 4,
  RecoveryBands = 1u << 5,
  RetxMarks = 1u << 6,
  LossMarks = 1u << 7,
  SeqSent = 1u << 8,
  SeqRetransmitted = 1u << 9,
  SeqAcked = 1u << 10,
  PacketRate = 1u << 11,
  ByteRate = 1u << 12,
  Grid = 1u << 13,
};
inline constexpr uint32_t kAllLayers = (1u << 14) - 1;

struct TimelineScene {
  std::shared_ptr<const TimelineData> data;
  Direction direction = Direction::ClientToServer;
  int64_t t0 = 0, t1 = 1;
  std::array<std::optional<ValueSpan>, kLaneCount> manualY{};
  std::vector<double> limitLinesMs;
  std::optional<uint64_t> markedFrame;
  uint32_t layers = kAllLayers;
  ChartColours colours;
  QFont font;

  bool has(Layer l) const { return (layers & static_cast<uint32_t>(l)) != 0; }
  // Null without data.
  const DirectionTimeline* dir() const { return data ? &data->of(direction) : nullptr; }
  // A flow no dissector claims, without an echo found in its payloads, or an
  // encrypted QUIC connection without a sample: no RTT to draw (the lane's
  // title says why).
  bool rttUnknown() const {
    return data && ((data->timing_only && (!dir() || !dir()->echoFound)) ||
                    (data->encrypted && (!dir() || dir()->rtt.size() == 0)));
  }
  bool rttInferred() const { return data && data->timing_only && dir() && dir()->echoFound; }
};

// Where the two rows of marks of the events lane sit.
struct EventRows {
  double retx = 0, loss = 0;
  static EventRows of(const QRect& lane);
};

// The layout plus every axis for one scene at one size.
struct TimelineGeometry {
  TimelineLayout layout;
  TimeAxis time;
  std::array<ValueAxis, kLaneCount> values{};
  EventRows rows;

  static TimelineGeometry compute(const TimelineScene& scene, QSize size);
  const ValueAxis& axis(Lane l) const { return values[static_cast<size_t>(l)]; }
};

// What a lane shows when the user has not chosen its value range: its data
// in the visible time range, with some headroom.
ValueSpan autoValueRange(const TimelineScene& scene, Lane lane);
// The manual range when there is one, else the automatic one.
ValueSpan effectiveValueRange(const TimelineScene& scene, Lane lane);

}  // namespace rudp::gui
