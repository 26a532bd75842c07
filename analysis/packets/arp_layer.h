// ARP and RARP carried by Ethernet, as packet-arp.c shows them: the packet
// list's Protocol and Info, and the details tree's layer. The layer's items
// are built for the messages that map IPv4 addresses to MAC addresses
// (hardware Ethernet or IEEE 802 with 6-byte addresses, protocol IPv4 with
// 4-byte ones), which is what a LAN carries; others get the summary line.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "core/packet.h"
#include "decode/arp.h"
#include "packets/layer_tree.h"

namespace rudp {

struct ArpColumns {
  std::string protocol, info;
};

// The columns of the ARP message at `at` in `raw`, whose link layer says it
// holds bytes up to `reportedEnd` (the frame's original length, as the
// capture saw it before its snap length).
ArpColumns arpColumns(const RawPacket& raw, uint32_t at, uint32_t reportedEnd);

// Adds the ARP layer at `at`; returns where the message ends (Ethernet's
// padding starts there), nullopt when it is cut short.
std::optional<uint32_t> addArpLayer(LayerTree& tree, uint32_t at);

// "Ethernet (1)": an ARP hardware type as packet-arp.c's arp_hrd_vals names it
// (Linux cooked capture's address type too).
std::string arpHardwareText(unsigned type);

}  // namespace rudp
