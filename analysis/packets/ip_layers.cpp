#include "packets/ip_layers.h"

#include <algorithm>
#include <cstdio>

#include "core/label_text.h"
#include "core/packet.h"
#include "decode/ip.h"
#include "packets/ip_names.h"

namespace rudp {

namespace {

const char* const kEcnLong[4] = {"Not ECN-Capable Transport", "ECN-Capable Transport codepoint '01'",
                                 "ECN-Capable Transport codepoint '10'", "Congestion Experienced"};
const char* const kEcnShort[4] = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};

std::string dottedQuad(const uint8_t* p) { return ipv4Address(p).toString(); }

// The DS field's byte (IPv4's TOS, IPv6's traffic class) as its summary.
std::string dsSummary(unsigned ds) {
  return "(DSCP: " + std::string(dscpShortName(ds >> 2)) + ", ECN: " + kEcnShort[ds & 3] + ")";
}

std::string flagsText(unsigned flags) {
  std::string out = "Flags: 0x" + std::to_string(flags);
  if (flags & 4) out += ", Reserved bit";
  if (flags & 2) out += ", Don't fragment";
  if (flags & 1) out += ", More fragments";
  return out;
}

std::string setText(bool set) { return set ? "Set" : "Not set"; }

// IPv4 options: Wireshark's tree for Router Alert; the other kinds by name and length.
void ipv4Options(LayerTree& tree, uint32_t at, uint32_t length) {
  std::vector<std::pair<uint32_t, uint32_t>> options;  // offset, length
  std::string names;
  for (uint32_t o = at; o < at + length;) {
    const unsigned type = unsigned(tree.number(o, 1));
    const uint32_t len =
        (type == 0 || type == 1) ? 1 : std::max<uint32_t>(2, uint32_t(tree.number(o + 1, 1)));
    options.emplace_back(o, std::min(len, at + length - o));
    names += ", ";
    names += type == 148 ? "Router Alert"
             : type == 1 ? "No-Operation (NOP)"
             : type == 0 ? "End of Options List (EOL)"
                         : "Unknown";
    o += len;
    if (type == 0) break;
  }
  tree.item(1, "Options: (" + std::to_string(length) + " bytes)" + names, at, length);
  for (const auto& [o, len] : options) {
    const unsigned type = unsigned(tree.number(o, 1));
    if (type != 148 || len != 4) continue;
    const unsigned value = unsigned(tree.number(o + 2, 2));
    const std::string alert =
        value == 0 ? "Router shall examine packet (0)" : "Reserved (" + std::to_string(value) + ")";
    tree.item(2, "IP Option - Router Alert (4 bytes): " + alert, o, 4);
    tree.item(3, "Type: 148", o, 1);
    tree.bits(4, o, 1, 0x80, "Copy on fragmentation: Yes");
    tree.bits(4, o, 1, 0x60, "Class: Control (0)");
    tree.bits(4, o, 1, 0x1f, "Number: Router Alert (20)");
    tree.item(3, "Length: 4", o + 1, 1);
    tree.item(3, "Router Alert: " + alert, o + 2, 2);
  }
}

// Wireshark's reassembly summary under the IP layer of the frame that completed a datagram.
void reassembly(LayerTree& tree, const char* family, std::vector<IpFragmentPiece> pieces, const uint8_t* data,
                uint32_t total) {
  std::stable_sort(pieces.begin(), pieces.end(),
                   [](const IpFragmentPiece& a, const IpFragmentPiece& b) { return a.offset < b.offset; });
  std::string list;
  for (const IpFragmentPiece& p : pieces)
    list += (list.empty() ? "#" : ", #") + std::to_string(p.frame) + "(" + std::to_string(p.length) + ")";
  tree.generated(1, std::to_string(pieces.size()) + " " + family + " Fragments (" + std::to_string(total) +
                        " bytes): " + list);
  // reassemble.c flags a fragment starting before the end of those before it
  // (a duplicate, a retransmission) as an overlap.
  uint32_t end = 0;
  for (const IpFragmentPiece& p : pieces) {
    tree.generated(2, "Frame: " + std::to_string(p.frame) + ", payload: " + std::to_string(p.offset) + "-" +
                          std::to_string(p.offset + p.length - 1) + " (" + std::to_string(p.length) +
                          (p.length == 1 ? " byte)" : " bytes)"));
    if (p.offset < end) tree.generated(3, "Fragment overlap: True");
    end = std::max(end, p.offset + p.length);
  }
  tree.generated(2, "Fragment count: " + std::to_string(pieces.size()));
  tree.generated(2, std::string("Reassembled ") + family + " length: " + std::to_string(total));
  if (data) tree.generated(2, std::string("Reassembled ") + family + " data: " + hexBytes(data, total));
}

// An IPv6 option of a hop-by-hop or destination options header: Pad1 and
// PadN as Wireshark shows them; others by their type.
uint32_t ipv6Option(LayerTree& tree, uint32_t o, uint32_t end) {
  const unsigned type = unsigned(tree.number(o, 1));
  const uint32_t len = type == 0 ? 1 : 2 + uint32_t(tree.number(o + 1, 1));
  const char* name = type == 0 ? "Pad1" : type == 1 ? "PadN" : "Unknown";
  tree.item(2, name, o, std::min(len, end - o));
  tree.item(3, std::string("Type: ") + name + " (" + hexNumber(type, 2) + ")", o, 1);
  tree.bits(4, o, 1, 0xc0, "Action: Skip and continue (" + std::to_string(type >> 6) + ")");
  tree.bits(4, o, 1, 0x20, (type & 0x20) ? "May Change: Yes" : "May Change: No");
  tree.bits(4, o, 1, 0x1f, "Low-Order Bits: " + hexNumber(type & 0x1f, 2));
  if (type == 0) return 1;
  tree.item(3, "Length: " + std::to_string(len - 2), o + 1, 1);
  if (type == 1 && tree.captured(o + 2, len - 2))
    tree.item(3, "PadN: " + hexBytes(tree.at(o + 2), len - 2), o + 2, len - 2);
  return len;
}

using ip::kDestOptions, ip::kFragmentHeader, ip::kHopByHop, ip::kRouting;

// The items of the fragment header at `o` (packet-ipv6.c's spelling: "Next header").
uint32_t fragmentHeader(LayerTree& tree, uint32_t o) {
  tree.item(2, "Next header: " + ipProtocolText(unsigned(tree.number(o, 1))), o, 1);
  tree.item(2, "Reserved octet: " + hexNumber(tree.number(o + 1, 1), 2), o + 1, 1);
  const uint64_t word = tree.number(o + 2, 2);
  tree.bits(2, o + 2, 2, 0xfff8,
            "Offset: " + std::to_string(word >> 3) + " (" + std::to_string((word >> 3) * 8) + " bytes)");
  tree.bits(2, o + 2, 2, 0x0006, "Reserved bits: " + std::to_string(word >> 1 & 3));
  tree.bits(2, o + 2, 2, 0x0001, std::string("More Fragments: ") + ((word & 1) ? "Yes" : "No"));
  tree.item(2, "Identification: " + hexNumber(tree.number(o + 4, 4), 8), o + 4, 4);
  return 8;
}

// One extension header at `o`; returns its length (0: cannot be read).
uint32_t extensionHeaderLines(LayerTree& tree, unsigned type, uint32_t o) {
  if (!tree.captured(o, 2)) return 0;
  const uint32_t len = ip::extensionLength(uint8_t(type), tree.at(o));
  if (!tree.captured(o, len)) return 0;
  const char* names[] = {"IPv6 Hop-by-Hop Option", "Routing Header for IPv6", "Fragment Header for IPv6",
                         "Destination Options for IPv6"};
  const char* protos[] = {"ipv6.hopopts", "ipv6.routing", "ipv6.fraghdr", "ipv6.dstopts"};
  const int k = type == kHopByHop ? 0 : type == kRouting ? 1 : type == kFragmentHeader ? 2 : 3;
  tree.protocol(protos[k]);
  tree.item(1, names[k], o, len);
  if (type == kFragmentHeader) return fragmentHeader(tree, o);
  tree.item(2, "Next Header: " + ipProtocolText(unsigned(tree.number(o, 1))), o, 1);
  tree.item(2, "Length: " + std::to_string(tree.number(o + 1, 1)), o + 1, 1);
  tree.generated(2, "Length: " + std::to_string(len) + " bytes");
  if (type == kRouting) return len;
  for (uint32_t p = o + 2; p < o + len;) p += ipv6Option(tree, p, o + len);
  return len;
}

// A generated line over the address bytes it comes from: "[Source 6to4 SLA ID: 1]".
void addressLine(LayerTree& tree, const std::string& label, uint32_t offset, uint32_t length) {
  tree.item(1, "[" + label + "]", offset, length);
}

// packet-ipv6.c's lines on what an IPv6 address at `a` embeds, `side` being
// "Source" or "Destination", one function per kind:
// a 6to4 gateway (RFC 3056),
void sixToFourLines(LayerTree& tree, uint32_t a, const std::string& side) {
  if (tree.number(a, 2) != 0x2002) return;
  addressLine(tree, side + " 6to4 Gateway IPv4: " + dottedQuad(tree.at(a + 2)), a + 2, 4);
  addressLine(tree, side + " 6to4 SLA ID: " + std::to_string(tree.number(a + 6, 2)), a + 6, 2);
}

// a Teredo server and client, the client's port and address inverted (RFC 4380),
void teredoLines(LayerTree& tree, uint32_t a, const std::string& side) {
  if (tree.number(a, 4) != 0x20010000) return;
  uint8_t client[4];
  for (int i = 0; i < 4; ++i) client[i] = uint8_t(~tree.at(a + 12)[i]);
  addressLine(tree, side + " Teredo Server IPv4: " + dottedQuad(tree.at(a + 4)), a + 4, 4);
  addressLine(tree, side + " Teredo Port: " + std::to_string(tree.number(a + 10, 2) ^ 0xffff), a + 10, 2);
  addressLine(tree, side + " Teredo Client IPv4: " + dottedQuad(client), a + 12, 4);
}

// a MAC address made an EUI-64 interface identifier (SLAAC, RFC 4291),
void slaacLines(LayerTree& tree, uint32_t a, const std::string& side) {
  if (!(tree.number(a + 8, 1) & 2) || tree.number(a + 11, 2) != 0xfffe) return;
  const uint8_t* id = tree.at(a + 8);
  const uint8_t mac[6] = {uint8_t(id[0] & ~2u), id[1], id[2], id[5], id[6], id[7]};
  addressLine(tree, side + " SLAAC MAC: " + macText(mac), a + 8, 8);
}

// an ISATAP IPv4 address (RFC 5214),
void isatapLines(LayerTree& tree, uint32_t a, const std::string& side) {
  if ((tree.number(a + 8, 4) & 0xfcffffff) != 0x00005efe) return;
  addressLine(tree, side + " ISATAP IPv4: " + dottedQuad(tree.at(a + 12)), a + 12, 4);
}

// an IPv4 address after the well-known NAT64 prefix 64:ff9b::/96 (RFC 6052).
void nat64Lines(LayerTree& tree, uint32_t a, const std::string& side) {
  if (tree.number(a, 4) != 0x0064ff9b || tree.number(a + 4, 4) != 0 || tree.number(a + 8, 4) != 0) return;
  const std::string v4 = dottedQuad(tree.at(a + 12));
  addressLine(tree, "Embedded IPv4 Prefix: " + hexBytes(tree.at(a), 12), a, 12);
  addressLine(tree, side + " Embedded IPv4: " + v4, a + 12, 4);
  addressLine(tree, "Embedded IPv4: " + v4, a + 12, 4);
}

// Each kind for both addresses before the next, in packet-ipv6.c's order.
void embeddedAddressLines(LayerTree& tree, uint32_t src, uint32_t dst) {
  using Lines = void (*)(LayerTree&, uint32_t, const std::string&);
  for (const Lines kind : {sixToFourLines, teredoLines, slaacLines, isatapLines, nat64Lines}) {
    kind(tree, src, "Source");
    kind(tree, dst, "Destination");
  }
}

}  // namespace

