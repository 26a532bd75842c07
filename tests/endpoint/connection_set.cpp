#include "connection_set.hpp"

#include <cstdio>

#include "udp_socket.hpp"

namespace grudp_ep {

ConnectionSet::Entry& ConnectionSet::add(std::unique_ptr<Connection> c, int fd, uint32_t local_ip,
                                         uint16_t local_port, uint32_t peer_ip, uint16_t peer_port,
                                         bool peer_for_sendto) {
  auto e = std::make_unique<Entry>();
  e->conn = std::move(c);
  e->fd = fd;
  e->local_ip = local_ip;
  e->local_port = local_port;
  e->peer_ip = peer_ip;
  e->peer_port = peer_port;
  e->peer = make_sockaddr(peer_ip, peer_port);
  e->conn->set_target({fd, peer_for_sendto ? &e->peer : nullptr, nullptr});
  entries_.push_back(std::move(e));
  return *entries_.back();
}

void ConnectionSet::move_peer(Entry& e, uint32_t ip, uint16_t port) {
  // Datagrams already in the DelayLine point at e.peer and follow the move.
  e.peer_ip = ip;
  e.peer_port = port;
  e.peer = make_sockaddr(ip, port);
}

int64_t ConnectionSet::poll_due(int64_t now) {
  int64_t next = std::numeric_limits<int64_t>::max();
  for (auto& e : entries_) {
    Connection& c = *e->conn;
    if (c.next_due() <= now) c.poll(now);
    next = std::min(next, c.next_due());
  }
  return next;
}

nlohmann::json ConnectionSet::report(const std::string& role, double elapsed_s,
                                     uint64_t unknown_datagrams) const {
  std::vector<ConnReport> list;
  list.reserve(entries_.size());
  for (const auto& e : entries_)
    list.push_back({e->conn->conn_id(), addr_string(e->local_ip, e->local_port),
                    addr_string(e->peer_ip, e->peer_port), e->conn->state_name(), &e->conn->counters()});
  return report_json(role, elapsed_s, list, unknown_datagrams);
}

std::string ConnectionSet::summary_line(const std::string& role, double elapsed_s) const {
  ConnCounters t;
  for (const auto& e : entries_) t += e->conn->counters();
  const double rate = elapsed_s > 0 ? double(t.sent_wire.total() + t.received.total()) / elapsed_s : 0;
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "grudp-endpoint %s: %zu connections, %.1f s, sent %llu (wire %llu), received %llu, "
                "retransmissions %llu, impairment drops %llu, %.0f packets/s in+out",
                role.c_str(), entries_.size(), elapsed_s, (unsigned long long)t.sent.total(),
                (unsigned long long)t.sent_wire.total(), (unsigned long long)t.received.total(),
                (unsigned long long)t.retx.total(), (unsigned long long)t.drops.total(), rate);
  return buf;
}

}  // namespace grudp_ep
