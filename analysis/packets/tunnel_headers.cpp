#include "packets/tunnel_headers.h"

#include <cstdio>
#include <string>
#include <utility>

#include "core/label_text.h"
#include "decode/tunnel.h"
#include "packets/link_layers.h"

namespace rudp {

namespace {

std::string yesNo(bool yes) { return yes ? "Yes" : "No"; }
std::string trueFalse(bool value) { return value ? "True" : "False"; }

// A bitmask's summary: its value, then the names of the flags set in it
// (proto_tree_add_bitmask's default).
std::string flagsSummary(const char* label, unsigned value, int digits,
                         std::initializer_list<std::pair<unsigned, const char*>> names) {
  std::string out = std::string(label) + ": " + hexNumber(value, digits);
  for (const auto& [bit, name] : names)
    if (value & bit) out += std::string(", ") + name;
  return out;
}

// packet-gre.c's gre_typevals (the names the corpus and the decoder meet).
std::string greTypeName(unsigned type) {
  switch (type) {
    case 0x0000: return "Possible GRE keepalive packet";
    case 0x0800: return "IP";
    case 0x86dd: return "IPv6";
    case 0x0806: return "ARP";
    case tunnel::kGrePpp: return "PPP";
    case tunnel::kGreWccp: return "WCCP";
    case tunnel::kErspan: return "ERSPAN";
    case tunnel::kErspanIII: return "ERSPAN III";
    case tunnel::kTransparentEthernet: return "Transparent Ethernet bridging";
    case tunnel::kEtherMpls: return "MPLS label switched packet";
    default: return {};
  }
}

void greFlags(LayerTree& tree, uint32_t at, bool ppp) {
  const unsigned flags = unsigned(tree.number(at, 2));
  tree.item(1, "Flags and Version: " + hexNumber(flags, 4), at, 2);
  using namespace tunnel;
  tree.bits(2, at, 2, kGreChecksum, "Checksum Bit: " + yesNo(flags & kGreChecksum));
  tree.bits(2, at, 2, kGreRouting, "Routing Bit: " + yesNo(flags & kGreRouting));
  tree.bits(2, at, 2, kGreKey, "Key Bit: " + yesNo(flags & kGreKey));
  tree.bits(2, at, 2, kGreSequence, "Sequence Number Bit: " + yesNo(flags & kGreSequence));
  tree.bits(2, at, 2, 0x0800, "Strict Source Route Bit: " + yesNo(flags & 0x0800));
  tree.bits(2, at, 2, 0x0700, "Recursion control: " + std::to_string(flags >> 8 & 7));
  if (ppp) {
    tree.bits(2, at, 2, kGreAck, "Acknowledgment: " + yesNo(flags & kGreAck));
    tree.bits(2, at, 2, 0x0078, "Flags (Reserved): " + std::to_string(flags >> 3 & 0x0f));
  } else {
    tree.bits(2, at, 2, 0x00f8, "Flags (Reserved): " + std::to_string(flags >> 3 & 0x1f));
  }
  const unsigned version = flags & kGreVersionMask;
  tree.bits(2, at, 2, 0x0007,
            "Version: " +
                std::string(version == 0   ? "GRE"
                            : version == 1 ? "Enhanced GRE"
                                           : "Unknown") +
                " (" + std::to_string(version) + ")");
}

std::string valueName(const std::string& name, unsigned value) {
  return std::string(name) + " (" + std::to_string(value) + ")";
}

// ERSPAN type III's platform-specific subheader, platform 3 (the others' items are not built).
bool erspanPlatformSubheader(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 8) || tree.number(at, 1) >> 2 != 3) return false;
  tree.bits(1, at, 4, 0xfc000000, "Platform ID: 3");
  tree.bits(1, at, 4, 0x03ffc000, "Reserved: " + std::to_string(tree.number(at, 4) >> 14 & 0xfff));
  tree.bits(1, at, 4, 0x00003fff, "Port ID/Index: " + std::to_string(tree.number(at, 4) & 0x3fff));
  tree.bits(1, at + 4, 4, 0xffffffff, "Upper 32-bit Timestamp: " + std::to_string(tree.number(at + 4, 4)));
  return true;
}

