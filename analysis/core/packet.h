// Plain value types shared by every layer of the analysis core.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/bytes.h"

namespace rudp {

// One record as the capture reader delivered it. `data` is valid until the next read.
struct RawPacket {
  uint64_t frame = 0;        // 1-based frame number, as Wireshark numbers them
  int64_t ts_ns = 0;         // capture time, nanoseconds since the Unix epoch
  uint32_t caplen = 0;       // bytes captured
  uint32_t origlen = 0;      // bytes on the wire
  uint64_t file_offset = 0;  // offset of the record in the capture file
  const uint8_t* data = nullptr;
  // DLT_* of this frame's interface (a pcapng file may hold several link
  // types); -1: the reader's linkType().
  int link_type = -1;
  // pcapng: the frame's interface (its id in the section, its if_name or
  // null when it has none, valid until the next read) and its block's
  // comments (opt_comment), in order. A pcap file has one interface without
  // a name: -1.
  int interface_id = -1;
  const char* interface_name = nullptr;
  std::vector<std::string> comments;
};

struct IpAddress {
  uint8_t family = 0;  // 0 none, 4, 6
  std::array<uint8_t, 16> bytes{};
  bool operator==(const IpAddress&) const = default;
  auto operator<=>(const IpAddress&) const = default;
  std::string toString() const;  // dotted quad / RFC 5952 text
};

// RFC 1918, RFC 6598 (carrier-grade NAT) and IPv6 unique local addresses:
// the ones a NAT hides.
bool isPrivateAddress(const IpAddress& a);

// The IPv4 address in the 4 bytes at `p`.
inline IpAddress ipv4Address(const uint8_t* p) {
  IpAddress a;
  a.family = 4;
  std::copy(p, p + 4, a.bytes.begin());
  return a;
}

struct TcpOptions {
  uint16_t mss = 0;          // 0 = absent
  int8_t window_scale = -1;  // -1 = absent
  bool sack_permitted = false;
  bool has_timestamps = false;
  uint32_t tsval = 0, tsecr = 0;
  uint8_t sack_block_count = 0;
  std::array<std::pair<uint32_t, uint32_t>, 4> sack_blocks{};
};

// The bits of TcpHeader::flags.
namespace tcpflag {
inline constexpr uint8_t kFin = 0x01, kSyn = 0x02, kRst = 0x04, kPsh = 0x08, kAck = 0x10, kUrg = 0x20;
}  // namespace tcpflag

struct TcpHeader {
  uint32_t seq = 0, ack = 0;
  uint8_t flags = 0;  // FIN 0x01 SYN 0x02 RST 0x04 PSH 0x08 ACK 0x10 URG 0x20 ECE 0x40 CWR 0x80
  uint16_t window = 0;
  uint8_t header_len = 0;
  TcpOptions options;
  // How the header fits its frame; a damaged header gives its error too.
  enum class Extent : uint8_t {
    Whole,
    CutBySnaplen,   // past the captured bytes, within the IP payload
    PastIpPayload,  // longer than the IP payload: the segment's length is unknown
    BadLength,      // a data offset below 20 bytes
  } extent = Extent::Whole;
};

enum class L3 : uint8_t { None, IPv4, IPv6 };
enum class L4 : uint8_t { None, UDP, TCP };

// The IP (and UDP, for UDP tunnels such as VXLAN) header of a tunnel that
// carried the packet. Kept because tshark prints every occurrence of a
// field, outermost first (`ip.src` of GRE: "outer,inner").
struct OuterHeader {
  L3 l3 = L3::None;
  IpAddress src, dst;
  uint8_t ip_proto = 0;
  uint16_t ip_id = 0;
  uint8_t ip_ttl = 0;
  bool udp = false;
  uint16_t sport = 0, dport = 0;
  uint32_t udp_length = 0;
};
inline constexpr int kMaxTunnels = 4;  // nesting followed; deeper is treated as garbage

// An ICMP or ICMPv6 error (destination unreachable, packet too big, time
// exceeded, parameter problem, source quench, redirect) and the head of the
// datagram it quotes, which names the connection the error is about.
struct IcmpError {
  bool v6 = false;  // ICMPv6
  uint8_t type = 0, code = 0;
  OuterHeader quoted;  // the quoted IP header, and its UDP header when it quotes UDP
  // It quotes TCP: ports and sequence number (the 8 bytes every quote holds);
  // with the whole header quoted, `quoted_tcp.header_len` is set and every field is.
  bool has_quoted_tcp = false;
  uint16_t quoted_tcp_sport = 0, quoted_tcp_dport = 0;
  TcpHeader quoted_tcp;
  // The quote as captured, from its IP header on (where the error's bytes
  // are: in the frame or in a reassembly buffer).
  const uint8_t* quote = nullptr;
  uint32_t quote_len = 0;
  const uint8_t* quoted_l4 = nullptr;  // its transport header, when the quote reaches it
  // The quoted UDP datagram's payload: the bytes the quote holds (at most
  // its UDP length's) and how many the message reports (it may be snapped).
  const uint8_t* quoted_payload = nullptr;
  uint32_t quoted_payload_len = 0, quoted_payload_reported = 0;
};

// The type and code of an ICMP or ICMPv6 header (icmp.type, icmp.code).
struct IcmpHead {
  bool v6 = false;
  uint8_t type = 0, code = 0;
  uint32_t bytes = 0;  // the message's bytes in this packet, header included
  // The checksum, and the second word: an echo's identifier and sequence number.
  uint16_t checksum = 0, id = 0, seq = 0;
  // Its first byte, `bytes` of them captured; valid until the next decode() call.
  const uint8_t* data = nullptr;
  // An echo request or reply with data after its 8-byte header (tshark's Data under it).
  bool echoData() const {
    const bool echo = v6 ? type == 128 || type == 129 : type == 0 || type == 8;
    return echo && bytes > 8;
  }
};

// An IPv4 or IPv6 fragment's place in its datagram.
struct IpFragment {
  uint32_t id = 0;      // 16 bits in IPv4, 32 in IPv6
  uint32_t offset = 0;  // in bytes
  bool more = false;    // more fragments follow
  uint8_t next = 0;     // IPv6: the fragment header's next header
};

// A packet decoded down to its transport layer.
struct DecodedPacket {
  uint64_t frame = 0;
  int64_t ts_ns = 0;
  uint32_t caplen = 0, origlen = 0;
  uint64_t file_offset = 0;

