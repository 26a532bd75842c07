// Unaligned, endian-explicit loads. Callers check bounds before calling.
#pragma once
#include <cstdint>

namespace rudp::wire {

inline uint16_t be16(const uint8_t* p) { return uint16_t(uint16_t(p[0]) << 8 | p[1]); }
inline uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
inline uint16_t le16(const uint8_t* p) { return uint16_t(uint16_t(p[1]) << 8 | p[0]); }
inline uint32_t le32(const uint8_t* p) {
  return uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0];
}

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
