#include "flow/icmp_echoes.h"

#include <algorithm>

namespace rudp {

namespace {

constexpr uint8_t kEchoReply = 0, kEchoRequest = 8;

// The one's-complement sum of the two words, as ip_checksum returns it.
uint16_t onesComplementOfSum(uint16_t a, uint16_t b) {
  uint32_t sum = uint32_t(a) + b;
  while (sum >> 16) sum = (sum & 0xffff) + (sum >> 16);
  return uint16_t(~sum);
}

}  // namespace

bool isIcmpEcho(const DecodedPacket& pkt) {
  if (pkt.icmp_head_count == 0 || pkt.has_icmp_error || pkt.l3 != L3::IPv4) return false;
  const IcmpHead& h = pkt.icmp_heads[0];
  return !h.v6 && (h.type == kEchoRequest || h.type == kEchoReply);
}

std::optional<EchoRequest> IcmpEchoes::next(const DecodedPacket& pkt) {
  if (!isIcmpEcho(pkt)) return std::nullopt;
  const IcmpHead& h = pkt.icmp_heads[0];
  // The reply's checksum: the request's, less the type's difference (0x0800).
  const uint16_t checksum = h.type == kEchoRequest
                                ? onesComplementOfSum(uint16_t(~h.checksum), uint16_t(~0x0800))
                            : h.checksum == 0xffff ? 0
                                                   : h.checksum;
  const Key key{std::min(pkt.src, pkt.dst), std::max(pkt.src, pkt.dst), checksum,
                uint32_t(h.id) << 16 | h.seq};
  if (h.type == kEchoRequest) {
    requests_[key] = Filed{{pkt.frame, pkt.ts_ns}, false};
    return std::nullopt;
  }
  const auto it = requests_.find(key);
  if (it == requests_.end() || it->second.answered) return std::nullopt;
  it->second.answered = true;
  return it->second.request;
}

}  // namespace rudp
