// Per-direction and per-connection results returned by finish().
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "analyzers/counter_inference.h"
#include "analyzers/events.h"

namespace rudp::ana {

struct RttStats {
  uint64_t samples = 0;
  double min = 0, p50 = 0, p95 = 0, p99 = 0, max = 0, mean = 0;  // ms
  std::array<double, 3> share_above{};  // fraction of samples above cfg.rtt_limits_ms
  double srtt = 0, rto = 0;             // last RFC 6298 values
  RttSpan span = RttSpan::Unknown;      // what the samples measure (final vantage)
  bool exact_percentiles = true;        // false: 0.1 ms histogram (see percentiles.h)
};

struct GapStats {
  uint64_t samples = 0;
  double p50 = 0, p95 = 0, p99 = 0, max = 0;  // ms between consecutive packets
  double tick_hz = 0;                         // detected send rate, 0 if none
};

struct DirectionMetrics {
  uint64_t packets = 0, bytes = 0;  // datagrams and wire bytes
  uint64_t data_packets = 0;        // packets consuming a seq (all copies)
  uint64_t retransmissions = 0;
  uint64_t retransmissions_timeout = 0, retransmissions_fast = 0, retransmissions_spurious = 0;
  uint64_t retransmissions_inferred = 0;     // of which the earlier copies were not captured
  uint64_t lost = 0;                         // seqs never delivered (contract_analyzer.h says when)
  uint64_t loss_unknown = 0;                 // seqs whose fate the capture cannot tell
  std::map<uint32_t, uint64_t> loss_bursts;  // burst length -> count
  double mean_loss_burst = 0;
  uint64_t reordered = 0;
  uint64_t duplicates = 0;          // copies of seqs the receiver already had
  uint64_t network_duplicates = 0;  // the same copy (same ts) captured twice
  RttStats rtt;
  // First captured copy to the first ack covering it, for every reliable seq
  // (TCP: segment) whose first copy was its original; srtt/rto unused.
  RttStats response;
  // RFC 3550 interarrival jitter; none without two packets carrying the
  // sender's timestamp (a protocol without one, TCP without the option).
  std::optional<double> jitter_ms;
  GapStats gaps;
  std::vector<StallEvent> stalls;  // also streamed to the sink
  double hol_blocking_ms = 0;      // sum over ordered reliable packets of their wait
  double hol_max_ms = 0;
  uint64_t hol_blocked_packets = 0;
  bool hol_observable = false;       // capture at (or near) the receiver of this direction
  uint32_t min_window = UINT32_MAX;  // smallest advertised window seen from the receiver
  // A flow analysed from timing alone: the sequence counter inferred from its
  // payloads (counter_inference.h); when found, lost, duplicates, reordered
  // and the loss bursts are read from it (inferred, before the capture). A
  // sender timestamp gives jitter_ms; this direction's field echoing the
  // other's counter gives the other direction's rtt (field_inference.h).
  InferredField seq_field, ts_field, ack_field;
  // A flow analysed from timing alone, with a tick: its rate drops and
  // bursts (rate_watch.h), by start.
  std::vector<RateChangeEvent> rate_changes;
};

// Mean length of the runs in a loss-burst histogram (length -> count); 0 for none.
inline double meanLossBurst(const std::map<uint32_t, uint64_t>& bursts) {
  uint64_t runs = 0, total = 0;
  for (const auto& [len, count] : bursts) runs += count, total += uint64_t{len} * count;
  return runs ? double(total) / double(runs) : 0;
}

struct ConnectionMetrics {
  // A flow no dissector claimed (timing_analyzer.h): only packets, bytes,
  // gaps, rates and silences are known; loss, RTT and retransmissions are not.
  bool timing_only = false;
  // QUIC whose 1-RTT packets could not be opened (no key log for it): the
  // timing figures (packets, bytes, gaps, rates, silences) and the RTT of
  // the Initial and Handshake packets are known, not losses or resends.
  bool encrypted = false;
  // The figures that need the protocol's headers (retransmissions, losses,
  // jitter, ...) were measured: never a 0 that was not.
  bool headersRead() const { return !timing_only && !encrypted; }
  Vantage vantage = Vantage::Unknown;
  double handshake_ms = -1;             // CONNECT .. the client's ack of ACCEPT (SYN .. ACK); -1 none
  uint32_t connect_attempts = 0;        // CONNECT / SYN copies
  bool disconnected = false;            // DISCONNECT / FIN / RST seen
  std::array<DirectionMetrics, 2> dir;  // indexed by Direction
};

}  // namespace rudp::ana
