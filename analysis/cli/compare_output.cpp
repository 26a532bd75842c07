#include "cli/compare_output.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <set>

#include "compare/csv_text.h"
#include "compare/metric_list.h"

namespace rudp::cli {
namespace {

using cmp::csvField;
using cmp::DirectionComparison;
using nlohmann::json;

const char* dirName(Direction d) { return d == Direction::ClientToServer ? "c2s" : "s2c"; }

std::string shown(double v, const std::string& unit) {
  if (std::isnan(v)) return "–";
  char buf[32];
  std::snprintf(buf, sizeof buf, unit.empty() ? "%.0f" : "%.2f", v);
  return buf;
}

std::set<std::string> labelKeys(const std::vector<DirectionComparison>& rows) {
  std::set<std::string> keys;
  for (const auto& r : rows)
    for (const auto& [k, v] : r.labels) keys.insert(k);
  return keys;
}

json number(double v) { return std::isnan(v) ? json(nullptr) : json(v); }

json distributionJson(const cmp::Distribution& d) {
  const bool any = d.count > 0;
  return {{"count", d.count},
          {"mean", any ? json(d.mean) : json(nullptr)},
          {"p50", any ? json(d.p50) : json(nullptr)},
          {"p95", any ? json(d.p95) : json(nullptr)},
          {"p99", any ? json(d.p99) : json(nullptr)},
          {"max", any ? json(d.max) : json(nullptr)}};
}

std::string columnTitle(const DirectionComparison& c) {
  const std::string labels = cmp::labelText(c.labels);
  return (labels.empty() ? c.capture : labels) + " #" + std::to_string(c.conn) + " " + dirName(c.dir);
}

}  // namespace

std::vector<const DirectionComparison*> comparedColumns(const std::vector<DirectionComparison>& rows,
                                                        Direction dir) {
  std::vector<const DirectionComparison*> out;
  std::set<std::string> seen;
  for (const auto& r : rows) {
    if (!seen.insert(r.capture).second) continue;
    if (const auto* b = cmp::busiest(rows, r.capture, dir)) out.push_back(b);
  }
  return out;
}

void printComparisonTable(std::ostream& out, const std::vector<const DirectionComparison*>& columns) {
  for (size_t i = 0; i < columns.size(); ++i) out << "[" << i + 1 << "] " << columnTitle(*columns[i]) << "\n";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-44s", "metric");
  out << buf;
  for (size_t i = 0; i < columns.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%12s", ("[" + std::to_string(i + 1) + "]").c_str());
    out << buf;
  }
  out << "\n";
  for (const auto& m : cmp::comparisonMetrics()) {
    const std::string title = m.title + (m.unit.empty() ? "" : " (" + m.unit + ")");
    std::snprintf(buf, sizeof buf, "%-44s", title.c_str());
    out << buf;
    for (const auto* c : columns) {
      std::snprintf(buf, sizeof buf, "%12s", shown(m.value(*c), m.unit).c_str());
      out << buf;
    }
    out << "\n";
  }
}

void printMatrix(std::ostream& out, const cmp::Matrix& matrix) {
  const cmp::MetricInfo info = cmp::metric(matrix.request.metric);
  out << "matrix: " << info.title << (info.unit.empty() ? "" : " (" + info.unit + ")") << " against "
      << matrix.request.x << ", " << dirName(matrix.request.dir) << "\n";
  for (const auto& p : matrix.panels) {
    if (!matrix.request.panel.empty()) out << "  " << matrix.request.panel << "=" << p.panel << "\n";
    for (const auto& l : p.lines) {
      out << "    " << (matrix.request.group.empty() ? "all" : matrix.request.group + "=" + l.group) << ":";
      for (const auto& pt : l.points)
        out << "  " << cmp::exactNumber(pt.x) << " -> " << shown(pt.y, info.unit);
      out << "\n";
    }
  }
  for (const auto& s : matrix.skipped) out << "  left out: " << s << "\n";
}

void writeComparisonCsv(std::ostream& out, const std::vector<DirectionComparison>& rows) {
  const auto keys = labelKeys(rows);
  out << "capture";
  for (const auto& k : keys) out << "," << csvField(k);
  out << ",conn,protocol,client,server,dir";
  for (const auto& m : cmp::comparisonMetrics()) out << "," << m.key;
  out << "\n";
  for (const auto& r : rows) {
    out << csvField(r.capture);
    for (const auto& k : keys) {
      const auto it = r.labels.find(k);
      out << "," << (it == r.labels.end() ? std::string() : csvField(it->second));
    }
    out << "," << r.conn << "," << csvField(r.protocol) << "," << csvField(r.client) << ","
        << csvField(r.server) << "," << dirName(r.dir);
    for (const auto& m : cmp::comparisonMetrics()) out << "," << cmp::exactNumber(m.value(r));
    out << "\n";
  }
}

json comparisonJson(const std::vector<DirectionComparison>& rows) {
  json out = json::array();
  for (const auto& r : rows) {
    json j = {{"capture", r.capture},
              {"labels", r.labels},
              {"conn", r.conn},
              {"protocol", r.protocol},
              {"client", r.client},
              {"server", r.server},
              {"dir", dirName(r.dir)},
              {"duration_s", r.duration_s},
              {"unmeasured_recoveries", r.unmeasured_recoveries},
              {"payload_bytes", r.payload_known ? json(r.payload_bytes) : json(nullptr)},
              {"retransmitted_payload_bytes",
               r.payload_known ? json(r.retransmitted_payload_bytes) : json(nullptr)}};
    json bursts = json::object();
    for (const auto& [len, n] : r.loss_bursts) bursts[std::to_string(len)] = n;
    j["loss_bursts"] = bursts;
    j["rtt_ms"] = distributionJson(r.rtt);
    j["response_ms"] = distributionJson(r.response);
    j["loss_recovery_ms"] = distributionJson(r.loss_recovery);
    for (const auto& m : cmp::comparisonMetrics()) j[m.key] = number(m.value(r));
    out.push_back(std::move(j));
  }
  return out;
}

json matrixJson(const cmp::Matrix& matrix) {
  const auto& q = matrix.request;
  json panels = json::array();
  for (const auto& p : matrix.panels) {
    json lines = json::array();
    for (const auto& l : p.lines) {
      json points = json::array();
      for (const auto& pt : l.points)
        points.push_back({{"x", pt.x}, {"y", number(pt.y)}, {"capture", pt.capture}, {"conn", pt.conn}});
      lines.push_back({{"group", l.group}, {"points", points}});
    }
    panels.push_back({{"panel", p.panel}, {"lines", lines}});
  }
  return {{"metric", q.metric},    {"x", q.x},         {"group", q.group},         {"panel", q.panel},
          {"dir", dirName(q.dir)}, {"panels", panels}, {"skipped", matrix.skipped}};
}

json analysedJson(const std::vector<cmp::AnalysedCapture>& analysed) {
  json out = json::array();
  for (const auto& a : analysed)
    out.push_back({{"capture", a.capture}, {"db", a.db}, {"reused", a.reused}, {"warnings", a.warnings}});
  return out;
}

}  // namespace rudp::cli
