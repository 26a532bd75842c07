#include "cli/summary_json.h"

#include <cstdio>

namespace rudp::cli {

using nlohmann::json;

namespace {

double seconds(int64_t ns) { return static_cast<double>(ns) / 1e9; }

json directionJson(const DirectionStats& s) {
  return {{"packets", s.packets},        {"bytes", s.bytes},         {"payload_bytes", s.payload_bytes},
          {"segments", s.segments},      {"malformed", s.malformed}, {"foreign", s.foreign},
          {"icmp_errors", s.icmp_errors}};
}

json orNull(bool present, double v) { return present ? json(v) : json(nullptr); }

// The limit as the database's meta table spells it ("%g"), the share_above key.
std::string limitKey(double ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", ms);
  return buf;
}

json rttJson(const ana::RttStats& r, const std::vector<double>& limits) {
  const bool any = r.samples > 0;
  json j = {{"samples", r.samples}};
  const std::pair<const char*, double> stats[] = {{"min", r.min},   {"p50", r.p50}, {"p95", r.p95},
                                                  {"p99", r.p99},   {"max", r.max}, {"mean", r.mean},
                                                  {"srtt", r.srtt}, {"rto", r.rto}};
  for (const auto& [k, v] : stats) j[k] = orNull(any, v);
  j["span"] = ana::toString(r.span);
  j["exact_percentiles"] = r.exact_percentiles;
  j["share_above"] = json::object();
  for (size_t i = 0; i < limits.size() && i < r.share_above.size(); ++i)
    j["share_above"][limitKey(limits[i])] = orNull(any, r.share_above[i]);
  return j;
}

json stallJson(const ana::StallEvent& s) {
  return {{"start", seconds(s.start_ns)},
          {"end", seconds(s.end_ns)},
          {"duration_ms", s.duration_ms},
          {"cause", ana::toString(s.cause)},
          {"first_frame", s.first_frame},
          {"last_frame", s.last_frame ? json(s.last_frame) : json(nullptr)},
          {"retransmissions", s.retransmissions},
          {"open", s.open},
          {"estimated", s.estimated}};
}

// What timing alone measures of a direction (every analysed flow has it).
void addTiming(const ana::DirectionMetrics& m, json& d) {
  const bool gaps = m.gaps.samples > 0;
  d["gap_samples"] = m.gaps.samples;
  d["gap_p50"] = orNull(gaps, m.gaps.p50);
  d["gap_p95"] = orNull(gaps, m.gaps.p95);
  d["gap_p99"] = orNull(gaps, m.gaps.p99);
  d["gap_max"] = orNull(gaps, m.gaps.max);
  d["tick_hz"] = m.gaps.tick_hz;
  d["stalls"] = json::array();
  for (const ana::StallEvent& s : m.stalls) d["stalls"].push_back(stallJson(s));
}

json lossBurstsJson(const ana::DirectionMetrics& m) {
  json j = json::object();
  for (const auto& [len, count] : m.loss_bursts) j[std::to_string(len)] = count;
  return j;
}

// A flow analysed from timing alone: what the fields found in its payloads
// tell (the connection's "inferred" object names them): a counter gives
// loss, a sender timestamp jitter, the other side's echo of the counter RTT.
void addInferred(const ana::DirectionMetrics& m, const std::vector<double>& limits, json& d) {
  if (m.ts_field.found() && m.jitter_ms) d["jitter_ms"] = *m.jitter_ms;
  if (m.gaps.tick_hz > 0) {  // a rhythm to change from
    d["rate_changes"] = json::array();
    for (const ana::RateChangeEvent& e : m.rate_changes)
      d["rate_changes"].push_back({{"kind", ana::toString(e.kind)},
                                   {"start", seconds(e.start_ns)},
                                   {"end", seconds(e.end_ns)},
                                   {"rate_hz", e.rate_hz},
                                   {"usual_hz", e.usual_hz},
                                   {"open", e.open}});
  }
  if (m.rtt.samples > 0) d["rtt_ms"] = rttJson(m.rtt, limits);
  if (!m.seq_field.found()) return;
  d["lost"] = m.lost;
  d["duplicates"] = m.duplicates;
  d["reordered"] = m.reordered;
  d["mean_loss_burst"] = m.mean_loss_burst;
  d["loss_bursts"] = lossBurstsJson(m);
}

json fieldJson(const ana::InferredField& f) {
  return {{"offset", f.offset},
          {"size", f.size},
          {"byte_order", f.size == 1 ? json(nullptr) : json(f.little_endian ? "le" : "be")},
          {"fit", f.fit}};
}

json inferredJson(const ana::DirectionMetrics& m) {
  json j = json::object();
  if (m.seq_field.found()) j["seq"] = fieldJson(m.seq_field);
  if (m.ack_field.found()) {
    j["ack"] = fieldJson(m.ack_field);
    j["ack"]["echoes"] = m.ack_field.echo_next ? "next expected" : "last received";
  }
  if (m.ts_field.found()) {
    j["ts"] = fieldJson(m.ts_field);
    j["ts"]["unit_hz"] = m.ts_field.unit_hz;
  }
  return j;
}

// The analysis part of a direction, added to its packet counters. A flow
// analysed from timing alone has no figure that needs its headers: those
// keys are absent, not zero, unless a counter found in its payloads gives them.
void addAnalysis(const ana::DirectionMetrics& m, const ana::ConnectionMetrics& c,
                 const std::vector<double>& limits, json& d) {
  addTiming(m, d);
  if (c.timing_only) return addInferred(m, limits, d);
  if (!c.headersRead()) {  // QUIC left encrypted: the handshake packets' RTT
    d["rtt_ms"] = rttJson(m.rtt, limits);
    return;
  }
  d["data_packets"] = m.data_packets;
  d["retransmissions"] = m.retransmissions;
  d["retransmissions_timeout"] = m.retransmissions_timeout;
  d["retransmissions_fast"] = m.retransmissions_fast;
  d["retransmissions_spurious"] = m.retransmissions_spurious;
  d["retransmissions_inferred"] = m.retransmissions_inferred;
  d["lost"] = m.lost;
  d["loss_unknown"] = m.loss_unknown;
  d["mean_loss_burst"] = m.mean_loss_burst;
  d["reordered"] = m.reordered;
  d["duplicates"] = m.duplicates;
  d["network_duplicates"] = m.network_duplicates;
  d["jitter_ms"] = m.jitter_ms ? json(*m.jitter_ms) : json(nullptr);
  d["hol_blocking_ms"] = m.hol_blocking_ms;
  d["hol_max_ms"] = m.hol_max_ms;
  d["hol_blocked_packets"] = m.hol_blocked_packets;
  d["hol_observable"] = m.hol_observable ? 1 : 0;
  d["min_window"] = m.min_window == UINT32_MAX ? json(nullptr) : json(m.min_window);
  d["rtt_ms"] = rttJson(m.rtt, limits);
  d["response_ms"] = rttJson(m.response, limits);
  d["response_ms"].erase("srtt");  // the RFC 6298 estimator runs on RTT samples only
  d["response_ms"].erase("rto");
  d["loss_bursts"] = lossBurstsJson(m);
}

}  // namespace

json captureJson(const CaptureInfo& c) {
  return {{"path", c.path},
          {"size", c.size},
          {"hash", c.hash},
          {"hash_algorithm", c.hash_algorithm},
          {"format", c.format},
          {"link_type", c.link_type},
          {"link_type_name", c.link_type_name},
          {"first_time", seconds(c.first_ts_ns)},
          {"last_time", seconds(c.last_ts_ns)},
          {"packets", c.packet_count},
          {"truncated", c.truncated},
          {"warning", c.warning},
          {"decode_errors", c.decode_errors},
          {"malformed", c.malformed},
          {"dissector_errors", c.lua_errors}};
}

json liveCaptureJson(const LiveCaptureRecord& x) {
  return {{"interface", x.interface},       {"filter", x.filter},
          {"snaplen", x.snaplen},           {"promiscuous", x.promiscuous},
          {"kernel_drops", x.kernel_drops}, {"interface_drops", x.interface_drops}};
}

json connectionJson(const ConnectionRecord& r, const std::vector<double>& limits) {
  const ConnectionSummary& x = r.summary;
  json j = {{"id", x.id},
            {"protocol", x.protocol},
            {"client", x.client},
            {"server", x.server},
            {"roles_from_handshake", x.roles_from_handshake},
            {"roles_reason", x.roles_reason},
            {"first_time", seconds(x.first_ts_ns)},
            {"last_time", seconds(x.last_ts_ns)},
            {"rebindings", x.rebindings},
            {"directions",
             {{"client_to_server", directionJson(x.dir[0])}, {"server_to_client", directionJson(x.dir[1])}}}};
  j["conn_id"] = x.has_conn_id ? json(x.conn_id) : json(nullptr);
  j["vantage"] = ana::toString(r.metrics.vantage);
  if (r.has_analysis) {
    const ana::ConnectionMetrics& m = r.metrics;
    j["analysis"] = m.timing_only ? "not decoded (timing only)"
                    : m.encrypted ? "encrypted: give the key log to analyse it (-o tls.keylog_file:FILE)"
                                  : "decoded";
    if (m.timing_only)
      j["inferred"] = {{"client_to_server", inferredJson(m.dir[0])},
                       {"server_to_client", inferredJson(m.dir[1])}};
    j["handshake_ms"] = m.handshake_ms < 0 ? json(nullptr) : json(m.handshake_ms);
    j["connect_attempts"] = m.connect_attempts;
    j["disconnected"] = m.disconnected;
  }
  const char* names[2] = {"client_to_server", "server_to_client"};
  for (int d = 0; d < 2; ++d)
    if (r.has_direction[d]) addAnalysis(r.metrics.dir[d], r.metrics, limits, j["directions"][names[d]]);
  j["icmp_errors"] = json::array();
  for (const IcmpErrorRecord& e : r.icmp_errors)
    j["icmp_errors"].push_back({{"frame", e.frame},
                                {"time", seconds(e.ts_ns)},
                                {"direction", names[static_cast<int>(e.dir)]},
                                {"protocol", e.v6 ? "icmpv6" : "icmp"},
                                {"type", e.type},
                                {"code", e.code},
                                {"description", e.description},
                                {"reporter", e.reporter}});
  return j;
}

}  // namespace rudp::cli
