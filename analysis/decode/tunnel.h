// Tunnels: where the IP packet a tunnel header carries starts. Each returns
// a link::Result relative to `p` (Net::None: no IP packet inside, or not a
// tunnel) and never reads past `len`.
#pragma once
#include <cstdint>

#include "decode/ip.h"
#include "decode/link_layer.h"

namespace rudp::tunnel {

// GRE's protocol types beyond EtherTypes (GENEVE's too).
inline constexpr uint16_t kTransparentEthernet = 0x6558, kGrePpp = 0x880b, kGreWccp = 0x883e;
inline constexpr uint16_t kEtherMpls = 0x8847;
inline constexpr uint16_t kErspan = 0x88be, kErspanIII = 0x22eb;
inline constexpr uint16_t kGreChecksum = 0x8000, kGreRouting = 0x4000, kGreKey = 0x2000,
                          kGreSequence = 0x1000;
inline constexpr uint16_t kGreAck = 0x0080, kGreVersionMask = 0x0007;

// VXLAN (RFC 7348): flags, reserved, VNI, reserved; then an Ethernet frame.
inline constexpr uint32_t kVxlanHeaderLen = 8;

// GENEVE (RFC 8926): 8 bytes, then options whose length the first byte's low
// six bits give in 4-byte words.
inline constexpr uint32_t kGeneveFixedLen = 8;
inline uint32_t geneveHeaderLength(uint8_t first) { return kGeneveFixedLen + uint32_t(first & 0x3f) * 4; }

// GTPv1-U's flags byte: version 1, protocol type GTP, and the three bits of
// the optional fields (the next extension header's type, a sequence number,
// an N-PDU number); with any of them the header is 12 bytes, otherwise 8.
inline constexpr uint8_t kGtpVersionMask = 0xe0, kGtpVersion1 = 0x20, kGtpProtocolGtp = 0x10;
inline constexpr uint8_t kGtpNextExtension = 0x04, kGtpSequence = 0x02, kGtpNpdu = 0x01;
inline constexpr uint8_t kGtpOptionalFields = kGtpNextExtension | kGtpSequence | kGtpNpdu;
inline constexpr uint8_t kGtpGpdu = 0xff;     // the message type that carries an IP packet
inline constexpr int kMaxGtpExtensions = 16;  // bounds the extension walk on garbage
inline uint32_t gtpHeaderLength(uint8_t flags) { return flags & kGtpOptionalFields ? 12 : 8; }

// A GRE header's length by its flags and version: checksum, key and sequence
// number each add 4 bytes, and so does enhanced GRE's (version 1, PPTP)
// acknowledgment number.
uint32_t greHeaderLength(uint16_t flagsAndVersion);

// The tunnel a UDP datagram carries, chosen by port as tshark chooses: the
// lower port first, then the higher.
enum class UdpTunnel : uint8_t { None, Vxlan, Geneve, GtpUser, Mpls };
UdpTunnel udpTunnel(uint16_t sport, uint16_t dport);

// `p`: the GRE header (IP protocol 47), version 0 or 1 (PPTP); protocol
// types IPv4, IPv6, Ethernet (0x6558), PPP, MPLS, WCCP and ERSPAN I to III.
link::Result gre(const uint8_t* p, uint32_t len);

// The IP packet right after an IPv4/IPv6 header whose protocol is `proto`
// (4: IPv4, 41: IPv6).
link::Result ipInIp(uint8_t proto);

// `p`: a UDP payload. VXLAN (4789), GENEVE (6081), GTP-U (2152) or MPLS (6635), by udpTunnel.
link::Result udp(uint16_t sport, uint16_t dport, const uint8_t* p, uint32_t len);

}  // namespace rudp::tunnel
