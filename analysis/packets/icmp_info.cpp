#include "packets/icmp_info.h"

#include <cstdio>
#include <cstring>

#include "core/label_text.h"
#include "packets/icmp_names.h"

namespace rudp {

namespace {

// ICMPv6 Neighbor Discovery (RFC 4861).
constexpr uint8_t kRouterSolicitation = 133, kRouterAdvertisement = 134, kNeighborSolicitation = 135,
                  kNeighborAdvertisement = 136, kRedirect = 137;
constexpr uint8_t kSourceLinkAddress = 1, kTargetLinkAddress = 2;

// ICMPv4 messages whose second word is an identifier and a sequence number.
bool hasIdAndSeq(uint8_t type) { return type == 0 || type == 8 || (type >= 13 && type <= 18); }

std::string ipv6Text(const uint8_t* p) {
  IpAddress a;
  a.family = 6;
  std::memcpy(a.bytes.data(), p, 16);
  return a.toString();
}

// tvb_eui64_to_str: eight bytes, colon-separated.
std::string eui64Text(const uint8_t* p) {
  std::string out;
  char buf[4];
  for (int i = 0; i < 8; ++i) {
    std::snprintf(buf, sizeof buf, i ? ":%02x" : "%02x", p[i]);
    out += buf;
  }
  return out;
}

// dissect_icmpv6_nd_opt's additions: " from MAC" for a source link-layer
// address option, " is at MAC" for a target one (an EUI-64 either way is
// " from EUI64"). Stops at a zero length, as it does.
std::string linkAddressOptions(const uint8_t* p, uint32_t n, uint32_t at) {
  std::string out;
  while (at + 2 <= n) {
    const uint8_t type = p[at];
    const uint32_t len = uint32_t(p[at + 1]) * 8;
    if (len == 0 || at + len > n) break;
    const uint8_t* address = p + at + 2;
    if (type == kSourceLinkAddress || type == kTargetLinkAddress) {
      const bool eui64 = len == 16 && std::memcmp(address + 8, "\0\0\0\0\0\0", 6) == 0;
      if (len == 8) out += (type == kSourceLinkAddress ? " from " : " is at ") + macText(address);
      if (eui64) out += " from " + eui64Text(address);
    }
    at += len;
  }
  return out;
}

std::string naFlags(uint8_t flags) {
  std::string out;
  if (flags & 0x80) out += "rtr, ";
  if (flags & 0x40) out += "sol, ";
  if (flags & 0x20) out += "ovr, ";
  return out.empty() ? "none" : out.substr(0, out.size() - 2);
}

std::string requestIn(const std::optional<EchoRequest>& request) {
  return request ? " (request in " + std::to_string(request->frame) + ")" : "";
}

std::string icmp4Info(const DecodedPacket& pkt, const IcmpHead& h,
                      const std::optional<EchoRequest>& request) {
  std::string info = icmpTypeName(h.type, h.code);
  if (info.size() < 20) info.resize(20, ' ');  // "%-20s"
  const std::string code = icmpCodeName(h.type, h.code);
  if (!code.empty()) info += " (" + code + ")";
  if (!hasIdAndSeq(h.type)) return info;
  char buf[64];
  std::snprintf(buf, sizeof buf, " id=0x%04x, seq=%u/%u, ttl=%u", unsigned(h.id), unsigned(h.seq),
                unsigned(__builtin_bswap16(h.seq)), unsigned(pkt.ip_ttl));
  return info + buf + (h.type == 0 ? requestIn(request) : "");
}

std::string icmp6Info(const DecodedPacket& pkt, const IcmpHead& h,
                      const std::optional<EchoRequest>& request) {
  std::string info = icmp6TypeName(h.type);
  const std::string code = icmp6CodeName(h.type, h.code);
  if (!code.empty()) info += " (" + code + ")";
  const uint8_t* p = h.data;
  const uint32_t n = h.bytes;
  switch (h.type) {
    case 128:
    case 129: {
      char buf[64];
      std::snprintf(buf, sizeof buf, " id=0x%04x, seq=%u, hop limit=%u", unsigned(h.id), unsigned(h.seq),
                    unsigned(pkt.ip_ttl));
      return info + buf + (h.type == 129 ? requestIn(request) : "");
    }
    case kRouterSolicitation: return info + linkAddressOptions(p, n, 8);
    case kRouterAdvertisement: return info + linkAddressOptions(p, n, 16);
    case kNeighborSolicitation:
      if (n < 24) return info;
      return info + " for " + ipv6Text(p + 8) + linkAddressOptions(p, n, 24);
    case kNeighborAdvertisement:
      if (n < 24) return info;
      return info + " " + ipv6Text(p + 8) + " (" + naFlags(p[4]) + ")" + linkAddressOptions(p, n, 24);
    case kRedirect: return info + linkAddressOptions(p, n, 40);
    default: return info;
  }
}

}  // namespace

bool hasOwnIcmp(const DecodedPacket& pkt) {
  return pkt.icmp_head_count > 0 && !pkt.in_error_pkt && pkt.icmp_heads[0].data != nullptr;
}

std::string icmpInfo(const DecodedPacket& pkt, const std::optional<EchoRequest>& request) {
  const IcmpHead& h = pkt.icmp_heads[0];
  return h.v6 ? icmp6Info(pkt, h, request) : icmp4Info(pkt, h, request);
}

}  // namespace rudp
