// The headers of a decoded packet in the order tshark lists their fields:
// a tunnel's IP (and UDP) headers outermost first, then the packet's own,
// then the ones an ICMP error quotes. `tshark -e ip.src` prints one value per
// header and a display filter tests every one of them.
#pragma once
#include <optional>
#include <string_view>
#include <utility>

#include "core/packet.h"

namespace rudp {

template <class Visit>
void forEachIpHeader(const DecodedPacket& p, Visit&& visit) {
  for (int i = 0; i < p.outer_count; ++i) visit(p.outer[i]);
  visit(ipHeaderOf(p));
  if (p.has_icmp_error) visit(p.icmp.quoted);
}

// The fields of one IP (and UDP) header, by tshark's names.
enum class HeaderField {
  IpSrc,
  IpDst,
  IpAddr,
  IpProto,
  IpId,
  IpTtl,
  Ipv6Src,
  Ipv6Dst,
  Ipv6Addr,
  UdpSrcPort,
  UdpDstPort,
  UdpPort,
  UdpLength
};

inline constexpr std::pair<std::string_view, HeaderField> kHeaderFieldNames[] = {
    {"ip.src", HeaderField::IpSrc},
    {"ip.dst", HeaderField::IpDst},
    {"ip.addr", HeaderField::IpAddr},
    {"ip.proto", HeaderField::IpProto},
    {"ip.id", HeaderField::IpId},
    {"ip.ttl", HeaderField::IpTtl},
    {"ipv6.src", HeaderField::Ipv6Src},
    {"ipv6.dst", HeaderField::Ipv6Dst},
    {"ipv6.addr", HeaderField::Ipv6Addr},
    {"udp.srcport", HeaderField::UdpSrcPort},
    {"udp.dstport", HeaderField::UdpDstPort},
    {"udp.port", HeaderField::UdpPort},
    {"udp.length", HeaderField::UdpLength}};

inline std::optional<HeaderField> headerFieldNamed(std::string_view name) {
  for (const auto& [n, f] : kHeaderFieldNames)
    if (n == name) return f;
  return std::nullopt;
}

inline std::string_view headerFieldName(HeaderField field) {
  for (const auto& [n, f] : kHeaderFieldNames)
    if (f == field) return n;
  return {};
}

inline bool isAddressField(HeaderField f) {
  return f == HeaderField::IpSrc || f == HeaderField::IpDst || f == HeaderField::IpAddr ||
         f == HeaderField::Ipv6Src || f == HeaderField::Ipv6Dst || f == HeaderField::Ipv6Addr;
}

// The field's values in header `h`, in tshark's order (ip.addr: source, then
// destination): `address(IpAddress)` for the address fields, `number(uint64_t)`
// for the others.
template <class Address, class Number>
void headerFieldValues(HeaderField f, const OuterHeader& h, Address&& address, Number&& number) {
  using F = HeaderField;
  const bool v4 = h.l3 == L3::IPv4, v6 = h.l3 == L3::IPv6;
  const bool src = f == F::IpSrc || f == F::IpAddr || f == F::Ipv6Src || f == F::Ipv6Addr;
  const bool dst = f == F::IpDst || f == F::IpAddr || f == F::Ipv6Dst || f == F::Ipv6Addr;
  const bool inV4 = f <= F::IpTtl, inV6 = f >= F::Ipv6Src && f <= F::Ipv6Addr;
  if ((v4 && inV4) || (v6 && inV6)) {
    if (src) address(h.src);
    if (dst) address(h.dst);
  }
  if (v4 && f == F::IpProto) number(h.ip_proto);
  if (v4 && f == F::IpId) number(h.ip_id);
  if (v4 && f == F::IpTtl) number(h.ip_ttl);
  if (!h.udp) return;
  if (f == F::UdpSrcPort || f == F::UdpPort) number(h.sport);
  if (f == F::UdpDstPort || f == F::UdpPort) number(h.dport);
  if (f == F::UdpLength) number(h.udp_length);
}

// The TCP header whose fields tshark shows: the packet's, or the one an ICMP
// error quotes (then without tcp.len, and only ports and seq when the quote
// holds just the 8 bytes every quote has).
struct TcpFields {
  const TcpHeader* header = nullptr;  // null: no TCP header
  uint16_t sport = 0, dport = 0;
  bool whole = false;    // every header field is there
  bool has_len = false;  // tcp.len
};

inline TcpFields tcpFieldsOf(const DecodedPacket& p) {
  if (p.l4 == L4::TCP) return {&p.tcp, p.sport, p.dport, true, true};
  if (!p.has_icmp_error || !p.icmp.has_quoted_tcp) return {};
  const IcmpError& e = p.icmp;
  return {&e.quoted_tcp, e.quoted_tcp_sport, e.quoted_tcp_dport, e.quoted_tcp.header_len != 0, false};
}

// icmp.type or icmp.code (icmpv6.* when v6): the packet's own ICMP header,
// then the one of an ICMP message its error quotes.
template <class Visit>
void forEachIcmpValue(const DecodedPacket& p, bool v6, bool code, Visit&& visit) {
  for (size_t i = 0; i < p.icmp_head_count; ++i) {
    const IcmpHead& h = p.icmp_heads[i];
    if (h.v6 == v6) visit(code ? h.code : h.type);
  }
}

}  // namespace rudp
