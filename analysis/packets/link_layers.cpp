#include "packets/link_layers.h"

#include <algorithm>

#include "core/label_text.h"
#include "decode/ethernet.h"
#include "decode/link_layer.h"

#include "packets/arp_layer.h"

namespace rudp {

namespace {

using eth::kMpls, eth::kMplsMulticast, eth::kPppoeSession, eth::kQinQ, eth::kQinQOld, eth::kVlan;
constexpr unsigned kPppIpv4 = 0x0021, kPppIpv6 = 0x0057, kPppMpls = 0x0281, kPppMplsMulti = 0x0283;

std::optional<uint32_t> pppoeSession(LayerTree& tree, uint32_t at);

// `source`: packet-eth.c warns of an Ethernet II source with the group bit set.
void macAddress(LayerTree& tree, const char* name, uint32_t at, const char* field, bool source = false) {
  const std::string mac = macText(tree.at(at));
  tree.item(1, std::string(name) + ": " + mac, at, 6, field, mac);
  if (source && (tree.number(at, 1) & 1))
    tree.expert(2, "Warning", "Protocol",
                "Source MAC must not be a group address: IEEE 802.3-2002, Section 3.2.3(b)");
  tree.item(2, "Address: " + mac, at, 6, "eth.addr", mac);
  const bool local = tree.number(at, 1) & 2, group = tree.number(at, 1) & 1;
  tree.bits(2, at, 3, 0x020000,
            local ? "LG bit: Locally administered address (this is NOT the factory default)"
                  : "LG bit: Globally unique address (factory default)");
  tree.bits(2, at, 3, 0x010000,
            group ? "IG bit: Group address (multicast/broadcast)" : "IG bit: Individual address (unicast)");
}

// packet-vlan.c's names by 802.1Q-2005 and later, its default (vlan.version
// 2011 and up, vlan.priority_drop 8P0D).
std::string vlanPriority(unsigned pri) {
  static const char* const kNames[] = {"Best Effort (default)",
                                       "Background",
                                       "Excellent Effort",
                                       "Critical Applications",
                                       "Video, < 100ms latency and jitter",
                                       "Voice, < 10ms latency and jitter",
                                       "Internetwork Control",
                                       "Network Control"};
  return std::string(kNames[pri & 7]) + " (" + std::to_string(pri) + ")";
}

// One 802.1Q or 802.1ad tag at `at` (its TCI), as the layer tshark shows.
void vlanTag(LayerTree& tree, unsigned type, uint32_t at) {
  const unsigned tci = unsigned(tree.number(at, 2)), pri = tci >> 13, dei = tci >> 12 & 1;
  const std::string id = std::to_string(tci & 0xfff);
  if (type == kQinQ) {
    tree.layer("IEEE 802.1ad, ID: " + id, "ieee8021ad", at, 4);
    tree.bits(1, at, 2, 0xe000, "Priority: " + std::to_string(pri));
    tree.bits(1, at, 2, 0x1000, "DEI: " + std::to_string(dei));
    tree.bits(1, at, 2, 0x0fff, "ID: " + id);
  } else {
    tree.layer(
        "802.1Q Virtual LAN, PRI: " + std::to_string(pri) + ", DEI: " + std::to_string(dei) + ", ID: " + id,
        "vlan", at, 4);
    tree.bits(1, at, 2, 0xe000, "Priority: " + vlanPriority(pri), "vlan.priority");
    tree.bits(1, at, 2, 0x1000, dei ? "DEI: Eligible" : "DEI: Ineligible");
    tree.bits(1, at, 2, 0x0fff, "ID: " + id, "vlan.id");
  }
  tree.item(1, "Type: " + etherTypeText(unsigned(tree.number(at + 2, 2))), at + 2, 2);
  tree.protocol("ethertype");
}

}  // namespace

LinkLayers addEthernetLayer(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 14)) return {};
  tree.layer("Ethernet II, Src: " + macText(tree.at(at + 6)) + ", Dst: " + macText(tree.at(at)), "eth", at,
             14);
  macAddress(tree, "Destination", at, "eth.dst");
  macAddress(tree, "Source", at + 6, "eth.src", true);
  unsigned type = unsigned(tree.number(at + 12, 2));
  tree.item(1, "Type: " + etherTypeText(type), at + 12, 2, "eth.type", hexNumber(type, 4));
  tree.protocol("ethertype");
  at += 14;
  std::vector<std::pair<unsigned, uint32_t>> tags;
  const eth::TagsEnd end = eth::walkTags(type, tree.at(0), tree.caplen(), at,
                                         [&](unsigned tpid, uint32_t tci) { tags.emplace_back(tpid, tci); });
  type = end.type;
  at = end.offset;
  const size_t padding = tree.size();
  for (const auto& [tagType, tagAt] : tags) vlanTag(tree, tagType, tagAt);
  const std::optional<size_t> paddingLine = tags.empty() ? padding : tree.size();
  if (type == kMpls || type == kMplsMulticast) return {addMplsLayers(tree, at), paddingLine};
  if (type == kPppoeSession) return {pppoeSession(tree, at), paddingLine};
  return {at, paddingLine, type};
}

