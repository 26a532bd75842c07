// An ICMP echo request or reply (ping) as tshark 4.0 shows it
// (packet-icmp.c): the Protocol and Info columns and the layer's items,
// with the request a reply answers (IcmpEchoes) when the frames before it
// were read. ICMPv4 only; ICMPv6's echoes keep their summary line.
#pragma once
#include <optional>
#include <string>

#include "core/packet.h"
#include "flow/icmp_echoes.h"
#include "packets/layer_tree.h"

namespace rudp {

// "Echo (ping) reply    id=0x1234, seq=1/256, ttl=64 (request in 1)".
std::string icmpEchoInfo(const DecodedPacket& pkt, const std::optional<EchoRequest>& request);

// The echo's layer at `at` in the frame, `reported` bytes long by its IP
// header: type, code, checksum (verified when captured whole), identifier
// and sequence number both ways, the request a reply answers, the data's
// timestamp when it looks like one, and the data.
void addIcmpEchoLayer(LayerTree& tree, const DecodedPacket& pkt, uint32_t at, uint32_t reported,
                      const std::optional<EchoRequest>& request);

}  // namespace rudp
