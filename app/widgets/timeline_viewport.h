// The visible part of the timeline: a time range within the connection's,
// and per lane an optional value range the user zoomed or panned to (lanes
// without one scale to their visible data). Pure arithmetic, no widgets.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "widgets/lod_series.h"
#include "widgets/timeline_layout.h"

namespace rudp::gui {

class TimelineViewport {
 public:
  static constexpr int64_t kMinSpanNs = 10'000;  // 10 us

  // Sets the full range and shows all of it.
  void setFullRange(int64_t start, int64_t end);
  int64_t fullStart() const { return m_fullStart; }
  int64_t fullEnd() const { return m_fullEnd; }
  int64_t start() const { return m_start; }
  int64_t end() const { return m_end; }

  // The full range of data still arriving: a view of all of it stays all of
  // it, a view ending at the old end keeps its span and follows the new end,
  // any other stays where it is. Value ranges are kept.
  void followFullRange(int64_t start, int64_t end);
  // Clamped into the full range, at least kMinSpanNs wide.
  void setRange(int64_t start, int64_t end);
  // factor < 1 zooms in: the span is multiplied by it around `anchor`,
  // which stays at the same pixel.
  void zoomX(double factor, int64_t anchor);
  // Moves by `fraction` of the visible span (negative: earlier).
  void panX(double fraction);
  bool zoomedX() const { return m_start != m_fullStart || m_end != m_fullEnd; }

  const std::optional<ValueSpan>& valueRange(Lane lane) const { return y_[index(lane)]; }
  void setValueRange(Lane lane, ValueSpan span) { y_[index(lane)] = span; }
  // Same as zoomX and panX for a lane's values; `current` is what it shows
  // now, `anchor` the value that keeps its pixel.
  void zoomY(Lane lane, double factor, ValueSpan current, double anchor);
  void panY(Lane lane, double fraction, ValueSpan current);

  void resetValues() { y_.fill(std::nullopt); }
  // Everything back to the full range and automatic values.
  void reset();

 private:
  static size_t index(Lane l) { return static_cast<size_t>(l); }
  int64_t m_fullStart = 0, m_fullEnd = 1, m_start = 0, m_end = 1;
  std::array<std::optional<ValueSpan>, kLaneCount> y_{};
};

}  // namespace rudp::gui
