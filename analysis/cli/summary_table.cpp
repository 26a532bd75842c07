#include "cli/summary_table.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include "report/wording.h"

namespace rudp::cli {

namespace {

std::string num(double v, const char* fmt = "%.1f") {
  char buf[32];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

std::string count(uint64_t v) { return std::to_string(v); }

// "-" where no packet pair carried the sender's timestamp.
std::string jitterText(const ana::DirectionMetrics& m) { return m.jitter_ms ? num(*m.jitter_ms) : "-"; }

std::string stallsText(const std::vector<ana::StallEvent>& stalls) {
  if (stalls.empty()) return "-";
  double longest = 0;
  for (const auto& s : stalls) longest = std::max(longest, s.duration_ms);
  return std::to_string(stalls.size()) + " (longest " + num(longest, "%.0f") + " ms)";
}

// The share of RTT samples above 300 ms, when 300 is one of the limits.
std::string above300(const ana::RttStats& rtt, const std::vector<double>& limits) {
  for (size_t i = 0; i < limits.size() && i < rtt.share_above.size(); ++i)
    if (limits[i] == 300 && rtt.samples > 0) return num(rtt.share_above[i] * 100, "%.1f%%");
  return "-";
}

void printDirection(const ConnectionRecord& r, int dir, const std::vector<double>& limits) {
  const DirectionStats& s = r.summary.dir[dir];
  const char* name = dir == 0 ? "c>s" : "s>c";
  if (!r.has_direction[dir]) {
    std::printf("      %-4s %8s %10s %5s %5s %5s %5s %6s %8s %8s %8s %7s %7s  %s\n", name,
                count(s.packets).c_str(), count(s.bytes).c_str(), "-", "-", "-", "-", "-", "-", "-", "-", "-",
                "-", "-");
    return;
  }
  const ana::DirectionMetrics& m = r.metrics.dir[dir];
  const ana::RttStats& rtt = m.rtt;
  // Samples that are not full round trips (the capture is at the data's
  // receiver, or in the middle) are marked, since they read differently;
  // figures inferred from fields found in the payloads, with a star.
  const bool partial = rtt.span != ana::RttSpan::RoundTrip && rtt.samples > 0;
  const std::string mark = std::string(partial ? "~" : "") + (r.metrics.timing_only ? "*" : "");
  auto ms = [&](double v) { return rtt.samples ? num(v) + mark : std::string("-"); };
  if (!r.metrics.headersRead()) {  // the silences, and what fields found in the payloads tell
    const std::string star = r.metrics.timing_only ? "*" : "";
    const std::string lost = m.seq_field.found() ? count(m.lost) + "*" : "-";
    const std::string jitter = m.ts_field.found() ? jitterText(m) + "*" : "-";
    std::printf("      %-4s %8s %10s %5s %5s %5s %5s %6s %8s %8s %8s %7s %7s  %s\n", name,
                count(s.packets).c_str(), count(s.bytes).c_str(), "-", "-", "-", "-", lost.c_str(),
                ms(rtt.p50).c_str(), ms(rtt.p95).c_str(), ms(rtt.max).c_str(),
                rtt.samples ? (above300(rtt, limits) + star).c_str() : "-", jitter.c_str(),
                stallsText(m.stalls).c_str());
    return;
  }
  std::printf("      %-4s %8s %10s %5s %5s %5s %5s %6s %8s %8s %8s %7s %7s  %s\n", name,
              count(s.packets).c_str(), count(s.bytes).c_str(), count(m.retransmissions).c_str(),
              count(m.retransmissions_timeout).c_str(), count(m.retransmissions_fast).c_str(),
              count(m.retransmissions_spurious).c_str(), count(m.lost).c_str(), ms(rtt.p50).c_str(),
              ms(rtt.p95).c_str(), ms(rtt.max).c_str(), above300(rtt, limits).c_str(), jitterText(m).c_str(),
              stallsText(m.stalls).c_str());
}

// The first few ICMP errors about a connection's datagrams (a server that
// went away draws one per datagram), then how many more.
void printIcmpErrors(const std::vector<IcmpErrorRecord>& errors) {
  constexpr size_t kShown = 3;
  for (size_t i = 0; i < errors.size() && i < kShown; ++i) {
    const IcmpErrorRecord& e = errors[i];
    std::printf("      frame %" PRIu64 ": %s from %s, about a %s datagram\n", e.frame, e.description.c_str(),
                e.reporter.c_str(), e.dir == Direction::ClientToServer ? "c>s" : "s>c");
  }
  if (errors.size() > kShown) std::printf("      and %zu more ICMP errors\n", errors.size() - kShown);
}

// Where the starred figures of a flow no dissector claims come from.
void printInferredFields(const ConnectionRecord& r) {
  for (int d = 0; d < 2; ++d) {
    const char* name = d == 0 ? "c>s" : "s>c";
    const ana::DirectionMetrics& m = r.metrics.dir[d];
    const ana::InferredField& echo = r.metrics.dir[1 - d].ack_field;
    if (m.seq_field.found())
      std::printf("      %s lost*: inferred from a counter in the payload (%s)\n", name,
                  report::inferredFieldText(m.seq_field).c_str());
    if (m.rtt.samples > 0)
      std::printf("      %s rtt*: from the %s's echo of that counter (%s)\n", name,
                  d == 0 ? "server" : "client", report::inferredFieldText(echo).c_str());
    if (m.ts_field.found())
      std::printf("      %s jitter*: from the sender's clock in the payload (%s)\n", name,
                  report::inferredFieldText(m.ts_field).c_str());
  }
}

}  // namespace

void printTableHeader(const CaptureInfo& c, const std::string& dbPath) {
  const double seconds =
      c.packet_count ? static_cast<double>(c.last_ts_ns) / 1e9 - static_cast<double>(c.first_ts_ns) / 1e9
                     : 0.0;
  std::printf("capture   %s (%s, %s, %" PRIu64 " packets, %.3f s)\n", c.path.c_str(), c.format.c_str(),
              c.link_type_name.c_str(), c.packet_count, seconds);
  std::printf("database  %s\n", dbPath.c_str());
  if (c.decode_errors || c.malformed || c.lua_errors)
    std::printf("problems  %" PRIu64 " undecodable, %" PRIu64 " malformed, %" PRIu64 " dissector errors\n",
                c.decode_errors, c.malformed, c.lua_errors);
  std::printf("\n%4s  %-8s  %-44s  %-10s  %-7s  %8s\n", "#", "protocol", "client -> server", "conn_id",
              "vantage", "seconds");
  std::printf("      %-4s %8s %10s %5s %5s %5s %5s %6s %8s %8s %8s %7s %7s  %s\n", "dir", "packets", "bytes",
              "retx", "tmo", "fast", "spur", "lost", "rtt p50", "rtt p95", "rtt max", ">300ms", "jitter",
              "stalls");
}

void printLiveCapture(const LiveCaptureRecord& x) {
  std::printf("live      on %s, filter \"%s\", %" PRIu64 " dropped by the kernel, %" PRIu64
              " by the interface\n",
              x.interface.c_str(), x.filter.c_str(), x.kernel_drops, x.interface_drops);
}

void printTableRows(const ConnectionRecord& r, const std::vector<double>& limits) {
  const ConnectionSummary& x = r.summary;
  char id[16] = "-";
  if (x.has_conn_id) std::snprintf(id, sizeof id, "0x%08" PRIx64, x.conn_id);
  std::string ends = x.client + " -> " + x.server;
  std::printf("%4" PRId64 "  %-8s  %-44s  %-10s  %-7s  %8.3f\n", x.id, x.protocol.c_str(), ends.c_str(), id,
              ana::toString(r.metrics.vantage),
              static_cast<double>(x.last_ts_ns) / 1e9 - static_cast<double>(x.first_ts_ns) / 1e9);
  printDirection(r, 0, limits);
  printDirection(r, 1, limits);
  if (r.has_analysis && r.metrics.timing_only) {
    std::printf(
        "      not decoded (timing only): no dissector claims this flow; its stalls are silences,"
        " its retransmissions unknown\n");
    printInferredFields(r);
  }
  if (r.has_analysis && r.metrics.encrypted)
    std::printf(
        "      QUIC, encrypted: give the key log to analyse it (-o tls.keylog_file:FILE); the figures"
        " are the Initial and Handshake packets'\n");
  if (const uint64_t foreign = x.dir[0].foreign + x.dir[1].foreign)
    std::printf("      %" PRIu64 " datagrams on this socket are not %s (%" PRIu64 " c>s, %" PRIu64
                " s>c): counted in packets, not analysed\n",
                foreign, x.protocol.c_str(), x.dir[0].foreign, x.dir[1].foreign);
  printIcmpErrors(r.icmp_errors);
}

void printTableFooter() {
  std::printf(
      "\nRTT in ms, for the direction whose data was acknowledged; ~: not a full round trip"
      " (the capture sits at that data's receiver or mid-path); >300ms: share of RTT samples"
      " above 300 ms; *: inferred from fields found in the payload of a flow no dissector claims.\n");
}

}  // namespace rudp::cli
