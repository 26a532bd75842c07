#include "decode/transport.h"

#include <algorithm>

namespace rudp::transport {

namespace {

using wire::be16;
using wire::be32;
using namespace tcp;

}  // namespace

void decodeUdp(const wire::Span& l4, DecodedPacket& out) {
  if (l4.len < udp::kHeaderLen) {
    out.error = "UDP header truncated";
    return;
  }
  const uint8_t* p = l4.data;
  out.l4 = L4::UDP;
  out.sport = udp::srcPort(p);
  out.dport = udp::dstPort(p);
  out.udp_checksum = udp::checksum(p);
  uint32_t ulen = udp::length(p);
  if (ulen == 0) ulen = l4.reported;  // IPv6 jumbogram / TSO: length left to IP
  if (ulen < udp::kHeaderLen) {
    out.error = "UDP length invalid";
    return;
  }
  constexpr uint32_t h = udp::kHeaderLen;
  out.payload = p + h;
  out.payload_reported_len = ulen - h;
  out.payload_len = std::min(ulen - h, l4.len - h);
  // A first fragment decoded on its own holds only the start of the datagram.
  if (ulen > l4.reported && !out.ip_fragment) out.error = "UDP length exceeds IP payload";
}

void decodeTcp(const wire::Span& l4, DecodedPacket& out) {
  if (l4.len < kMinHeaderLen) {
    out.error = "TCP header truncated";
    return;
  }
  const uint8_t* p = l4.data;
  out.l4 = L4::TCP;
  out.sport = be16(p + kSrcPortAt);
  out.dport = be16(p + kDstPortAt);
  TcpHeader& t = out.tcp;
  t.seq = be32(p + kSeqAt);
  t.ack = be32(p + kAckAt);
  t.header_len = uint8_t(headerLength(p));
  t.flags = p[kFlagsAt];
  t.window = be16(p + kWindowAt);
  if (t.header_len < kMinHeaderLen) {
    t.extent = TcpHeader::Extent::BadLength;
    out.error = "TCP header length invalid";
    return;
  }
  const uint32_t hl = t.header_len;
  const bool optionsOk = parseTcpOptions(p + kMinHeaderLen, std::min(hl, l4.len) - kMinHeaderLen, t.options);
  if (hl > l4.len) {
    t.extent = hl <= l4.reported ? TcpHeader::Extent::CutBySnaplen : TcpHeader::Extent::PastIpPayload;
    out.error = "TCP header truncated";
    // Cut by the snap length: the length the IP header gives, as tshark's tcp.len.
    if (hl <= l4.reported) out.payload_reported_len = l4.reported - hl;
    return;
  }
  if (hl > l4.reported) {
    t.extent = TcpHeader::Extent::PastIpPayload;
    out.error = "TCP header length exceeds IP payload";
    return;
  }
  out.payload = p + hl;
  out.payload_len = l4.len - hl;
  out.payload_reported_len = l4.reported - hl;
  if (!optionsOk) out.error = "TCP options malformed";
}

bool parseTcpOptions(const uint8_t* p, uint32_t n, TcpOptions& o) {
  return forEachOption(p, n, [&o](uint8_t kind, const uint8_t* v, uint32_t size) {
    switch (kind) {
      case kMss:
        if (size != 2) return false;
        o.mss = be16(v);
        return true;
      case kWindowScale:
        if (size != 1) return false;
        o.window_scale = int8_t(std::min<uint8_t>(v[0], 14));  // RFC 7323: cap at 14
        return true;
      case kSackPermitted: {
        o.sack_permitted = size == 0;
        return o.sack_permitted;
      }
      case kSack: {
        if (size % 8 != 0) return false;
        const uint32_t blocks = std::min<uint32_t>(size / 8, uint32_t(o.sack_blocks.size()));
        for (uint32_t b = 0; b < blocks; ++b) o.sack_blocks[b] = {be32(v + 8 * b), be32(v + 8 * b + 4)};
        o.sack_block_count = uint8_t(blocks);
        return true;
      }
      case kTimestamps:
        if (size != 8) return false;
        o.has_timestamps = true;
        o.tsval = be32(v);
        o.tsecr = be32(v + 4);
        return true;
      default: return true;  // other kinds are skipped by their length
    }
  });
}

}  // namespace rudp::transport
