// Wireshark's TCP fields that its details tree's stream, timestamp and
// SEQ/ACK analysis items carry (tcp.stream, tcp.analysis.ack_rtt, ...), for
// display filters and `decode -e`: values of TcpFrameDetails, so only for
// frames read in capture order.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "flow/tcp_notes.h"

namespace rudp {

enum class TcpDetailType { Unsigned, Seconds, None };  // None: present or not (tcp.analysis)

const std::vector<std::string_view>& tcpDetailFieldNames();
TcpDetailType tcpDetailFieldType(size_t i);
// Field `i` of a TCP frame (seconds in ns); none when tshark shows no such item.
std::optional<int64_t> tcpDetailFieldValue(size_t i, const TcpFrameDetails& d, const TcpNotes& notes,
                                           const DecodedPacket& pkt, bool relative);

}  // namespace rudp
