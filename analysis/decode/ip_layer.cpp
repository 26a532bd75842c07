#include "decode/ip_layer.h"

#include <algorithm>
#include <cstring>

namespace rudp::ip {

namespace {

using wire::be16;
using wire::be32;

constexpr uint8_t kHopByHop = 0;
constexpr uint8_t kRouting = 43;
constexpr uint8_t kFragment = 44;
constexpr uint8_t kAuthHeader = 51;
constexpr uint8_t kDestOptions = 60;
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

// AH follows IPv4 as well as IPv6 (RFC 4302); the others are IPv6's.
bool isExtension(bool v6, uint8_t proto) {
  if (proto == kAuthHeader) return true;
  return v6 && (proto == kHopByHop || proto == kRouting || proto == kDestOptions || proto == kFragment);
}

// AH's length counts 4-byte words minus 2, the options' and routing's
// 8-byte words minus 1; `p` holds at least 2 bytes.
uint32_t extensionLength(uint8_t proto, const uint8_t* p) {
  if (proto == kFragment) return 8;
  if (proto == kAuthHeader) return (uint32_t(p[1]) + 2) * 4;
  return (uint32_t(p[1]) + 1) * 8;
}

// A fragment header's offset and M flag; both zero: an atomic fragment
// (RFC 6946), the whole datagram.
bool readFragmentHeader(const uint8_t* p, Fragment& frag) {
  const uint16_t field = be16(p + 2);
  frag = {be32(p + 4), uint32_t(field & 0xfff8), bool(field & 1), p[0]};
  return frag.more || frag.offset != 0;
}

Next walkExtensions(bool v6, Upper& up, DecodedPacket& out, Fragment& frag) {
  for (int i = 0; i < kMaxExtHeaders && isExtension(v6, up.proto); ++i) {
    const uint8_t* p = up.bytes.data;
    if (up.bytes.len < 2 || extensionLength(up.proto, p) > up.bytes.len) {
      out.error = v6 ? "IPv6 extension header truncated" : "IPv4 AH header truncated";
      return Next::Stop;
    }
    const uint8_t header = up.proto;
    up.bytes = wire::tail(up.bytes, extensionLength(header, p));
    up.proto = p[0];
    if (header == kFragment && readFragmentHeader(p, frag)) return Next::Fragment;
  }
  return Next::Transport;
}

}  // namespace

Next upperLayer(DecodedPacket& out, Upper& up, Fragment& frag) {
  const bool v6 = out.l3 == L3::IPv6;
  const Next next = walkExtensions(v6, up, out, frag);
  if (v6) out.ip_proto = up.proto;  // IPv4's stays the header's, as ip.proto shows it
  return next;
}

Next decodeIPv4(const wire::Span& ip, DecodedPacket& out, Upper& up, Fragment& frag) {
  const uint8_t* p = ip.data;
  const uint32_t n = ip.len;
  if (n < 20) {
    out.error = "IPv4 header truncated";
    return Next::Stop;
  }
  if ((p[0] >> 4) != 4) {
    out.error = "IPv4 header has bad version";
    return Next::Stop;
  }
  // A header whose lengths contradict each other is not read at all, as in
  // tshark (no ip.src); one cut off by the capture keeps its fields.
  const uint32_t hl = uint32_t(p[0] & 0x0f) * 4;
  if (hl < 20) {
    out.error = "IPv4 header length invalid";
    return Next::Stop;
  }
  uint32_t total = be16(p + 2);
  if (total == 0) total = ip.reported;  // TSO: the NIC fills the length in later
  if (total < hl) {
    out.error = "IPv4 total length invalid";
    return Next::Stop;
  }
  out.l3 = L3::IPv4;
  setAddress(out.src, 4, p + 12, 4);
  setAddress(out.dst, 4, p + 16, 4);
  out.ip_proto = p[9];
  out.ip_id = be16(p + 4);
  out.ip_ttl = p[8];
  if (hl > n) {
    out.error = "IPv4 header truncated";
    return Next::Stop;
  }
  const uint32_t onWire = withinFrame(total, ip.reported, "IPv4 total length exceeds packet length", out);
  // Bytes past `total` are link padding (Ethernet's 60-byte minimum).
  up = {p[9], {p + hl, std::min(onWire, n) - hl, onWire - hl}};

  const uint16_t fragField = be16(p + 6);
  frag = {be16(p + 4), uint32_t(fragField & 0x1fff) * 8, bool(fragField & 0x2000)};
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
  if (n < 40) {
    out.error = "IPv6 header truncated";
    return Next::Stop;
  }
  if ((p[0] >> 4) != 6) {
    out.error = "IPv6 header has bad version";
    return Next::Stop;
  }
  out.l3 = L3::IPv6;
  setAddress(out.src, 6, p + 8, 16);
  setAddress(out.dst, 6, p + 24, 16);
  out.ip_ttl = p[7];

  uint32_t payload = be16(p + 4);
  if (payload == 0) payload = ip.reported - 40;  // jumbogram or TSO: trust the frame
  const uint32_t onWire =
      withinFrame(payload, ip.reported - 40, "IPv6 payload length exceeds framing length", out);
  // Bytes past the payload length are link padding.
  up = {p[6], {p + 40, std::min(onWire, n - 40), onWire}};
  const Next next = upperLayer(out, up, frag);
  if (next != Next::Fragment) return next;
  out.ip_fragment = true;
  out.ip_frag = frag;
  // tshark 4.0 decodes nothing of a fragment it cannot reassemble, first or not.
  return n - 40 >= payload ? Next::Fragment : Next::Stop;
}

}  // namespace rudp::ip
