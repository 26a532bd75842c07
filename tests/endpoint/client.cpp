#include "client.hpp"

#include <algorithm>
#include <unordered_set>

#include "rng.hpp"
#include "wire.hpp"

namespace grudp_ep {

namespace {
constexpr int64_t kStartSpreadNs = 100'000'000;
}

Client::Client(const EndpointOptions& o) : opt_(o) {
  grudp_sim::Rng rng(o.seed, 0);
  std::unordered_set<uint32_t> ids;
  sockets_.reserve(size_t(o.clients));
  for (int i = 0; i < o.clients; ++i) {
    sockets_.push_back(UdpSocket::connected(o.server_ip, o.server_port));
    const UdpSocket& s = sockets_.back();
    uint32_t id;
    do id = rng.next_u32();
    while (!ids.insert(id).second);
    // Streams 1..N (the server numbers its connections the same way; the
    // seeds differ per role because each end derives them from its own --seed).
    auto c = std::make_unique<Connection>(o, true, id, uint64_t(i) + 1, clock_, line_, DelayLine::Target{});
    conns_.add(std::move(c), s.fd(), s.local_ip(), s.local_port(), o.server_ip, o.server_port, false);
    reactor_.add(s.fd(), uint32_t(i));
    start_at_.push_back(clock_.start_ns() + int64_t(rng.uniform() * kStartSpreadNs));
  }
  // Connection i starts i-th: only the spread of the start times matters.
  std::sort(start_at_.begin(), start_at_.end());
}

void Client::start_due(int64_t now) {
  while (started_ < start_at_.size() && start_at_[started_] <= now) {
    Connection& c = *conns_.at(started_).conn;
    if (reactor_.signals() == 0) c.start(now);
    ++started_;
  }
}

void Client::on_readable(uint32_t index) {
  const int64_t now = mono_ns();
  ConnectionSet::Entry& e = conns_.at(index);
  sockets_[index].drain([this, &e, now](const uint8_t* d, size_t n, uint32_t, uint16_t) {
    grudp_sim::Header h;
    if (!grudp_sim::parse_datagram(d, n, h) || h.conn_id != e.conn->conn_id()) {
      ++unknown_;
      return;
    }
    e.conn->on_datagram(now, h);
  });
}

bool Client::all_finished(int64_t now) const {
  if (!line_.empty()) return false;
  for (size_t i = 0; i < conns_.size(); ++i)
    if (!conns_.at(i).conn->finished(now)) return false;
  return true;
}

void Client::run() {
  const int64_t end = clock_.start_ns() + int64_t(opt_.duration_s * 1e9);
  bool closing = false;
  for (;;) {
    const int64_t now = mono_ns();
    start_due(now);
    if (!closing && (now >= end || reactor_.signals() > 0)) {
      closing = true;
      for (size_t i = 0; i < conns_.size(); ++i) conns_.at(i).conn->close(now);
    }
    const int64_t due = conns_.poll_due(now);
    line_.flush(now);
    // A second signal: leave without waiting for acks.
    if (reactor_.signals() > 1 || (closing && started_ == conns_.size() && all_finished(now))) break;
    int64_t wake = std::min(due, line_.next_due_ns());
    if (started_ < start_at_.size()) wake = std::min(wake, start_at_[started_]);
    if (!closing) wake = std::min(wake, end);
    reactor_.wait(wake, [this](uint32_t i) { on_readable(i); });
  }
  stopped_ns_ = mono_ns();
}

nlohmann::json Client::report() const {
  return conns_.report("client", clock_.elapsed_s(stopped_ns_), unknown_);
}

std::string Client::summary_line() const {
  return conns_.summary_line("client", clock_.elapsed_s(stopped_ns_));
}

}  // namespace grudp_ep
