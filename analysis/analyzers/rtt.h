// Per-direction RTT: sample statistics and the RFC 6298 estimator.
#pragma once
#include "analyzers/events.h"
#include "analyzers/metrics.h"
#include "analyzers/percentiles.h"

namespace rudp::ana {

// The sample figures of `out` (count, min/max/mean, percentiles, share above
// each limit) from `samples`; the estimator's fields are left alone.
void fillSampleFigures(RttStats& out, Percentiles& samples, const std::array<double, 3>& limitsMs);

class RttTracker {
 public:
  explicit RttTracker(const AnalyzerConfig& cfg) : cfg_(&cfg), pct_(cfg.exact_rtt_samples) {}
  // Adds one sample; fills srtt/rto in `ev` for the sink.
  void add(RttEvent& ev);
  uint64_t samples() const { return pct_.count(); }
  double minMs() const { return pct_.min(); }
  double srtt() const { return srtt_; }
  double rto() const { return rto_; }
  void fill(RttStats& out, RttSpan span);
  size_t memoryBytes() const { return pct_.memoryBytes(); }

 private:
  const AnalyzerConfig* cfg_;
  Percentiles pct_;
  double srtt_ = 0, rttvar_ = 0, rto_ = 1000;
};

// Message response time of one direction: from the first captured copy of a
// reliable seq to the first ack that covers it, retransmitted or not (unlike
// RTT samples, which Karn's rule keeps off retransmitted data). What a game
// waits for a message that was lost and repaired.
class ResponseTracker {
 public:
  explicit ResponseTracker(const AnalyzerConfig& cfg) : cfg_(&cfg), pct_(cfg.exact_rtt_samples) {}
  void add(int64_t first_copy_ns, int64_t covered_ns) {
    if (covered_ns >= first_copy_ns) pct_.add(double(covered_ns - first_copy_ns) / 1e6);
  }
  void fill(RttStats& out, RttSpan span) {
    out.span = span;
    fillSampleFigures(out, pct_, cfg_->rtt_limits_ms);
  }

 private:
  const AnalyzerConfig* cfg_;
  Percentiles pct_;
};

}  // namespace rudp::ana
