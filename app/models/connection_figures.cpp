#include "models/connection_figures.h"

#include <algorithm>

namespace rudp::gui {

const ana::DirectionMetrics* analysedDirection(const ConnectionRecord& r, Direction d) {
  const int i = static_cast<int>(d);
  return r.has_analysis && r.has_direction[i] ? &r.metrics.dir[i] : nullptr;
}

namespace {

double orZero(const std::optional<double>& v) { return v.value_or(0.0); }

double worseOfBoth(const ConnectionRecord& r,
                   std::optional<double> (*figure)(const ConnectionRecord&, Direction)) {
  return std::max(orZero(figure(r, Direction::ClientToServer)), orZero(figure(r, Direction::ServerToClient)));
}

std::optional<double> shareAboveFirstLimit(const ConnectionRecord& r, Direction d) {
  return shareAbovePercent(r, d, 0);
}
}  // namespace

std::optional<double> lossPercent(const ConnectionRecord& r, Direction d) {
  const ana::DirectionMetrics* m = analysedDirection(r, d);
  if (!m) return std::nullopt;
  const uint64_t copies = m->retransmissions + m->network_duplicates;
  if (m->data_packets <= copies) return std::nullopt;
  return 100.0 * static_cast<double>(m->lost) / static_cast<double>(m->data_packets - copies);
}

std::optional<double> longestStallMs(const ConnectionRecord& r, Direction d) {
  const ana::DirectionMetrics* m = analysedDirection(r, d);
  if (!m) return std::nullopt;
  double longest = 0;
  for (const ana::StallEvent& s : m->stalls) longest = std::max(longest, s.duration_ms);
  return longest;
}

std::optional<double> shareAbovePercent(const ConnectionRecord& r, Direction d, size_t i) {
  const ana::DirectionMetrics* m = analysedDirection(r, d);
  if (!m || m->rtt.samples == 0 || i >= m->rtt.share_above.size()) return std::nullopt;
  return 100.0 * m->rtt.share_above[i];
}

double connectionBadness(const ConnectionRecord& r) {
  // shareAbovePercent is in percent: × 10 = × 1000 on the 0..1 share.
  return worseOfBoth(r, longestStallMs) + kShareWeight / 100.0 * worseOfBoth(r, shareAboveFirstLimit) +
         kLossPercentWeight * worseOfBoth(r, lossPercent);
}

}  // namespace rudp::gui
