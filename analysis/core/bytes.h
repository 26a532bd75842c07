// Unaligned, endian-explicit loads: the one byte-order helper of the core
// (capture files, headers, payload fields, Lua's Tvb reads). Callers check
// bounds before calling.
#pragma once
#include <cstdint>

namespace rudp {

inline uint16_t be16(const uint8_t* p) { return uint16_t(uint16_t(p[0]) << 8 | p[1]); }
inline uint32_t be32(const uint8_t* p) {
  return uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3];
}
inline uint16_t le16(const uint8_t* p) { return uint16_t(uint16_t(p[1]) << 8 | p[0]); }
inline uint32_t le32(const uint8_t* p) {
  return uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0];
}
// n (at most 8) bytes as one big- or little-endian number.
inline uint64_t beN(const uint8_t* p, uint32_t n) {
  uint64_t v = 0;
  for (uint32_t i = 0; i < n; ++i) v = v << 8 | p[i];
  return v;
}
inline uint64_t leN(const uint8_t* p, uint32_t n) {
  uint64_t v = 0;
  for (uint32_t i = n; i-- > 0;) v = v << 8 | p[i];
  return v;
}
inline uint64_t readN(const uint8_t* p, uint32_t n, bool littleEndian) {
  return littleEndian ? leN(p, n) : beN(p, n);
}

}  // namespace rudp
