#include "analyzers/rtt.h"

#include <algorithm>
#include <cmath>

namespace rudp::ana {

void RttTracker::add(RttEvent& ev) {
  const double r = ev.rtt_ms;
  // RFC 6298 section 2 with K = 4 and a clock granularity G of 1 ms.
  if (pct_.count() == 0) {
    srtt_ = r;
    rttvar_ = r / 2;
  } else {
    rttvar_ = 0.75 * rttvar_ + 0.25 * std::abs(srtt_ - r);
    srtt_ = 0.875 * srtt_ + 0.125 * r;
  }
  rto_ = std::clamp(srtt_ + std::max(1.0, 4 * rttvar_), cfg_->rto_min_ms, cfg_->rto_max_ms);
  pct_.add(r);
  ev.srtt_ms = srtt_;
  ev.rto_ms = rto_;
}

void fillSampleFigures(RttStats& out, Percentiles& samples, const std::array<double, 3>& limitsMs) {
  out.samples = samples.count();
  out.exact_percentiles = samples.exact();
  if (out.samples == 0) return;
  out.min = samples.min();
  out.max = samples.max();
  out.mean = samples.mean();
  out.p50 = samples.quantile(0.50);
  out.p95 = samples.quantile(0.95);
  out.p99 = samples.quantile(0.99);
  for (size_t i = 0; i < out.share_above.size(); ++i) out.share_above[i] = samples.shareAbove(limitsMs[i]);
}

void RttTracker::fill(RttStats& out, RttSpan span) {
  out.span = span;
  fillSampleFigures(out, pct_, cfg_->rtt_limits_ms);
  if (out.samples == 0) return;
  out.srtt = srtt_;
  out.rto = rto_;
}

}  // namespace rudp::ana