// Type III's second half: timestamp, security group tag, frame type and flags.
std::optional<uint32_t> erspanIII(LayerTree& tree, uint32_t at) {
  static const char* const kGranularity[] = {"100 microseconds", "100 nanoseconds", "IEEE 1588",
                                             "Custom granularity"};
  const unsigned word = unsigned(tree.number(at + 6, 2)), frameType = word >> 10 & 0x1f;
  tree.bits(1, at, 4, 0xffffffff, "Timestamp: " + std::to_string(tree.number(at, 4)));
  tree.bits(1, at + 4, 2, 0xffff, "Security Group Tag: " + std::to_string(tree.number(at + 4, 2)));
  tree.bits(1, at + 6, 2, 0x8000, "Has Ethernet PDU: " + std::to_string(word >> 15));
  tree.bits(1, at + 6, 2, 0x7c00,
            valueName(frameType == 0   ? "Frame Type: Ethernet"
                      : frameType == 2 ? "Frame Type: IP"
                                       : "Frame Type: Unknown",
                      frameType));
  tree.bits(1, at + 6, 2, 0x03f0, "Hardware ID: " + std::to_string(word >> 4 & 0x3f));
  tree.bits(1, at + 6, 2, 0x0008, word & 8 ? "Direction: Egress" : "Direction: Ingress");
  tree.bits(1, at + 6, 2, 0x0006,
            valueName("Timestamp granularity: " + std::string(kGranularity[word >> 1 & 3]), word >> 1 & 3));
  tree.bits(1, at + 6, 2, 0x0001, "Optional Sub headers: " + std::to_string(word & 1));
  if (!(word & 1)) return at + 8;
  if (!erspanPlatformSubheader(tree, at + 8)) return std::nullopt;
  return at + 16;
}

// packet-cisco-erspan.c: the ERSPAN header after GRE, type I (no header:
// GRE 0x88be without a sequence number), II or III; where the mirrored
// Ethernet frame starts.
std::optional<uint32_t> erspanLayer(LayerTree& tree, uint32_t at, bool hasHeader) {
  if (!hasHeader) {
    tree.layer("Encapsulated Remote Switch Packet ANalysis Type I", "erspan", at, 0);
    return at;
  }
  if (!tree.captured(at, 8)) return std::nullopt;
  static const char* const kEncap[] = {"Originally without VLAN tag", "Originally ISL encapsulated",
                                       "Originally 802.1Q encapsulated", "VLAN tag preserved in frame"};
  static const char* const kIntegrity[] = {"Good or unknown integrity", "Short frame", "Oversized frame",
                                           "CRC or alignment error"};
  const unsigned first = unsigned(tree.number(at, 2)), second = unsigned(tree.number(at + 2, 2));
  const unsigned version = first >> 12, twoBits = second >> 11 & 3;
  if (version != 1 && version != 2) return std::nullopt;
  const bool typeII = version == 1;
  tree.layer(std::string("Encapsulated Remote Switch Packet ANalysis ") + (typeII ? "Type II" : "Type III"),
             "erspan", at, typeII ? 8 : 12);
  tree.bits(1, at, 2, 0xf000, valueName(typeII ? "Version: Type II" : "Version: Type III", version));
  tree.bits(1, at, 2, 0x0fff, "Vlan: " + std::to_string(first & 0xfff));
  tree.bits(1, at + 2, 2, 0xe000, "COS: " + std::to_string(second >> 13));
  tree.bits(1, at + 2, 2, 0x1800,
            valueName(std::string(typeII ? "Encap: " : "Bad/Short/Oversized: ") +
                          (typeII ? kEncap[twoBits] : kIntegrity[twoBits]),
                      twoBits));
  tree.bits(
      1, at + 2, 2, 0x0400,
      valueName(second & 0x400 ? "Truncated: Truncated" : "Truncated: Not truncated", second >> 10 & 1));
  tree.bits(1, at + 2, 2, 0x03ff, "SpanID: " + std::to_string(second & 0x3ff));
  if (!typeII) return tree.captured(at, 12) ? erspanIII(tree, at + 4) : std::nullopt;
  tree.bits(1, at + 4, 4, 0xfff00000, "Reserved: " + std::to_string(tree.number(at + 4, 4) >> 20));
  tree.bits(1, at + 4, 4, 0x000fffff, "Index: " + std::to_string(tree.number(at + 4, 4) & 0xfffff));
  return at + 8;
}

