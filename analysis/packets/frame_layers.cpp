#include "packets/frame_layers.h"

#include <algorithm>

#include "core/label_text.h"
#include "decode/ip.h"

#include "packets/arp_layer.h"
#include "packets/frame_layer.h"
#include "packets/icmp_layer.h"
#include "packets/ip_layers.h"
#include "packets/layer_tree.h"
#include "packets/link_layers.h"
#include "packets/quic_layer.h"
#include "packets/transport_layers.h"
#include "packets/tunnel_layers.h"

namespace rudp {

namespace {

std::string dataLabel(uint32_t bytes) {
  return "Data (" + std::to_string(bytes) + (bytes == 1 ? " byte)" : " bytes)");
}

// pcapng comments: tshark's "Packet comments" layer before the frame's,
// each comment with its expert item (`tree` is the frame layer's, whose
// protocols list goes unused: frame.protocols does not name this one).
void addCommentsLayer(LayerTree& tree, const std::vector<std::string>& comments) {
  if (comments.empty()) return;
  tree.layer("Packet comments", "pkt_comment", FrameItem::kNoBytes, 0);
  for (const std::string& c : comments) {
    tree.item(1, c, FrameItem::kNoBytes, 0, "frame.comment", c);
    tree.expert(2, "Comment", "Comment", c);
  }
}

void ipLayers(LayerTree& tree, const LayerInputs& in, std::optional<uint32_t> ipStart, uint32_t transportAt) {
  const DecodedPacket& pkt = *in.pkt;
  if (ipv4HeaderInFrame(tree, pkt.l3, ipStart)) return addIpv4Layer(tree, *ipStart, in.ip);
  const bool known = ipStart && transportAt != FrameItem::kNoBytes && transportAt > *ipStart;
  if (pkt.l3 == L3::IPv6 && ipStart && tree.captured(*ipStart, ip::v6::kHeaderLen) &&
      ip::version(tree.at(*ipStart)) == 6) {
    IpLayerFacts facts = in.ip;
    facts.src = pkt.src.toString();
    facts.dst = pkt.dst.toString();
    return addIpv6Layer(tree, *ipStart, facts,
                        (known ? transportAt : ipv6HeadersEnd(tree, *ipStart)) - *ipStart);
  }
  if (pkt.l3 != L3::IPv4 && pkt.l3 != L3::IPv6) return;
  // Cut short, or behind a tunnel the tree could not follow: the summary line.
  tree.layer(
      (pkt.l3 == L3::IPv4 ? "Internet Protocol Version 4, Src: " : "Internet Protocol Version 6, Src: ") +
          pkt.src.toString() + ", Dst: " + pkt.dst.toString(),
      pkt.l3 == L3::IPv4 ? "ip" : "ipv6", known ? *ipStart : FrameItem::kNoBytes,
      known ? transportAt - *ipStart : 0);
}

bool arpCarried(const DecodedPacket& pkt, const LinkLayers& link) {
  return pkt.l3 == L3::None && link.ip_start &&
         (link.ether_type == kEtherTypeArp || link.ether_type == kEtherTypeRarp);
}

// `ipInFrame`: the packet's own IP header was read from the frame (its
// tunnels' layers too), so its transport header is expanded.
void transportLayer(LayerTree& tree, const LayerInputs& in, uint32_t at, bool ipInFrame) {
  const DecodedPacket& pkt = *in.pkt;
  if (pkt.l4 == L4::UDP) {
    const uint8_t* header = at != FrameItem::kNoBytes ? tree.at(at) : pkt.payload ? pkt.payload - 8 : nullptr;
    if (header && ipInFrame)
      return addUdpLayer(tree, pkt.ip_reassembled ? FrameItem::kNoBytes : at, header, pkt, in.stream);
    tree.layer("User Datagram Protocol, Src Port: " + std::to_string(pkt.sport) +
                   ", Dst Port: " + std::to_string(pkt.dport),
               "udp", at, 8);
  }
  if (pkt.l4 != L4::TCP) return;
  // The whole header in the frame: expanded.
  if (at != FrameItem::kNoBytes && ipInFrame && pkt.tcp.extent == TcpHeader::Extent::Whole &&
      tree.captured(at, pkt.tcp.header_len))
    return addTcpLayer(tree, at, tree.at(at), pkt, in.tcp);
  tree.layer("Transmission Control Protocol, Src Port: " + std::to_string(pkt.sport) +
                 ", Dst Port: " + std::to_string(pkt.dport) + ", " + in.tcp.summary,
             "tcp", at, pkt.tcp.header_len);
}

// An IP fragment held for reassembly: tshark shows its bytes as Data.
void heldFragmentData(LayerTree& tree, const DecodedPacket& pkt, std::optional<uint32_t> ipStart) {
  if (!pkt.ip_fragment || !ipStart) return;
  std::optional<uint32_t> from;
  if (pkt.l3 == L3::IPv4 && tree.captured(*ipStart, ip::v4::kMinHeaderLen))
    from = *ipStart + ip::v4::headerLength(tree.at(*ipStart));
  if (pkt.l3 == L3::IPv6 && tree.captured(*ipStart, ip::v6::kHeaderLen))
    from = ipv6HeadersEnd(tree, *ipStart);
  const std::optional<uint32_t> end = ipPacketEnd(tree, pkt.l3, ipStart);
  if (!from || !end || *end <= *from) return;
  const uint32_t length = *end - *from;
  tree.layer(dataLabel(length), "data", *from, length);
  if (!tree.captured(*from, length)) return;
  tree.item(1, "Data: " + hexBytes(tree.at(*from), length), *from, length);
  tree.generated(1, "Length: " + std::to_string(length));
}

}  // namespace

void addLayerItems(const LayerInputs& in, std::vector<FrameItem>& items) {
  const RawPacket& raw = *in.raw;
  const DecodedPacket& pkt = *in.pkt;
  std::vector<FrameItem> layers;
  LayerTree tree(layers, raw.data, raw.caplen);
  const LinkLayers link = addLinkLayers(tree, raw, in.dlt);
  const L3 outermost = pkt.outer_count > 0 ? pkt.outer[0].l3 : pkt.l3;
  const std::optional<uint32_t> ipStart = pkt.outer_count == 0 || !link.ip_start
                                              ? link.ip_start
                                              : addTunnelLayers(tree, pkt, *link.ip_start, in.tunnel_streams);
  const uint32_t header = transportHeaderLength(pkt);
  const uint32_t at = in.payload && *in.payload >= header ? *in.payload - header : FrameItem::kNoBytes;
  ipLayers(tree, in, ipStart, at);
  addEthernetPadding(tree, raw.caplen, link, ipPacketEnd(tree, outermost, link.ip_start));
  if (arpCarried(pkt, link)) addEthernetPadding(tree, raw.caplen, link, addArpLayer(tree, *link.ip_start));
  transportLayer(tree, in, at, ipStart.has_value());
  addIcmpLayer(tree, pkt, ipStart, in.quoted_stream, in.echo_request);
  heldFragmentData(tree, pkt, ipStart);
  if (!pkt.error.empty())
    layers.push_back(FrameItem{"[Malformed: " + pkt.error + "]", 0, FrameItem::kNoBytes, 0, {}, {}});
  for (const std::string& lua : in.lua_layers) tree.protocol(lua);
  if (in.quic && in.payload) addQuicLayers(tree, *in.quic, *in.payload);
  if (in.data) tree.protocol("data");

  LayerTree frame(items, raw.data, raw.caplen);
  addCommentsLayer(frame, raw.comments);
  addFrameLayer(frame, FrameFacts{&raw, in.dlt, in.times, tree.protocols()});
  items.insert(items.end(), std::make_move_iterator(layers.begin()), std::make_move_iterator(layers.end()));
}

void addDataLayer(const uint8_t* data, uint32_t n, std::optional<uint32_t> offset,
                  std::vector<FrameItem>& items) {
  items.push_back(
      FrameItem{dataLabel(n), 0, offset.value_or(FrameItem::kNoBytes), offset ? n : 0, "data", {}});
  items.push_back(FrameItem{"Data: " + hexBytes(data, n), 1, offset.value_or(FrameItem::kNoBytes),
                            offset ? n : 0, "data.data", hexBytes(data, n, false)});
  items.push_back(FrameItem{"[Length: " + std::to_string(n) + "]", 1, FrameItem::kNoBytes, 0, "data.len",
                            std::to_string(n)});
}

}  // namespace rudp
