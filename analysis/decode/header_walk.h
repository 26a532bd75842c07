// The headers of a decoded packet in the order tshark lists their fields:
// a tunnel's IP (and UDP) headers outermost first, then the packet's own,
// then the ones an ICMP error quotes. `tshark -e ip.src` prints one value per
// header and a display filter tests every one of them.
#pragma once
#include "core/packet.h"

namespace rudp {

template <class Visit>
void forEachIpHeader(const DecodedPacket& p, Visit&& visit) {
  for (int i = 0; i < p.outer_count; ++i) visit(p.outer[i]);
  visit(ipHeaderOf(p));
  if (p.has_icmp_error) visit(p.icmp.quoted);
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
