#include "analyzers/percentiles.h"

#include <algorithm>
#include <cmath>

namespace rudp::ana {

namespace {
uint32_t binOf(double v) {
  if (v <= 0) return 0;
  // Bin b holds (b*0.1, (b+1)*0.1]; a tiny epsilon keeps 0.3 in the 0.2..0.3 bin.
  const double b = std::ceil(v / Percentiles::kBinMs - 1e-9) - 1;
  return b < 0 ? 0 : (b >= Percentiles::kBins ? Percentiles::kBins : uint32_t(b));
}
}  // namespace

void Percentiles::add(double v) {
  if (n_ == 0 || v < min_) min_ = v;
  if (n_ == 0 || v > max_) max_ = v;
  sum_ += v;
  ++n_;
  if (hist_.empty()) {
    samples_.push_back(v);
    sorted_ = false;
    if (samples_.size() > cap_) toHistogram();
  } else {
    ++hist_[binOf(v)];
  }
}

void Percentiles::toHistogram() {
  hist_.assign(kBins + 1, 0);
  for (double s : samples_) ++hist_[binOf(s)];
  samples_.clear();
  samples_.shrink_to_fit();
}

double Percentiles::quantile(double q) {
  if (n_ == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(n_) - 1e-9)));
  if (hist_.empty()) {
    if (!sorted_) {
      std::sort(samples_.begin(), samples_.end());
      sorted_ = true;
    }
    return samples_[std::min<size_t>(rank, samples_.size()) - 1];
  }
  uint64_t acc = 0;
  for (uint32_t b = 0; b < kBins; ++b) {
    acc += hist_[b];
    if (acc >= rank) return std::min(max_, double(b + 1) * kBinMs);
  }
  return max_;
}

double Percentiles::shareAbove(double limit) const {
  if (n_ == 0) return 0;
  uint64_t above = 0;
  if (hist_.empty()) {
    for (double s : samples_) above += s > limit;
  } else {
    // Bins entirely above the limit; exact when the limit is a multiple of 0.1 ms.
    for (uint32_t b = binOf(limit) + 1; b <= kBins; ++b) above += hist_[b];
  }
  return double(above) / double(n_);
}

}  // namespace rudp::ana
