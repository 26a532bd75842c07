// The layers of the tunnel headers the decoder follows (decode/tunnel.h),
// as tshark -V prints them: VXLAN, GENEVE, GTP-U, and GRE with the ERSPAN
// or PPP header after it. Each reads the header at `at` and says where it
// ends and what it carries; nullopt when the frame does not hold it.
#pragma once
#include <cstdint>
#include <optional>

#include "packets/layer_tree.h"

namespace rudp {

struct TunnelHeader {
  uint32_t end = 0;
  // What follows: an EtherType or GRE protocol type (0x6558: an Ethernet
  // frame), or kCarriesIp: an IP packet.
  unsigned carries = 0;
};
inline constexpr unsigned kCarriesIp = 0;

std::optional<TunnelHeader> addVxlanLayer(LayerTree& tree, uint32_t at);
std::optional<TunnelHeader> addGeneveLayer(LayerTree& tree, uint32_t at);
// A GTPv1-U G-PDU, with PDCP PDU number and PDU Session container extension headers.
std::optional<TunnelHeader> addGtpUserLayer(LayerTree& tree, uint32_t at);
// GRE (IP protocol 47), then an ERSPAN or PPP header when it carries one.
std::optional<TunnelHeader> addGreLayers(LayerTree& tree, uint32_t at, uint32_t end);

}  // namespace rudp
