#include "udp_socket.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <string>

namespace grudp_ep {

namespace {

constexpr int kBatch = 64;
constexpr size_t kMaxDatagram = 2048;
// Large buffers: at 100k packets/s a short scheduling hiccup must not drop.
constexpr int kSocketBuffer = 8 << 20;

std::string errno_text(const std::string& what) { return what + ": " + std::strerror(errno); }

int open_socket() {
  const int fd = ::socket(AF_INET, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) throw SocketError(errno_text("socket"));
  ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &kSocketBuffer, sizeof kSocketBuffer);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &kSocketBuffer, sizeof kSocketBuffer);
  return fd;
}

// Receive buffers shared by every socket of the (single-threaded) process.
struct BatchBuffers {
  std::array<std::array<uint8_t, kMaxDatagram>, kBatch> data;
  std::array<sockaddr_in, kBatch> from;
  std::array<iovec, kBatch> iov;
  std::array<mmsghdr, kBatch> msgs;
};
BatchBuffers& batch_buffers() {
  static BatchBuffers b;
  return b;
}

}  // namespace

sockaddr_in make_sockaddr(uint32_t ip, uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(ip);
  a.sin_port = htons(port);
  return a;
}

UdpSocket::UdpSocket(int fd) : fd_(fd) {}

UdpSocket::~UdpSocket() {
  if (fd_ >= 0) ::close(fd_);
}

void UdpSocket::read_local_address() {
  sockaddr_in a{};
  socklen_t len = sizeof a;
  ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
  local_ip_ = ntohl(a.sin_addr.s_addr);
  local_port_ = ntohs(a.sin_port);
}

UdpSocket UdpSocket::bound(uint16_t port) {
  UdpSocket s(open_socket());
  const sockaddr_in a = make_sockaddr(INADDR_ANY, port);
  if (::bind(s.fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
    throw SocketError(errno_text("cannot bind UDP port " + std::to_string(port)));
  s.read_local_address();
  return s;
}

UdpSocket UdpSocket::connected(uint32_t ip, uint16_t port) {
  UdpSocket s(open_socket());
  const sockaddr_in a = make_sockaddr(ip, port);
  if (::connect(s.fd_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0)
    throw SocketError(errno_text("cannot connect a UDP socket to " + std::to_string(port)));
  s.read_local_address();
  return s;
}

size_t UdpSocket::drain(const Handler& on_datagram, int max_batches) {
  BatchBuffers& b = batch_buffers();
  size_t total = 0;
  for (int round = 0; round < max_batches; ++round) {
    for (int i = 0; i < kBatch; ++i) {
      b.iov[i] = {b.data[i].data(), kMaxDatagram};
      b.msgs[i].msg_hdr = {};
      b.msgs[i].msg_hdr.msg_iov = &b.iov[i];
      b.msgs[i].msg_hdr.msg_iovlen = 1;
      b.msgs[i].msg_hdr.msg_name = &b.from[i];
      b.msgs[i].msg_hdr.msg_namelen = sizeof(sockaddr_in);
    }
    const int n = ::recvmmsg(fd_, b.msgs.data(), kBatch, MSG_DONTWAIT, nullptr);
    if (n <= 0) break;  // EAGAIN, or ECONNREFUSED reported by ICMP on a connected socket
    for (int i = 0; i < n; ++i)
      on_datagram(b.data[i].data(), b.msgs[i].msg_len, ntohl(b.from[i].sin_addr.s_addr),
                  ntohs(b.from[i].sin_port));
    total += size_t(n);
    if (n < kBatch) break;
  }
  return total;
}

bool send_datagram(int fd, const sockaddr_in* dst, const uint8_t* data, size_t len) {
  const ssize_t n = ::sendto(fd, data, len, MSG_DONTWAIT, reinterpret_cast<const sockaddr*>(dst),
                             dst ? sizeof(sockaddr_in) : 0);
  return n == ssize_t(len);
}

}  // namespace grudp_ep
