#include "report/problems.h"

#include <algorithm>

#include "report/capture_problems.h"
#include "report/connection_problems.h"
#include "report/severity.h"
#include "report/wording.h"
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
    case ProblemKind::NotDecoded: return "not decoded";
    case ProblemKind::RateChange: return "rate change";
  }
  return "problem";
}

namespace {

// The flows analysed from timing alone, biggest first: one line, so the list
// never reads as an all-clear about traffic nothing could decode; and each
// QUIC connection left encrypted, saying what to give.
class NotDecodedFlows {
 public:
  void add(const ConnectionRecord& r) {
    if (r.has_analysis && r.metrics.encrypted) encrypted_.push_back(r.summary);
    if (!r.has_analysis || !r.metrics.timing_only) return;
    const uint64_t packets = r.summary.dir[0].packets + r.summary.dir[1].packets;
    flows_.push_back({packets, r.summary.id, r.summary.first_ts_ns, report::connectionLabel(r.summary)});
  }
  void addTo(std::vector<Problem>& out) {
    for (const ConnectionSummary& c : encrypted_) {  // one line each: what to give
      Problem p;
      p.kind = ProblemKind::NotDecoded;
      p.severity = report::kNotDecodedSeverity;
      p.conn = c.id;
      p.start_ns = p.end_ns = c.first_ts_ns;
      p.text = "QUIC, encrypted: give the key log to analyse it (-o tls.keylog_file:FILE): " +
               report::connectionLabel(c);
      out.push_back(std::move(p));
    }
    addTimingOnly(out);
  }

 private:
  void addTimingOnly(std::vector<Problem>& out) {
    if (flows_.empty()) return;
    std::stable_sort(flows_.begin(), flows_.end(),
                     [](const Flow& a, const Flow& b) { return a.packets > b.packets; });
    Problem p;
    p.kind = ProblemKind::NotDecoded;
    p.severity = report::kNotDecodedSeverity;
    p.conn = flows_.size() == 1 ? flows_.front().id : 0;
    p.start_ns = p.end_ns = flows_.front().first_ts_ns;
    p.text = report::format("%zu UDP flow%s not decoded (timing only: no dissector claims ", flows_.size(),
                            flows_.size() == 1 ? "" : "s");
    p.text += flows_.size() == 1 ? "it" : "them";
    p.text +=
        "; stalls come from timing, loss and RTT only from a counter and its echo found in the "
        "payloads): ";
    const size_t shown = std::min<size_t>(flows_.size(), 3);
    for (size_t i = 0; i < shown; ++i)
      p.text += (i ? ", " : "") + flows_[i].label +
                report::format(", %llu packets", (unsigned long long)flows_[i].packets);
    if (flows_.size() > shown) p.text += report::format(" and %zu more", flows_.size() - shown);
    out.push_back(std::move(p));
  }

  struct Flow {
    uint64_t packets;
    int64_t id, first_ts_ns;
    std::string label;
  };
  std::vector<Flow> flows_;
  std::vector<ConnectionSummary> encrypted_;  // QUIC connections left encrypted
};

}  // namespace

// Severity is defined in report/severity.h (milliseconds of harm).
std::vector<Problem> findProblems(StoreReader& reader) {
  const CaptureInfo capture = reader.capture();
  const AnalysisSettings settings = reader.settings();
  std::vector<Problem> out = report::captureProblems(reader, capture);
  NotDecodedFlows notDecoded;
  // One record at a time: memory follows the problems, not the connections.
  reader.forEachConnectionRecord([&](const ConnectionRecord& r) {
    std::vector<Problem> found = report::ConnectionProblems(reader, r, capture.first_ts_ns, settings).find();
    out.insert(out.end(), std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    notDecoded.add(r);
  });
  notDecoded.addTo(out);
  std::stable_sort(out.begin(), out.end(), [](const Problem& a, const Problem& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    if (a.conn != b.conn) return a.conn < b.conn;
    return a.dir < b.dir;
  });
  return out;
}

}  // namespace rudp
