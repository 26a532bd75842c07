#include "jobs/capture_overview.h"

#include <map>

#include "store/store_reader.h"

namespace rudp::gui {

namespace {

// The capture's vantage is the one most of its connections were judged to
// have (each connection is judged from its own traffic).
void pickVantage(CaptureOverview& overview) {
  std::map<rudp::ana::Vantage, size_t> counts;
  for (const rudp::ConnectionRecord& c : overview.connections)
    if (c.has_analysis && c.metrics.vantage != rudp::ana::Vantage::Unknown) ++counts[c.metrics.vantage];
  for (const auto& [vantage, count] : counts) {
    if (count <= overview.vantageConnections) continue;
    overview.vantage = vantage;
    overview.vantageConnections = count;
  }
}

}  // namespace

CaptureOverview loadCaptureOverview(rudp::StoreReader& reader) {
  CaptureOverview overview;
  overview.capture = reader.capture();
  overview.settings = reader.settings();
  overview.connections = reader.connectionRecords();
  overview.problems = rudp::findProblems(reader);
  pickVantage(overview);
  return overview;
}

int64_t worstConnection(const CaptureOverview& overview) {
  for (const rudp::Problem& p : overview.problems)
    if (p.conn != 0) return p.conn;
  return overview.connections.empty() ? 0 : overview.connections.front().summary.id;
}

}  // namespace rudp::gui
