#include "flow/udp_streams.h"

#include "decode/header_walk.h"

namespace rudp {

StreamPosition UdpStreams::header(const OuterHeader& h, int64_t ns, bool timed) {
  Endpoint a{h.src, h.sport}, b{h.dst, h.dport};
  if (b < a) std::swap(a, b);
  const uint64_t index = streams_.size();
  Stream& s = streams_.try_emplace({a, b}, Stream{index, ns, ns}).first->second;
  const StreamPosition at{s.index, timed, s.first_ns, s.last_ns};
  if (timed) s.last_ns = ns;
  return at;
}

FrameUdpStreams UdpStreams::next(const DecodedPacket& pkt) {
  FrameUdpStreams out;
  int i = 0;  // the tunnels' headers, the packet's own, an ICMP error's quoted one
  forEachIpHeader(pkt, [&](const OuterHeader& h) {
    const bool own = i == pkt.outer_count, quoted = i > pkt.outer_count;
    ++i;
    if (!h.udp) return;
    if (own) out.own = out.count;
    // An empty datagram's UDP layer ends before its timestamps.
    out.header[out.count++] = header(h, pkt.ts_ns, !quoted && h.udp_length != 8);
  });
  return out;
}

}  // namespace rudp