  // Tunnels the packet came through, outermost first; the fields below are
  // the innermost IP packet's (the game's connection).
  std::array<OuterHeader, kMaxTunnels> outer{};
  uint8_t outer_count = 0;

  L3 l3 = L3::None;
  IpAddress src, dst;
  uint8_t ip_proto = 0;         // IPv4: the header's (ip.proto); IPv6: after the extension headers
  uint16_t ip_id = 0;           // IPv4 identification
  uint8_t ip_ttl = 0;           // IPv4 TTL / IPv6 hop limit
  bool ip_fragment = false;     // a fragment whose datagram is not complete here (an IPv4 first
                                // fragment that cannot be reassembled still has its transport header)
  bool ip_reassembled = false;  // this frame completed a reassembled IPv4 or IPv6 datagram
  IpFragment ip_frag;           // with ip_fragment: where this fragment lies

  L4 l4 = L4::None;
  uint16_t sport = 0, dport = 0;
  uint16_t udp_checksum = 0;  // 0: the sender computed none
  TcpHeader tcp;
  bool has_icmp_error = false;  // l4 None: the packet is an ICMP error, `icmp` what it says
  IcmpError icmp;
  // Every ICMP header in the packet, in tshark's order: its own, then the one
  // of an ICMP message its error quotes.
  std::array<IcmpHead, 2> icmp_heads{};
  uint8_t icmp_head_count = 0;

  // Transport payload. Points into the frame or into the decoder's
  // reassembly buffer; valid until the next decode() call.
  const uint8_t* payload = nullptr;
  uint32_t payload_len = 0;           // bytes available
  uint32_t payload_reported_len = 0;  // bytes the headers claim (>= payload_len when snapped)

