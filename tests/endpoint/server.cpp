#include "server.hpp"

#include "wire.hpp"

namespace grudp_ep {

Server::Server(const EndpointOptions& o) : opt_(o), socket_(UdpSocket::bound(o.port)) {
  reactor_.add(socket_.fd(), 0);
  by_id_.reserve(1024);
  end_ns_ = o.duration_s > 0 ? clock_.start_ns() + int64_t(o.duration_s * 1e9) : 0;
}

void Server::on_datagram(int64_t now, const uint8_t* data, size_t len, uint32_t ip, uint16_t port) {
  grudp_sim::Header h;
  if (!grudp_sim::parse_datagram(data, len, h)) {
    ++unknown_;
    return;
  }
  auto it = by_id_.find(h.conn_id);
  if (it == by_id_.end()) {
    if (h.type != grudp_sim::kConnect) {
      ++unknown_;
      return;
    }
    // Streams 1.. for connections; the seed's stream 0 stays unused.
    auto c = std::make_unique<Connection>(opt_, false, h.conn_id, conns_.size() + 1, clock_, line_,
                                          DelayLine::Target{});
    conns_.add(std::move(c), socket_.fd(), socket_.local_ip(), socket_.local_port(), ip, port, true);
    it = by_id_.emplace(h.conn_id, conns_.size() - 1).first;
  }
  ConnectionSet::Entry& e = conns_.at(it->second);
  if (e.peer_ip != ip || e.peer_port != port) conns_.move_peer(e, ip, port);
  e.conn->on_datagram(now, h);
}

bool Server::should_stop(int64_t now) const {
  if (reactor_.signals() > 0) return true;
  if (end_ns_ && now >= end_ns_) return true;
  if (!opt_.exit_after_clients || conns_.size() == 0 || !line_.empty()) return false;
  for (size_t i = 0; i < conns_.size(); ++i)
    if (!conns_.at(i).conn->done(now)) return false;
  return true;
}

void Server::run() {
  const auto on_readable = [this](uint32_t) {
    const int64_t now = mono_ns();
    socket_.drain([this, now](const uint8_t* d, size_t n, uint32_t ip, uint16_t port) {
      on_datagram(now, d, n, ip, port);
    });
  };
  for (;;) {
    const int64_t now = mono_ns();
    const int64_t due = conns_.poll_due(now);
    line_.flush(now);
    if (should_stop(now)) break;
    reactor_.wait(std::min(due, line_.next_due_ns()), on_readable);
  }
  stopped_ns_ = mono_ns();
}

nlohmann::json Server::report() const {
  return conns_.report("server", clock_.elapsed_s(stopped_ns_), unknown_);
}

std::string Server::summary_line() const {
  return conns_.summary_line("server", clock_.elapsed_s(stopped_ns_));
}

}  // namespace grudp_ep
