// grudp-endpoint server: one bound socket, any number of clients told apart
// by conn_id, until a signal, --duration, or (--exit-after-clients) the last
// client's goodbye.
#pragma once

#include <unordered_map>

#include "clock.hpp"
#include "connection_set.hpp"
#include "delay_line.hpp"
#include "options.hpp"
#include "reactor.hpp"
#include "udp_socket.hpp"

namespace grudp_ep {

class Server {
 public:
  explicit Server(const EndpointOptions& o);  // binds: throws SocketError
  void run();
  nlohmann::json report() const;
  std::string summary_line() const;

 private:
  void on_datagram(int64_t now, const uint8_t* data, size_t len, uint32_t ip, uint16_t port);
  bool should_stop(int64_t now) const;

  const EndpointOptions& opt_;
  Clock clock_;
  Reactor reactor_;
  UdpSocket socket_;
  DelayLine line_;
  ConnectionSet conns_;
  std::unordered_map<uint32_t, size_t> by_id_;
  uint64_t unknown_ = 0;
  int64_t end_ns_ = 0;
  int64_t stopped_ns_ = 0;
};

}  // namespace grudp_ep
