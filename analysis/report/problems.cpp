#include "report/problems.h"

#include <algorithm>

#include "report/capture_problems.h"
#include "report/connection_problems.h"
#include "store/store_reader.h"

namespace rudp {

const char* toString(ProblemKind k) {
  switch (k) {
    case ProblemKind::Stall: return "stall";
    case ProblemKind::RetransmissionRun: return "retransmission run";
    case ProblemKind::LossBurst: return "loss burst";
    case ProblemKind::RttOverLimit: return "RTT over limit";
    case ProblemKind::HighLoss: return "high loss";
    case ProblemKind::CaptureWarning: return "capture warning";
  }
  return "problem";
}

// Severity is defined in report/severity.h (milliseconds of harm).
std::vector<Problem> findProblems(StoreReader& reader) {
  const CaptureInfo capture = reader.capture();
  const AnalysisSettings settings = reader.settings();
  std::vector<Problem> out = report::captureProblems(reader, capture);
  // One record at a time: memory follows the problems, not the connections.
  reader.forEachConnectionRecord([&](const ConnectionRecord& r) {
    std::vector<Problem> found = report::ConnectionProblems(reader, r, capture.first_ts_ns, settings).find();
    out.insert(out.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
  });
  std::stable_sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    if (a.conn != b.conn) return a.conn < b.conn;
    return a.dir < b.dir;
  });
  return out;
}

}  // namespace rudp
