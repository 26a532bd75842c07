// The decoder's view of captured bytes; the loads are core/bytes.h's.
#pragma once
#include <cstdint>

#include "core/bytes.h"

namespace rudp::wire {

using rudp::be16;
using rudp::be32;
using rudp::le16;
using rudp::le32;

// A run of bytes the decoder may read: `len` are captured, `reported` is
// what the enclosing header says the run should hold (>= len when snapped).
struct Span {
  const uint8_t* data = nullptr;
  uint32_t len = 0;
  uint32_t reported = 0;
};

// The bytes of `s` after its first `n` (n <= s.len).
inline Span tail(const Span& s, uint32_t n) { return {s.data + n, s.len - n, s.reported - n}; }

}  // namespace rudp::wire
