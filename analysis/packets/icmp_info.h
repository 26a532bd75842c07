// The Info column of a packet's own ICMP or ICMPv6 message, as tshark 4.0
// writes it in one pass (packet-icmp.c, packet-icmpv6.c): the type's name,
// the code's, an echo's (or timestamp's, ...) identifier and sequence
// number with the TTL or hop limit and the request a reply answers,
// Neighbor Discovery's target address, flags and link-layer addresses.
#pragma once
#include <optional>
#include <string>

#include "core/packet.h"
#include "flow/icmp_echoes.h"

namespace rudp {

// The packet carries an ICMP or ICMPv6 message of its own (pkt.icmp_heads[0]).
bool hasOwnIcmp(const DecodedPacket& pkt);

// "Echo (ping) reply    id=0x1234, seq=1/256, ttl=64 (request in 1)",
// "Neighbor Solicitation for fe80::1 from 02:00:00:00:00:01", ...
// `request`: the request an echo reply answers, when known.
std::string icmpInfo(const DecodedPacket& pkt, const std::optional<EchoRequest>& request);

}  // namespace rudp
