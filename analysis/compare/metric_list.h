// The named figures a comparison table, a matrix chart and the CLI offer.
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compare/comparison.h"

namespace rudp::cmp {

struct MetricInfo {
  std::string key;    // "share_over_300", "response_p99", "fast_share", ...
  std::string title;  // "Share of responses over 300 ms"
  std::string unit;   // "ms", "%", "/min", "kbit/s", ""
  std::function<double(const DirectionComparison&)> value;  // kNone when it cannot be told
  bool round_trip = false;  // a round-trip figure: none at the direction's receiver
};

// Every metric in table order. share_over_N exists for 150, 250 and 300 ms;
// metric() accepts any "share_over_N".
const std::vector<MetricInfo>& comparisonMetrics();
// The metric named `key`; throws CompareError listing the valid names.
MetricInfo metric(std::string_view key);
// N of a "share_over_N" key; nullopt for other metrics.
std::optional<double> shareLimit(std::string_view key);
double metricValue(const DirectionComparison& d, std::string_view key);

}  // namespace rudp::cmp
