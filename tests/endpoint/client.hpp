// grudp-endpoint client: N connections from one process, each with its own
// socket and conn_id, in one epoll loop (the load generator).
#pragma once

#include <vector>

#include "clock.hpp"
#include "connection_set.hpp"
#include "delay_line.hpp"
#include "options.hpp"
#include "reactor.hpp"
#include "udp_socket.hpp"

namespace grudp_ep {

class Client {
 public:
  explicit Client(const EndpointOptions& o);  // opens the sockets: throws SocketError
  void run();
  nlohmann::json report() const;
  std::string summary_line() const;

 private:
  void start_due(int64_t now);
  void on_readable(uint32_t index);
  bool all_finished(int64_t now) const;

  const EndpointOptions& opt_;
  Clock clock_;
  Reactor reactor_;
  std::vector<UdpSocket> sockets_;
  std::vector<int64_t> start_at_;  // CONNECT times, spread like grudp-sim's [0, 100 ms)
  size_t started_ = 0;
  DelayLine line_;
  ConnectionSet conns_;
  uint64_t unknown_ = 0;
  int64_t stopped_ns_ = 0;
};

}  // namespace grudp_ep
