// The TCP header and its options (RFC 9293, RFC 7323, RFC 2018), read as
// packet-tcp.c reads them: the field offsets and the option walk that the
// decoder, the details tree, the Info column and the display filters share.
// The flag bits are core/packet.h's tcpflag, which the analysis uses too.
#pragma once
#include <cstdint>

#include "decode/bytes.h"

namespace rudp::tcp {

inline constexpr uint32_t kMinHeaderLen = 20;
inline constexpr uint32_t kSrcPortAt = 0, kDstPortAt = 2, kSeqAt = 4, kAckAt = 8, kDataOffsetAt = 12,
                          kFlagsAt = 13, kWindowAt = 14, kChecksumAt = 16, kUrgentAt = 18;

// `p` holds the 20-byte fixed header.
inline uint32_t headerLength(const uint8_t* p) { return uint32_t(p[kDataOffsetAt] >> 4) * 4; }
// The 12 flag bits under the data offset: the 8 of tcpflag and the
// Accurate-ECN and reserved bits above them.
inline unsigned allFlags(const uint8_t* p) { return unsigned(p[kDataOffsetAt] & 0x0f) << 8 | p[kFlagsAt]; }
inline uint16_t urgentPointer(const uint8_t* p) { return wire::be16(p + kUrgentAt); }

enum OptionKind : uint8_t {
  kEol = 0,
  kNop = 1,
  kMss = 2,
  kWindowScale = 3,
  kSackPermitted = 4,
  kSack = 5,
  kTimestamps = 8,
};

// Calls visit(offset, kind, value, size) for each option in the header's
// order, EOL and NOP included (no value, size 0), and stops after EOL. False
// when an option's length runs past the bytes or the visitor returns false.
template <class Visit>
bool forEachOptionAt(const uint8_t* p, uint32_t n, Visit&& visit) {
  for (uint32_t i = 0; i < n;) {
    const uint8_t kind = p[i];
    if (kind == kEol || kind == kNop) {
      if (!visit(i, kind, static_cast<const uint8_t*>(nullptr), 0u)) return false;
      if (kind == kEol) return true;
      ++i;
      continue;
    }
    if (n - i < 2) return false;
    const uint32_t len = p[i + 1];
    if (len < 2 || len > n - i) return false;
    if (!visit(i, kind, p + i + 2, len - 2)) return false;
    i += len;
  }
  return true;
}

// The same without EOL and NOP: visit(kind, value, size), false from the
// visitor for a value of the wrong size.
template <class Visit>
bool forEachOption(const uint8_t* p, uint32_t n, Visit&& visit) {
  return forEachOptionAt(p, n, [&visit](uint32_t, uint8_t kind, const uint8_t* v, uint32_t size) {
    return kind == kEol || kind == kNop || visit(kind, v, size);
  });
}

}  // namespace rudp::tcp
