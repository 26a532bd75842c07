// Tunnels: where the IP packet a tunnel header carries starts. Each returns
// a link::Result relative to `p` (Net::None: no IP packet inside, or not a
// tunnel) and never reads past `len`.
#pragma once
#include <cstdint>

#include "decode/link_layer.h"

namespace rudp::tunnel {

inline constexpr uint8_t kIpInIp = 4;
inline constexpr uint8_t kIpv6InIp = 41;
inline constexpr uint8_t kGre = 47;

// `p`: the GRE header (IP protocol 47), version 0 or 1 (PPTP); protocol
// types IPv4, IPv6, Ethernet (0x6558), PPP, MPLS, WCCP and ERSPAN I to III.
link::Result gre(const uint8_t* p, uint32_t len);

// The IP packet right after an IPv4/IPv6 header whose protocol is `proto`
// (4: IPv4, 41: IPv6).
link::Result ipInIp(uint8_t proto);

// `p`: a UDP payload. VXLAN (4789), GENEVE (6081), GTP-U (2152) or MPLS (6635), chosen
// by port as tshark chooses: the lower port first, then the higher.
link::Result udp(uint16_t sport, uint16_t dport, const uint8_t* p, uint32_t len);

}  // namespace rudp::tunnel
