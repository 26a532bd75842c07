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

}  // namespace rudp