// WCCP v2's redirect header after GRE (v1 has none: an IPv4 header follows
// at once, as tshark tells them apart); where the IP packet starts.
uint32_t wccpRedirectHeader(LayerTree& tree, uint32_t at) {
  if (tree.number(at, 1) >> 4 == 4 || !tree.captured(at, 4)) return at;
  const unsigned flags = unsigned(tree.number(at, 1)), service = unsigned(tree.number(at + 1, 1));
  tree.item(1, "Redirect Header", at, 4);
  tree.bits(2, at, 1, 0x01,
            flags & 1 ? "Dynamic Service: Dynamic service" : "Dynamic Service: Well-known service");
  tree.bits(2, at, 1, 0x02,
            flags & 2 ? "Alternative bucket used: Alternative bucket used"
                      : "Alternative bucket used: Primary bucket used");
  tree.bits(2, at, 1, 0x04,
            flags & 4 ? "WCCP Redirect header is valid: Header is present, but ignore contents"
                      : "WCCP Redirect header is valid: Header contents are valid");
  tree.item(2,
            std::string("Service ID: ") + (service == 0 ? "HTTP" : "Unknown") + " (" +
                std::to_string(service) + ")",
            at + 1, 1);
  tree.item(2, "Alternative Bucket: " + std::to_string(tree.number(at + 2, 1)), at + 2, 1);
  tree.item(2, "Primary Bucket: " + std::to_string(tree.number(at + 3, 1)), at + 3, 1);
  return at + 4;
}

// packet-geneve.c's class names.
std::string geneveClass(unsigned c) {
  struct Range {
    unsigned low, high;
    const char* name;
  };
  static const Range kClasses[] = {{0x0000, 0x00ff, "Standard"},
                                   {0x0100, 0x0100, "Linux"},
                                   {0x0101, 0x0101, "Open vSwitch"},
                                   {0x0102, 0x0102, "Open Virtual Networking (OVN)"},
                                   {0x0103, 0x0103, "In-band Network Telemetry (INT)"},
                                   {0x0104, 0x0104, "VMware"},
                                   {0x0105, 0x0105, "Amazon.com, Inc."},
                                   {0x0106, 0x0106, "Cisco Systems, Inc."},
                                   {0x0107, 0x0107, "Oracle Corporation"},
                                   {0x0108, 0x0110, "Amazon.com, Inc."},
                                   {0x0111, 0x0118, "IBM"},
                                   {0x0119, 0x0128, "Ericsson"},
                                   {0x0129, 0x0129, "Oxide Computer Company"},
                                   {0x0130, 0x0131, "Cisco Systems, Inc."},
                                   {0x0132, 0x0135, "Google LLC"},
                                   {0x0136, 0x0136, "InfoQuick Global Connection Tech Ltd."},
                                   {0x0137, 0xfeff, "Unassigned"},
                                   {0xfff0, 0xffff, "Experimental"}};
  for (const Range& r : kClasses)
    if (c >= r.low && c <= r.high) return std::string(r.name) + " (" + hexNumber(c, 4) + ")";
  return "Unknown (" + hexNumber(c, 4) + ")";
}

// One GENEVE option of `length` bytes (Google's GCP options' items are not built).
bool geneveOption(LayerTree& tree, uint32_t at, uint32_t length) {
  const unsigned cls = unsigned(tree.number(at, 2)), type = unsigned(tree.number(at + 2, 1));
  if (cls >= 0x0132 && cls <= 0x0135) return false;
  const std::string critical = type & 0x80 ? "Critical" : "Non-critical";
  tree.item(2, "Unknown, Class: " + geneveClass(cls) + " Type: " + hexNumber(type, 2) + " (" + critical + ")",
            at, length);
  tree.item(3, "Class: " + geneveClass(cls), at, 2);
  tree.item(3, "Type: " + hexNumber(type, 2) + " (" + critical + ")", at + 2, 1);
  const unsigned flags = unsigned(tree.number(at + 3, 1)) >> 5;
  if (flags) {
    tree.item(3, "Flags: " + hexNumber(flags, 2) + " (RSVD)", at + 3, 1);
    tree.bits(4, at + 3, 1, 0xe0, "Reserved: True");
  }
  tree.item(3, "Length: " + std::to_string(length) + " bytes", at + 3, 1);
  const std::string data = length > 4 ? hexBytes(tree.at(at + 4), length - 4, false) : "<MISSING>";
  tree.item(3, "Unknown Option Data: " + data, at + 4, length - 4);
  return true;
}

// GTP-U's extension headers whose items are built: PDCP PDU number and PDU
// Session container, 4 bytes each.
constexpr unsigned kPdcpPduNumber = 0xc0, kPduSessionContainer = 0x85;

