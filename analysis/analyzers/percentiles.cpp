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
  if (!histogram_) {
    samples_.push_back(v);
    sorted_ = false;
    if (samples_.size() > cap_) toHistogram();
  } else {
    count(v);
  }
}

void Percentiles::count(double v) {
  const uint32_t b = binOf(v);
  auto& p = pages_[b / kPageBins];
  if (!p) p = std::make_unique<Page>();  // value-initialised: zeros
  ++(*p)[b % kPageBins];
}

void Percentiles::toHistogram() {
  histogram_ = true;
  pages_.resize(kBins / kPageBins + 1);
  for (double s : samples_) count(s);
  samples_.clear();
  samples_.shrink_to_fit();
}

size_t Percentiles::memoryBytes() const {
  size_t n = samples_.capacity() * sizeof(double) + pages_.capacity() * sizeof(pages_[0]);
  for (const auto& p : pages_) n += p ? sizeof(Page) : 0;
  return n;
}

double Percentiles::quantile(double q) {
  if (n_ == 0) return 0;
  const uint64_t rank = std::max<uint64_t>(1, uint64_t(std::ceil(q * double(n_) - 1e-9)));
  if (!histogram_) {
    if (!sorted_) {
      std::sort(samples_.begin(), samples_.end());
      sorted_ = true;
    }
    return samples_[std::min<size_t>(rank, samples_.size()) - 1];
  }
  uint64_t acc = 0;
  for (uint32_t b = 0; b < kBins; ++b) {
    if (!pages_[b / kPageBins]) {  // a page never touched: skip it whole
      b = (b / kPageBins + 1) * kPageBins - 1;
      continue;
    }
    acc += bin(b);
    if (acc >= rank) return std::min(max_, double(b + 1) * kBinMs);
  }
  return max_;
}

double Percentiles::shareAbove(double limit) const {
  if (n_ == 0) return 0;
  uint64_t above = 0;
  if (!histogram_) {
    for (double s : samples_) above += s > limit;
  } else {
    // Bins entirely above the limit; exact when the limit is a multiple of 0.1 ms.
    for (uint32_t b = binOf(limit) + 1; b <= kBins; ++b) above += bin(b);
  }
  return double(above) / double(n_);
}

}  // namespace rudp::ana
