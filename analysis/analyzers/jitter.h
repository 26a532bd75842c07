// RFC 3550 interarrival jitter, the inter-packet gap distribution and the
// detected send tick rate of one direction.
//
// Both use the packets that consume a seq, first copies only (a
// retransmission is not part of the sender's tick). Jitter needs the
// sender's timestamp: D = (R_j - R_i) - (S_j - S_i) with R the capture time
// and S the packet's ts in ms; J += (|D| - J) / 16. At the sender's end J only
// shows the ts granularity (the capture time is the send time).
//
// Gaps go into a histogram of 0.5 ms bins up to 500 ms (an overflow bin
// above, max kept exactly): percentiles are bin upper edges. The tick rate
// is 1000 / median gap snapped to the nearest usual rate (10, 15, 20, 24, 25,
// 30, 50, 60, 64, 120, 128 Hz) within 10%, else the rounded value.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "analyzers/metrics.h"

namespace rudp::ana {

class JitterTracker {
 public:
  void add(int64_t capture_ns, bool has_ts, uint32_t ts, double ts_unit_ms, uint32_t ts_bits);
  // None until two packets carried the sender's timestamp.
  std::optional<double> jitterMs() const { return any_d_ ? std::optional(j_) : std::nullopt; }
  double medianGapMs() const { return gapQuantile(0.5); }
  void fill(GapStats& out) const;
  // The share of gaps in (lo_ms, hi_ms], to the histogram's 0.5 ms bins.
  double shareWithin(double lo_ms, double hi_ms) const;
  size_t memoryBytes() const { return hist_.capacity() * sizeof(uint32_t); }

 private:
  double gapQuantile(double q) const;
  static constexpr uint32_t kBins = 1000;
  static constexpr double kBinMs = 0.5;
  bool any_ = false, any_ts_ = false, any_d_ = false;
  int64_t last_ns_ = 0;
  uint32_t last_ts_ = 0;
  int64_t last_ts_ns_ = 0;  // capture time of the packet that carried last_ts_ (D pairs one packet's R and S)
  double j_ = 0;
  uint64_t n_ = 0;
  double max_ = 0;
  std::vector<uint32_t> hist_;  // kBins + 1, allocated with the first gap (short connections stay small)
};

}  // namespace rudp::ana