bool gtpExtensionKnown(const LayerTree& tree, uint32_t at, unsigned type) {
  if (!tree.captured(at, 4) || tree.number(at, 1) != 1) return false;
  if (type == kPdcpPduNumber) return !(tree.number(at + 1, 1) & 0x80);
  if (type != kPduSessionContainer) return false;
  const unsigned pduType = unsigned(tree.number(at + 1, 1) >> 4);
  return pduType == 1 || (pduType == 0 && !(tree.number(at + 2, 1) & 0x80));
}

bool gtpExtensionsKnown(const LayerTree& tree, uint32_t at, uint64_t next) {
  for (int i = 0; next != 0; ++i, at += 4) {
    if (i == tunnel::kMaxGtpExtensions || !gtpExtensionKnown(tree, at, unsigned(next))) return false;
    next = tree.number(at + 3, 1);
  }
  return true;
}

const char* gtpExtensionName(unsigned type) {
  return type == 0                ? "No more extension headers"
         : type == kPdcpPduNumber ? "PDCP PDU number"
                                  : "PDU Session container";
}

void gtpNextType(LayerTree& tree, uint16_t depth, uint32_t at) {
  const unsigned type = unsigned(tree.number(at, 1));
  tree.item(
      depth,
      "Next extension header type: " + std::string(gtpExtensionName(type)) + " (" + hexNumber(type, 2) + ")",
      at, 1);
}

// The extension header at `at`, of the type the byte before names (checked
// by gtpExtensionsKnown); where the next starts.
uint32_t gtpExtension(LayerTree& tree, uint32_t at) {
  const unsigned type = unsigned(tree.number(at - 1, 1));
  tree.item(1, "Extension header (" + std::string(gtpExtensionName(type)) + ")", at, 4);
  tree.item(2, "Extension Header Length: 1", at, 1);
  if (type == kPdcpPduNumber) {
    tree.item(2, "PDCP Sequence Number: " + std::to_string(tree.number(at + 1, 2)), at + 1, 2);
  } else {
    const unsigned first = unsigned(tree.number(at + 1, 1)), second = unsigned(tree.number(at + 2, 1));
    const bool uplink = first >> 4 == 1;
    tree.item(2, "PDU Session Container", at + 1, 3);
    tree.bits(
        3, at + 1, 1, 0xf0,
        uplink ? "PDU Type: UL PDU SESSION INFORMATION (1)" : "PDU Type: DL PDU SESSION INFORMATION (0)");
    tree.bits(3, at + 1, 1, 0x0f, "Spare: " + hexNumber(first & 0x0f, 1));
    if (uplink) {
      tree.bits(3, at + 2, 1, 0xc0, "Spare: " + hexNumber(second >> 6, 1));
    } else {
      tree.bits(3, at + 2, 1, 0x80, "Paging Policy Presence (PPP): Not Present");
      tree.bits(3, at + 2, 1, 0x40,
                second & 0x40 ? "Reflective QoS Indicator (RQI): Present"
                              : "Reflective QoS Indicator (RQI): Not Present");
    }
    tree.bits(3, at + 2, 1, 0x3f, "QoS Flow Identifier (QFI): " + std::to_string(second & 0x3f));
  }
  gtpNextType(tree, 2, at + 3);
  return at + 4;
}

}  // namespace

