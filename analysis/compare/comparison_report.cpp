#include "compare/comparison_report.h"

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <set>

#include "compare/matrix_svg.h"
#include "compare/metric_list.h"
#include "report/html_style.h"
#include "report/markup.h"
#include "report/page_file.h"

namespace rudp::cmp {
namespace {

using report::escapeXml;

std::string fileName(const std::string& path) { return std::filesystem::path(path).filename().string(); }

std::string valueText(double v, const std::string& unit) {
  if (std::isnan(v)) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, unit.empty() ? "%.0f" : "%.2f", v);
  return buf;
}

std::string columnHead(const DirectionComparison& c) {
  const std::string labels = labelText(c.labels);
  return escapeXml(labels.empty() ? fileName(c.capture) : labels) + "<br/><span class=\"sub\">#" +
         std::to_string(c.conn) + " " + escapeXml(c.protocol) + " " +
         (c.dir == Direction::ClientToServer ? "client→server" : "server→client") + "</span>";
}

void writeCaptures(std::ostream& out, const std::vector<const DirectionComparison*>& columns) {
  out << "<section id=\"captures\"><h2>Captures</h2>\n<table class=\"connections\"><thead><tr><th>#</th>"
         "<th>capture</th><th>labels</th><th>connection</th></tr></thead><tbody>\n";
  for (size_t i = 0; i < columns.size(); ++i) {
    const DirectionComparison& c = *columns[i];
    out << "<tr><td>" << i + 1 << "</td><td class=\"file\">" << escapeXml(c.capture) << "</td><td>"
        << escapeXml(labelText(c.labels)) << "</td><td>#" << c.conn << " " << escapeXml(c.client) << " → "
        << escapeXml(c.server) << "</td></tr>\n";
  }
  out << "</tbody></table></section>\n";
}

void writeTable(std::ostream& out, const std::vector<const DirectionComparison*>& columns) {
  out << "<section id=\"table\"><h2>Side by side</h2>\n<table class=\"connections compare\"><thead><tr>"
         "<th>metric</th>";
  for (const auto* c : columns) out << "<th>" << columnHead(*c) << "</th>";
  out << "</tr></thead><tbody>\n";
  for (const auto& m : comparisonMetrics()) {
    out << "<tr><th>" << escapeXml(m.title) << (m.unit.empty() ? "" : " (" + escapeXml(m.unit) + ")")
        << "</th>";
    for (const auto* c : columns) out << "<td class=\"num\">" << valueText(m.value(*c), m.unit) << "</td>";
    out << "</tr>\n";
  }
  out << "</tbody></table>\n<p class=\"sub\">Response time: from a reliable message's first copy to the "
         "first "
         "ack covering it, repaired losses included. RTT: samples of data sent once (Karn's rule). Loss "
         "recovery: from a lost original to the copy that got through.</p></section>\n";
}

void writeBursts(std::ostream& out, const std::vector<const DirectionComparison*>& columns) {
  std::set<uint32_t> lengths;
  for (const auto* c : columns)
    for (const auto& [len, n] : c->loss_bursts) lengths.insert(len);
  out << "<section id=\"bursts\"><h2>Loss bursts</h2>\n";
  if (lengths.empty()) {
    out << "<p class=\"none\">No loss in the compared connections.</p></section>\n";
    return;
  }
  out << "<table class=\"connections\"><thead><tr><th>consecutive losses</th>";
  for (size_t i = 0; i < columns.size(); ++i) out << "<th>[" << i + 1 << "]</th>";
  out << "</tr></thead><tbody>\n";
  for (uint32_t len : lengths) {
    out << "<tr><th>" << len << "</th>";
    for (const auto* c : columns) {
      const auto it = c->loss_bursts.find(len);
      out << "<td class=\"num\">" << (it == c->loss_bursts.end() ? 0 : it->second) << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody></table></section>\n";
}

void writeMatrix(std::ostream& out, const Matrix& m) {
  out << "<section id=\"matrix\"><h2>Matrix</h2>\n<figure>" << matrixSvg(m) << "</figure>\n";
  for (const auto& s : m.skipped) out << "<p class=\"sub\">Left out: " << escapeXml(s) << "</p>\n";
  out << "</section>\n";
}

}  // namespace

void writeComparisonReport(const ComparisonReport& r, std::ostream& out) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
         "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
         "<title>rudpscope comparison</title>\n<style>"
      << report::reportStyleSheet()
      << "table.compare td.num { text-align: right; } table.compare tbody th { text-align: left; "
         "font-weight: normal; }</style>\n</head>\n<body>\n"
         "<header><h1>rudpscope comparison</h1>\n<p class=\"sub\">"
      << r.columns.size() << " connection direction" << (r.columns.size() == 1 ? "" : "s")
      << " side by side.</p></header>\n";
  writeCaptures(out, r.columns);
  writeTable(out, r.columns);
  writeBursts(out, r.columns);
  if (r.matrix) writeMatrix(out, *r.matrix);
  out << "<footer>Made by " << escapeXml(r.generator) << ".</footer>\n</body>\n</html>\n";
}

void writeComparisonReportFile(const ComparisonReport& r, const std::string& path) {
  report::writePageFile(path, [&](std::ostream& out) { writeComparisonReport(r, out); });
}

}  // namespace rudp::cmp