std::optional<uint32_t> addPppLayer(LayerTree& tree, uint32_t at) {
  const bool framed = tree.number(at, 2) == 0xff03;
  const uint32_t protocolAt = framed ? at + 2 : at;
  if (!tree.captured(protocolAt, 2)) return std::nullopt;
  const unsigned protocol = unsigned(tree.number(protocolAt, 2));
  const char* name = protocol == kPppIpv4        ? "Internet Protocol version 4"
                     : protocol == kPppIpv6      ? "Internet Protocol version 6"
                     : protocol == kPppMpls      ? "MPLS Unicast"
                     : protocol == kPppMplsMulti ? "MPLS Multicast"
                                                 : nullptr;
  if (!name) return std::nullopt;  // LCP, IPCP, ...: no IP packet
  tree.layer("Point-to-Point Protocol", "ppp", at, protocolAt + 2 - at);
  if (framed) {
    tree.item(1, "Address: 0xff", at, 1);
    tree.item(1, "Control: 0x03", at + 1, 1);
  }
  tree.item(1, "Protocol: " + std::string(name) + " (" + hexNumber(protocol, 4) + ")", protocolAt, 2);
  if (protocol == kPppMpls || protocol == kPppMplsMulti) return addMplsLayers(tree, protocolAt + 2);
  return protocolAt + 2;
}

std::optional<uint32_t> addMplsLayers(LayerTree& tree, uint32_t at) {
  static const char* const kSpecial[] = {"IPv4 Explicit-Null",
                                         "Router Alert",
                                         "IPv6 Explicit-Null",
                                         "Implicit-Null",
                                         nullptr,
                                         nullptr,
                                         nullptr,
                                         "OAM Alert",
                                         nullptr,
                                         nullptr,
                                         nullptr,
                                         nullptr,
                                         nullptr,
                                         "Generic Associated Channel Label (GAL)",
                                         nullptr,
                                         "Entropy Label Indicator (ELI)"};
  for (bool bottom = false, first = true; !bottom; at += 4, first = false) {
    if (!tree.captured(at, 4)) return std::nullopt;
    const uint32_t shim = uint32_t(tree.number(at, 4)), label = shim >> 12, exp = shim >> 9 & 7,
                   ttl = shim & 0xff;
    bottom = shim & 0x100;
    const std::string special =
        label < 16 ? std::string(" (") + (kSpecial[label] ? kSpecial[label] : "Reserved - Unknown") + ")"
                   : "";
    std::string summary = "MultiProtocol Label Switching Header, Label: " + std::to_string(label) + special +
                          ", Exp: " + std::to_string(exp) + ", S: " + std::to_string(bottom) +
                          ", TTL: " + std::to_string(ttl);
    if (first)
      tree.layer(std::move(summary), "mpls", at, 4);
    else
      tree.moreOfLayer(std::move(summary), "mpls", at, 4);
    // BASE_DEC_HEX: "16000 (0x03e80)"; a reserved label by its name: "Implicit-Null (3)".
    const std::string value =
        label < 16 ? (kSpecial[label] ? kSpecial[label] : "Unknown") + (" (" + std::to_string(label) + ")")
                   : std::to_string(label) + " (" + hexNumber(label, 5) + ")";
    tree.bits(1, at, 4, 0xfffff000, "MPLS Label: " + value, "mpls.label");
    tree.bits(1, at, 4, 0x00000e00, "MPLS Experimental Bits: " + std::to_string(exp));
    tree.bits(1, at, 4, 0x00000100, "MPLS Bottom Of Label Stack: " + std::to_string(bottom));
    tree.bits(1, at, 4, 0x000000ff, "MPLS TTL: " + std::to_string(ttl));
  }
  // packet-mpls.c's first-nibble rule: 4 IPv4, 6 IPv6.
  const unsigned nibble = unsigned(tree.number(at, 1) >> 4);
  if (!tree.captured(at, 1) || (nibble != 4 && nibble != 6)) return std::nullopt;
  return at;
}

