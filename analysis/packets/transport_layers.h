// The transport layers of the details tree as tshark -V prints them.
#pragma once
#include <optional>

#include "core/packet.h"
#include "flow/udp_streams.h"
#include "packets/layer_tree.h"

namespace rudp {

// The UDP header at `at` (kNoBytes: in a reassembled datagram, whose header
// is `header`). `stream`: the frame's place in its conversation, when the
// frames before it were seen (in order); without it the stream lines are left out.
// `pkt.in_error_pkt`: the datagram an ICMP error quotes (quotedUdpDatagram),
// whose layer counts the payload bytes the quote holds and ends without any.
void addUdpLayer(LayerTree& tree, uint32_t at, const uint8_t* header, const DecodedPacket& pkt,
                 const std::optional<StreamPosition>& stream);

}  // namespace rudp
