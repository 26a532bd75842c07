// Wireshark's fields whose values come from the frames before a frame in its
// conversation, so only for frames read in capture order: TCP's stream,
// timestamp and SEQ/ACK analysis items (tcp.stream, tcp.analysis.ack_rtt,
// ...) from TcpFrameDetails, and UDP's stream and timestamps (udp.stream,
// udp.time_relative, udp.time_delta) from UdpStreams. For display filters
// and `decode -e`.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "flow/tcp_notes.h"
#include "flow/udp_streams.h"

namespace rudp {

enum class StreamFieldType { Unsigned, Seconds, None };  // None: present or not (tcp.analysis)

// What a frame read in order knows of its conversation; null when not worked out.
struct StreamFacts {
  const DecodedPacket* pkt = nullptr;
  const TcpNotes* tcp_notes = nullptr;
  const TcpFrameDetails* tcp = nullptr;  // with tcp_notes
  const FrameUdpStreams* udp = nullptr;
  bool relative = true;  // tcp.relative_sequence_numbers
};

const std::vector<std::string_view>& streamFieldNames();
StreamFieldType streamFieldType(size_t i);
// Field `i`'s values in a frame, in the order tshark adds them (seconds in
// ns): writes them to `out` and returns how many (0: tshark shows none).
inline constexpr int kMaxStreamFieldValues = kMaxTunnels + 2;
int streamFieldValues(size_t i, const StreamFacts& facts, int64_t (&out)[kMaxStreamFieldValues]);

}  // namespace rudp
