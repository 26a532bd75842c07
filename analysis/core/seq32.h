// 32-bit sequence numbers compared in serial-number arithmetic (RFC 1982):
// `a` is before `b` when b - a, taken modulo 2^32, is below 2^31. TCP, GRUDP
// and the Lua contracts' 32-bit seqs all wrap this way.
#pragma once
#include <cstdint>

namespace rudp {

inline bool seqBefore(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) < 0; }
inline bool seqAfter(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) > 0; }
inline bool seqAtOrBefore(uint32_t a, uint32_t b) { return static_cast<int32_t>(a - b) <= 0; }

// N-bit serial numbers (RakNet's 24-bit packet and message numbers) made
// 64-bit and monotonic: each value is taken as the one nearest the last value
// taken (within half the number space), so a counter that wraps keeps
// counting up. The first value lands at 2^40 + value, so numbers a little
// below it stay positive.
class SerialUnwrapper {
 public:
  explicit SerialUnwrapper(int bits)
      : mask_(bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1), half_(mask_ / 2 + 1) {}
  // Takes `v` as the newest value.
  uint64_t take(uint64_t v) {
    last_ = nearest(v);
    started_ = true;
    return last_;
  }
  // `v` read next to the newest value, without taking it (an ack of a number).
  uint64_t nearest(uint64_t v) const {
    v &= mask_;
    if (!started_) return kBase + v;
    const uint64_t ahead = (v - last_) & mask_;
    return ahead < half_ ? last_ + ahead : last_ - ((last_ - v) & mask_);
  }
  bool started() const { return started_; }

 private:
  static constexpr uint64_t kBase = uint64_t{1} << 40;
  uint64_t mask_, half_, last_ = 0;
  bool started_ = false;
};

}  // namespace rudp
