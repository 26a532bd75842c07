#include "widgets/timeline_viewport.h"

#include <algorithm>
#include <cmath>

namespace rudp::gui {

void TimelineViewport::setFullRange(int64_t start, int64_t end) {
  fullStart_ = start;
  fullEnd_ = std::max(end, start + kMinSpanNs);
  reset();
}

void TimelineViewport::followFullRange(int64_t start, int64_t end) {
  const bool whole = !zoomedX(), atEdge = end_ >= fullEnd_;
  const int64_t span = end_ - start_;
  fullStart_ = start;
  fullEnd_ = std::max(end, start + kMinSpanNs);
  if (whole)
    setRange(fullStart_, fullEnd_);
  else if (atEdge)
    setRange(fullEnd_ - span, fullEnd_);
  else
    setRange(start_, end_);
}

void TimelineViewport::reset() {
  start_ = fullStart_;
  end_ = fullEnd_;
  resetValues();
}

void TimelineViewport::setRange(int64_t start, int64_t end) {
  if (end < start) std::swap(start, end);
  const int64_t full = fullEnd_ - fullStart_;
  int64_t span = std::clamp(end - start, std::min(kMinSpanNs, full), full);
  // Keep the middle of the request when the span had to grow.
  if (span != end - start) start = start + (end - start) / 2 - span / 2;
  start = std::clamp(start, fullStart_, fullEnd_ - span);
  start_ = start;
  end_ = start + span;
}

void TimelineViewport::zoomX(double factor, int64_t anchor) {
  const double f = std::max(factor, 1e-6);
  const double left = static_cast<double>(anchor - start_) * f;
  const double right = static_cast<double>(end_ - anchor) * f;
  setRange(anchor - static_cast<int64_t>(std::llround(left)),
           anchor + static_cast<int64_t>(std::llround(right)));
}

void TimelineViewport::panX(double fraction) {
  const int64_t shift = static_cast<int64_t>(std::llround(fraction * static_cast<double>(end_ - start_)));
  setRange(start_ + shift, end_ + shift);
}

void TimelineViewport::zoomY(Lane lane, double factor, ValueSpan current, double anchor) {
  y_[index(lane)] =
      ValueSpan{anchor - (anchor - current.min) * factor, anchor + (current.max - anchor) * factor};
}

void TimelineViewport::panY(Lane lane, double fraction, ValueSpan current) {
  const double shift = fraction * (current.max - current.min);
  y_[index(lane)] = ValueSpan{current.min + shift, current.max + shift};
}

}  // namespace rudp::gui
