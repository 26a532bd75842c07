// What an RTT histogram shows. Over the full range, a stall's few samples
// at ten times the median (the outage in resources/sample.pcap: 70..1600 ms,
// 99 % below 130) squeeze the bulk into a couple of bars, so the histogram
// covers the samples up to 1.25 × p99 and says how many lie beyond (the CDF
// and the figures still show them). The bin width follows the spread of the
// bulk (Freedman–Diaconis: 2 × IQR × n^(-1/3)) rounded up to 1, 2 or
// 5 × 10^k ms, at least 0.1 ms, widened when the range would need more than
// kMaxRttBins bins.
#pragma once
#include <cstddef>
#include <vector>

namespace rudp::gui {

inline constexpr int kMaxRttBins = 200;
inline constexpr double kRttCutoffOverP99 = 1.25;

struct RttHistogramPlan {
  std::vector<double> shown;  // samples <= cutoff, sorted
  double width = 0;           // bin width in ms; 0 without samples
  double cutoff = 0;          // ms
  size_t beyond = 0;          // samples above the cutoff
};

RttHistogramPlan planRttHistogram(std::vector<double> samplesMs);

// The smallest of 1, 2, 5 × 10^k that is >= v (v > 0).
double niceCeiling(double v);

}  // namespace rudp::gui