void addIpv6Layer(LayerTree& tree, uint32_t at, const IpLayerFacts& facts, uint32_t length) {
  using namespace ip::v6;
  const std::string src = facts.src, dst = facts.dst;
  tree.layer("Internet Protocol Version 6, Src: " + src + ", Dst: " + dst, "ipv6", at, length);
  tree.bits(1, at, 1, 0xf0, "Version: 6");
  const unsigned tc = unsigned(tree.number(at, 2) >> 4 & 0xff);
  tree.bits(1, at, 4, 0x0ff00000, "Traffic Class: " + hexNumber(tc, 2) + " " + dsSummary(tc));
  tree.bits(2, at, 4, 0x0fc00000,
            "Differentiated Services Codepoint: " + std::string(dscpLongName(tc >> 2)) + " (" +
                std::to_string(tc >> 2) + ")");
  tree.bits(2, at, 4, 0x00300000,
            "Explicit Congestion Notification: " + std::string(kEcnLong[tc & 3]) + " (" +
                std::to_string(tc & 3) + ")");
  tree.bits(1, at + 1, 3, 0x0fffff, "Flow Label: " + hexNumber(tree.number(at + 1, 3) & 0xfffff, 5));
  tree.item(1, "Payload Length: " + std::to_string(tree.number(at + kPayloadLengthAt, 2)),
            at + kPayloadLengthAt, 2);
  unsigned next = unsigned(tree.number(at + kNextHeaderAt, 1));
  tree.item(1, "Next Header: " + ipProtocolText(next), at + kNextHeaderAt, 1);
  tree.item(1, "Hop Limit: " + std::to_string(tree.number(at + kHopLimitAt, 1)), at + kHopLimitAt, 1);
  tree.item(1, "Source Address: " + src, at + kSrcAt, 16, "ipv6.src", src);
  tree.item(1, "Destination Address: " + dst, at + kDstAt, 16, "ipv6.dst", dst);
  embeddedAddressLines(tree, at + kSrcAt, at + kDstAt);
  for (uint32_t o = at + kHeaderLen; isExtension(next);) {
    const unsigned type = next;
    next = unsigned(tree.number(o, 1));
    const uint32_t len = extensionHeaderLines(tree, type, o);
    if (len == 0) break;
    o += len;
  }
  if (facts.reassembled) reassembly(tree, "IPv6", facts.pieces, facts.datagram, facts.datagram_length);
}

