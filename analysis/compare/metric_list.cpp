#include "compare/metric_list.h"

#include <charconv>

namespace rudp::cmp {
namespace {

double count(uint64_t v) { return static_cast<double>(v); }
double percent(double share) { return share * 100.0; }  // kNone stays kNone

// A figure of a round-trip distribution: none without samples, nor at the
// direction's receiver (where a "round trip" is the receiver's ack delay).
double roundTrip(const DirectionComparison& d, const Distribution& dist, double Distribution::*figure) {
  return dist.count && !d.at_receiver ? dist.*figure : kNone;
}
using Figure = double Distribution::*;
std::function<double(const DirectionComparison&)> of(Distribution DirectionComparison::*dist, Figure figure) {
  return [dist, figure](const DirectionComparison& d) { return roundTrip(d, d.*dist, figure); };
}

std::function<double(const DirectionComparison&)> shareOver(double limit) {
  return
      [limit](const DirectionComparison& d) { return d.at_receiver ? kNone : percent(shareAbove(d, limit)); };
}

std::vector<MetricInfo> buildList() {
  using D = const DirectionComparison&;
  using D_ = DirectionComparison;
  return {
      {"response_mean", "Response time, mean", "ms", of(&D_::response, &Distribution::mean), true},
      {"response_p50", "Response time, median", "ms", of(&D_::response, &Distribution::p50), true},
      {"response_p95", "Response time, 95th percentile", "ms", of(&D_::response, &Distribution::p95), true},
      {"response_p99", "Response time, 99th percentile", "ms", of(&D_::response, &Distribution::p99), true},
      {"response_max", "Response time, max", "ms", of(&D_::response, &Distribution::max), true},
      {"share_over_150", "Responses over 150 ms", "%", shareOver(150), true},
      {"share_over_250", "Responses over 250 ms", "%", shareOver(250), true},
      {"share_over_300", "Responses over 300 ms", "%", shareOver(300), true},
      {"rtt_mean", "RTT, mean (samples of data sent once)", "ms", of(&D_::rtt, &Distribution::mean), true},
      {"rtt_p99", "RTT, 99th percentile", "ms", of(&D_::rtt, &Distribution::p99), true},
      {"retransmissions", "Retransmissions", "", [](D d) { return count(d.retransmissions); }},
      {"retx_timeout", "Timeout retransmissions", "", [](D d) { return count(d.retx_timeout); }},
      {"retx_fast", "Fast retransmissions", "", [](D d) { return count(d.retx_fast); }},
      {"retx_spurious", "Spurious retransmissions", "", [](D d) { return count(d.retx_spurious); }},
      {"fast_share", "Fast share of loss repairs", "%", [](D d) { return percent(d.fast_share); }},
      {"spurious_share", "Spurious share of retransmissions", "%",
       [](D d) { return percent(d.spurious_share); }},
      {"recovery_mean", "Loss recovery, mean", "ms", of(&D_::loss_recovery, &Distribution::mean), true},
      {"recovery_p95", "Loss recovery, 95th percentile", "ms", of(&D_::loss_recovery, &Distribution::p95),
       true},
      {"recovery_max", "Loss recovery, max", "ms", of(&D_::loss_recovery, &Distribution::max), true},
      {"lost", "Lost packets", "", [](D d) { return count(d.lost); }},
      {"loss_percent", "Loss", "%", [](D d) { return d.loss_percent; }},
      {"mean_loss_burst", "Mean loss burst", "packets",
       [](D d) { return d.lost ? d.mean_loss_burst : kNone; }},
      {"stalls", "Stalls", "", [](D d) { return count(d.stalls); }},
      {"stalls_per_minute", "Stalls per minute", "/min", [](D d) { return d.stalls_per_minute; }},
      {"longest_stall", "Longest stall", "ms", [](D d) { return d.longest_stall_ms; }},
      {"hol_blocking", "Head-of-line blocking, total", "ms",
       [](D d) { return d.hol_observable ? d.hol_blocking_ms : kNone; }},
      {"hol_max", "Head-of-line blocking, longest", "ms",
       [](D d) { return d.hol_observable ? d.hol_max_ms : kNone; }},
      {"throughput", "Throughput (wire)", "kbit/s",
       [](D d) { return d.duration_s > 0 ? d.throughput_kbps : kNone; }},
      {"goodput", "Goodput (data sent once)", "kbit/s",
       [](D d) { return d.duration_s > 0 ? d.goodput_kbps : kNone; }},
  };
}

std::string validNames() {
  std::string names;
  for (const auto& m : comparisonMetrics()) names += (names.empty() ? "" : ", ") + m.key;
  return names + ", share_over_N";
}

}  // namespace

const std::vector<MetricInfo>& comparisonMetrics() {
  static const std::vector<MetricInfo> list = buildList();
  return list;
}

std::optional<double> shareLimit(std::string_view key) {
  constexpr std::string_view kShare = "share_over_";
  if (key.substr(0, kShare.size()) != kShare) return std::nullopt;
  double limit = 0;
  const std::string_view number = key.substr(kShare.size());
  const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), limit);
  if (ec != std::errc() || end != number.data() + number.size() || limit < 0) return std::nullopt;
  return limit;
}

MetricInfo metric(std::string_view key) {
  for (const auto& m : comparisonMetrics())
    if (m.key == key) return m;
  if (const auto limit = shareLimit(key))
    return {std::string(key), "Responses over " + std::string(key.substr(11)) + " ms", "%", shareOver(*limit),
            true};
  throw CompareError("no metric '" + std::string(key) + "'; the metrics are: " + validNames());
}

double metricValue(const DirectionComparison& d, std::string_view key) { return metric(key).value(d); }

}  // namespace rudp::cmp
