#include "compare/matrix.h"

#include <algorithm>
#include <charconv>
#include <optional>
#include <ostream>
#include <set>
#include <tuple>

#include "compare/csv_text.h"
#include "compare/metric_list.h"
#include "report/wording.h"

namespace rudp::cmp {
namespace {

std::optional<double> number(const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

// Numbers in numeric order before other text in text order.
bool labelLess(const std::string& a, const std::string& b) {
  const auto na = number(a), nb = number(b);
  if (na && nb) return *na < *nb;
  if (na || nb) return na.has_value();
  return a < b;
}

std::string labelOf(const Labels& labels, const std::string& key) {
  if (key.empty()) return {};
  const auto it = labels.find(key);
  return it == labels.end() ? std::string() : it->second;
}

std::vector<std::string> capturesInOrder(const std::vector<DirectionComparison>& rows) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const auto& r : rows)
    if (seen.insert(r.capture).second) out.push_back(r.capture);
  return out;
}

MatrixLine& lineOf(Matrix& m, const std::string& panel, const std::string& group) {
  auto p =
      std::find_if(m.panels.begin(), m.panels.end(), [&](const MatrixPanel& x) { return x.panel == panel; });
  if (p == m.panels.end()) p = m.panels.insert(m.panels.end(), MatrixPanel{panel, {}});
  auto l =
      std::find_if(p->lines.begin(), p->lines.end(), [&](const MatrixLine& x) { return x.group == group; });
  if (l == p->lines.end()) l = p->lines.insert(p->lines.end(), MatrixLine{group, {}});
  return *l;
}

// Why a share_over_N metric has no value for `row`: the analysis counted
// other limits.
std::optional<std::string> unmeasuredShare(const DirectionComparison& row, const std::string& key) {
  const auto limit = shareLimit(key);
  if (!limit || row.response_share.empty()) return std::nullopt;
  std::string limits;
  for (const auto& [l, share] : row.response_share) {
    if (l == *limit) return std::nullopt;
    limits += (limits.empty() ? "" : ", ") + report::format("%g", l);
  }
  return "analysed with response limits " + limits + " ms, not " + report::format("%g", *limit) +
         " (analyse it again with --rtt-limits including " + report::format("%g", *limit) + ")";
}

void sortMatrix(Matrix& m) {
  std::sort(m.panels.begin(), m.panels.end(),
            [](const MatrixPanel& a, const MatrixPanel& b) { return labelLess(a.panel, b.panel); });
  for (auto& p : m.panels) {
    std::sort(p.lines.begin(), p.lines.end(),
              [](const MatrixLine& a, const MatrixLine& b) { return labelLess(a.group, b.group); });
    for (auto& l : p.lines)
      std::stable_sort(l.points.begin(), l.points.end(),
                       [](const MatrixPoint& a, const MatrixPoint& b) { return a.x < b.x; });
  }
}

}  // namespace

const DirectionComparison* busiest(const std::vector<DirectionComparison>& rows, const std::string& capture,
                                   Direction dir) {
  const DirectionComparison* best = nullptr;
  for (const auto& r : rows) {
    if (r.capture != capture || r.dir != dir) continue;
    if (!best || std::tie(r.data_packets, r.packets) > std::tie(best->data_packets, best->packets)) best = &r;
  }
  return best;
}

Matrix buildMatrix(const std::vector<DirectionComparison>& rows, const MatrixRequest& request) {
  const MetricInfo info = metric(request.metric);
  Matrix m;
  m.request = request;
  for (const auto& capture : capturesInOrder(rows)) {
    const DirectionComparison* row = busiest(rows, capture, request.dir);
    if (!row) {
      m.skipped.push_back(capture + ": no analysed connection with data in that direction");
      continue;
    }
    const std::string xText = labelOf(row->labels, request.x);
    const auto x = number(xText);
    if (!x) {
      m.skipped.push_back(capture + (xText.empty()
                                         ? ": no label '" + request.x + "'"
                                         : ": label " + request.x + "=" + xText + " is not a number"));
      continue;
    }
    if (const auto why = unmeasuredShare(*row, request.metric)) {
      m.skipped.push_back(capture + ": " + *why);
      continue;
    }
    MatrixLine& line = lineOf(m, labelOf(row->labels, request.panel), labelOf(row->labels, request.group));
    line.points.push_back({*x, info.value(*row), capture, row->conn});
  }
  sortMatrix(m);
  return m;
}

void writeMatrixCsv(std::ostream& out, const Matrix& matrix) {
  const auto& q = matrix.request;
  out << "panel:" << csvField(q.panel) << ",group:" << csvField(q.group) << ",x:" << csvField(q.x) << ","
      << csvField(q.metric) << ",capture,conn\n";
  for (const auto& p : matrix.panels)
    for (const auto& l : p.lines)
      for (const auto& pt : l.points)
        out << csvField(p.panel) << "," << csvField(l.group) << "," << exactNumber(pt.x) << ","
            << exactNumber(pt.y) << "," << csvField(pt.capture) << "," << pt.conn << "\n";
}

}  // namespace rudp::cmp