bool ipv4HeaderInFrame(const LayerTree& tree, L3 l3, std::optional<uint32_t> ipStart) {
  return ipStart && l3 == L3::IPv4 && tree.captured(*ipStart, ip::v4::kMinHeaderLen) &&
         ip::version(tree.at(*ipStart)) == 4 &&
         tree.captured(*ipStart, ip::v4::headerLength(tree.at(*ipStart)));
}

uint32_t ipv6HeadersEnd(const LayerTree& tree, uint32_t at) {
  uint32_t o = at + ip::v6::kHeaderLen;
  for (unsigned next = unsigned(tree.number(at + ip::v6::kNextHeaderAt, 1));
       ip::v6::isExtension(next) && tree.captured(o, 2);) {
    const uint32_t len = ip::extensionLength(uint8_t(next), tree.at(o));
    next = unsigned(tree.number(o, 1));
    o += len;
  }
  return o;
}

std::optional<uint32_t> ipPacketEnd(const LayerTree& tree, L3 l3, std::optional<uint32_t> ipStart) {
  if (!ipStart || !tree.captured(*ipStart, 4)) return std::nullopt;
  const uint8_t* p = tree.at(*ipStart);
  if (l3 == L3::IPv4 && ip::version(p) == 4) return *ipStart + ip::v4::totalLength(p);
  if (l3 == L3::IPv6 && tree.captured(*ipStart, 6))
    return *ipStart + ip::v6::kHeaderLen + ip::v6::payloadLength(p);
  return std::nullopt;
}

