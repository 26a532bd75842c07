#include "analyzers/jitter.h"

#include <cmath>

namespace rudp::ana {

void JitterTracker::add(int64_t ns, bool has_ts, uint32_t ts, double unit_ms, uint32_t ts_bits) {
  if (any_) {
    const double gap = double(ns - last_ns_) / 1e6;
    const double b = std::ceil(gap / kBinMs - 1e-9) - 1;
    if (hist_.empty()) hist_.assign(kBins + 1, 0);
    ++hist_[b < 0 ? 0 : (b >= kBins ? kBins : uint32_t(b))];
    if (n_ == 0 || gap > max_) max_ = gap;
    ++n_;
  }
  if (has_ts && any_ts_) {
    // ts difference modulo the ts width, read as signed (wrap-safe).
    const uint64_t mask = ts_bits >= 32 ? 0xFFFFFFFFull : ((1ull << ts_bits) - 1);
    uint64_t d = (uint64_t(ts) - uint64_t(last_ts_)) & mask;
    int64_t sd = d > (mask >> 1) ? int64_t(d) - int64_t(mask) - 1 : int64_t(d);
    const double D = double(ns - last_ts_ns_) / 1e6 - double(sd) * unit_ms;
    j_ += (std::abs(D) - j_) / 16.0;
    any_d_ = true;
  }
  if (has_ts) {
    last_ts_ = ts;
    last_ts_ns_ = ns;
    any_ts_ = true;
  }
  last_ns_ = ns;
  any_ = true;
}

double JitterTracker::gapQuantile(double q) const {
  if (n_ == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(n_) - 1e-9)));
  uint64_t acc = 0;
  for (uint32_t b = 0; b < kBins; ++b) {
    acc += hist_[b];
    if (acc >= rank) return std::min(max_, double(b + 1) * kBinMs);
  }
  return max_;
}

double JitterTracker::shareWithin(double lo_ms, double hi_ms) const {
  if (n_ == 0) return 0;
  uint64_t in = 0;
  for (uint32_t b = 0; b <= kBins; ++b) {
    const double upper = b == kBins ? max_ : double(b + 1) * kBinMs;
    if (upper > lo_ms && upper <= hi_ms) in += hist_[b];
  }
  return double(in) / double(n_);
}

void JitterTracker::fill(GapStats& out) const {
  out.samples = n_;
  if (n_ == 0) return;
  out.p50 = gapQuantile(0.5);
  out.p95 = gapQuantile(0.95);
  out.p99 = gapQuantile(0.99);
  out.max = max_;
  if (n_ < 8 || out.p50 <= 0) return;
  const double hz = 1000.0 / out.p50;
  static constexpr double kRates[] = {10, 15, 20, 24, 25, 30, 50, 60, 64, 120, 128};
  // The nearest usual rate (64 Hz's 15.6 ms gaps read as 16 ms are closer to 64 than to 60).
  out.tick_hz = std::round(hz);
  double off = 0.1;
  for (double r : kRates)
    if (std::abs(hz - r) / r <= off) out.tick_hz = r, off = std::abs(hz - r) / r;
}

}  // namespace rudp::ana