namespace {

// packet-pppoe.c's session header, then PPP without address and control.
std::optional<uint32_t> pppoeSession(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 6)) return std::nullopt;
  const unsigned code = unsigned(tree.number(at + 1, 1));
  if (code != 0) return std::nullopt;  // discovery packets carry no IP packet
  tree.layer("PPP-over-Ethernet Session", "pppoes", at, 6);
  tree.bits(1, at, 1, 0xf0, "Version: " + std::to_string(tree.number(at, 1) >> 4));
  tree.bits(1, at, 1, 0x0f, "Type: " + std::to_string(tree.number(at, 1) & 15));
  tree.item(1, "Code: Session Data (0x00)", at + 1, 1);
  tree.item(1, "Session ID: " + hexNumber(tree.number(at + 2, 2), 4), at + 2, 2);
  tree.item(1, "Payload Length: " + std::to_string(tree.number(at + 4, 2)), at + 4, 2);
  return addPppLayer(tree, at + 6);
}

// packet-chdlc.c: Cisco HDLC's address, control and EtherType.
std::optional<uint32_t> ciscoHdlc(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 4)) return std::nullopt;
  const unsigned address = unsigned(tree.number(at, 1)), type = unsigned(tree.number(at + 2, 2));
  const char* name = type == eth::kIpv4   ? "IP"
                     : type == eth::kIpv6 ? "IPv6"
                     : type == kMpls      ? "MPLS unicast"
                                          : nullptr;
  if (!name || (address != 0x0f && address != 0x8f)) return std::nullopt;
  tree.layer("Cisco HDLC", "chdlc", at, 4);
  tree.item(1,
            std::string("Address: ") + (address == 0x0f ? "Unicast" : "Multicast") + " (" +
                hexNumber(address, 2) + ")",
            at, 1);
  tree.item(1, "Control: " + hexNumber(tree.number(at + 1, 1), 2), at + 1, 1);
  tree.item(1, "Protocol: " + std::string(name) + " (" + hexNumber(type, 4) + ")", at + 2, 2);
  if (type == kMpls) return addMplsLayers(tree, at + 4);
  return at + 4;
}

// DLT_PPP: PPP, or Cisco HDLC framing (which tshark's PPP dissector hands on, naming itself).
std::optional<uint32_t> pppOrCiscoHdlc(LayerTree& tree) {
  const unsigned address = unsigned(tree.number(0, 1));
  if (address != 0x0f && address != 0x8f) return addPppLayer(tree, 0);
  tree.protocol("ppp");
  return ciscoHdlc(tree, 0);
}

std::string sllPacketType(unsigned type) {
  static const char* const kNames[] = {"Unicast to us", "Broadcast", "Multicast", "Unicast to another host",
                                       "Sent by us"};
  return (type < 5 ? std::string(kNames[type]) : "Unknown") + " (" + std::to_string(type) + ")";
}

// The address and its unused bytes of an 8-byte cooked-capture address field.
void sllAddress(LayerTree& tree, uint32_t at, unsigned length) {
  if (length == 6) {
    tree.item(1, "Source: " + macText(tree.at(at)), at, 6);
    tree.item(1, "Unused: " + hexBytes(tree.at(at + 6), 2), at + 6, 2);
  } else {
    tree.item(1, "Source: " + hexBytes(tree.at(at), std::min(length, 8u)), at, std::min(length, 8u));
  }
}

