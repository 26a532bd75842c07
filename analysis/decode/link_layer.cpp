#include "decode/link_layer.h"

#include "decode/bytes.h"
#include "decode/ethernet.h"
#include "decode/ip.h"

namespace rudp::link {

namespace {

using wire::be16;

constexpr int kMaxLabels = 16;  // bound the label stack on garbage

// Labels of 4 bytes up to the bottom-of-stack bit. MPLS does not say what
// it carries; like tshark, guess IP by the version nibble.
Result fromMpls(const uint8_t* p, uint32_t len, uint32_t off) {
  for (int labels = 0;; ++labels) {
    if (labels == kMaxLabels) return {Net::None, off, "too many MPLS labels"};
    if (len - off < 4) return {Net::None, off, "MPLS label truncated"};
    const bool bottom = p[off + 2] & 1;
    off += 4;
    if (bottom) return byVersionNibble(p, len, off);
  }
}

Result fromPppProtocol(uint16_t protocol, const uint8_t* p, uint32_t len, uint32_t off) {
  constexpr uint16_t kPppIpv4 = 0x0021, kPppIpv6 = 0x0057, kMplsUnicast = 0x0281, kMplsMulticast = 0x0283;
  switch (protocol) {
    case kPppIpv4: return {Net::IPv4, off, nullptr};
    case kPppIpv6: return {Net::IPv6, off, nullptr};
    case kMplsUnicast:
    case kMplsMulticast: return fromMpls(p, len, off);
    default: return {Net::None, off, nullptr};  // LCP, IPCP, CCP, ...
  }
}

// PPPoE session header (version/type, code, session id, length), then the
// 2-byte PPP protocol.
Result fromPppoeSession(const uint8_t* p, uint32_t len, uint32_t off) {
  if (len - off < 8) return {Net::None, off, "PPPoE header truncated"};
  return fromPppProtocol(be16(p + off + 6), p, len, off + 8);
}

// BSD address families for IPv6 differ per OS: 24 (NetBSD, OpenBSD, BSD/OS),
// 28 (FreeBSD, DragonFly), 30 (Darwin). IPv4 is 2 everywhere.
constexpr uint32_t kMax8023Length = 1500;

Result fromFamily(uint32_t family, uint32_t off) {
  if (family == 2) return {Net::IPv4, off, nullptr};
  if (family == 24 || family == 28 || family == 30) return {Net::IPv6, off, nullptr};
  return {Net::None, off, nullptr};
}

Result fromVersionNibble(const uint8_t* p, uint32_t len) {
  if (len < 1) return {Net::None, 0, "IP header truncated"};
  const unsigned version = ip::version(p);
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

Result fromCiscoHdlc(const uint8_t* p, uint32_t len) {
  if (len < 4) return {Net::None, 0, "Cisco HDLC header truncated"};
  return fromEtherType(be16(p + 2), p, len, 4);
}

// An 802.11 data frame's header length, 0 for frames without an MSDU to
// read: management and control frames, null data, protected (encrypted)
// and A-MSDU frames.
uint32_t ieee80211DataHeaderLen(const uint8_t* p, uint32_t len) {
  constexpr uint8_t kTypeData = 2, kSubtypeNoData = 4, kSubtypeQos = 8;
  constexpr uint8_t kToFromDs = 0x03, kProtected = 0x40, kOrder = 0x80, kAmsdu = 0x80;
  const uint8_t type = (p[0] >> 2) & 3, subtype = p[0] >> 4, flags = p[1];
  if (type != kTypeData || (subtype & kSubtypeNoData) || (flags & kProtected)) return 0;
  uint32_t hl = (flags & kToFromDs) == kToFromDs ? 30 : 24;  // four addresses in a WDS frame
  if (!(subtype & kSubtypeQos)) return hl;
  if (len < hl + 2 || (p[hl] & kAmsdu)) return 0;
  return hl + 2 + (flags & kOrder ? 4 : 0);  // QoS control, then HT control
}

// An 802.11 data frame, then LLC/SNAP (AA AA 03, OUI 000000 or 0000F8)
// carrying an EtherType. `padded`: radiotap says the header is padded to 4 bytes.
Result fromIeee80211(const uint8_t* p, uint32_t len, bool padded) {
  if (len < 2) return {Net::None, 0, "802.11 header truncated"};
  uint32_t hl = ieee80211DataHeaderLen(p, len);
  if (hl == 0) return {Net::None, 0, nullptr};
  if (padded) hl = (hl + 3) & ~3u;
  if (len < hl) return {Net::None, 0, "802.11 header truncated"};
  if (len - hl < 8) return {Net::None, hl, nullptr};
  const uint8_t* llc = p + hl;
  const bool snap = llc[0] == 0xaa && llc[1] == 0xaa && llc[2] == 0x03 && llc[3] == 0 && llc[4] == 0 &&
                    (llc[5] == 0 || llc[5] == 0xf8);
  if (!snap) return {Net::None, hl, nullptr};
  return fromEtherType(be16(llc + 6), p, len, hl + 8);
}

// The radiotap Flags field (0 when absent): after the presence words
// (chained by bit 31) and the 8-byte, 8-aligned TSFT field when present.
uint8_t radiotapFlags(const uint8_t* p, uint32_t headerLen) {
  constexpr uint32_t kTsft = 1u << 0, kFlags = 1u << 1, kExtended = 1u << 31;
  const uint32_t present = wire::le32(p + 4);
  uint32_t off = 8;
  for (uint32_t word = present; word & kExtended; off += 4) {
    if (headerLen - off < 4) return 0;
    word = wire::le32(p + off);
  }
  if (!(present & kFlags)) return 0;
  if (present & kTsft) off = ((off + 7) & ~7u) + 8;
  return off < headerLen ? p[off] : 0;
}

Result fromRadiotap(const uint8_t* p, uint32_t len) {
  constexpr uint8_t kDataPad = 0x20;
  if (len < 8) return {Net::None, 0, "radiotap header truncated"};
  const uint32_t headerLen = wire::le16(p + 2);
  if (headerLen < 8 || headerLen > len) return {Net::None, 0, "radiotap header length is bad"};
  const bool padded = radiotapFlags(p, headerLen) & kDataPad;
  Result inner = fromIeee80211(p + headerLen, len - headerLen, padded);
  inner.offset += headerLen;
  return inner;
}

}  // namespace

Result fromEtherType(uint16_t type, const uint8_t* p, uint32_t len, uint32_t off) {
  const eth::TagsEnd end = eth::walkTags(type, p, len, off);
  if (end.error) return {Net::None, end.offset, end.error};
  off = end.offset;
  switch (end.type) {
    case eth::kIpv4: return {Net::IPv4, off, nullptr};
    case eth::kIpv6: return {Net::IPv6, off, nullptr};
    case eth::kMpls:
    case eth::kMplsMulticast: return fromMpls(p, len, off);
    case eth::kPppoeSession: return fromPppoeSession(p, len, off);
    default: return {Net::None, off, nullptr};  // ARP, LLDP, 802.3 length field, ...
  }
}

Result byVersionNibble(const uint8_t* p, uint32_t len, uint32_t off) {
  if (off < len && ip::version(p + off) == 4) return {Net::IPv4, off, nullptr};
  if (off < len && ip::version(p + off) == 6) return {Net::IPv6, off, nullptr};
  return {Net::None, off, nullptr};
}

// Cisco HDLC (address 0x0f unicast or 0x8f broadcast, then an EtherType)
// also appears in DLT_PPP files; tshark tells them apart by that address.
Result fromPpp(const uint8_t* p, uint32_t len) {
  constexpr uint8_t kCiscoUnicast = 0x0f, kCiscoBroadcast = 0x8f;
  if (len >= 1 && (p[0] == kCiscoUnicast || p[0] == kCiscoBroadcast)) return fromCiscoHdlc(p, len);
  const uint32_t off = len >= 2 && p[0] == 0xff && p[1] == 0x03 ? 2 : 0;                // HDLC-like framing
  if (len - off >= 1 && (p[off] & 1)) return fromPppProtocol(p[off], p, len, off + 1);  // compressed protocol
  if (len - off < 2) return {Net::None, 0, "PPP header truncated"};
  return fromPppProtocol(be16(p + off), p, len, off + 2);
}

namespace {
// A frame of link type `innerDlt` after a `headerLen`-byte header (PKTAP, PPI).
Result within(uint32_t headerLen, int innerDlt, const uint8_t* p, uint32_t len) {
  Result inner = decode(innerDlt, p + headerLen, len - headerLen);
  inner.offset += headerLen;
  return inner;
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
    case kLinuxSll2:
    case kPpp:
    case kPppSerial:
    case kPppEther:
    case kCiscoHdlc:
    case kIeee80211:
    case kRadiotap:
    case kPpi: return true;
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
      // Some writers put an EtherType there instead; Wireshark reads any
      // value above 802.3's largest length (1500) as one.
      if (family > kMax8023Length) return fromEtherType(uint16_t(family), p, len, 4);
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
      return within(headerLen, int(innerDlt), p, len);
    }

    case kPpi: {  // pph_version, pph_flags, pph_len (LE, the whole header), pph_dlt (LE)
      if (len < 8) return {Net::None, 0, "PPI header truncated"};
      const uint32_t headerLen = wire::le16(p + 2), innerDlt = wire::le32(p + 4);
      if (headerLen < 8 || headerLen > len) return {Net::None, 0, "PPI header length is bad"};
      if (innerDlt == uint32_t(kPpi) || innerDlt == uint32_t(kPktap)) return {Net::None, headerLen, nullptr};
      return within(headerLen, int(innerDlt), p, len);
    }

    case kPpp:
    case kPppSerial: return fromPpp(p, len);

    case kPppEther: return fromPppoeSession(p, len, 0);

    case kCiscoHdlc: return fromCiscoHdlc(p, len);

    case kIeee80211: return fromIeee80211(p, len, false);

    case kRadiotap: return fromRadiotap(p, len);

    default: return {Net::None, 0, "unsupported link type"};
  }
}

}  // namespace rudp::link
