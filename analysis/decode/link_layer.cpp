#include "decode/link_layer.h"

#include "decode/bytes.h"

namespace rudp::link {

namespace {

using wire::be16;

constexpr uint16_t kEtherIpv4 = 0x0800;
constexpr uint16_t kEtherIpv6 = 0x86dd;
constexpr uint16_t kEtherVlan = 0x8100;     // 802.1Q
constexpr uint16_t kEtherQinQ = 0x88a8;     // 802.1ad service tag
constexpr uint16_t kEtherQinQOld = 0x9100;  // pre-standard QinQ
constexpr int kMaxTags = 8;                 // bound the walk on garbage

bool isVlanTag(uint16_t type) { return type == kEtherVlan || type == kEtherQinQ || type == kEtherQinQOld; }

// Resolves an EtherType found at `off - 2`, stepping over VLAN tags (each
// 4 bytes: TCI then the next EtherType).
Result fromEtherType(uint16_t type, const uint8_t* p, uint32_t len, uint32_t off) {
  for (int tags = 0; isVlanTag(type); ++tags) {
    if (tags == kMaxTags) return {Net::None, off, "too many VLAN tags"};
    if (len - off < 4) return {Net::None, off, "VLAN tag truncated"};
    type = be16(p + off + 2);
    off += 4;
  }
  if (type == kEtherIpv4) return {Net::IPv4, off, nullptr};
  if (type == kEtherIpv6) return {Net::IPv6, off, nullptr};
  return {Net::None, off, nullptr};  // ARP, LLDP, 802.3 length field, ...
}

// BSD address families for IPv6 differ per OS: 24 (NetBSD, OpenBSD, BSD/OS),
// 28 (FreeBSD, DragonFly), 30 (Darwin). IPv4 is 2 everywhere.
Result fromFamily(uint32_t family, uint32_t off) {
  if (family == 2) return {Net::IPv4, off, nullptr};
  if (family == 24 || family == 28 || family == 30) return {Net::IPv6, off, nullptr};
  return {Net::None, off, nullptr};
}

Result fromVersionNibble(const uint8_t* p, uint32_t len) {
  if (len < 1) return {Net::None, 0, "IP header truncated"};
  const int version = p[0] >> 4;
  if (version == 4) return {Net::IPv4, 0, nullptr};
  if (version == 6) return {Net::IPv6, 0, nullptr};
  return {Net::None, 0, "raw IP frame with bad version"};
}

// NFLOG: a 4-byte header (address family, version, resource id), then TLVs
// (length including its 4-byte header, type; both in the capturing host's
// byte order, nearly always little-endian), each padded to 4 bytes. The
// packet is the payload TLV.
Result fromNflog(const uint8_t* p, uint32_t len) {
  constexpr uint16_t kPayload = 9;
  constexpr uint8_t kAfInet = 2, kAfInet6 = 10;
  if (len < 4) return {Net::None, 0, "NFLOG header truncated"};
  for (uint32_t off = 4; len - off >= 4;) {
    uint16_t tlvLen = wire::le16(p + off), type = wire::le16(p + off + 2);
    if (tlvLen < 4 || tlvLen > len - off) {  // written by a big-endian host?
      tlvLen = be16(p + off);
      type = be16(p + off + 2);
    }
    if (tlvLen < 4 || tlvLen > len - off) return {Net::None, off, "NFLOG TLV length is bad"};
    if (type == kPayload) {
      if (p[0] == kAfInet) return {Net::IPv4, off + 4, nullptr};
      if (p[0] == kAfInet6) return {Net::IPv6, off + 4, nullptr};
      Result r = fromVersionNibble(p + off + 4, tlvLen - 4u);
      r.offset += off + 4;
      return r;
    }
    off += (tlvLen + 3u) & ~3u;
    if (off > len) break;
  }
  return {Net::None, 0, nullptr};  // no payload: a log entry without the packet
}

}  // namespace

bool supported(int dlt) {
  switch (dlt) {
    case kNull:
    case kEthernet:
    case kRaw:
    case kRawBsd:
    case kLinktypeRaw:
    case kLoop:
    case kLinuxSll:
    case kIpv4:
    case kIpv6:
    case kNflog:
    case kPktap:
    case kLinuxSll2: return true;
    default: return false;
  }
}

Result decode(int dlt, const uint8_t* p, uint32_t len) {
  switch (dlt) {
    case kEthernet:
      if (len < 14) return {Net::None, 0, "Ethernet header truncated"};
      return fromEtherType(be16(p + 12), p, len, 14);

    case kLinuxSll:  // 16 bytes; protocol (EtherType) in the last two
      if (len < 16) return {Net::None, 0, "Linux cooked header truncated"};
      return fromEtherType(be16(p + 14), p, len, 16);

    case kLinuxSll2:  // 20 bytes; protocol (EtherType) first
      if (len < 20) return {Net::None, 0, "Linux cooked v2 header truncated"};
      return fromEtherType(be16(p), p, len, 20);

    case kNull: {  // family in the writer's byte order; families are small
      if (len < 4) return {Net::None, 0, "loopback header truncated"};
      uint32_t family = wire::le32(p);
      if (family > 0xffff) family = wire::be32(p);
      return fromFamily(family, 4);
    }

    case kLoop:
      if (len < 4) return {Net::None, 0, "loopback header truncated"};
      return fromFamily(wire::be32(p), 4);

    case kRaw:
    case kRawBsd:
    case kLinktypeRaw: return fromVersionNibble(p, len);

    case kIpv4: return {Net::IPv4, 0, nullptr};

    case kIpv6: return {Net::IPv6, 0, nullptr};

    case kNflog: return fromNflog(p, len);

    case kPktap: {  // pth_length, pth_type_next, pth_dlt first; little-endian (macOS)
      constexpr uint32_t kTypePacket = 1;
      if (len < 12) return {Net::None, 0, "PKTAP header truncated"};
      const uint32_t headerLen = wire::le32(p), innerDlt = wire::le32(p + 8);
      if (headerLen < 12 || headerLen > len) return {Net::None, 0, "PKTAP header length is bad"};
      if (wire::le32(p + 4) != kTypePacket || innerDlt == uint32_t(kPktap))
        return {Net::None, headerLen, nullptr};
      Result inner = decode(int(innerDlt), p + headerLen, len - headerLen);
      inner.offset += headerLen;
      return inner;
    }

    default: return {Net::None, 0, "unsupported link type"};
  }
}

}  // namespace rudp::link
