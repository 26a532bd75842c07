// Wireshark's UDP stream index and stream times (udp.stream, the UDP layer's
// "[Timestamps]"): each address and port pair numbered in order of its
// first frame, with the times of its first and previous frames. Frames must
// come in capture order. (TCP's streams come from TcpNoteTracker, which
// also starts a new one when ports are reused.)
#pragma once
#include <cstdint>
#include <map>
#include <utility>

#include "core/packet.h"

namespace rudp {

struct StreamPosition {
  uint64_t index = 0;
  int64_t first_ns = 0, previous_ns = 0;  // the stream's first frame's and the one before this
};

class UdpStreams {
 public:
  // The stream of `pkt` (its innermost UDP header) as of this frame.
  StreamPosition next(const DecodedPacket& pkt);

 private:
  using Endpoint = std::pair<IpAddress, uint16_t>;
  struct Stream {
    uint64_t index;
    int64_t first_ns, last_ns;
  };
  std::map<std::pair<Endpoint, Endpoint>, Stream> streams_;  // lower endpoint first
};

}  // namespace rudp
