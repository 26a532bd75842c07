#include "report/connections_table.h"

#include <algorithm>
#include <cinttypes>
#include <ostream>

#include "report/markup.h"
#include "report/wording.h"
#include "store/store_reader.h"

namespace rudp::report {

namespace {

std::string cell(const std::string& text, const char* cls = "num") {
  return std::string("<td class=\"") + cls + "\">" + text + "</td>";
}

// A cell of the connection's own facts, beside both direction rows.
std::string bothRows(const std::string& text, const char* cls) {
  return std::string("<td rowspan=\"2\" class=\"") + cls + "\">" + text + "</td>";
}

std::string ms(double v) { return format("%.1f", v); }

// "–" where no packet pair carried the sender's timestamp.
std::string jitterCell(const ana::DirectionMetrics& m) { return m.jitter_ms ? ms(*m.jitter_ms) : "\u2013"; }

// The highest limit and its share column, or none.
struct TopLimit {
  size_t index = SIZE_MAX;
  double ms = 0;
};

TopLimit topLimit(const std::vector<double>& limits) {
  TopLimit t;
  for (size_t i = 0; i < limits.size() && i < 3; ++i)
    if (t.index == SIZE_MAX || limits[i] > t.ms) t.index = i, t.ms = limits[i];
  return t;
}

// `extra` follows every figure (a flow no dissector claims: "inferred").
std::string rttCells(const ana::RttStats& rtt, const TopLimit& limit, const std::string& extra = "") {
  if (rtt.samples == 0) return cell("\u2013") + cell("\u2013") + cell("\u2013") + cell("\u2013");
  // Samples that are not full round trips read differently: marked, as in the CLI.
  const bool partial = rtt.span != ana::RttSpan::RoundTrip;
  const std::string mark =
      (partial ? "<abbr title=\"" + std::string(rttSpanWords(rtt.span)) + "\">~</abbr>" : "") + extra;
  const std::string share =
      limit.index == SIZE_MAX ? "\u2013" : percentText(rtt.share_above[limit.index]) + extra;
  return cell(ms(rtt.p50) + mark) + cell(ms(rtt.p95) + mark) + cell(ms(rtt.max) + mark) + cell(share);
}

std::string stallCells(const std::vector<ana::StallEvent>& stalls) {
  double longest = 0;
  for (const auto& s : stalls) longest = std::max(longest, s.duration_ms);
  return cell(std::to_string(stalls.size())) + cell(stalls.empty() ? "\u2013" : durationText(longest));
}

void writeDirectionCells(std::ostream& out, const ConnectionRecord& r, Direction d, const TopLimit& limit) {
  const size_t i = static_cast<size_t>(d);
  const DirectionStats& s = r.summary.dir[i];
  out << cell(d == Direction::ClientToServer ? "c\u2192s" : "s\u2192c", "dir")
      << cell(std::to_string(s.packets)) << cell(bytesText(s.bytes));
  if (!r.has_analysis || !r.has_direction[i]) {
    out << "<td class=\"none\" colspan=\"10\">no analysis</td>";
    return;
  }
  const ana::DirectionMetrics& m = r.metrics.dir[i];
  if (!r.metrics.headersRead()) {  // the silences, and what fields found in the payloads tell
    const std::string inferred =
        r.metrics.timing_only ? "<abbr title=\"inferred from fields found in the payload\">*</abbr>" : "";
    const char* why = r.metrics.timing_only ? "not decoded (timing only)" : "encrypted (no key log)";
    out << rttCells(m.rtt, limit, inferred)
        << cell(m.seq_field.found() ? percentText(lossFraction(m, r.metrics.vantage, d)) + inferred
                                    : "\u2013")
        << "<td class=\"none\" colspan=\"3\">" << why << "</td>" << stallCells(m.stalls)
        << cell(m.ts_field.found() ? jitterCell(m) + inferred : "\u2013");
    return;
  }
  out << rttCells(m.rtt, limit) << cell(percentText(lossFraction(m, r.metrics.vantage, d)))
      << cell(std::to_string(m.retransmissions_timeout)) << cell(std::to_string(m.retransmissions_fast))
      << cell(std::to_string(m.retransmissions_spurious)) << stallCells(m.stalls) << cell(jitterCell(m));
}

void writeConnection(std::ostream& out, const ConnectionRecord& r, const TopLimit& limit,
                     const std::set<int64_t>& withTimeline) {
  const ConnectionSummary& c = r.summary;
  const std::string id = std::to_string(c.id);
  std::string number = id;
  if (withTimeline.count(c.id)) number = "<a href=\"#timeline-" + id + "\">" + id + "</a>";
  const std::string connId = c.has_conn_id ? format("0x%08" PRIx64, c.conn_id) : "\u2013";
  const double seconds = static_cast<double>(c.last_ts_ns - c.first_ts_ns) / 1e9;
  out << "<tbody id=\"conn-" << id << "\"><tr>"
      << "<th rowspan=\"2\" class=\"num\">" << number << "</th>" << bothRows(escapeXml(c.protocol), "text")
      << bothRows(escapeXml(c.client), "addr") << bothRows(escapeXml(c.server), "addr")
      << bothRows(connId, "addr")
      << bothRows(r.has_analysis ? ana::toString(r.metrics.vantage) : "\u2013", "text")
      << bothRows(format("%.3f s", seconds), "num");
  writeDirectionCells(out, r, Direction::ClientToServer, limit);
  out << "</tr>\n<tr>";
  writeDirectionCells(out, r, Direction::ServerToClient, limit);
  out << "</tr></tbody>\n";
}

}  // namespace

void writeConnectionsTable(StoreReader& reader, std::ostream& out, const std::vector<double>& rttLimitsMs,
                           const std::set<int64_t>& withTimeline) {
  const TopLimit limit = topLimit(rttLimitsMs);
  const std::string over = limit.index == SIZE_MAX ? "over limit" : format("&gt; %g ms", limit.ms);
  out << "<table class=\"connections\">\n<thead><tr>"
         "<th rowspan=\"2\">#</th><th rowspan=\"2\">protocol</th><th rowspan=\"2\">client</th>"
         "<th rowspan=\"2\">server</th><th rowspan=\"2\">conn id</th><th rowspan=\"2\">vantage</th>"
         "<th rowspan=\"2\">duration</th><th rowspan=\"2\">dir</th><th rowspan=\"2\">packets</th>"
         "<th rowspan=\"2\">bytes</th><th colspan=\"4\">RTT (ms)</th><th rowspan=\"2\">loss</th>"
         "<th colspan=\"3\">retransmissions</th><th rowspan=\"2\">stalls</th>"
         "<th rowspan=\"2\">longest stall</th><th rowspan=\"2\">jitter (ms)</th></tr>\n"
         "<tr><th>p50</th><th>p95</th><th>max</th><th>"
      << over << "</th><th>timeout</th><th>fast</th><th>spurious</th></tr></thead>\n";
  reader.forEachConnectionRecord(
      [&](const ConnectionRecord& r) { writeConnection(out, r, limit, withTimeline); });
  out << "</table>\n";
}

}  // namespace rudp::report
