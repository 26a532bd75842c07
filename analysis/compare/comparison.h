// What the Compare views and `rudpscope-cli compare` show for one direction
// of one connection: the figures game engineers compare stacks by, read from
// a finished database (StoreReader; no SQL here).
#pragma once
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "compare/labels.h"
#include "flow/connection.h"

namespace rudp {
class StoreReader;
}

namespace rudp::cmp {

inline constexpr double kNone =
    std::numeric_limits<double>::quiet_NaN();  // a share or ratio with nothing to divide

struct Distribution {  // ms; all 0 when count is 0
  uint64_t count = 0;
  double mean = 0, p50 = 0, p95 = 0, p99 = 0, max = 0;
};

struct DirectionComparison {
  // Which connection and direction (the direction whose data the figures are about).
  std::string capture;  // capture file path
  Labels labels;
  int64_t conn = 0;
  std::string protocol, client, server;
  Direction dir{};
  double duration_s = 0;  // the connection's first to last packet
  // The capture was taken at this direction's receiver: its "round trips"
  // are the receiver's own ack delay, and a lost original never reached the
  // capture, so RTT, response time and loss recovery are not measured there
  // (their metrics are kNone; receiverSideWarnings says so).
  bool at_receiver = false;

  Distribution rtt;  // the analysis' RTT samples (Karn's rule: data sent once)
  // Message response time (DirectionMetrics::response): from the first
  // captured copy of a reliable message to the first ack covering it, lost
  // and repaired ones included. Its share above each of the analysis' RTT
  // limits (AnalysisSettings::rtt_limits_ms, 150/250/300 ms by default):
  Distribution response;
  std::vector<std::pair<double, double>> response_share;  // (limit ms, share 0..1)

  uint64_t data_packets = 0, retransmissions = 0;
  uint64_t retx_timeout = 0, retx_fast = 0, retx_spurious = 0, retx_inferred = 0;
  double fast_share = kNone;      // fast / (fast + timeout)
  double spurious_share = kNone;  // spurious / retransmissions
  // Per recovered loss (a seq retransmitted at least once, not only
  // spuriously, whose original copy was captured): from the original copy to
  // its last copy, the repair that got through.
  Distribution loss_recovery;
  std::vector<double> recovery_samples_ms;  // its samples, one per recovered loss, ascending
  uint64_t unmeasured_recoveries = 0;       // retransmitted seqs whose original was not captured

  uint64_t lost = 0;
  double loss_percent = kNone;               // lost / data_packets * 100
  std::map<uint32_t, uint64_t> loss_bursts;  // burst length -> count
  double mean_loss_burst = 0;

  uint64_t stalls = 0;
  double stalls_per_minute = kNone;  // over duration_s
  double longest_stall_ms = 0;

  bool hol_observable = false;
  double hol_blocking_ms = 0, hol_max_ms = 0;

  uint64_t packets = 0, bytes = 0;  // wire
  uint64_t payload_bytes = 0, retransmitted_payload_bytes = 0;
  bool payload_known = true;   // false: QUIC, whose stream bytes the store does not hold per packet yet
  double throughput_kbps = 0;  // wire bits per second / 1000 over duration_s
  double goodput_kbps = 0;     // payload bits not retransmitted per second / 1000; kNone when not known
};

// Share of response times strictly above `limit_ms`: kNone with no sample or
// when `limit_ms` is not one of the analysis' limits.
double shareAbove(const DirectionComparison& d, double limit_ms);

// Why a direction captured at its receiver shows no round-trip figures.
std::string receiverSideNote(Direction dir);
// One line when some of the rows of `dir` were captured at their receiver
// ("s2c of 3 of 5 captures (a.pcap, ...) was captured at the receiver of its
// data ..."), else none.
std::vector<std::string> receiverSideWarnings(const std::vector<DirectionComparison>& rows, Direction dir);

// Both directions of every analysed connection of the database, in
// connection order (c2s first). Throws StoreError as StoreReader does.
std::vector<DirectionComparison> compareConnections(StoreReader& db, const std::string& capture,
                                                    const Labels& labels);

}  // namespace rudp::cmp
