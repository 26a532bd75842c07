#include "packets/tunnel_layers.h"

#include <algorithm>

#include "decode/ip.h"
#include "decode/tunnel.h"
#include "packets/ip_layers.h"
#include "packets/link_layers.h"
#include "packets/transport_layers.h"
#include "packets/tunnel_headers.h"

namespace rudp {

namespace {

constexpr unsigned kEtherIpv4 = 0x0800, kEtherIpv6 = 0x86dd;

// Where the walk is: the next header's offset, and where the bytes that
// hold it end (the enclosing IP packet's or UDP datagram's end, for an
// Ethernet frame's padding).
struct Position {
  uint32_t at = 0;
  uint32_t end = 0;
};

// The IP header at `at` (its family from its version nibble), and where its
// payload ends by its length field.
std::optional<uint32_t> ipPacketAt(const LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 1)) return std::nullopt;
  return ipPacketEnd(tree, ip::version(tree.at(at)) == 6 ? L3::IPv6 : L3::IPv4, at);
}

// An Ethernet frame a tunnel carries, its padding up to `end`; the IP packet after it.
std::optional<Position> ethernetFrame(LayerTree& tree, Position p) {
  const LinkLayers link = addEthernetLayer(tree, p.at);
  if (!link.ip_start) return std::nullopt;
  addEthernetPadding(tree, p.end, link, ipPacketAt(tree, *link.ip_start));
  return Position{*link.ip_start, p.end};
}

// What a tunnel header carries: an IP packet, an Ethernet frame, an MPLS label stack.
std::optional<Position> carried(LayerTree& tree, unsigned type, Position p) {
  switch (type) {
    case kCarriesIp:
    case kEtherIpv4:
    case kEtherIpv6: return p;
    case tunnel::kTransparentEthernet: return ethernetFrame(tree, p);
    case tunnel::kEtherMpls: {
      const std::optional<uint32_t> ip = addMplsLayers(tree, p.at);
      if (!ip) return std::nullopt;
      return Position{*ip, p.end};
    }
    default: return std::nullopt;
  }
}

// A tunnel's UDP header as the frame's own, for its layer.
DecodedPacket tunnelUdp(const LayerTree& tree, const DecodedPacket& pkt, const OuterHeader& h, uint32_t at,
                        uint32_t end) {
  DecodedPacket u;
  u.ts_ns = pkt.ts_ns;
  u.l3 = h.l3;
  u.l4 = L4::UDP;
  u.sport = h.sport;
  u.dport = h.dport;
  u.udp_checksum = uint16_t(tree.number(at + 6, 2));
  u.payload_reported_len = h.udp_length >= 8 ? h.udp_length - 8 : 0;
  u.payload_len = end > at + 8 ? std::min(u.payload_reported_len, end - at - 8) : 0;
  return u;
}

// The tunnel's IP header at `at`: its layer, then where its payload starts and ends.
std::optional<Position> outerIp(LayerTree& tree, const OuterHeader& h, uint32_t at) {
  const std::optional<uint32_t> end = ipPacketEnd(tree, h.l3, at);
  if (!end) return std::nullopt;
  if (h.l3 == L3::IPv4) {
    if (!ipv4HeaderInFrame(tree, L3::IPv4, at)) return std::nullopt;
    addIpv4Layer(tree, at, IpLayerFacts{});
    return Position{at + ip::v4::headerLength(tree.at(at)), *end};
  }
  if (!tree.captured(at, ip::v6::kHeaderLen)) return std::nullopt;
  IpLayerFacts facts;
  facts.src = h.src.toString();
  facts.dst = h.dst.toString();
  const uint32_t payload = ipv6HeadersEnd(tree, at);
  addIpv6Layer(tree, at, facts, payload - at);
  return Position{payload, *end};
}

// The tunnel's UDP header at `p.at` and the header the port names.
std::optional<TunnelHeader> udpTunnelLayers(LayerTree& tree, const DecodedPacket& pkt, const OuterHeader& h,
                                            Position p, const std::optional<StreamPosition>& stream,
                                            uint32_t& end) {
  if (!tree.captured(p.at, 8)) return std::nullopt;
  end = std::min(p.end, p.at + h.udp_length);
  addUdpLayer(tree, p.at, tree.at(p.at), tunnelUdp(tree, pkt, h, p.at, end), stream);
  const uint32_t at = p.at + 8;
  switch (tunnel::udpTunnel(h.sport, h.dport)) {
    case tunnel::UdpTunnel::Vxlan: return addVxlanLayer(tree, at);
    case tunnel::UdpTunnel::Geneve: return addGeneveLayer(tree, at);
    case tunnel::UdpTunnel::GtpUser: return addGtpUserLayer(tree, at);
    case tunnel::UdpTunnel::Mpls: return TunnelHeader{at, tunnel::kEtherMpls};
    case tunnel::UdpTunnel::None: return std::nullopt;
  }
  return std::nullopt;
}

// One tunnel from its IP header at `at`: where the IP packet it carries starts.
std::optional<Position> tunnelLayers(LayerTree& tree, const DecodedPacket& pkt, const OuterHeader& h,
                                     uint32_t at, const std::optional<StreamPosition>& stream) {
  const std::optional<Position> payload = outerIp(tree, h, at);
  if (!payload) return std::nullopt;
  uint32_t end = payload->end;
  std::optional<TunnelHeader> header;
  if (h.udp)
    header = udpTunnelLayers(tree, pkt, h, *payload, stream, end);
  else if (h.ip_proto == ip::kGre)
    header = addGreLayers(tree, payload->at, end);
  else if (h.ip_proto == ip::kIpInIp || h.ip_proto == ip::kIpv6InIp)
    header = TunnelHeader{payload->at, kCarriesIp};
  if (!header) return std::nullopt;
  return carried(tree, header->carries, {header->end, end});
}

}  // namespace

std::optional<uint32_t> addTunnelLayers(LayerTree& tree, const DecodedPacket& pkt, uint32_t ipStart,
                                        const std::vector<StreamPosition>& udpStreams) {
  // Which of the headers completed a datagram is not kept: the bytes after
  // it are in the reassembly buffer, not the frame.
  if (pkt.ip_reassembled) return std::nullopt;
  uint32_t at = ipStart;
  size_t udp = 0;
  for (int i = 0; i < pkt.outer_count; ++i) {
    const OuterHeader& h = pkt.outer[i];
    std::optional<StreamPosition> stream;
    if (h.udp && udp < udpStreams.size()) stream = udpStreams[udp++];
    const std::optional<Position> inner = tunnelLayers(tree, pkt, h, at, stream);
    if (!inner) return std::nullopt;
    at = inner->at;
  }
  return at;
}

}  // namespace rudp
