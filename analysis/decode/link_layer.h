// Link-layer headers: finds where the IP header starts in a frame.
#pragma once
#include <cstdint>

namespace rudp::link {

// DLT_* values as libpcap on Linux reports them (pcap_datalink()), plus the
// LINKTYPE_* values some writers store for the same encapsulations.
inline constexpr int kNull = 0;           // BSD loopback, family in writer's byte order
inline constexpr int kEthernet = 1;       // DLT_EN10MB
inline constexpr int kPpp = 9;            // DLT_PPP: PPP, HDLC-like framing optional
inline constexpr int kRaw = 12;           // DLT_RAW on Linux
inline constexpr int kRawBsd = 14;        // DLT_RAW on BSD/OS, Mac OS X
inline constexpr int kPppSerial = 50;     // DLT_PPP_SERIAL: PPP in HDLC-like framing
inline constexpr int kPppEther = 51;      // LINKTYPE_PPP_ETHER: a PPPoE header, then PPP
inline constexpr int kLinktypeRaw = 101;  // LINKTYPE_RAW as stored in files
inline constexpr int kCiscoHdlc = 104;    // DLT_C_HDLC
inline constexpr int kIeee80211 = 105;    // DLT_IEEE802_11, no FCS
inline constexpr int kLoop = 108;         // OpenBSD loopback, family big-endian
inline constexpr int kLinuxSll = 113;     // Linux cooked capture v1
inline constexpr int kPrism = 119;        // DLT_PRISM_HEADER: Prism II monitor mode, then 802.11 (named only)
inline constexpr int kRadiotap = 127;     // DLT_IEEE802_11_RADIO: radiotap, then 802.11
inline constexpr int kPpi = 192;    // Per-Packet Information: a header, then a frame of its own link type
inline constexpr int kNflog = 239;  // Linux netfilter log (`tcpdump -i nflog`)
inline constexpr int kIpv4 = 228;
inline constexpr int kIpv6 = 229;
inline constexpr int kPktap = 258;      // macOS packet tap: a header, then a frame of its own link type
inline constexpr int kLinuxSll2 = 276;  // Linux cooked capture v2

bool supported(int dlt);

enum class Net : uint8_t { None, IPv4, IPv6 };

struct Result {
  Net net = Net::None;          // None: not IP (ARP, LLC, ...) or a broken header
  uint32_t offset = 0;          // where the network header starts
  const char* error = nullptr;  // set when the link header itself is broken
};

// Never reads past `len`.
Result decode(int dlt, const uint8_t* frame, uint32_t len);

// For tunnels carrying link-layer payloads; none reads past `len`.
// The protocol named by an EtherType found at `off - 2` (VLAN tags, MPLS,
// PPPoE session stepped over).
Result fromEtherType(uint16_t type, const uint8_t* p, uint32_t len, uint32_t off);
// A PPP frame (optional address/control bytes, then the protocol).
Result fromPpp(const uint8_t* p, uint32_t len);
// IPv4 or IPv6 by the first nibble at `off`; anything else is Net::None.
Result byVersionNibble(const uint8_t* p, uint32_t len, uint32_t off);

}  // namespace rudp::link
