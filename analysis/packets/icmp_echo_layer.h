// An ICMP echo request or reply (ping) as tshark 4.0 shows it
// (packet-icmp.c): the layer's items (icmp_info.h has its Info column),
// with the request a reply answers (IcmpEchoes) when the frames before it
// were read; and an ICMPv6 echo as packet-icmpv6.c shows it.
#pragma once
#include <optional>
#include <string>

#include "core/packet.h"
#include "flow/icmp_echoes.h"
#include "packets/layer_tree.h"

namespace rudp {

// The echo's layer at `at` in the frame, `reported` bytes long by its IP
// header: type, code, checksum (verified when captured whole), identifier
// and sequence number both ways, the request a reply answers, the data's
// timestamp when it looks like one, and the data.
void addIcmpEchoLayer(LayerTree& tree, const DecodedPacket& pkt, uint32_t at, uint32_t reported,
                      const std::optional<EchoRequest>& request);

}  // namespace rudp
