// 32-bit sequence numbers compared in serial-number arithmetic (RFC 1982):
// `a` is before `b` when b - a, taken modulo 2^32, is below 2^31. TCP, GRUDP
// and the Lua contracts' 32-bit seqs all wrap this way.
#pragma once
#include <cstdint>

namespace rudp {

inline bool seqBefore(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }
inline bool seqAfter(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) > 0; }
inline bool seqAtOrBefore(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) <= 0; }

}  // namespace rudp
