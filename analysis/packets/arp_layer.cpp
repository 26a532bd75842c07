#include "packets/arp_layer.h"

#include <algorithm>
#include <utility>

#include "core/label_text.h"

#include "packets/link_layers.h"

namespace rudp {

namespace {

enum ArpOp : unsigned {
  kRequest = kArpRequest,
  kReply = kArpReply,
  kReverseRequest = 3,
  kReverseReply = 4,
  kDrarpRequest = 5,
  kDrarpReply = 6,
  kInverseRequest = 8,
  kInverseReply = 9,
  kAtmArpNak = 10,
  kMarsFirst = 11,
  kMarsLast = 22,
  kMaposUnarp = 23,
  kExperimental1 = 24,
  kExperimental2 = 25,
};

// packet-arp.c's op_vals, by opcode.
const char* opName(unsigned op) {
  static const char* const kNames[] = {"reserved",
                                       "request",
                                       "reply",
                                       "reverse request",
                                       "reverse reply",
                                       "drarp request",
                                       "drarp reply",
                                       "drarp error",
                                       "inverse request",
                                       "inverse reply",
                                       "arp nak",
                                       "mars request",
                                       "mars multi",
                                       "mars mserv",
                                       "mars join",
                                       "mars leave",
                                       "mars nak",
                                       "mars unserv",
                                       "mars sjoin",
                                       "mars sleave",
                                       "mars grouplist request",
                                       "mars grouplist reply",
                                       "mars redirect map",
                                       "mapos unarp",
                                       "experimental 1",
                                       "experimental 2"};
  if (op < std::size(kNames)) return kNames[op];
  return op == 65535 ? "reserved" : nullptr;
}

// The Protocol column dissect_arp sets by opcode.
const char* protocolName(unsigned op) {
  if (op == kReverseRequest || op == kReverseReply) return "RARP";
  if (op >= kDrarpRequest && op <= kDrarpError) return "DRARP";
  if (op == kInverseRequest || op == kInverseReply) return "Inverse ARP";
  if (op >= kMarsFirst && op <= kMarsLast) return "MARS";
  if (op == kMaposUnarp) return "MAPOS";
  return "ARP";
}

// tvb_arphrdaddr_to_str and tvb_arpproaddr_to_str: a hardware or protocol
// address at `at` of the message.
std::string hwText(const ArpMessage& m, uint32_t at) {
  return m.hln == 0 ? "<No address>" : m.ether() ? macText(m.p + at) : hexBytes(m.p + at, m.hln);
}

std::string protoText(const ArpMessage& m, uint32_t at) {
  if (m.pln == 0) return "<No address>";
  return m.ipv4() ? ipv4Address(m.p + at).toString() : hexBytes(m.p + at, m.pln);
}

std::string opcodeInfo(unsigned op) {
  char buf[48];
  if (op == kExperimental1 || op == kExperimental2)
    std::snprintf(buf, sizeof buf, "Experimental %u ( opcode %u )", op - kExperimental1 + 1, op);
  else if (op == 0 || op == 65535)
    std::snprintf(buf, sizeof buf, "Reserved opcode %u", op);
  else
    std::snprintf(buf, sizeof buf, "Unknown ARP opcode 0x%04x", op);
  return buf;
}

// dissect_arp's Info.
std::string infoText(const ArpMessage& m) {
  switch (m.op) {
    case kRequest:
      if (m.announcement()) return "ARP Announcement for " + protoText(m, m.tpa());
      if (m.gratuitous()) return "Gratuitous ARP for " + protoText(m, m.tpa()) + " (Request)";
      if (m.probe()) return "Who has " + protoText(m, m.tpa()) + "? (ARP Probe)";
      return "Who has " + protoText(m, m.tpa()) + "? Tell " + protoText(m, m.spa());
    case kReply:
      if (m.gratuitous()) return "Gratuitous ARP for " + protoText(m, m.spa()) + " (Reply)";
      return protoText(m, m.spa()) + " is at " + hwText(m, m.sha());
    case kReverseRequest:
    case kInverseRequest:
    case kDrarpRequest: return "Who is " + hwText(m, m.tha()) + "? Tell " + hwText(m, m.sha());
    case kReverseReply:
    case kDrarpReply: return hwText(m, m.tha()) + " is at " + protoText(m, m.tpa());
    case kDrarpError: return "DRARP Error";
    case kInverseReply: return hwText(m, m.sha()) + " is at " + protoText(m, m.spa());
    case kAtmArpNak: return "ARP NAK";
    default: break;
  }
  static const char* const kMars[] = {
      "MARS request from ",           "MARS MULTI request from ",   "MARS MSERV request from ",
      "MARS JOIN request from ",      "MARS LEAVE from ",           "MARS NAK from ",
      "MARS UNSERV request from ",    "MARS SJOIN request from ",   "MARS SLEAVE from ",
      "MARS grouplist request from ", "MARS grouplist reply from ", "MARS redirect map from "};
  if (m.op >= kMarsFirst && m.op <= kMarsLast)
    return kMars[m.op - kMarsFirst] + hwText(m, m.sha()) + " at " + protoText(m, m.spa());
  if (m.op == kMaposUnarp)
    return "MAPOS UNARP request from " + hwText(m, m.sha()) + " at " + protoText(m, m.spa());
  return opcodeInfo(m.op);
}

// "request/gratuitous ARP": the layer's summary names the opcode so, once
// the `whole` message shows what kind it is.
std::string layerOpText(const ArpMessage& m, bool whole) {
  const char* name = opName(m.op);
  if (!name) return "opcode " + hexNumber(m.op, 4);
  if (!whole) return name;
  if (m.announcement()) return "ARP Announcement";
  if (m.probe()) return "ARP Probe";
  if (m.gratuitous()) return m.op == kRequest ? "request/gratuitous ARP" : "reply/gratuitous ARP";
  return name;
}

// A DRARP error's first target protocol address byte (packet-arp.c's drarp_status).
void drarpErrorStatus(LayerTree& tree, uint32_t at, unsigned status) {
  static const char* const kNames[] = {"Unknown",    "restricted", "no address",
                                       "serverdown", "moved",      "failure"};
  const char* name = status < std::size(kNames) ? kNames[status] : kNames[0];
  tree.item(1, "DRARP error status: " + std::string(name) + " (" + std::to_string(status) + ")", at, 1);
}

}  // namespace

ArpColumns arpColumns(const RawPacket& raw, uint32_t at, uint32_t reportedEnd) {
  const uint32_t captured = raw.caplen > at ? raw.caplen - at : 0,
                 reported = reportedEnd > at ? reportedEnd - at : 0;
  // tshark's exceptions: bytes the frame does not have make it malformed;
  // bytes the snap length cut off, "limited during capture".
  const auto cut = [&](uint32_t needed) {
    return ArpColumns{"ARP",
                      needed > reported ? "[Malformed Packet]" : "[Packet size limited during capture]"};
  };
  if (captured < 8) return cut(8);
  const ArpMessage m = readArp(raw.data + at);
  if (m.length() > captured) return cut(m.length());
  return {protocolName(m.op), infoText(m)};
}

std::optional<uint32_t> addArpLayer(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 8)) return std::nullopt;
  const ArpMessage m = readArp(tree.at(at));
  const bool whole = tree.captured(at, m.length());
  tree.layer("Address Resolution Protocol (" + layerOpText(m, whole) + ")", "arp", at,
             whole ? m.length() : 8);
  if (!whole || !m.ether() || !m.ipv4()) return whole ? std::optional(at + m.length()) : std::nullopt;
  tree.item(1, "Hardware type: " + arpHardwareText(m.hrd), at, 2);
  tree.item(1, "Protocol type: " + etherTypeText(m.pro), at + 2, 2);
  tree.item(1, "Hardware size: " + std::to_string(m.hln), at + 4, 1);
  tree.item(1, "Protocol size: " + std::to_string(m.pln), at + 5, 1);
  const std::string op = std::to_string(m.op);
  tree.item(1, "Opcode: " + std::string(opName(m.op) ? opName(m.op) : "Unknown") + " (" + op + ")", at + 6, 2,
            "arp.opcode", op);
  if (m.gratuitous()) tree.generated(1, "Is gratuitous: True", "arp.isgratuitous", "1");
  if (m.probe()) tree.generated(1, "Is probe: True", "arp.isprobe", "1");
  if (m.announcement()) tree.generated(1, "Is announcement: True", "arp.isannouncement", "1");
  const auto address = [&](const char* label, uint32_t offset, uint32_t length, const char* field) {
    const std::string text = length == 6 ? hwText(m, offset) : protoText(m, offset);
    tree.item(1, label + text, at + offset, length, field, text);
  };
  address("Sender MAC address: ", m.sha(), 6, "arp.src.hw_mac");
  address("Sender IP address: ", m.spa(), 4, "arp.src.proto_ipv4");
  address("Target MAC address: ", m.tha(), 6, "arp.dst.hw_mac");
  if (m.op == kDrarpError)
    drarpErrorStatus(tree, at + m.tpa(), m.p[m.tpa()]);
  else
    address("Target IP address: ", m.tpa(), 4, "arp.dst.proto_ipv4");
  return at + m.length();
}

