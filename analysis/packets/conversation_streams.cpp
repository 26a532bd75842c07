#include "packets/conversation_streams.h"

#include <algorithm>

namespace rudp {

StreamPosition ConversationStreams::next(const DecodedPacket& pkt) {
  Endpoint a{pkt.src, pkt.sport}, b{pkt.dst, pkt.dport};
  if (b < a) std::swap(a, b);
  const auto [it, added] = streams_.try_emplace(Key{pkt.l4, a, b}, Stream{0, pkt.ts_ns, pkt.ts_ns});
  if (added) it->second.index = count_[pkt.l4 == L4::TCP]++;
  const StreamPosition at{it->second.index, it->second.first_ns, it->second.last_ns};
  it->second.last_ns = pkt.ts_ns;
  return at;
}

}  // namespace rudp
