// The connections of one endpoint process, with their addresses: polled
// together by the loop and written together to the JSON report.
#pragma once

#include <netinet/in.h>

#include <memory>
#include <string>
#include <vector>

#include "connection.hpp"

namespace grudp_ep {

class ConnectionSet {
 public:
  struct Entry {
    std::unique_ptr<Connection> conn;
    sockaddr_in peer{};  // where the server sends (the DelayLine points at it)
    uint32_t local_ip = 0, peer_ip = 0;
    uint16_t local_port = 0, peer_port = 0;
    int fd = -1;
  };

  // Adds a connection; `peer_for_sendto` false for a connected socket.
  Entry& add(std::unique_ptr<Connection> c, int fd, uint32_t local_ip, uint16_t local_port, uint32_t peer_ip,
             uint16_t peer_port, bool peer_for_sendto);
  size_t size() const { return entries_.size(); }
  Entry& at(size_t i) { return *entries_[i]; }
  const Entry& at(size_t i) const { return *entries_[i]; }
  // Follows the client to a new address (NAT rebinding: conn_id stays).
  void move_peer(Entry& e, uint32_t ip, uint16_t port);

  // Polls every connection that is due; returns the earliest next due time.
  int64_t poll_due(int64_t now);

  nlohmann::json report(const std::string& role, double elapsed_s, uint64_t unknown_datagrams) const;
  // "client: 3 connections, sent 1234 (wire 1190), received 1200, retransmissions 12, drops 44"
  std::string summary_line(const std::string& role, double elapsed_s) const;

 private:
  std::vector<std::unique_ptr<Entry>> entries_;  // entries are pointed at: never moved
};

}  // namespace grudp_ep