uint32_t linuxCooked(LayerTree& tree, const RawPacket& raw, bool v2) {
  const uint32_t size = v2 ? 20 : 16;
  if (raw.caplen < size) {
    tree.layer(v2 ? "Linux cooked capture v2" : "Linux cooked capture v1", "sll", 0, raw.caplen);
    return size;
  }
  if (v2) {
    tree.layer("Linux cooked capture v2", "sll", 0, size);
    tree.item(1, "Protocol: " + etherTypeText(unsigned(tree.number(0, 2))), 0, 2);
    tree.item(1, "Interface index: " + std::to_string(tree.number(4, 4)), 4, 4);
    tree.item(1, "Link-layer address type: " + arpHardwareText(unsigned(tree.number(8, 2))), 8, 2);
    tree.item(1, "Packet type: " + sllPacketType(unsigned(tree.number(10, 1))), 10, 1);
    const unsigned length = unsigned(tree.number(11, 1));
    tree.item(1, "Link-layer address length: " + std::to_string(length), 11, 1);
    sllAddress(tree, 12, length);
  } else {
    tree.layer("Linux cooked capture v1", "sll", 0, size);
    tree.item(1, "Packet type: " + sllPacketType(unsigned(tree.number(0, 2))), 0, 2);
    tree.item(1, "Link-layer address type: " + arpHardwareText(unsigned(tree.number(2, 2))), 2, 2);
    const unsigned length = unsigned(tree.number(4, 2));
    tree.item(1, "Link-layer address length: " + std::to_string(length), 4, 2);
    sllAddress(tree, 6, length);
    tree.item(1, "Protocol: " + etherTypeText(unsigned(tree.number(14, 2))), 14, 2);
  }
  tree.protocol("ethertype");
  return size;
}

// Null/Loopback's family, in the writer's byte order (DLT_NULL) or network order (DLT_LOOP).
uint32_t nullLoopback(LayerTree& tree, const RawPacket& raw, bool loop) {
  tree.layer("Null/Loopback", "null", 0, std::min(raw.caplen, 4u));
  if (raw.caplen < 4) return 4;
  uint32_t family = uint32_t(tree.number(0, 4));
  if (!loop && (family & 0xffff) == 0) family = __builtin_bswap32(family);
  const char* name = family == 2 ? "IP" : (family == 24 || family == 28 || family == 30) ? "IPv6" : "Unknown";
  tree.item(1, "Family: " + std::string(name) + " (" + std::to_string(family) + ")", 0, 4);
  return 4;
}

}  // namespace

std::string etherTypeText(unsigned type) {
  const char* name = nullptr;
  switch (type) {
    case eth::kIpv4: name = "IPv4"; break;
    case eth::kIpv6: name = "IPv6"; break;
    case kEtherTypeArp: name = "ARP"; break;
    case kEtherTypeRarp: name = "RARP"; break;
    case kVlan: name = "802.1Q Virtual LAN"; break;
    case kQinQ: name = "802.1ad Provider Bridge (Q-in-Q)"; break;
    case kQinQOld: name = "QinQ: old non-standard 802.1ad"; break;
    case kMpls: name = "MPLS label switched packet"; break;
    case kMplsMulticast: name = "MPLS multicast label switched packet"; break;
    case eth::kTransparentBridging: name = "Transparent Ethernet bridging"; break;
    case kPppoeSession: name = "PPPoE Session"; break;
    default: name = "Unknown"; break;
  }
  return std::string(name) + " (" + hexNumber(type, 4) + ")";
}

LinkLayers addLinkLayers(LayerTree& tree, const RawPacket& raw, int dlt) {
  switch (dlt) {
    case link::kEthernet: return addEthernetLayer(tree, 0);
    case link::kNull: return {nullLoopback(tree, raw, false), {}};
    case link::kLoop: return {nullLoopback(tree, raw, true), {}};
    case link::kRaw:
    case link::kRawBsd:
    case link::kLinktypeRaw: tree.layer("Raw packet data", "raw", FrameItem::kNoBytes, 0); return {0, {}};
    case link::kPpp: return {pppOrCiscoHdlc(tree), {}};
    case link::kPppSerial: return {addPppLayer(tree, 0), {}};
    case link::kPppEther: return {pppoeSession(tree, 0), {}};
    case link::kCiscoHdlc: return {ciscoHdlc(tree, 0), {}};
    case link::kLinuxSll: return {linuxCooked(tree, raw, false), {}};
    case link::kLinuxSll2: return {linuxCooked(tree, raw, true), {}};
    default: return {};
  }
}

void addEthernetPadding(LayerTree& tree, uint32_t frameEnd, const LinkLayers& link,
                        std::optional<uint32_t> ipEnd) {
  if (!link.padding_line || !ipEnd || *ipEnd >= frameEnd || !tree.captured(*ipEnd, frameEnd - *ipEnd)) return;
  const uint32_t n = frameEnd - *ipEnd;
  tree.insert(*link.padding_line,
              FrameItem{"Padding: " + hexBytes(tree.at(*ipEnd), n), 1, *ipEnd, n, {}, {}});
}

}  // namespace rudp
