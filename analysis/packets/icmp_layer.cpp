#include "packets/icmp_layer.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/label_text.h"
#include "decode/ip.h"
#include "packets/frame_dissector.h"
#include "packets/icmp_echo_layer.h"
#include "packets/icmp_names.h"
#include "packets/ip_layers.h"
#include "packets/transport_layers.h"

namespace rudp {

namespace {

std::string codeName(const IcmpError& e) {
  return e.v6 ? icmp6CodeName(e.type, e.code) : icmpCodeName(e.type, e.code);
}

struct Message {
  uint32_t at = 0;        // its first byte in the frame
  uint32_t reported = 0;  // its length as the IP header gives it
  uint32_t captured = 0;
};

// The message's place in the frame when its items can be built: it and its
// quote are in the frame (not reassembled), and it quotes a whole
// UDP header the way tshark reads it (without RFC 4884 extensions).
std::optional<Message> itemsMessage(const LayerTree& tree, const DecodedPacket& pkt,
                                    std::optional<uint32_t> ipStart, uint32_t caplen) {
  const IcmpError& e = pkt.icmp;
  if (!pkt.has_icmp_error || !e.quoted.udp || !e.quoted_l4 || pkt.ip_reassembled || pkt.ip_fragment)
    return std::nullopt;
  const uint8_t* frame = tree.at(0);
  const std::optional<uint32_t> ipEnd = ipPacketEnd(tree, pkt.l3, ipStart);
  if (!ipEnd || e.quote < frame + 8 || e.quote > frame + caplen) return std::nullopt;
  Message m;
  m.at = uint32_t(e.quote - frame) - 8;
  if (*ipEnd < m.at + 8) return std::nullopt;
  m.reported = *ipEnd - m.at;
  m.captured = std::min(caplen - m.at, m.reported);
  // Where tshark reads RFC 4884 extension objects after the quote: not built.
  const unsigned words = unsigned(tree.number(m.at + (e.v6 ? 4 : 5), 1));
  const bool extended = e.v6 ? words != 0 && (e.type == 1 || e.type == 3)
                             : m.reported > 8 + 128 && tree.number(m.at + 10, 2) <= 128;
  if (extended) return std::nullopt;
  return m;
}

// An echo's place in the frame when it is there whole enough (8 bytes).
std::optional<Message> echoMessage(const LayerTree& tree, const DecodedPacket& pkt,
                                   std::optional<uint32_t> ipStart) {
  if (!isIcmpEcho(pkt) || pkt.ip_reassembled || pkt.ip_fragment) return std::nullopt;
  const uint8_t* frame = tree.at(0);
  const uint8_t* head = pkt.icmp_heads[0].data;
  const std::optional<uint32_t> end = ipPacketEnd(tree, pkt.l3, ipStart);
  if (!end || head < frame || head >= frame + pkt.caplen) return std::nullopt;
  const auto at = uint32_t(head - frame);
  if (*end < at + 8) return std::nullopt;
  return Message{at, *end - at, 0};
}

void checksumItems(LayerTree& tree, const DecodedPacket& pkt, const Message& m, const char* field) {
  const uint32_t carried = uint32_t(tree.number(m.at + 2, 2));
  const std::string text = "Checksum: " + hexNumber(carried, 4);
  if (m.captured < m.reported) {
    tree.item(1, text + " [unverified] [fragmented datagram]", m.at + 2, 2, field, hexNumber(carried, 4));
    tree.generated(1, "Checksum Status: Unverified");
    return;
  }
  const uint64_t pseudoHeader = pkt.icmp.v6 ? icmpv6PseudoHeaderSum(pkt.src, pkt.dst, m.reported) : 0;
  const uint16_t computed = inCksum(tree, m.at, m.at + m.reported, pseudoHeader);
  tree.checksum(1, m.at + 2, uint16_t(carried), computed, field, {"Checksum", "Bad checksum"});
}

void unused(LayerTree& tree, uint32_t at, uint32_t n) {
  tree.item(1, "Unused: " + hexBytes(tree.at(at), n), at, n);
}

// RFC 4884's length of the quoted datagram, in 32-bit words.
void originalLength(LayerTree& tree, uint32_t at) {
  const uint64_t words = tree.number(at + 5, 1);
  tree.item(1, "Length: " + std::to_string(words), at + 5, 1);
  tree.generated(1, "Length of original datagram: " + std::to_string(words * 4));
}

void mtu(LayerTree& tree, uint32_t at) {
  tree.item(1, "MTU of next hop: " + std::to_string(tree.number(at + 6, 2)), at + 6, 2);
}

// ICMP's second word (packet-icmp.c's "Decode the second 4 bytes").
void icmpSecondWord(LayerTree& tree, const IcmpError& e, uint32_t at) {
  const bool rfc4884 = tree.number(at + 5, 1) != 0;
  switch (e.type) {
    case 3:
    case 11:
      if (rfc4884) {
        unused(tree, at + 4, 1);
        originalLength(tree, at);
        return e.type == 3 && e.code == 4 ? mtu(tree, at) : unused(tree, at + 6, 2);
      }
      if (e.type == 11 || e.code != 4) return unused(tree, at + 4, 4);
      unused(tree, at + 4, 2);
      return mtu(tree, at);
    case 12:
      tree.item(1, "Pointer: " + std::to_string(tree.number(at + 4, 1)), at + 4, 1);
      if (!rfc4884) return unused(tree, at + 5, 3);
      originalLength(tree, at);
      return unused(tree, at + 6, 2);
    case 5: tree.item(1, "Gateway Address: " + ipv4Address(tree.at(at + 4)).toString(), at + 4, 4); return;
    default: return;  // source quench: nothing
  }
}

void icmp6SecondWord(LayerTree& tree, const IcmpError& e, uint32_t at) {
  if (e.type == 2)
    tree.item(1, "MTU: " + std::to_string(tree.number(at + 4, 4)), at + 4, 4);
  else if (e.type == 4)
    tree.item(1, "Pointer: " + std::to_string(tree.number(at + 4, 4)), at + 4, 4);
  else
    tree.item(1, "Reserved: " + hexBytes(tree.at(at + 4), 4), at + 4, 4);
}

// The quoted datagram's IP and UDP layers, one level under ICMP's.
void quotedLayers(LayerTree& tree, const DecodedPacket& pkt, const std::optional<StreamPosition>& stream) {
  const IcmpError& e = pkt.icmp;
  const uint32_t ipAt = uint32_t(e.quote - tree.at(0)), udpAt = uint32_t(e.quoted_l4 - tree.at(0));
  tree.nest(1);
  if (e.v6) {
    IpLayerFacts facts;
    facts.src = e.quoted.src.toString();
    facts.dst = e.quoted.dst.toString();
    addIpv6Layer(tree, ipAt, facts, udpAt - ipAt);
  } else {
    addIpv4Layer(tree, ipAt, {});
  }
  DecodedPacket datagram;
  quotedUdpDatagram(pkt, datagram);
  addUdpLayer(tree, udpAt, e.quoted_l4, datagram, stream);
  tree.nest(0);
}

// The summary line alone, with the bytes of the message in the frame when
// they can be found, and frame.protocols naming what it quotes as tshark does
// (ip, then udp, tcp or the quoted ICMP; an echo's data).
void icmpSummary(LayerTree& tree, const DecodedPacket& pkt, std::optional<uint32_t> ipStart) {
  const bool v6 = pkt.icmp_heads[0].v6;
  uint32_t offset = FrameItem::kNoBytes, length = 0;
  if (!v6 && !pkt.ip_reassembled && ipv4HeaderInFrame(tree, pkt.l3, ipStart)) {
    offset = *ipStart + ip::v4::headerLength(tree.at(*ipStart));
    const uint32_t end = *ipPacketEnd(tree, pkt.l3, ipStart);
    length = end > offset ? end - offset : 0;
  }
  tree.layer(v6 ? "Internet Control Message Protocol v6" : "Internet Control Message Protocol",
             v6 ? "icmpv6" : "icmp", offset, length);
  if (pkt.icmp_heads[0].echoData()) tree.protocol("data");
  if (!pkt.has_icmp_error) return;
  tree.protocol(pkt.icmp.quoted.l3 == L3::IPv6 ? "ipv6" : "ip");
  if (pkt.icmp.quoted.udp) tree.protocol("udp");
  if (pkt.icmp.has_quoted_tcp) tree.protocol("tcp");
  if (pkt.icmp_head_count < 2) return;
  tree.protocol(pkt.icmp_heads[1].v6 ? "icmpv6" : "icmp");
  if (pkt.icmp_heads[1].echoData()) tree.protocol("data");
}

}  // namespace

void addIcmpLayer(LayerTree& tree, const DecodedPacket& pkt, std::optional<uint32_t> ipStart,
                  const std::optional<StreamPosition>& quotedStream,
                  const std::optional<EchoRequest>& echoRequest) {
  if (pkt.icmp_head_count == 0) return;
  if (const std::optional<Message> echo = echoMessage(tree, pkt, ipStart))
    return addIcmpEchoLayer(tree, pkt, echo->at, echo->reported, echoRequest);
  const std::optional<Message> m = itemsMessage(tree, pkt, ipStart, pkt.caplen);
  if (!m) return icmpSummary(tree, pkt, ipStart);
  const IcmpError& e = pkt.icmp;
  const std::string type = std::to_string(e.type), code = std::to_string(e.code), name = codeName(e);
  tree.layer(e.v6 ? "Internet Control Message Protocol v6" : "Internet Control Message Protocol",
             e.v6 ? "icmpv6" : "icmp", m->at, m->captured);
  const std::string prefix = e.v6 ? "icmpv6" : "icmp";
  tree.item(1,
            e.v6 ? "Type: " + std::string(icmp6TypeName(e.type)) + " (" + type + ")"
                 : "Type: " + type + " (" + icmpTypeName(e.type, e.code) + ")",
            m->at, 1, prefix + ".type", type);
  tree.item(1, "Code: " + code + (name.empty() ? "" : " (" + name + ")"), m->at + 1, 1, prefix + ".code",
            code);
  checksumItems(tree, pkt, *m, e.v6 ? "icmpv6.checksum" : "icmp.checksum");
  if (e.v6)
    icmp6SecondWord(tree, e, m->at);
  else
    icmpSecondWord(tree, e, m->at);
  quotedLayers(tree, pkt, quotedStream);
}

}  // namespace rudp
