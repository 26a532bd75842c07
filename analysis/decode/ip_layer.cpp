#include "decode/ip_layer.h"

#include <algorithm>
#include <cstring>

namespace rudp::ip {

namespace {

using wire::be16;
using wire::be32;

constexpr int kMaxExtHeaders = 16;  // bound the walk on garbage

void setAddress(IpAddress& a, uint8_t family, const uint8_t* bytes, size_t n) {
  a.family = family;
  std::memcpy(a.bytes.data(), bytes, n);
}

// What the length field claims, as far as the frame held it on the wire.
uint32_t withinFrame(uint32_t claimed, uint32_t onWire, const char* error, DecodedPacket& out) {
  if (claimed <= onWire) return claimed;
  out.error = error;
  return onWire;
}

// A fragment header's offset and M flag; both zero: an atomic fragment
// (RFC 6946), the whole datagram.
bool readFragmentHeader(const uint8_t* p, Fragment& frag) {
  const uint16_t field = be16(p + 2);
  frag = {be32(p + 4), uint32_t(field & v6::kFragmentOffsetMask), bool(field & v6::kFragmentMore), p[0]};
  return frag.more || frag.offset != 0;
}

Next walkExtensions(bool ipv6, Upper& up, DecodedPacket& out, Fragment& frag) {
  for (int i = 0; i < kMaxExtHeaders && isExtension(ipv6, up.proto); ++i) {
    const uint8_t* p = up.bytes.data;
    if (up.bytes.len < 2 || extensionLength(up.proto, p) > up.bytes.len) {
      out.error = ipv6 ? "IPv6 extension header truncated" : "IPv4 AH header truncated";
      return Next::Stop;
    }
    const uint8_t header = up.proto;
    up.bytes = wire::tail(up.bytes, extensionLength(header, p));
    up.proto = p[0];
    if (header == kFragmentHeader && readFragmentHeader(p, frag)) return Next::Fragment;
  }
  return Next::Transport;
}

}  // namespace

Next upperLayer(DecodedPacket& out, Upper& up, Fragment& frag) {
  const bool ipv6 = out.l3 == L3::IPv6;
  const Next next = walkExtensions(ipv6, up, out, frag);
  if (ipv6) out.ip_proto = up.proto;  // IPv4's stays the header's, as ip.proto shows it
  return next;
}

Next decodeIPv4(const wire::Span& ip, DecodedPacket& out, Upper& up, Fragment& frag) {
  const uint8_t* p = ip.data;
  const uint32_t n = ip.len;
  if (n < v4::kMinHeaderLen) {
    out.error = "IPv4 header truncated";
    return Next::Stop;
  }
  if (version(p) != 4) {
    out.error = "IPv4 header has bad version";
    return Next::Stop;
  }
  // A header whose lengths contradict each other is not read at all, as in
  // tshark (no ip.src); one cut off by the capture keeps its fields.
  const uint32_t hl = v4::headerLength(p);
  if (hl < v4::kMinHeaderLen) {
    out.error = "IPv4 header length invalid";
    return Next::Stop;
  }
  uint32_t total = v4::totalLength(p);
  if (total == 0) total = ip.reported;  // TSO: the NIC fills the length in later
  if (total < hl) {
    out.error = "IPv4 total length invalid";
    return Next::Stop;
  }
  out.l3 = L3::IPv4;
  setAddress(out.src, 4, p + v4::kSrcAt, 4);
  setAddress(out.dst, 4, p + v4::kDstAt, 4);
  out.ip_proto = p[v4::kProtocolAt];
  out.ip_id = be16(p + v4::kIdAt);
  out.ip_ttl = p[v4::kTtlAt];
  if (hl > n) {
    out.error = "IPv4 header truncated";
    return Next::Stop;
  }
  const uint32_t onWire = withinFrame(total, ip.reported, "IPv4 total length exceeds packet length", out);
  // Bytes past `total` are link padding (Ethernet's 60-byte minimum).
  up = {p[v4::kProtocolAt], {p + hl, std::min(onWire, n) - hl, onWire - hl}};

  const uint16_t fragField = be16(p + v4::kFragmentAt);
  frag = {be16(p + v4::kIdAt), v4::fragmentOffset(fragField), bool(fragField & v4::kMoreFragments)};
  if (!frag.more && frag.offset == 0) return upperLayer(out, up, frag);
  out.ip_fragment = true;
  out.ip_frag = frag;
  if (n >= total) return Next::Fragment;
  // Not whole, so never reassembled: tshark reads a first fragment's transport header all the same.
  return frag.offset == 0 ? upperLayer(out, up, frag) : Next::Stop;
}

Next decodeIPv6(const wire::Span& ip, DecodedPacket& out, Upper& up, Fragment& frag) {
  const uint8_t* p = ip.data;
  const uint32_t n = ip.len;
  constexpr uint32_t h = v6::kHeaderLen;
  if (n < h) {
    out.error = "IPv6 header truncated";
    return Next::Stop;
  }
  if (version(p) != 6) {
    out.error = "IPv6 header has bad version";
    return Next::Stop;
  }
  out.l3 = L3::IPv6;
  setAddress(out.src, 6, p + v6::kSrcAt, 16);
  setAddress(out.dst, 6, p + v6::kDstAt, 16);
  out.ip_ttl = p[v6::kHopLimitAt];

  uint32_t payload = v6::payloadLength(p);
  if (payload == 0) payload = ip.reported - h;  // jumbogram or TSO: trust the frame
  const uint32_t onWire =
      withinFrame(payload, ip.reported - h, "IPv6 payload length exceeds framing length", out);
  // Bytes past the payload length are link padding.
  up = {p[v6::kNextHeaderAt], {p + h, std::min(onWire, n - h), onWire}};
  const Next next = upperLayer(out, up, frag);
  if (next != Next::Fragment) return next;
  out.ip_fragment = true;
  out.ip_frag = frag;
  // tshark 4.0 decodes nothing of a fragment it cannot reassemble, first or not.
  return n - h >= payload ? Next::Fragment : Next::Stop;
}

}  // namespace rudp::ip
