#include "jobs/live_frame.h"

#include <algorithm>
#include <utility>

#include "session/live_view.h"
#include "widgets/timeline_builder.h"

namespace rudp::gui {

namespace {

template <class E>
std::vector<E> ofDirection(const std::vector<E>& events, Direction d) {
  std::vector<E> out;
  std::copy_if(events.begin(), events.end(), std::back_inserter(out), [d](const E& e) { return e.dir == d; });
  return out;
}

std::shared_ptr<const TimelineData> liveTimeline(const rudp::LiveSnapshot& s,
                                                 const std::vector<double>& rttLimitsMs) {
  auto c = std::find_if(s.connections.begin(), s.connections.end(),
                        [&](const rudp::LiveConnection& l) { return l.summary.id == s.watched; });
  if (s.watched == 0 || c == s.connections.end()) return nullptr;
  // The live edge is the newest packet of the capture: a connection that went
  // quiet shows its silence growing, as a stall would.
  TimelineBuilder builder(s.watched, s.first_ts_ns, c->summary.first_ts_ns,
                          std::max(c->summary.last_ts_ns, s.last_ts_ns), rttLimitsMs);
  builder.setLastPacket(c->summary.last_ts_ns);
  const rudp::LiveEvents& e = s.events;
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient})
    builder.setEvents(d, {ofDirection(e.rtts, d), ofDirection(e.retransmissions, d), ofDirection(e.losses, d),
                          ofDirection(e.stalls, d), ofDirection(e.rates, d)});
  TimelineData data = builder.finish();
  data.sequence_after_stop = true;
  return std::make_shared<const TimelineData>(std::move(data));
}

}  // namespace

rudp::ConnectionRecord liveConnectionRecord(const rudp::LiveConnection& c) {
  rudp::ConnectionRecord r;
  r.summary = c.summary;
  r.has_analysis = true;
  r.in_progress = true;
  for (size_t i = 0; i < 2; ++i) {
    r.has_direction[i] = c.summary.dir[i].packets > 0;
    ana::DirectionMetrics& m = r.metrics.dir[i];
    m = c.metrics[i];
    m.packets = c.summary.dir[i].packets;
    m.bytes = c.summary.dir[i].bytes;
  }
  return r;
}

LiveFrame makeLiveFrame(const rudp::LiveSnapshot& s, const std::vector<double>& rttLimitsMs) {
  LiveFrame f;
  f.generation = s.generation;
  f.packets = s.packets;
  f.first_ts_ns = s.first_ts_ns;
  f.last_ts_ns = s.last_ts_ns;
  f.counters = s.counters;
  f.connections.reserve(s.connections.size());
  for (const rudp::LiveConnection& c : s.connections) f.connections.push_back(liveConnectionRecord(c));
  f.timeline = liveTimeline(s, rttLimitsMs);
  return f;
}

}  // namespace rudp::gui
