// The process clock: monotonic nanoseconds for timers, Unix time for the
// RTT samples written to JSON (so they line up with capture timestamps).
#pragma once

#include <time.h>

#include <cstdint>

namespace grudp_ep {

inline int64_t read_clock(clockid_t id) {
  timespec t{};
  clock_gettime(id, &t);
  return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec;
}

inline int64_t mono_ns() { return read_clock(CLOCK_MONOTONIC); }

class Clock {
 public:
  Clock() : start_ns_(mono_ns()), unix_offset_ns_(read_clock(CLOCK_REALTIME) - start_ns_) {}
  int64_t start_ns() const { return start_ns_; }
  double unix_ms(int64_t mono) const { return double(mono + unix_offset_ns_) / 1e6; }
  double elapsed_s(int64_t mono) const { return double(mono - start_ns_) / 1e9; }

 private:
  int64_t start_ns_;
  int64_t unix_offset_ns_;
};

}  // namespace grudp_ep
