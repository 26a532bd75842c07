// Wireshark's stream index and stream times (udp.stream, "[Timestamps]"):
// each address and port pair numbered in order of its first frame, per
// transport, with the times of its first and previous frames. Frames must
// come in capture order.
#pragma once
#include <cstdint>
#include <map>
#include <tuple>

#include "core/packet.h"

namespace rudp {

struct StreamPosition {
  uint64_t index = 0;
  int64_t first_ns = 0, previous_ns = 0;  // the stream's first frame's and the one before this
};

class ConversationStreams {
 public:
  // The stream of `pkt` (its innermost UDP or TCP header) as of this frame.
  StreamPosition next(const DecodedPacket& pkt);

 private:
  using Endpoint = std::pair<IpAddress, uint16_t>;
  using Key = std::tuple<L4, Endpoint, Endpoint>;  // lower endpoint first
  struct Stream {
    uint64_t index;
    int64_t first_ns, last_ns;
  };
  std::map<Key, Stream> streams_;
  uint64_t count_[2] = {0, 0};  // streams so far: UDP, TCP
};

}  // namespace rudp
