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

void LiveView::updateConnection(const Connection& c) {
  LiveConnection& live = conns_[c.id];
  live.summary = summaryOf(c);
}

void LiveView::addEvents(const RowBatch& b) {
  for (const auto& [id, e] : b.rtts) {
    append(events_[id].rtts, e);
    conns_[id].last_rtt_ms[index(e.dir)] = e.rtt_ms;
  }
  for (const auto& [id, e] : b.retx) {
    append(events_[id].retransmissions, e);
    ++conns_[id].retransmissions[index(e.dir)];
  }
  for (const auto& [id, e] : b.losses) {
    append(events_[id].losses, e);
    conns_[id].lost[index(e.dir)] += e.count;
  }
  for (const auto& [id, e] : b.stalls) {
    append(events_[id].stalls, e);
    ++conns_[id].stalls[index(e.dir)];
  }
  for (const auto& [id, e] : b.rates) append(events_[id].rates, e);
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
  ++generation_;
}

void LiveView::finish() {
  std::lock_guard lock(mu_);
  finished_ = true;
  ++generation_;
}

}  // namespace rudp