std::string ipProtocolText(unsigned proto) {
  return std::string(ipProtocolName(proto)) + " (" + std::to_string(proto) + ")";
}

namespace {

// packet-ip.c's two TTL notes: a datagram to the Local Network Control Block
// (224.0.0.0/24, RFC 3171) is never routed, so its TTL should be 1 (255 for
// VRRP, GLBP and mDNS, any for LLMNR); a unicast TTL under 5 is flagged,
// except PIM and OSPF, which send with TTL 1.
void ttlExpert(LayerTree& tree, unsigned ttl, unsigned proto, uint32_t dst) {
  using ip::kIgmp, ip::kOspf, ip::kPim;
  constexpr unsigned kAnyTtl = 0x1000;
  const bool controlBlock = (dst & 0xffffff00u) == 0xe0000000u;
  if (controlBlock) {
    const bool ttl255 = dst == 0xe0000012u || dst == 0xe0000066u || dst == 0xe00000fbu;
    const unsigned valid = proto == kIgmp ? 1 : ttl255 ? 255 : dst == 0xe00000fcu ? kAnyTtl : 1;
    if (ttl != valid && valid != kAnyTtl)
      tree.expert(2, "Note", "Sequence",
                  "\"Time To Live\" != " + std::to_string(valid) +
                      " for a packet sent to the Local Network Control Block (see RFC 3171)");
  } else if (ttl < 5 && (dst >> 28) != 0xe && proto != kPim && proto != kOspf) {
    tree.expert(2, "Note", "Sequence", "\"Time To Live\" only " + std::to_string(ttl));
  }
}

}  // namespace

