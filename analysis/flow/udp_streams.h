// Wireshark's UDP stream index and stream times (udp.stream, the UDP layer's
// "[Timestamps]"): each address and port pair numbered in order of its
// first frame, with the times of its first and previous frames. Frames must
// come in capture order. (TCP's streams come from TcpNoteTracker, which
// also starts a new one when ports are reused.)
//
// As packet-udp.c (4.0) does: every UDP header of a frame has a stream, a
// tunnel's outer ones and the one an ICMP error quotes too; the times are
// shown, and the stream's previous frame moves on, only for a datagram with
// a payload that is not quoted in an error.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <utility>

#include "core/packet.h"

namespace rudp {

struct StreamPosition {
  uint64_t index = 0;
  bool timed = false;                     // its times are shown
  int64_t first_ns = 0, previous_ns = 0;  // the stream's first frame's and the one before this
};

// The streams of one frame's UDP headers, outermost first, an ICMP error's
// quoted header last.
struct FrameUdpStreams {
  std::array<StreamPosition, kMaxTunnels + 2> header{};
  uint8_t count = 0;
  int own = -1;  // the frame's own UDP header (DecodedPacket::l4 == UDP), when it has one
};

class UdpStreams {
 public:
  FrameUdpStreams next(const DecodedPacket& pkt);

 private:
  using Endpoint = std::pair<IpAddress, uint16_t>;
  struct Stream {
    uint64_t index;
    int64_t first_ns, last_ns;
  };
  StreamPosition header(const OuterHeader& h, int64_t ns, bool timed);
  std::map<std::pair<Endpoint, Endpoint>, Stream> streams_;  // lower endpoint first
};

}  // namespace rudp