// packet-geneve.c
std::optional<TunnelHeader> addGeneveLayer(LayerTree& tree, uint32_t at) {
  using tunnel::kGeneveFixedLen;
  if (!tree.captured(at, kGeneveFixedLen)) return std::nullopt;
  const uint32_t options = tunnel::geneveHeaderLength(uint8_t(tree.number(at, 1))) - kGeneveFixedLen;
  if (!tree.captured(at + kGeneveFixedLen, options)) return std::nullopt;
  const unsigned version = unsigned(tree.number(at, 1) >> 6), flags = unsigned(tree.number(at + 1, 1));
  const unsigned type = unsigned(tree.number(at + 2, 2));
  const uint32_t vni = uint32_t(tree.number(at + 4, 3));
  if (version != 0) return std::nullopt;
  char vniText[16];
  std::snprintf(vniText, sizeof vniText, "0x%06x", vni);
  tree.layer("Generic Network Virtualization Encapsulation, VNI: " + std::string(vniText) +
                 (flags & 0x80 ? ", OAM" : ""),
             "geneve", at, kGeneveFixedLen + options);
  tree.item(1, "Version: 0", at, 1);
  tree.item(1, "Length: " + std::to_string(options) + " bytes", at, 1);
  tree.item(1,
            flagsSummary("Flags", flags, 2,
                         {{0x80, "Operations, Administration and Management Frame"},
                          {0x40, "Critical Options Present"},
                          {0x3f, "Reserved"}}),
            at + 1, 1);
  tree.bits(2, at + 1, 1, 0x80,
            "Operations, Administration and Management Frame: " + trueFalse(flags & 0x80));
  tree.bits(2, at + 1, 1, 0x40, "Critical Options Present: " + trueFalse(flags & 0x40));
  tree.bits(2, at + 1, 1, 0x3f, "Reserved: " + trueFalse(flags & 0x3f));
  tree.item(1, "Protocol Type: " + etherTypeText(type), at + 2, 2);
  tree.item(1, "Virtual Network Identifier (VNI): " + hexNumber(vni, 6, true), at + 4, 3);
  if (tree.number(at + 7, 1) != 0)
    tree.item(1, "Reserved: " + hexNumber(tree.number(at + 7, 1), 2), at + 7, 1);
  if (options > 0) {
    const uint32_t first = at + kGeneveFixedLen, end = first + options;
    tree.item(1, "Options: (" + std::to_string(options) + " bytes)", first, options);
    for (uint32_t o = first; o < end;) {
      const uint32_t length = 4 + uint32_t(tree.number(o + 3, 1) & 0x1f) * 4;
      if (o + length > end || !geneveOption(tree, o, length)) return std::nullopt;
      o += length;
    }
  }
  return TunnelHeader{at + kGeneveFixedLen + options, type};
}

// packet-gtp.c, GTPv1-U's header.
std::optional<TunnelHeader> addGtpUserLayer(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 8)) return std::nullopt;
  using namespace tunnel;
  const unsigned flags = unsigned(tree.number(at, 1));
  const uint32_t length = gtpHeaderLength(uint8_t(flags));
  if (!tree.captured(at, length) ||
      !gtpExtensionsKnown(tree, at + length, flags & kGtpNextExtension ? tree.number(at + 11, 1) : 0))
    return std::nullopt;
  tree.layer("GPRS Tunneling Protocol", "gtp", at, length);
  tree.item(1, "Flags: " + hexNumber(flags, 2), at, 1);
  tree.bits(2, at, 1, 0xe0, "Version: GTP release 99 version (1)");
  tree.bits(2, at, 1, 0x10, "Protocol type: GTP (1)");
  tree.bits(2, at, 1, 0x08, "Reserved: " + std::to_string(flags >> 3 & 1));
  tree.bits(2, at, 1, kGtpNextExtension,
            "Is Next Extension Header present?: " + yesNo(flags & kGtpNextExtension));
  tree.bits(2, at, 1, kGtpSequence, "Is Sequence Number present?: " + yesNo(flags & kGtpSequence));
  tree.bits(2, at, 1, kGtpNpdu, "Is N-PDU number present?: " + yesNo(flags & kGtpNpdu));
  tree.item(1, "Message Type: T-PDU (0xff)", at + 1, 1);
  tree.item(1, "Length: " + std::to_string(tree.number(at + 2, 2)), at + 2, 2);
  tree.item(1, "TEID: " + hexNumber(tree.number(at + 4, 4), 8, true), at + 4, 4);
  if (flags & kGtpSequence)
    tree.item(1, "Sequence number: " + hexNumber(tree.number(at + 8, 2), 4, true), at + 8, 2);
  if (flags & kGtpNpdu) tree.item(1, "N-PDU Number: " + hexNumber(tree.number(at + 10, 1), 2), at + 10, 1);
  if (!(flags & kGtpNextExtension)) return TunnelHeader{at + length, kCarriesIp};
  gtpNextType(tree, 1, at + 11);
  uint32_t o = at + 12;
  while (tree.number(o - 1, 1) != 0) o = gtpExtension(tree, o);
  return TunnelHeader{o, kCarriesIp};
}

