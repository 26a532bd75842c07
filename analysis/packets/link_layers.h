// The link layers of the details tree as tshark -V prints them: Ethernet II
// with its 802.1Q/802.1ad tags and padding, Linux cooked capture v1/v2,
// Null/Loopback and raw IP.
#pragma once
#include <optional>

#include "core/packet.h"
#include "packets/layer_tree.h"

namespace rudp {

struct LinkLayers {
  std::optional<uint32_t> ip_start;    // where the network layer starts, when the link type is one named here
  std::optional<size_t> padding_line;  // Ethernet: where its padding line goes
};

// Adds the frame's link layers.
LinkLayers addLinkLayers(LayerTree& tree, const RawPacket& raw, int dlt);
// Ethernet's padding: the bytes after the IP packet, which ends at `ipEnd`.
void addEthernetPadding(LayerTree& tree, const RawPacket& raw, const LinkLayers& link,
                        std::optional<uint32_t> ipEnd);

// "IPv4 (0x0800)": an EtherType as Wireshark names it.
std::string etherTypeText(unsigned type);

}  // namespace rudp
