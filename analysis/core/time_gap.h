// Differences of capture timestamps. Timestamps come from untrusted files
// and may span the whole int64 range, so the difference saturates instead of
// overflowing.
#pragma once
#include <cstdint>

namespace rudp {

inline int64_t gapNs(int64_t a, int64_t b) {
  int64_t d;
  if (__builtin_sub_overflow(a, b, &d)) return a > b ? INT64_MAX : INT64_MIN;
  return d;
}

}  // namespace rudp
