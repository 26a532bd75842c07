// Bins for HistogramChart: fixed-width bins of raw values (RTT samples) or
// one labelled bin per key of a count table (loss-burst lengths).
#pragma once
#include <QString>
#include <cstdint>
#include <map>
#include <vector>

namespace rudp::gui {

struct HistogramBin {
  double from = 0, to = 0;  // [from, to)
  double count = 0;
  QString label;  // set on every bin: a categorical axis, one slot per bin
};

// Bins of `width` starting at floor(min / width) * width, up to the maximum;
// width <= 0 picks a nice width giving about `targetBins` bins.
std::vector<HistogramBin> binsOfValues(const std::vector<double>& values, double width = 0,
                                       int targetBins = 40);
// One bin per key, labelled with it ("1", "2", ...), in key order.
std::vector<HistogramBin> binsOfCounts(const std::map<uint32_t, uint64_t>& counts);

}  // namespace rudp::gui
