// ICMP's and ICMPv6's layer of the details tree,
// as tshark 4.0 prints them (packet-icmp.c, packet-icmpv6.c). An error
// message's items are built when the frame holds the message whole and it
// quotes a UDP header: its type, code, checksum and the fields of its second
// word, then, one level deeper, the quoted datagram's IP and UDP layers. The
// dissector that takes the quoted payload adds its layers at the top level
// after it, as tshark prints a Lua protocol's. An ICMP or ICMPv6 echo has
// its items (icmp_echo_layer.h). Other messages have their summary line only.
#pragma once
#include <optional>
#include <string>

#include "core/packet.h"
#include "flow/icmp_echoes.h"
#include "flow/udp_streams.h"
#include "packets/layer_tree.h"

namespace rudp {

// `ipStart`: where the packet's IP header is in the frame; `quotedStream`:
// the quoted datagram's UDP stream, `echoRequest`: the request an echo reply
// answers, when known.
void addIcmpLayer(LayerTree& tree, const DecodedPacket& pkt, std::optional<uint32_t> ipStart,
                  const std::optional<StreamPosition>& quotedStream,
                  const std::optional<EchoRequest>& echoRequest);

}  // namespace rudp