void addIpv4Layer(LayerTree& tree, uint32_t at, const IpLayerFacts& facts) {
  using namespace ip::v4;
  const unsigned hl = ip::v4::headerLength(tree.at(at));
  const std::string src = dottedQuad(tree.at(at + kSrcAt)), dst = dottedQuad(tree.at(at + kDstAt));
  tree.layer("Internet Protocol Version 4, Src: " + src + ", Dst: " + dst, "ip", at, hl);
  tree.bits(1, at, 1, 0xf0, "Version: 4");
  tree.bits(1, at, 1, 0x0f,
            "Header Length: " + std::to_string(hl) + " bytes (" + std::to_string(hl / 4) + ")");
  const unsigned ds = unsigned(tree.number(at + kDsAt, 1));
  tree.item(1, "Differentiated Services Field: " + hexNumber(ds, 2) + " " + dsSummary(ds), at + kDsAt, 1);
  tree.bits(2, at + kDsAt, 1, 0xfc,
            "Differentiated Services Codepoint: " + std::string(dscpLongName(ds >> 2)) + " (" +
                std::to_string(ds >> 2) + ")");
  tree.bits(2, at + kDsAt, 1, 0x03,
            "Explicit Congestion Notification: " + std::string(kEcnLong[ds & 3]) + " (" +
                std::to_string(ds & 3) + ")");
  tree.item(1, "Total Length: " + std::to_string(tree.number(at + kTotalLengthAt, 2)), at + kTotalLengthAt,
            2);
  const uint64_t id = tree.number(at + kIdAt, 2);
  tree.item(1, "Identification: " + hexNumber(id, 4, true), at + kIdAt, 2, "ip.id", hexNumber(id, 4));
  const unsigned flags = unsigned(tree.number(at + kFragmentAt, 1)) >> 5;
  tree.bits(1, at + kFragmentAt, 1, 0xe0, flagsText(flags));
  tree.bits(2, at + kFragmentAt, 1, 0x80, "Reserved bit: " + setText(flags & 4));
  tree.bits(2, at + kFragmentAt, 1, 0x40, "Don't fragment: " + setText(flags & 2));
  tree.bits(2, at + kFragmentAt, 1, 0x20, "More fragments: " + setText(flags & 1));
  tree.bits(1, at + kFragmentAt, 2, kOffsetMask,
            "Fragment Offset: " + std::to_string(fragmentOffset(uint16_t(tree.number(at + kFragmentAt, 2)))));
  const std::string ttl = std::to_string(tree.number(at + kTtlAt, 1));
  tree.item(1, "Time to Live: " + ttl, at + kTtlAt, 1, "ip.ttl", ttl);
  const unsigned proto = unsigned(tree.number(at + kProtocolAt, 1));
  ttlExpert(tree, unsigned(tree.number(at + kTtlAt, 1)), proto, uint32_t(tree.number(at + kDstAt, 4)));
  tree.item(1, "Protocol: " + ipProtocolText(proto), at + kProtocolAt, 1, "ip.proto", std::to_string(proto));
  tree.item(1,
            "Header Checksum: " + hexNumber(tree.number(at + kChecksumAt, 2), 4) + " [validation disabled]",
            at + kChecksumAt, 2);
  tree.generated(1, "Header checksum status: Unverified");
  tree.item(1, "Source Address: " + src, at + kSrcAt, 4, "ip.src", src);
  tree.item(1, "Destination Address: " + dst, at + kDstAt, 4, "ip.dst", dst);
  if (hl > kMinHeaderLen) ipv4Options(tree, at + kMinHeaderLen, hl - kMinHeaderLen);
  if (facts.reassembled) reassembly(tree, "IPv4", facts.pieces, facts.datagram, facts.datagram_length);
}

}  // namespace rudp
