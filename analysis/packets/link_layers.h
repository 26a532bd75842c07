// The link layers of the details tree as tshark -V prints them: Ethernet II
// with its 802.1Q/802.1ad tags, PPPoE, MPLS and padding, PPP, Cisco HDLC,
// Linux cooked capture v1/v2, Null/Loopback and raw IP.
#pragma once
#include <optional>

#include "core/packet.h"
#include "packets/layer_tree.h"

namespace rudp {

struct LinkLayers {
  std::optional<uint32_t> ip_start;    // where the network layer starts, when the link type is one named here
  std::optional<size_t> padding_line;  // Ethernet: where its padding line goes
  unsigned ether_type = 0;             // Ethernet: the EtherType after its tags (0 before MPLS or PPPoE)
};

// Adds the frame's link layers.
LinkLayers addLinkLayers(LayerTree& tree, const RawPacket& raw, int dlt);
// An Ethernet II header at `at` and its 802.1Q/802.1ad tags (a frame's, or
// one a tunnel carries).
LinkLayers addEthernetLayer(LayerTree& tree, uint32_t at);
// An MPLS label stack at `at`, one layer per label; where the IP packet
// after it starts (packet-mpls.c's first-nibble rule), nullopt when none.
std::optional<uint32_t> addMplsLayers(LayerTree& tree, uint32_t at);
// A PPP header at `at` (with HDLC-like framing's address and control, or
// without); where the IP packet after it starts, nullopt when none.
std::optional<uint32_t> addPppLayer(LayerTree& tree, uint32_t at);
// Ethernet's padding: the bytes after the IP packet, which ends at `ipEnd`,
// up to the end of the Ethernet frame (`frameEnd`: the captured bytes, or a tunnel's payload's end).
void addEthernetPadding(LayerTree& tree, uint32_t frameEnd, const LinkLayers& link,
                        std::optional<uint32_t> ipEnd);

// "IPv4 (0x0800)": an EtherType as Wireshark names it.
std::string etherTypeText(unsigned type);

}  // namespace rudp
