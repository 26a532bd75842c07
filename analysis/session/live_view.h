// What a live capture has found so far, for a window to show while it runs:
// the pipeline publishes after every batch (every 50-100 ms while
// packets flow) and a viewer on any thread copies a snapshot. Values only;
// the database stays the record once the capture stops.
#pragma once
#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "analyzers/events.h"
#include "analyzers/metrics.h"
#include "analyzers/percentiles.h"
#include "analyzers/rtt.h"
#include "capture/live_capture.h"
#include "flow/connection.h"
#include "store/records.h"

namespace rudp {

struct RowBatch;

// One connection's analysis events so far (the most recent kMaxEvents of each kind).
using LiveEvents = ana::EventLists;

// A connection's figures so far. Per direction whose data they concern (0
// client to server), `metrics` holds what the events tell while the capture
// runs, exact so far: retransmissions (all, by cause, inferred), lost seqs
// and loss bursts, the RTT statistics (percentiles as the analyzers compute
// them, share above the limits: refreshed once a second and at the end;
// last SRTT/RTO and span) and the stalls that ended. The rest of DirectionMetrics (vantage, data packets and
// loss %, jitter, gaps, head-of-line blocking, duplicates, window) is known only at Stop and stays at its
// default here.
struct LiveConnection {
  ConnectionSummary summary;
  std::array<ana::DirectionMetrics, 2> metrics;
};

struct LiveSnapshot {
  uint64_t generation = 0;  // grows with every publish; 0: nothing yet
  bool finished = false;    // the capture stopped and its database is complete
  uint64_t packets = 0;
  int64_t first_ts_ns = 0, last_ts_ns = 0;
  LiveCounters counters;                    // file size and drops
  std::vector<LiveConnection> connections;  // by id
  int64_t watched = 0;                      // the connection `events` belong to (0: none)
  LiveEvents events;
};

class LiveView {
 public:
  static constexpr size_t kMaxEvents = 1'000'000;

  // The limits of RttStats::share_above (AnalyzerConfig::rtt_limits_ms);
  // ingestLive sets the run's.
  void setRttLimits(const std::array<double, 3>& limitsMs);
  // The connection whose events snapshots carry (any thread).
  void watch(int64_t conn);
  LiveSnapshot snapshot() const;

  // The pipeline, after each batch: its events, the connections it closed
  // and those still open (their summaries at most every 100 ms, and at the
  // `last` batch).
  void publish(const RowBatch& batch, const std::vector<std::unique_ptr<Connection>>& open,
               const CaptureInfo& info, const LiveCounters& counters, bool last = false);
  // The capture stopped and its database is complete.
  void finish();
  // A ring buffer moved to its next file: connections start again.
  void startFile();

 private:
  // Per connection and direction, what the RTT statistics are computed from.
  struct RttState {
    ana::Percentiles samples;
    bool dirty = false;
  };
  void addEvents(const RowBatch& batch);
  void updateConnection(const Connection& c);
  void updateRttStats();

  mutable std::mutex mu_;
  uint64_t generation_ = 0;
  bool finished_ = false;
  uint64_t packets_ = 0;
  int64_t first_ns_ = 0, last_ns_ = 0;
  LiveCounters counters_;
  std::map<int64_t, LiveConnection> conns_;
  std::map<int64_t, LiveEvents> events_;
  std::map<int64_t, std::array<RttState, 2>> rtt_;
  std::array<double, 3> rtt_limits_ms_{150.0, 250.0, 300.0};
  int64_t watched_ = 0;
  std::chrono::steady_clock::time_point summarised_{}, rtt_updated_{};
};

}  // namespace rudp
