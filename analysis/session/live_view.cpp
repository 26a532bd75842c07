#include "session/live_view.h"

#include "session/store_thread.h"

namespace rudp {

namespace {

ConnectionSummary summaryOf(const Connection& c) {
  ConnectionSummary s;
  s.id = c.id;
  s.protocol = c.protocol;
  s.client = c.client.toString();
  s.server = c.server.toString();
  s.roles_from_handshake = c.roles_from_handshake;
  s.roles_reason = c.roles_reason;
  s.has_conn_id = c.has_conn_id;
  s.conn_id = c.conn_id;
  s.first_ts_ns = c.first_ts_ns;
  s.last_ts_ns = c.last_ts_ns;
  s.rebindings = c.rebindings;
  s.dir[0] = c.dir[0];
  s.dir[1] = c.dir[1];
  return s;
}

// Keeps the newest kMaxEvents: a live view must not grow without bound.
template <class E>
void append(std::vector<E>& v, const E& e) {
  if (v.size() >= LiveView::kMaxEvents) v.erase(v.begin(), v.begin() + LiveView::kMaxEvents / 4);
  v.push_back(e);
}

size_t index(Direction d) { return static_cast<size_t>(d); }

}  // namespace

void LiveView::watch(int64_t conn) {
  std::lock_guard lock(mu_);
  watched_ = conn;
}

LiveSnapshot LiveView::snapshot() const {
  std::lock_guard lock(mu_);
  LiveSnapshot s;
  s.generation = generation_;
  s.finished = finished_;
  s.packets = packets_;
  s.first_ts_ns = first_ns_;
  s.last_ts_ns = last_ns_;
  s.counters = counters_;
  s.connections.reserve(conns_.size());
  for (const auto& [id, c] : conns_) s.connections.push_back(c);
  s.watched = watched_;
  if (auto it = events_.find(watched_); it != events_.end()) s.events = it->second;
  return s;
}

void LiveView::setRttLimits(const std::array<double, 3>& limitsMs) {
  std::lock_guard lock(mu_);
  rtt_limits_ms_ = limitsMs;
}

void LiveView::updateConnection(const Connection& c) { conns_[c.id].summary = summaryOf(c); }

void LiveView::addEvents(const RowBatch& b) {
  for (const auto& [id, e] : b.rtts) {
    append(events_[id].rtts, e);
    ana::RttStats& stats = conns_[id].metrics[index(e.dir)].rtt;
    stats.srtt = e.srtt_ms;
    stats.rto = e.rto_ms;
    stats.span = e.span;
    RttState& state = rtt_[id][index(e.dir)];
    state.samples.add(e.rtt_ms);
    state.dirty = true;
  }
  for (const auto& [id, e] : b.retx) {
    append(events_[id].retransmissions, e);
    ana::DirectionMetrics& m = conns_[id].metrics[index(e.dir)];
    ++m.retransmissions;
    if (e.cause == ana::RetxCause::Timeout) ++m.retransmissions_timeout;
    if (e.cause == ana::RetxCause::Fast) ++m.retransmissions_fast;
    if (e.cause == ana::RetxCause::Spurious) ++m.retransmissions_spurious;
    if (e.previous_frame == 0) ++m.retransmissions_inferred;  // no earlier copy captured
  }
  for (const auto& [id, e] : b.losses) {
    append(events_[id].losses, e);
    ana::DirectionMetrics& m = conns_[id].metrics[index(e.dir)];
    m.lost += e.count;
    ++m.loss_bursts[e.count];
  }
  for (const auto& [id, e] : b.stalls) {
    append(events_[id].stalls, e);
    conns_[id].metrics[index(e.dir)].stalls.push_back(e);
  }
  for (const auto& [id, e] : b.rates) append(events_[id].rates, e);
}

// Percentiles sort their samples: done once in a while, not per event.
void LiveView::updateRttStats() {
  for (auto& [id, dirs] : rtt_)
    for (size_t d = 0; d < 2; ++d) {
      RttState& state = dirs[d];
      if (!state.dirty) continue;
      state.dirty = false;
      ana::fillSampleFigures(conns_[id].metrics[d].rtt, state.samples, rtt_limits_ms_);
    }
}

void LiveView::publish(const RowBatch& batch, const std::vector<std::unique_ptr<Connection>>& open,
                       const CaptureInfo& info, const LiveCounters& counters, bool last) {
  std::lock_guard lock(mu_);
  addEvents(batch);
  // Every open connection's summary, at most every 100 ms: batches come
  // much faster than that at high packet rates.
  const auto now = std::chrono::steady_clock::now();
  if (last || now - summarised_ >= std::chrono::milliseconds(100)) {
    summarised_ = now;
    for (const auto& c : open) updateConnection(*c);
  }
  // Percentiles sort up to 8192 samples per direction: once a second is
  // enough for a table, and at 100k packets/s every 100 ms cost half a core.
  if (last || now - rtt_updated_ >= std::chrono::seconds(1)) {
    rtt_updated_ = now;
    updateRttStats();
  }
  for (const auto& c : batch.closed) updateConnection(*c);
  packets_ = info.packet_count;
  first_ns_ = info.first_ts_ns;
  last_ns_ = info.last_ts_ns;
  counters_ = counters;
  ++generation_;
}

void LiveView::startFile() {
  std::lock_guard lock(mu_);
  conns_.clear();
  events_.clear();
  rtt_.clear();
  ++generation_;
}

void LiveView::finish() {
  std::lock_guard lock(mu_);
  finished_ = true;
  ++generation_;
}

}  // namespace rudp