std::optional<TunnelHeader> addGreLayers(LayerTree& tree, uint32_t at, uint32_t end) {
  if (!tree.captured(at, 4)) return std::nullopt;
  const unsigned flags = unsigned(tree.number(at, 2)), type = unsigned(tree.number(at + 2, 2));
  const uint32_t length = tunnel::greHeaderLength(uint16_t(flags));
  const std::string name = greTypeName(type);
  if (name.empty() || (flags & tunnel::kGreRouting) || !tree.captured(at, length)) return std::nullopt;
  const bool ppp = type == tunnel::kGrePpp && (flags & tunnel::kGreVersionMask);
  tree.layer("Generic Routing Encapsulation (" + name + ")", "gre", at, length);
  greFlags(tree, at, ppp);
  tree.item(1, "Protocol Type: " + name + " (" + hexNumber(type, 4) + ")", at + 2, 2);
  uint32_t o = at + 4;
  if (flags & tunnel::kGreChecksum) {
    if (tree.captured(at, end - at))
      tree.checksum(1, o, uint16_t(tree.number(o, 2)), inCksum(tree, at, end), "gre.checksum",
                    {"Protocol", "Incorrect GRE Checksum"});
    else
      tree.item(1, "Checksum: " + hexNumber(tree.number(o, 2), 4) + " [unverified]", o, 2);
    tree.item(1, "Offset: " + std::to_string(tree.number(o + 2, 2)), o + 2, 2);
    o += 4;
  }
  if ((flags & tunnel::kGreKey) && ppp) {
    tree.item(1, "Payload Length: " + std::to_string(tree.number(o, 2)), o, 2);
    tree.item(1, "Call ID: " + std::to_string(tree.number(o + 2, 2)), o + 2, 2);
    o += 4;
  } else if (flags & tunnel::kGreKey) {
    tree.item(1, "Key: " + hexNumber(tree.number(o, 4), 8), o, 4);
    o += 4;
  }
  if (flags & tunnel::kGreSequence) {
    tree.item(1, "Sequence Number: " + std::to_string(tree.number(o, 4)), o, 4);
    o += 4;
  }
  if (ppp && (flags & tunnel::kGreAck)) {
    tree.item(1, "Acknowledgment Number: " + std::to_string(tree.number(o, 4)), o, 4);
    o += 4;
  }
  if (type == tunnel::kGreWccp) return TunnelHeader{wccpRedirectHeader(tree, o), kCarriesIp};
  if (ppp) {
    const std::optional<uint32_t> ip = addPppLayer(tree, o);
    if (!ip) return std::nullopt;
    return TunnelHeader{*ip, kCarriesIp};
  }
  if (type == tunnel::kErspan || type == tunnel::kErspanIII) {
    const std::optional<uint32_t> frame =
        erspanLayer(tree, o, type == tunnel::kErspanIII || (flags & tunnel::kGreSequence));
    if (!frame) return std::nullopt;
    return TunnelHeader{*frame, tunnel::kTransparentEthernet};
  }
  return TunnelHeader{o, type};
}

// packet-vxlan.c
std::optional<TunnelHeader> addVxlanLayer(LayerTree& tree, uint32_t at) {
  if (!tree.captured(at, 8)) return std::nullopt;
  const unsigned flags = unsigned(tree.number(at, 2));
  tree.layer("Virtual eXtensible Local Area Network", "vxlan", at, 8);
  tree.item(1,
            flagsSummary("Flags", flags, 4,
                         {{0x8000, "GBP Extension"},
                          {0x0800, "VXLAN Network ID (VNI)"},
                          {0x0040, "Don't Learn"},
                          {0x0008, "Policy Applied"}}),
            at, 2);
  tree.bits(2, at, 2, 0x8000, flags & 0x8000 ? "GBP Extension: Defined" : "GBP Extension: Not defined");
  tree.bits(2, at, 2, 0x0800, "VXLAN Network ID (VNI): " + trueFalse(flags & 0x0800));
  tree.bits(2, at, 2, 0x0040, "Don't Learn: " + trueFalse(flags & 0x0040));
  tree.bits(2, at, 2, 0x0008, "Policy Applied: " + trueFalse(flags & 0x0008));
  tree.bits(2, at, 2, 0x77b7, "Reserved(R): " + hexNumber(flags & 0x77b7, 4));
  tree.item(1, "Group Policy ID: " + std::to_string(tree.number(at + 2, 2)), at + 2, 2);
  tree.item(1, "VXLAN Network Identifier (VNI): " + std::to_string(tree.number(at + 4, 3)), at + 4, 3);
  tree.item(1, "Reserved: " + std::to_string(tree.number(at + 7, 1)), at + 7, 1);
  return TunnelHeader{at + 8, tunnel::kTransparentEthernet};
}

}  // namespace rudp
