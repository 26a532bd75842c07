// A non-blocking IPv4 UDP socket: bound (server) or connected (client), read
// in batches with recvmmsg.
#pragma once

#include <netinet/in.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <stdexcept>

namespace grudp_ep {

// A socket that cannot be set up; the message is one line.
struct SocketError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class UdpSocket {
 public:
  // Bound to 0.0.0.0:port (port 0 = any free port).
  static UdpSocket bound(uint16_t port);
  // Bound to an ephemeral port and connected to ip:port (host order).
  static UdpSocket connected(uint32_t ip, uint16_t port);

  UdpSocket(UdpSocket&& o) noexcept : fd_(o.fd_), local_ip_(o.local_ip_), local_port_(o.local_port_) {
    o.fd_ = -1;
  }
  UdpSocket& operator=(UdpSocket&&) = delete;
  UdpSocket(const UdpSocket&) = delete;
  ~UdpSocket();

  int fd() const { return fd_; }
  uint32_t local_ip() const { return local_ip_; }
  uint16_t local_port() const { return local_port_; }

  using Handler = std::function<void(const uint8_t* data, size_t len, uint32_t src_ip, uint16_t src_port)>;
  // Reads what is queued, up to `max_batches` recvmmsg calls; returns the
  // number of datagrams handed to `on_datagram`.
  size_t drain(const Handler& on_datagram, int max_batches = 4);

 private:
  explicit UdpSocket(int fd);
  void read_local_address();
  int fd_ = -1;
  uint32_t local_ip_ = 0;
  uint16_t local_port_ = 0;
};

// One sendto (dst may be null on a connected socket); false if the kernel refused it.
bool send_datagram(int fd, const sockaddr_in* dst, const uint8_t* data, size_t len);

sockaddr_in make_sockaddr(uint32_t ip, uint16_t port);

}  // namespace grudp_ep
