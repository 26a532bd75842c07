#include "widgets/timeline_viewport.h"

#include <algorithm>
#include <cmath>

namespace rudp::gui {

void TimelineViewport::setFullRange(int64_t start, int64_t end) {
  m_fullStart = start;
  m_fullEnd = std::max(end, start + kMinSpanNs);
  reset();
}

void TimelineViewport::followFullRange(int64_t start, int64_t end) {
  const bool whole = !zoomedX(), atEdge = m_end >= m_fullEnd;
  const int64_t span = m_end - m_start;
  m_fullStart = start;
  m_fullEnd = std::max(end, start + kMinSpanNs);
  if (whole)
    setRange(m_fullStart, m_fullEnd);
  else if (atEdge)
    setRange(m_fullEnd - span, m_fullEnd);
  else
    setRange(m_start, m_end);
}

void TimelineViewport::reset() {
  m_start = m_fullStart;
  m_end = m_fullEnd;
  resetValues();
}

void TimelineViewport::setRange(int64_t start, int64_t end) {
  if (end < start) std::swap(start, end);
  const int64_t full = m_fullEnd - m_fullStart;
  int64_t span = std::clamp(end - start, std::min(kMinSpanNs, full), full);
  // Keep the middle of the request when the span had to grow.
  if (span != end - start) start = start + (end - start) / 2 - span / 2;
  start = std::clamp(start, m_fullStart, m_fullEnd - span);
  m_start = start;
  m_end = start + span;
}

void TimelineViewport::zoomX(double factor, int64_t anchor) {
  const double f = std::max(factor, 1e-6);
  const double left = static_cast<double>(anchor - m_start) * f;
  const double right = static_cast<double>(m_end - anchor) * f;
  setRange(anchor - static_cast<int64_t>(std::llround(left)),
           anchor + static_cast<int64_t>(std::llround(right)));
}

void TimelineViewport::panX(double fraction) {
  const int64_t shift = static_cast<int64_t>(std::llround(fraction * static_cast<double>(m_end - m_start)));
  setRange(m_start + shift, m_end + shift);
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
