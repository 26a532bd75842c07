#include "decode/tunnel.h"

#include <algorithm>

#include "decode/bytes.h"

namespace rudp::tunnel {

namespace {

using link::Net;
using link::Result;
using wire::be16;

constexpr uint16_t kVxlanPort = 4789;
constexpr uint16_t kGenevePort = 6081;
constexpr uint16_t kGtpUserPort = 2152;
constexpr uint16_t kMplsPort = 6635;  // MPLS in UDP (RFC 7510)

Result shifted(Result r, uint32_t by) {
  r.offset += by;
  return r;
}

Result ethernetAt(const uint8_t* p, uint32_t len, uint32_t off) {
  return shifted(link::decode(link::kEthernet, p + off, len - off), off);
}

// WCCP v2 puts a 4-byte redirect header before the IPv4 packet, v1 does
// not; tshark tells them apart by whether an IPv4 header starts right away.
Result wccpAt(const uint8_t* p, uint32_t len, uint32_t off) {
  if (off < len && ip::version(p + off) == 4) return {Net::IPv4, off, nullptr};
  if (len - off < 4) return {Net::None, off, "WCCP redirect header truncated"};
  return link::byVersionNibble(p, len, off + 4);
}

// GRE's and GENEVE's protocol type: an EtherType, or one of GRE's own.
Result byProtocolType(uint16_t type, const uint8_t* p, uint32_t len, uint32_t off) {
  switch (type) {
    case kTransparentEthernet: return ethernetAt(p, len, off);
    case kGrePpp: return shifted(link::fromPpp(p + off, len - off), off);
    case kGreWccp: return wccpAt(p, len, off);
    default: return link::fromEtherType(type, p, len, off);
  }
}

// VXLAN: flags, reserved, VNI, reserved (8 bytes), then Ethernet.
Result vxlan(const uint8_t* p, uint32_t len) {
  if (len < kVxlanHeaderLen) return {Net::None, 0, "VXLAN header truncated"};
  return ethernetAt(p, len, kVxlanHeaderLen);
}

// GENEVE: version and option length (in 4-byte words), flags, protocol
// type, VNI, reserved; then the options.
Result geneve(const uint8_t* p, uint32_t len) {
  if (len < kGeneveFixedLen) return {Net::None, 0, "GENEVE header truncated"};
  const uint32_t end = geneveHeaderLength(p[0]);
  if (end > len) return {Net::None, 0, "GENEVE options truncated"};
  return byProtocolType(be16(p + 2), p, len, end);
}

// GTPv1-U extension headers: each holds its length in 4-byte words first
// and the next header's type last; type 0 ends the chain.
Result gtpExtensions(const uint8_t* p, uint32_t len, uint32_t off, uint8_t next) {
  for (int i = 0; next != 0; ++i) {
    if (i == kMaxGtpExtensions) return {Net::None, off, "too many GTP extension headers"};
    if (off >= len) return {Net::None, off, "GTP extension header truncated"};
    const uint32_t extLen = uint32_t(p[off]) * 4;
    if (extLen == 0) return {Net::None, off, "GTP extension header length is bad"};
    if (extLen > len - off) return {Net::None, off, "GTP extension header truncated"};
    next = p[off + extLen - 1];
    off += extLen;
  }
  return link::byVersionNibble(p, len, off);
}

// GTPv1-U: flags (version 1, protocol type GTP, E/S/PN), message type,
// length, TEID; with any of E/S/PN also sequence number, N-PDU number and
// the next extension header type. Only a G-PDU carries an IP packet.
Result gtpUser(const uint8_t* p, uint32_t len) {
  if (len < 8) return {Net::None, 0, "GTP header truncated"};
  if ((p[0] & kGtpVersionMask) != kGtpVersion1 || !(p[0] & kGtpProtocolGtp) || p[1] != kGtpGpdu)
    return {Net::None, 0, nullptr};
  const uint32_t header = gtpHeaderLength(p[0]);
  if (header == 8) return link::byVersionNibble(p, len, header);
  if (len < header) return {Net::None, 0, "GTP header truncated"};
  return gtpExtensions(p, len, header, p[header - 1]);
}

Result byKind(UdpTunnel kind, const uint8_t* p, uint32_t len) {
  switch (kind) {
    case UdpTunnel::Vxlan: return vxlan(p, len);
    case UdpTunnel::Geneve: return geneve(p, len);
    case UdpTunnel::GtpUser: return gtpUser(p, len);
    case UdpTunnel::Mpls: return link::fromEtherType(kEtherMpls, p, len, 0);
    case UdpTunnel::None: return {};
  }
  return {};
}

UdpTunnel byPort(uint16_t port) {
  switch (port) {
    case kVxlanPort: return UdpTunnel::Vxlan;
    case kGenevePort: return UdpTunnel::Geneve;
    case kGtpUserPort: return UdpTunnel::GtpUser;
    case kMplsPort: return UdpTunnel::Mpls;
    default: return UdpTunnel::None;
  }
}

// ERSPAN mirrors a frame into GRE. Type I (0x88be without a GRE sequence
// number) has no header of its own, type II (0x88be) 8 bytes; type III
// (0x22eb) 12, plus an 8-byte platform subheader when its O flag is set,
// and says whether the frame is Ethernet.
Result erspan(const uint8_t* p, uint32_t len, uint32_t off, bool greSequence) {
  if (!greSequence) return ethernetAt(p, len, off);
  if (len - off < 8) return {Net::None, off, "ERSPAN header truncated"};
  return ethernetAt(p, len, off + 8);
}

Result erspanIII(const uint8_t* p, uint32_t len, uint32_t off) {
  constexpr uint8_t kSubheader = 0x01, kFrameTypeMask = 0x7c;  // frame type 0: Ethernet
  if (len - off < 12) return {Net::None, off, "ERSPAN header truncated"};
  if (p[off + 10] & kFrameTypeMask) return {Net::None, off, nullptr};
  const uint32_t end = off + 12 + (p[off + 11] & kSubheader ? 8 : 0);
  if (end > len) return {Net::None, off, "ERSPAN header truncated"};
  return ethernetAt(p, len, end);
}

}  // namespace

uint32_t greHeaderLength(uint16_t flags) {
  uint32_t len = 4;
  for (uint16_t field : {kGreChecksum, kGreKey, kGreSequence}) len += flags & field ? 4 : 0;
  if ((flags & kGreVersionMask) == 1 && (flags & kGreAck)) len += 4;
  return len;
}

Result gre(const uint8_t* p, uint32_t len) {
  if (len < 4) return {Net::None, 0, "GRE header truncated"};
  const uint16_t flags = be16(p), type = be16(p + 2);
  if ((flags & kGreVersionMask) > 1 || (flags & kGreRouting)) return {};  // source routes, unknown versions
  const uint32_t off = greHeaderLength(flags);
  if (off > len) return {Net::None, 0, "GRE header truncated"};
  if (off == len) return {};  // no payload: an enhanced GRE acknowledgment, a keepalive
  if (type == kErspan) return erspan(p, len, off, flags & kGreSequence);
  if (type == kErspanIII) return erspanIII(p, len, off);
  return byProtocolType(type, p, len, off);
}

Result ipInIp(uint8_t proto) {
  if (proto == ip::kIpInIp) return {Net::IPv4, 0, nullptr};
  if (proto == ip::kIpv6InIp) return {Net::IPv6, 0, nullptr};
  return {};
}

UdpTunnel udpTunnel(uint16_t sport, uint16_t dport) {
  const UdpTunnel low = byPort(std::min(sport, dport));
  return low != UdpTunnel::None ? low : byPort(std::max(sport, dport));
}

Result udp(uint16_t sport, uint16_t dport, const uint8_t* p, uint32_t len) {
  return byKind(udpTunnel(sport, dport), p, len);
}

}  // namespace rudp::tunnel
