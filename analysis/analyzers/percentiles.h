// Percentiles of a per-direction sample stream with bounded memory.
//
// Exact (nearest-rank on the sorted samples) up to `cap` samples; past the
// cap every sample, the kept ones included, goes into a histogram of 0.1 ms
// bins up to 10 s (one overflow bin above, whose percentile is reported as
// the exact maximum). After the switch a percentile is the upper edge of its
// bin: at most 0.1 ms above the exact value. min, max and mean stay exact.
// The histogram is paged (1024 bins = 102.4 ms per 4 KiB page, allocated when
// a sample first falls in it): RTTs of one connection span a few pages, so a
// long connection holds kilobytes, not the 400 KB of every bin.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace rudp::ana {

class Percentiles {
 public:
  explicit Percentiles(uint32_t cap = 8192) : cap_(cap) {}
  void add(double v);
  uint64_t count() const { return n_; }
  double min() const { return n_ ? min_ : 0; }
  double max() const { return n_ ? max_ : 0; }
  double mean() const { return n_ ? sum_ / double(n_) : 0; }
  bool exact() const { return !histogram_; }
  size_t memoryBytes() const;
  // q in (0, 1]: the smallest sample with at least q*n samples <= it.
  double quantile(double q);
  // Fraction of samples strictly above `limit`.
  double shareAbove(double limit) const;

  static constexpr double kBinMs = 0.1;
  static constexpr uint32_t kBins = 100000;  // 10 s

 private:
  static constexpr uint32_t kPageBins = 1024;
  using Page = std::array<uint32_t, kPageBins>;
  void toHistogram();
  void count(double v);
  uint32_t bin(uint32_t b) const {
    const auto& p = pages_[b / kPageBins];
    return p ? (*p)[b % kPageBins] : 0;
  }
  uint32_t cap_;
  uint64_t n_ = 0;
  double min_ = 0, max_ = 0, sum_ = 0;
  std::vector<double> samples_;
  bool sorted_ = false;
  bool histogram_ = false;
  std::vector<std::unique_ptr<Page>> pages_;  // bins 0..kBins (kBins: overflow)
};

}  // namespace rudp::ana
