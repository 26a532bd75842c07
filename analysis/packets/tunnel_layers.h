// The layers of the tunnels a packet came through, as tshark -V prints
// them: each tunnel's outer IP header, its UDP or GRE header, the tunnel's
// own header (VXLAN, GENEVE, GTP-U, ERSPAN, MPLS, PPP) and the Ethernet
// frame it carries, read again from the frame's bytes in the order the
// decoder followed them (decode/tunnel.h).
#pragma once
#include <optional>
#include <vector>

#include "core/packet.h"
#include "flow/udp_streams.h"
#include "packets/layer_tree.h"

namespace rudp {

// Adds the layers of `pkt.outer` from the outermost IP header at `ipStart`
// on, and returns where the innermost IP header (the packet's own) starts.
// `udpStreams`: the tunnels' UDP headers' streams, outermost first (empty
// when the frames before were not read). Stops where the frame does not hold
// what comes next (cut short, or reassembled from fragments): nullopt, and
// the layers after are left to summary lines.
std::optional<uint32_t> addTunnelLayers(LayerTree& tree, const DecodedPacket& pkt, uint32_t ipStart,
                                        const std::vector<StreamPosition>& udpStreams);

}  // namespace rudp
