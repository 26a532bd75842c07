// Everything the Statistics page shows for one connection, read from the
// database in one go. A value: loadStatistics runs on a worker thread with
// that thread's own StoreReader, and the result crosses to the GUI thread.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "models/loss_burst_model.h"
#include "models/stalls_model.h"
#include "store/records.h"

namespace rudp {
class StoreReader;
}

namespace rudp::gui {

struct DirectionStatistics {
  bool analysed = false;       // the analysis has metrics for this direction
  bool timing_only = false;    // no dissector: RTT, loss and jitter unknown, not zero, unless
  bool counter_found = false;  // a counter found in the payloads gives the loss,
  bool clock_found = false;    // a sender clock the jitter (and the other side's echo the RTT)
  bool headers_read = true;    // false also for QUIC left encrypted (metrics.h headersRead())
  std::vector<double> rtt_ms;  // every stored RTT sample of this direction's data, in time order
  ana::RttStats rtt;           // the analysis' summary of them
  BurstHistogram loss_bursts;  // burst length -> count
  double mean_loss_burst = 0;
  uint64_t lost = 0;
  std::optional<double> jitter_ms;           // RFC 3550 interarrival jitter; none without sender timestamps
  ana::GapStats gaps;                        // packet spacing percentiles and detected tick rate
  std::vector<IcmpErrorRecord> icmp_errors;  // quoting this direction's datagrams, in frame order
};

struct StatisticsData {
  int64_t conn = 0;  // 0: no connection (empty page)
  std::string protocol, client, server;
  int64_t capture_start_ns = 0;  // CaptureInfo::first_ts_ns: times are shown relative to it
  AnalysisSettings settings;
  std::array<DirectionStatistics, 2> dir;  // indexed by Direction
  std::vector<StallRow> stalls;            // both directions, by start time

  const DirectionStatistics& of(Direction d) const { return dir[static_cast<int>(d)]; }
};

// Reads connection `conn`; an empty StatisticsData (conn == 0) when the
// database has no such connection. Throws what StoreReader throws.
StatisticsData loadStatistics(StoreReader& reader, int64_t conn);

}  // namespace rudp::gui