  std::string error;  // non-empty: malformed at some layer (decoded fields before it stay valid)
  // The datagram an ICMP error quotes, made a packet for the dissectors
  // (quotedUdpDatagram): Wireshark's pinfo.in_error_pkt.
  bool in_error_pkt = false;
};

// packet-udp.c: a UDP datagram without a checksum is allowed over IPv4 and
// in the datagram an ICMP error quotes; over IPv6 it is illegal (RFC 8200),
// as Wireshark's default (udp.ignore_ipv6_zero_checksum off) reports it.
inline bool udpChecksumIllegal(const DecodedPacket& p) {
  return p.l4 == L4::UDP && p.udp_checksum == 0 && p.l3 == L3::IPv6 && !p.in_error_pkt;
}

// Every byte of the transport segment was captured (none cut by the snap
// length): what Wireshark's TCP layer needs before it reassembles.
inline bool tcpSegmentWhole(const DecodedPacket& p) { return p.payload_len == p.payload_reported_len; }

// The innermost IP (and UDP) header of `p` in the form of a tunnel's.
inline OuterHeader ipHeaderOf(const DecodedPacket& p) {
  OuterHeader h;
  h.l3 = p.l3;
  h.src = p.src;
  h.dst = p.dst;
  h.ip_proto = p.ip_proto;
  h.ip_id = p.ip_id;
  h.ip_ttl = p.ip_ttl;
  h.udp = p.l4 == L4::UDP;
  h.sport = h.udp ? p.sport : 0;
  h.dport = h.udp ? p.dport : 0;
  h.udp_length = h.udp ? p.payload_reported_len + 8 : 0;
  return h;
}

// The datagram an ICMP error quotes as the dissectors see it (Wireshark
// dissects it as a packet of its own, with pinfo.in_error_pkt set): its
// addresses, ports and the payload bytes the quote holds. Sets `out` when
// the error quotes a UDP header; true when also payload bytes (only then
// does Wireshark call a dissector).
inline bool quotedUdpDatagram(const DecodedPacket& p, DecodedPacket& out) {
  const IcmpError& e = p.icmp;
  if (!p.has_icmp_error || !e.quoted.udp) return false;
  out = DecodedPacket{};
  out.frame = p.frame;
  out.ts_ns = p.ts_ns;
  out.caplen = p.caplen;
  out.origlen = p.origlen;
  out.file_offset = p.file_offset;
  out.l3 = e.quoted.l3;
  out.src = e.quoted.src;
  out.dst = e.quoted.dst;
  out.ip_proto = e.quoted.ip_proto;
  out.ip_id = e.quoted.ip_id;
  out.ip_ttl = e.quoted.ip_ttl;
  out.l4 = L4::UDP;
  out.sport = e.quoted.sport;
  out.dport = e.quoted.dport;
  out.udp_checksum = be16(e.quoted_l4 + 6);  // a quoted UDP header is whole
  out.payload = e.quoted_payload;
  out.payload_len = e.quoted_payload_len;
  out.payload_reported_len = e.quoted_payload_reported;
  out.in_error_pkt = true;
  return e.quoted_payload_len > 0;
}

// Points every pointer of `p` into the `n` bytes at `from` (its payload, an
// ICMP error's quote) at the same place in `to`, a copy of those bytes.
inline void rebaseBytes(DecodedPacket& p, const uint8_t* from, size_t n, const uint8_t* to) {
  const auto start = reinterpret_cast<uintptr_t>(from);
  auto move = [&](const uint8_t*& ptr) {
    const auto at = reinterpret_cast<uintptr_t>(ptr);
    if (ptr && at >= start && at <= start + n) ptr = to + (at - start);
  };
  move(p.payload);
  move(p.icmp.quote);
  move(p.icmp.quoted_l4);
  move(p.icmp.quoted_payload);
}

// The endpoints a packet's dissection is about: its own UDP datagram's, or
// those of the UDP datagram an ICMP error quotes.
struct UdpEnds {
  IpAddress src, dst;
  uint16_t sport = 0, dport = 0;
};
inline std::optional<UdpEnds> dissectedUdpEnds(const DecodedPacket& p) {
  if (p.l4 == L4::UDP) return UdpEnds{p.src, p.dst, p.sport, p.dport};
  if (p.has_icmp_error && p.icmp.quoted.udp)
    return UdpEnds{p.icmp.quoted.src, p.icmp.quoted.dst, p.icmp.quoted.sport, p.icmp.quoted.dport};
  return std::nullopt;
}

// The UDP payload the dissectors are offered: the frame's own datagram's,
// else that of the datagram an ICMP error quotes. Empty: none.
struct OfferedPayload {
  const uint8_t* data = nullptr;
  uint32_t len = 0;
};
inline OfferedPayload offeredUdpPayload(const DecodedPacket& p) {
  if (p.l4 == L4::UDP) return {p.payload, p.payload ? p.payload_len : 0};
  if (p.has_icmp_error && p.icmp.quoted.udp) return {p.icmp.quoted_payload, p.icmp.quoted_payload_len};
  return {};
}

}  // namespace rudp
