#include "core/packet.h"

#include <arpa/inet.h>

namespace rudp {

std::string IpAddress::toString() const {
  char buf[INET6_ADDRSTRLEN] = {0};
  if (family == 4)
    inet_ntop(AF_INET, bytes.data(), buf, sizeof buf);
  else if (family == 6)
    inet_ntop(AF_INET6, bytes.data(), buf, sizeof buf);
  return buf;
}

bool isPrivateAddress(const IpAddress& a) {
  const auto& b = a.bytes;
  if (a.family == 4)
    return b[0] == 10 || (b[0] == 172 && (b[1] & 0xF0) == 16) || (b[0] == 192 && b[1] == 168) ||
           (b[0] == 100 && (b[1] & 0xC0) == 64);
  return a.family == 6 && (b[0] & 0xFE) == 0xFC;
}

}  // namespace rudp
