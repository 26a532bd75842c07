#include "decode/ip_layer.h"

#include <algorithm>
#include <cstring>

namespace rudp::ip {

namespace {

using wire::be16;

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

}  // namespace

Next decodeIPv4(const uint8_t* p, uint32_t n, DecodedPacket& out, wire::Span& l4, Ipv4Fragment& frag) {
  if (n < 20) {
    out.error = "IPv4 header truncated";
    return Next::Stop;
  }
  if ((p[0] >> 4) != 4) {
    out.error = "IPv4 header has bad version";
    return Next::Stop;
  }
  out.l3 = L3::IPv4;
  setAddress(out.src, 4, p + 12, 4);
  setAddress(out.dst, 4, p + 16, 4);
  out.ip_proto = p[9];
  out.ip_id = be16(p + 4);
  out.ip_ttl = p[8];

  const uint32_t hl = uint32_t(p[0] & 0x0f) * 4;
  if (hl < 20) {
    out.error = "IPv4 header length invalid";
    return Next::Stop;
  }
  if (hl > n) {
    out.error = "IPv4 header truncated";
    return Next::Stop;
  }
  uint32_t total = be16(p + 2);
  if (total == 0) total = n;  // TSO: the NIC fills the length in later
  if (total < hl) {
    out.error = "IPv4 total length invalid";
    return Next::Stop;
  }
  // Bytes past `total` are link padding (Ethernet's 60-byte minimum).
  const uint32_t avail = std::min(total, n);

  const uint16_t fragField = be16(p + 6);
  const bool more = fragField & 0x2000;
  const uint32_t offset = uint32_t(fragField & 0x1fff) * 8;
  l4 = {p + hl, avail - hl, total - hl};
  if (more || offset != 0) {
    frag.id = be16(p + 4);
    frag.offset = offset;
    frag.more = more;
    frag.complete = avail == total;
    return Next::Fragment;
  }
  return Next::Transport;
}

Next decodeIPv6(const uint8_t* p, uint32_t n, DecodedPacket& out, wire::Span& l4) {
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

  uint32_t reported = be16(p + 4);
  if (reported == 0) reported = n - 40;                  // jumbogram or TSO: trust the capture
  const uint32_t end = 40 + std::min(reported, n - 40);  // trims link padding
  const uint32_t reportedEnd = 40 + reported;
  uint8_t next = p[6];
  uint32_t off = 40;

  for (int i = 0; i < kMaxExtHeaders; ++i) {
    if (next != kHopByHop && next != kRouting && next != kDestOptions && next != kAuthHeader &&
        next != kFragment)
      break;
    if (end - off < (next == kFragment ? 8u : 2u)) {
      out.ip_proto = next;
      out.error = "IPv6 extension header truncated";
      return Next::Stop;
    }
    const uint8_t following = p[off];
    if (next == kFragment) {
      const uint16_t field = be16(p + off + 2);
      const bool more = field & 1;
      const uint32_t fragOffset = field & 0xfff8;
      off += 8;
      if (more || fragOffset != 0) {
        out.ip_proto = following;
        out.ip_fragment = true;  // reassembly of IPv6 is not done
        return Next::Stop;
      }
      next = following;  // atomic fragment (RFC 6946): the whole datagram
      continue;
    }
    const uint32_t len =
        next == kAuthHeader ? (uint32_t(p[off + 1]) + 2) * 4 : (uint32_t(p[off + 1]) + 1) * 8;
    if (len > end - off) {
      out.ip_proto = next;
      out.error = "IPv6 extension header truncated";
      return Next::Stop;
    }
    off += len;
    next = following;
  }
  out.ip_proto = next;
  if (reportedEnd < off) {
    out.error = "IPv6 payload length invalid";
    return Next::Stop;
  }
  l4 = {p + off, end - off, reportedEnd - off};
  return Next::Transport;
}

}  // namespace rudp::ip
