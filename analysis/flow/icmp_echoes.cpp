#include "flow/icmp_echoes.h"

#include <algorithm>

namespace rudp {

namespace {

constexpr uint8_t kEchoReply = 0, kEchoRequest = 8, kEcho6Request = 128, kEcho6Reply = 129;

// The one's-complement sum of the two words, as ip_checksum returns it.
uint16_t onesComplementOfSum(uint16_t a, uint16_t b) {
  uint32_t sum = uint32_t(a) + b;
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return uint16_t(~sum);
}

}  // namespace

bool isIcmpEcho(const DecodedPacket& pkt) {
  if (pkt.icmp_head_count == 0 || pkt.has_icmp_error || pkt.l3 == L3::None) return false;
  const IcmpHead& h = pkt.icmp_heads[0];
  if (h.v6 != (pkt.l3 == L3::IPv6)) return false;
  return h.v6 ? h.type == kEcho6Request || h.type == kEcho6Reply
              : h.type == kEchoRequest || h.type == kEchoReply;
}

std::optional<EchoRequest> IcmpEchoes::next(const DecodedPacket& pkt) {
  if (!isIcmpEcho(pkt)) return std::nullopt;
  const IcmpHead& h = pkt.icmp_heads[0];
  const bool request = h.type == (h.v6 ? kEcho6Request : kEchoRequest);
  // Both key on the reply's checksum: packet-icmp.c works it out from the
  // request's, less the types' difference (0x0800); packet-icmpv6.c keys on
  // the request's, worked out from the reply's (0x0100).
  const bool worked = h.v6 ? !request : request;
  const uint16_t checksum =
      worked                 ? onesComplementOfSum(uint16_t(~h.checksum), uint16_t(h.v6 ? ~0x0100 : ~0x0800))
      : h.checksum == 0xffff ? 0
                             : h.checksum;
  const Key key{std::min(pkt.src, pkt.dst), std::max(pkt.src, pkt.dst), checksum,
                uint32_t(h.id) << 16 | h.seq};
  if (request) {
    requests_[key] = Filed{{pkt.frame, pkt.ts_ns}, false};
    return std::nullopt;
  }
  const auto it = requests_.find(key);
  if (it == requests_.end() || it->second.answered) return std::nullopt;
  it->second.answered = true;
  return it->second.request;
}

}  // namespace rudp
