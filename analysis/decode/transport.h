// UDP and TCP headers, including TCP options.
#pragma once
#include <cstdint>

#include "core/packet.h"
#include "decode/bytes.h"

namespace rudp::transport {

inline constexpr uint8_t kTcp = 6;
inline constexpr uint8_t kUdp = 17;

// `l4` starts at the transport header; l4.reported is the length the IP
// layer claims for it.
void decodeUdp(const wire::Span& l4, DecodedPacket& out);
void decodeTcp(const wire::Span& l4, DecodedPacket& out);

enum TcpOptionKind : uint8_t {
  kEol = 0,
  kNop = 1,
  kMss = 2,
  kWindowScale = 3,
  kSackPermitted = 4,
  kSack = 5,
  kTimestamps = 8,
};

// Calls visit(kind, value, size) for each option but EOL and NOP, in the
// header's order, and stops at EOL. False when an option's length runs past
// the bytes or the visitor returns false (a value of the wrong size).
template <class Visit>
bool forEachTcpOption(const uint8_t* p, uint32_t n, Visit&& visit) {
  for (uint32_t i = 0; i < n;) {
    const uint8_t kind = p[i];
    if (kind == kEol) return true;
    if (kind == kNop) {
      ++i;
      continue;
    }
    if (n - i < 2) return false;
    const uint32_t len = p[i + 1];
    if (len < 2 || len > n - i) return false;
    if (!visit(kind, p + i + 2, len - 2)) return false;
    i += len;
  }
  return true;
}

// Parses the option bytes between the fixed TCP header and the data.
// Returns false when an option's length is malformed; options before it
// stay filled in.
bool parseTcpOptions(const uint8_t* p, uint32_t n, TcpOptions& opts);

}  // namespace rudp::transport
