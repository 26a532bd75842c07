// The problems of one connection: stalls (with the retransmissions and loss
// bursts that happened during them), timeout retransmission runs and long
// loss bursts outside stalls, RTT over the highest limit, and high loss.
#pragma once
#include <array>
#include <vector>

#include "report/problems.h"
#include "report/retransmission_runs.h"
#include "report/time_spans.h"

namespace rudp::report {

// Problems below these are not worth a user's attention.
struct ProblemThresholds {
  uint32_t min_timeout_run = 2;        // timeout copies of one seq in a row
  uint32_t long_loss_burst = 5;        // consecutive lost seqs
  double min_share_over_limit = 0.01;  // of RTT samples above the highest limit
  uint64_t min_samples_over_limit = 3;
  double min_loss_fraction = 0.01;
};

class ConnectionProblems {
 public:
  ConnectionProblems(StoreReader& reader, const ConnectionRecord& conn, int64_t captureStartNs,
                     const AnalysisSettings& settings, const ProblemThresholds& thresholds = {});
  std::vector<Problem> find();

 private:
  // A run of consecutive lost seqs placed on the timeline.
  struct Burst {
    int64_t start_ns = 0, end_ns = 0;
    uint32_t count = 0, first_seq = 0;
    uint64_t frame = 0;
  };
  void findInDirection(Direction d);
  Burst toBurst(const ana::LossEvent& ev, Direction d);
  std::vector<Burst> longBursts(Direction d);
  bool insideStall(Direction d, int64_t from_ns, int64_t to_ns) const;
  void addStall(const ana::StallEvent& s, const std::vector<RetransmissionRun>& runs,
                const std::vector<Burst>& bursts);
  void addRun(const RetransmissionRun& r);
  void addBurst(Direction d, const Burst& b);
  void addRttOverLimit(Direction d);
  void addHighLoss(Direction d);
  void addRateChange(const ana::RateChangeEvent& e);
  Problem at(ProblemKind kind, Direction d, int64_t start_ns, int64_t end_ns, uint64_t frame) const;
  std::string prefix() const;
  double medianGapMs(Direction d) const;
  const ana::DirectionMetrics& metrics(Direction d) const;

  StoreReader& reader_;
  const ConnectionRecord& conn_;
  int64_t start_ns_;
  const AnalysisSettings& settings_;
  ProblemThresholds thr_;
  std::array<TimeSpans, 2> stalls_;  // by direction
  std::vector<Problem> out_;
};

}  // namespace rudp::report
