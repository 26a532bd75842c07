#include "packets/udp_streams.h"

namespace rudp {

StreamPosition UdpStreams::next(const DecodedPacket& pkt) {
  Endpoint a{pkt.src, pkt.sport}, b{pkt.dst, pkt.dport};
  if (b < a) std::swap(a, b);
  const uint64_t index = streams_.size();
  const auto it = streams_.try_emplace({a, b}, Stream{index, pkt.ts_ns, pkt.ts_ns}).first;
  const StreamPosition at{it->second.index, it->second.first_ns, it->second.last_ns};
  it->second.last_ns = pkt.ts_ns;
  return at;
}

}  // namespace rudp
