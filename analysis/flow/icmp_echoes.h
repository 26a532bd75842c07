// ICMP echo requests and the replies that answer them, as packet-icmp.c
// and packet-icmpv6.c pair them in Wireshark's one pass: a request is filed under its address
// pair, the checksum its reply will carry, its identifier and sequence
// number (the last request so filed wins); the first reply with that key
// takes it ("[Request frame: N]", "[Response time]", Info's "(request in N)"),
// later identical replies none. Frames in capture order.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <tuple>

#include "core/packet.h"

namespace rudp {

// An ICMP or ICMPv6 echo request or reply of the packet's own (not one an error quotes).
bool isIcmpEcho(const DecodedPacket& pkt);

struct EchoRequest {
  uint64_t frame = 0;
  int64_t ts_ns = 0;
};

class IcmpEchoes {
 public:
  // For an echo reply that answers a request seen before, that request.
  std::optional<EchoRequest> next(const DecodedPacket& pkt);

 private:
  using Key = std::tuple<IpAddress, IpAddress, uint16_t, uint32_t>;  // lower address first
  struct Filed {
    EchoRequest request;
    bool answered = false;
  };
  std::map<Key, Filed> requests_;
};

}  // namespace rudp
