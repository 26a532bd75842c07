#include "report/html_report.h"

#include <algorithm>
#include <cerrno>
#include <cinttypes>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>

#include "core/error.h"
#include "report/connections_table.h"
#include "report/html_style.h"
#include "report/markup.h"
#include "report/page_file.h"
#include "report/timeline_svg.h"
#include "report/wording.h"
#include "store/store_reader.h"

namespace rudp::report {

namespace {

// What the capture facts need from every connection (one pass).
struct ConnectionCensus {
  size_t count = 0;
  std::map<std::string, size_t> protocols, vantages;
};

ConnectionCensus census(StoreReader& reader) {
  ConnectionCensus c;
  reader.forEachConnectionRecord([&](const ConnectionRecord& r) {
    ++c.count;
    ++c.protocols[r.summary.protocol];
    ++c.vantages[r.has_analysis ? ana::toString(r.metrics.vantage) : "not analysed"];
  });
  return c;
}

// "grudp: 3" or "client: 2, middle: 1".
std::string tally(const std::map<std::string, size_t>& counts) {
  std::string out;
  for (const auto& [name, n] : counts) out += (out.empty() ? "" : ", ") + name + ": " + std::to_string(n);
  return out.empty() ? "\u2013" : out;
}

std::string utcTime(int64_t ns) {
  const std::time_t s = static_cast<std::time_t>(ns / 1'000'000'000);
  std::tm tm{};
  gmtime_r(&s, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return format("%s.%03d UTC", buf, static_cast<int>((ns / 1'000'000) % 1000));
}

std::string limitsText(const std::vector<double>& limits) {
  std::string out;
  for (double l : limits) out += (out.empty() ? "" : ", ") + format("%g", l);
  return out.empty() ? "none" : out + " ms";
}

void fact(std::ostream& out, const char* name, const std::string& htmlValue) {
  out << "<tr><th>" << name << "</th><td>" << htmlValue << "</td></tr>\n";
}

void writeFacts(std::ostream& out, const CaptureInfo& c, const AnalysisSettings& s, const ConnectionCensus& n,
                size_t problems) {
  const double seconds = c.packet_count ? static_cast<double>(c.last_ts_ns - c.first_ts_ns) / 1e9 : 0.0;
  out << "<section id=\"capture\"><h2>Capture</h2>\n<table class=\"facts\">\n";
  fact(out, "file", "<span class=\"file\">" + escapeXml(c.path) + "</span>");
  fact(out, "size", bytesText(c.size) + format(" (%" PRIu64 " bytes)", c.size));
  fact(out, "content hash", escapeXml(c.hash_algorithm) + " <code>" + escapeXml(c.hash) + "</code>");
  fact(out, "format", escapeXml(c.format));
  fact(out, "link type", escapeXml(c.link_type_name) + format(" (%d)", c.link_type));
  fact(out, "first packet", c.packet_count ? utcTime(c.first_ts_ns) : "\u2013");
  fact(out, "duration", format("%.3f s", seconds));
  fact(out, "packets", std::to_string(c.packet_count));
  fact(out, "connections", std::to_string(n.count) + " (" + escapeXml(tally(n.protocols)) + ")");
  fact(out, "vantage", escapeXml(tally(n.vantages)));
  fact(out, "analysis",
       format("stall threshold %g ms; RTT limits ", s.stall_ms) + limitsText(s.rtt_limits_ms));
  fact(out, "frame errors",
       format("%" PRIu64 " undecodable, %" PRIu64 " malformed, %" PRIu64 " dissector errors", c.decode_errors,
              c.malformed, c.lua_errors) +
           (c.truncated ? "; the file is cut off" : ""));
  fact(out, "problems", std::to_string(problems));
  out << "</table></section>\n";
}

const char* severityClass(double severity) {
  return severity >= 1000 ? "severe" : severity >= 250 ? "major" : "minor";
}

std::string whereText(const Problem& p, int64_t startNs, const std::set<int64_t>& withTimeline) {
  std::string out;
  if (p.conn != 0) {
    const std::string id = std::to_string(p.conn);
    out += "<a href=\"#" + std::string(withTimeline.count(p.conn) ? "timeline-" : "conn-") + id + "\">conn " +
           id + "</a>, ";
  }
  if (p.frame != 0) out += "frame " + std::to_string(p.frame) + ", ";
  out += p.end_ns > p.start_ns
             ? format("%.3f\u2013%.3f s", secondsSince(p.start_ns, startNs), secondsSince(p.end_ns, startNs))
             : secondsAt(p.start_ns, startNs);
  return out;
}

void writeProblems(std::ostream& out, const std::vector<Problem>& problems, int64_t startNs,
                   const std::set<int64_t>& withTimeline, size_t max) {
  out << "<section id=\"problems\"><h2>Problems</h2>\n";
  if (problems.empty()) {
    out << "<p class=\"none\">No problems found.</p></section>\n";
    return;
  }
  out << "<ol class=\"problems\">\n";
  for (size_t i = 0; i < problems.size() && i < max; ++i) {
    const Problem& p = problems[i];
    out << "<li class=\"" << severityClass(p.severity) << "\" data-severity=\"" << format("%.1f", p.severity)
        << "\"><span class=\"kind\">" << toString(p.kind) << "</span> " << escapeXml(p.text)
        << " <span class=\"where\">(" << whereText(p, startNs, withTimeline) << ")</span></li>\n";
  }
  out << "</ol>\n";
  if (problems.size() > max)
    out << "<p>\u2026 and " << problems.size() - max << " less severe problems not listed.</p>\n";
  out << "</section>\n";
}

void writeTimelines(std::ostream& out, StoreReader& reader, const std::vector<int64_t>& conns,
                    const CaptureInfo& c, const AnalysisSettings& s, const HtmlReportOptions& o) {
  if (conns.empty()) return;
  out << "<section id=\"timelines\"><h2>Timelines of the worst connections</h2>\n";
  for (int64_t id : conns) {
    const auto conn = reader.connection(id);
    if (!conn) continue;
    const std::string sid = std::to_string(id);
    out << "<figure id=\"timeline-" << sid << "\"><figcaption>" << escapeXml(connectionLabel(conn->summary))
        << " \u2192 " << escapeXml(conn->summary.server) << "</figcaption>\n"
        << connectionTimelineSvg(reader, *conn, c.first_ts_ns, s.rtt_limits_ms,
                                 {o.timeline_width, "tl" + sid})
        << "</figure>\n";
  }
  out << "</section>\n";
}

std::string fileName(const std::string& path) {
  const std::string name = std::filesystem::path(path).filename().string();
  return name.empty() ? path : name;
}

}  // namespace

std::vector<int64_t> worstConnections(StoreReader& reader, const std::vector<Problem>& problems, size_t n) {
  struct Rank {
    double worst = 0, sum = 0;
    uint64_t packets = 0;
  };
  std::map<int64_t, Rank> rank;
  for (const Problem& p : problems) {
    if (p.conn == 0) continue;
    Rank& r = rank[p.conn];
    r.worst = std::max(r.worst, p.severity);
    r.sum += p.severity;
  }
  std::vector<std::pair<int64_t, Rank>> all;
  reader.forEachConnection([&](const ConnectionSummary& c) {
    Rank r = rank[c.id];
    r.packets = c.dir[0].packets + c.dir[1].packets;
    all.emplace_back(c.id, r);
  });
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) {
    if (a.second.worst != b.second.worst) return a.second.worst > b.second.worst;
    if (a.second.sum != b.second.sum) return a.second.sum > b.second.sum;
    return a.second.packets > b.second.packets;
  });
  std::vector<int64_t> out;
  for (size_t i = 0; i < all.size() && i < n; ++i) out.push_back(all[i].first);
  return out;
}

void writeHtmlReport(StoreReader& reader, const std::vector<Problem>& problems, std::ostream& out,
                     const HtmlReportOptions& o) {
  const CaptureInfo c = reader.capture();
  const AnalysisSettings s = reader.settings();
  const std::vector<int64_t> worst = worstConnections(reader, problems, o.top_connections);
  const std::set<int64_t> withTimeline(worst.begin(), worst.end());
  const std::string name = escapeXml(fileName(c.path));
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
      << "<title>rudpscope report: " << name << "</title>\n<style>" << reportStyleSheet()
      << "</style>\n</head>\n<body>\n<header><h1>rudpscope report: <span class=\"file\">" << name
      << "</span></h1>\n<p class=\"sub\">" << problems.size() << " problem"
      << (problems.size() == 1 ? "" : "s")
      << "; times are seconds since the capture's first packet, as Wireshark shows them.</p></header>\n";
  writeFacts(out, c, s, census(reader), problems.size());
  writeProblems(out, problems, c.first_ts_ns, withTimeline, o.max_problems);
  out << "<section id=\"connections\"><h2>Connections</h2>\n";
  writeConnectionsTable(reader, out, s.rtt_limits_ms, withTimeline);
  out << "<p class=\"sub\">RTT for the direction whose data was acknowledged; ~: not a full round trip "
         "(the capture sits at that data's receiver or mid-path). Loss: lost seqs over seqs sent.</p>\n"
         "</section>\n";
  writeTimelines(out, reader, worst, c, s, o);
  out << "<footer>Made by " << escapeXml(o.generator) << " from <span class=\"file\">"
      << escapeXml(reader.path())
      << "</span>. Problems are ordered by milliseconds of harm: the time "
         "data waited or traffic was lost, and for steady conditions (RTT over the limit, loss) their "
         "share of a typical 10 s of play.</footer>\n</body>\n</html>\n";
}

void writeHtmlReport(StoreReader& reader, std::ostream& out, const HtmlReportOptions& options) {
  writeHtmlReport(reader, findProblems(reader), out, options);
}

void writeHtmlReportFile(StoreReader& reader, const std::string& path, const HtmlReportOptions& options) {
  writeHtmlReportFile(reader, findProblems(reader), path, options);
}

void writeHtmlReportFile(StoreReader& reader, const std::vector<Problem>& problems, const std::string& path,
                         const HtmlReportOptions& options) {
  writePageFile(path, [&](std::ostream& out) { writeHtmlReport(reader, problems, out, options); });
}

}  // namespace rudp::report