std::string arpHardwareText(unsigned type) {
  static const std::pair<unsigned, const char*> kNames[] = {
      {0, "NET/ROM pseudo"},
      {1, "Ethernet"},
      {2, "Experimental Ethernet"},
      {3, "AX.25"},
      {4, "ProNET"},
      {5, "Chaos"},
      {6, "IEEE 802"},
      {7, "ARCNET"},
      {8, "Hyperchannel"},
      {9, "Lanstar"},
      {10, "Autonet Short Address"},
      {11, "Localtalk"},
      {12, "LocalNet"},
      {13, "Ultra link"},
      {14, "SMDS"},
      {15, "Frame Relay DLCI"},
      {16, "ATM"},
      {17, "HDLC"},
      {18, "Fibre Channel"},
      {19, "ATM (RFC 2225)"},
      {20, "Serial Line"},
      {21, "ATM"},
      {22, "MIL-STD-188-220"},
      {23, "Metricom STRIP"},
      {24, "IEEE 1394.1995"},
      {25, "MAPOS"},
      {26, "Twinaxial"},
      {27, "EUI-64"},
      {28, "HIPARP"},
      {29, "IP and ARP over ISO 7816-3"},
      {30, "ARPSec"},
      {31, "IPsec tunnel"},
      {32, "InfiniBand"},
      {33, "TIA-102 Project 25 CAI"},
      {34, "Wiegand Interface"},
      {35, "Pure IP"},
      {36, "Experimental 1"},
      {37, "HFI"},
      {256, "Experimental 2"},
      {257, "AEthernet"},
      {260, "Notional KISS type"},
      {264, "ADAPT"},
      {270, "ROSE"},
      {271, "CCITT X.25"},
      {272, "Boards with X.25 in firmware"},
      {280, "Controller Area Network"},
      {512, "PPP"},
      {513, "Cisco HDLC"},
      {516, "LAPB"},
      {517, "Digital's DDCMP protocol"},
      {518, "Raw HDLC"},
      {519, "Raw IP"},
      {768, "IPIP tunnel"},
      {769, "IP6IP6 tunnel"},
      {770, "Frame Relay Access Device"},
      {771, "SKIP vif"},
      {772, "Loopback"},
      {774, "Fiber Distributed Data Interface"},
      {775, "AP1000 BIF"},
      {776, "sit0 device - IPv6-in-IPv4"},
      {777, "IP over DDP tunneller"},
      {778, "GRE over IP"},
      {779, "PIMSM register interface"},
      {780, "High Performance Parallel Interface"},
      {781, "Nexus 64Mbps Ash"},
      {782, "Acorn Econet"},
      {783, "Linux-IrDA"},
      {784, "Point to point fibrechannel"},
      {785, "Fibrechannel arbitrated loop"},
      {786, "Fibrechannel public loop"},
      {787, "Fibrechannel fabric"},
      {800, "Magic type ident for TR"},
      {801, "IEEE 802.11"},
      {802, "IEEE 802.11 + Prism2 header"},
      {803, "IEEE 802.11 + radiotap header"},
      {804, "IEEE 802.15.4"},
      {805, "IEEE 802.15.4 network monitor"},
      {820, "PhoNet media type"},
      {821, "PhoNet pipe header"},
      {822, "CAIF media type"},
      {823, "GRE over IPv6"},
      {824, "Netlink"},
      {825, "IPv6 over LoWPAN"},
      {826, "Vsock monitor header"},
      {0xffff, "Void type, nothing is known"},
      {0xfffe, "zero header length"},
  };
  const char* name = "Unknown";
  for (const auto& [value, text] : kNames)
    if (value == type) {
      name = text;
      break;
    }
  return std::string(name) + " (" + std::to_string(type) + ")";
}

}  // namespace rudp
