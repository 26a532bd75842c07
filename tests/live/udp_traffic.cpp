#include "udp_traffic.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace rudp::test {

namespace {

sockaddr_in loopback(uint16_t port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  return a;
}

}  // namespace

void sendUdp(uint16_t port, int count, int size, int gapUs) {
  const int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
  const sockaddr_in to = loopback(port);
  if (bind(rx, reinterpret_cast<const sockaddr*>(&to), sizeof to) != 0)
    throw std::runtime_error("cannot bind 127.0.0.1:" + std::to_string(port));
  std::vector<char> payload(size_t(size), 'g');
  for (int i = 0; i < count; ++i) {
    if (sendto(tx, payload.data(), payload.size(), 0, reinterpret_cast<const sockaddr*>(&to), sizeof to) < 0)
      throw std::runtime_error("sendto failed");
    usleep(useconds_t(gapUs));
  }
  close(tx);
  close(rx);
}

}  // namespace rudp::test
