#include "decode/icmp.h"

#include <algorithm>

#include "decode/bytes.h"
#include "decode/ip_layer.h"
#include "decode/transport.h"

namespace rudp::icmp {

namespace {

constexpr uint32_t kIcmpHeader = 8;  // type, code, checksum, 4 bytes unused or MTU/pointer
constexpr uint32_t kQuotedTransport = 8;

bool isError(bool v6, uint8_t type) {
  if (v6) return type >= 1 && type <= 4;  // unreachable, packet too big, time exceeded, parameter problem
  return type == 3 || type == 4 || type == 5 || type == 11 || type == 12;
}

// The quoted datagram's length as its header claims it: the quote holds
// only its start, which is no error.
uint32_t claimedLength(bool v6, const wire::Span& ip) {
  if (v6) return ip.len >= 6 ? 40u + wire::be16(ip.data + 4) : ip.len;
  return ip.len >= 4 ? wire::be16(ip.data + 2) : ip.len;
}

// The quoted TCP header: ports and seq always, the rest when all of it is there.
void quotedTcp(const wire::Span& l4, IcmpError& e) {
  e.has_quoted_tcp = true;
  e.quoted_tcp_sport = wire::be16(l4.data);
  e.quoted_tcp_dport = wire::be16(l4.data + 2);
  e.quoted_tcp.seq = wire::be32(l4.data + 4);
  DecodedPacket whole;
  transport::decodeTcp(l4, whole);
  if (whole.l4 == L4::TCP && whole.error.empty()) e.quoted_tcp = whole.tcp;
}

// Where packet-icmp.c ends an ICMPv4 error's quote (0: at the message's
// end): a redirect's after the IP header and 8 bytes; an RFC 4884 message's
// (its length byte set, the message and the quoted datagram longer than it
// says) after the header length plus that length, in words, as Wireshark
// counts it.
uint32_t quoteCut(const uint8_t* icmp, const wire::Span& ip) {
  const uint32_t headerWords = ip.data[0] & 15u, words = icmp[5];
  if (icmp[0] == 5) return headerWords * 4 + kQuotedTransport;
  if (words == 0) return 0;
  const bool longer = ip.reported > words * 4 && ip.len >= 4 && wire::be16(ip.data + 2) > words * 4;
  return longer ? (headerWords + words) * 4 : 0;
}

// The quoted UDP payload's bytes, and how many the message reports: up to
// the quoted IP datagram's end (within the message) and the UDP length.
void quotedPayload(const wire::Span& quote, const DecodedPacket& udp, IcmpError& e) {
  const uint32_t at = static_cast<uint32_t>(udp.payload - quote.data);
  const uint32_t end = std::min({quote.reported, claimedLength(e.v6, quote), at + udp.payload_reported_len});
  e.quoted_payload = udp.payload;
  e.quoted_payload_len = udp.payload_len;
  e.quoted_payload_reported = std::max(end > at ? end - at : 0, udp.payload_len);
}

// Only of a whole 8-byte header: tshark shows neither field for a shorter
// message (how short depends on the type: 6 bytes for a timestamp request).
void addHead(bool v6, const wire::Span& icmp, DecodedPacket& out) {
  if (icmp.len < kIcmpHeader || out.icmp_head_count >= out.icmp_heads.size()) return;
  out.icmp_heads[out.icmp_head_count++] = {v6,
                                           icmp.data[0],
                                           icmp.data[1],
                                           icmp.len,
                                           wire::be16(icmp.data + 2),
                                           wire::be16(icmp.data + 4),
                                           wire::be16(icmp.data + 6),
                                           icmp.data};
}

}  // namespace

void decode(uint8_t proto, const wire::Span& l4, DecodedPacket& out) {
  const bool v6 = proto == ip::kIcmpv6;
  addHead(v6, l4, out);
  if (l4.len < kIcmpHeader || !isError(v6, l4.data[0])) return;
  wire::Span ip = wire::tail(l4, kIcmpHeader);
  const uint32_t cut = v6 || ip.len == 0 ? 0 : quoteCut(l4.data, ip);
  if (cut != 0) {
    ip.len = std::min(ip.len, cut);
    ip.reported = std::min(ip.reported, cut);
  }
  const wire::Span quote = ip;  // `reported`: the message's, not the quoted header's claim
  ip.reported = std::max(ip.len, claimedLength(v6, ip));
  DecodedPacket quoted;
  ip::Upper up;
  ip::Fragment frag;
  const ip::Next next = v6 ? ip::decodeIPv6(ip, quoted, up, frag) : ip::decodeIPv4(ip, quoted, up, frag);
  if (quoted.l3 == L3::None) return;
  const bool upper_here = next != ip::Next::Stop && frag.offset == 0;
  const bool transport = upper_here && up.bytes.len >= kQuotedTransport;
  if (transport && up.proto == ip::kUdp) transport::decodeUdp(up.bytes, quoted);
  if (upper_here && (up.proto == ip::kIcmp || up.proto == ip::kIcmpv6))
    addHead(up.proto == ip::kIcmpv6, up.bytes, out);
  out.has_icmp_error = true;
  IcmpError& e = out.icmp;
  e.v6 = v6;
  e.type = l4.data[0];
  e.code = l4.data[1];
  e.quoted = ipHeaderOf(quoted);
  e.quote = quote.data;
  e.quote_len = quote.len;
  if (upper_here) e.quoted_l4 = up.bytes.data;
  if (quoted.l4 == L4::UDP && quoted.payload) quotedPayload(quote, quoted, e);
  if (transport && up.proto == ip::kTcp) quotedTcp(up.bytes, e);
}

std::string describe(bool v6, uint8_t type, uint8_t code) {
  if (v6) {
    switch (type) {
      case 1: {
        static const char* const kCodes[] = {"no route to destination", "administratively prohibited",
                                             "beyond scope of source address", "address unreachable",
                                             "port unreachable"};
        return code < 5 ? kCodes[code] : "destination unreachable";
      }
      case 2: return "packet too big";
      case 3: return code == 1 ? "fragment reassembly time exceeded" : "hop limit exceeded in transit";
      default: return "parameter problem";
    }
  }
  switch (type) {
    case 3: {
      static const char* const kCodes[] = {"network unreachable", "host unreachable", "protocol unreachable",
                                           "port unreachable", "fragmentation needed"};
      if (code < 5) return kCodes[code];
      return code == 9 || code == 10 || code == 13 ? "administratively prohibited"
                                                   : "destination unreachable";
    }
    case 4: return "source quench";
    case 5: return "redirect";
    case 11: return code == 1 ? "fragment reassembly time exceeded" : "TTL exceeded in transit";
    default: return "parameter problem";
  }
}

}  // namespace rudp::icmp
