// Everything the connection timeline draws, for both directions of one
// connection, read once from the store. A value: load it on a worker thread
// and hand it to the UI as std::shared_ptr<const TimelineData>.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "store/records.h"
#include "widgets/lod_series.h"

namespace rudp {
class StoreReader;
}

namespace rudp::gui {

struct RetxMark {
  int64_t ts_ns = 0;
  uint64_t frame = 0;
  int64_t seq = 0;  // unwrapped, relative to DirectionTimeline::seqBase
  uint32_t raw_seq = 0;
  ana::RetxCause cause{};
  uint64_t original_frame = 0;
  uint32_t attempt = 2;
  double since_previous_ms = -1;
};

// A run of lost seqs, placed at the capture time of its first lost copy when
// the capture holds it (the loss happened after it), else when it was settled.
struct LossMark {
  int64_t ts_ns = 0;
  int64_t settled_ns = 0;
  uint64_t frame = 0;  // the lost copy when captured, else the packet that settled it
  uint32_t first_seq = 0;
  uint32_t count = 1;
};

struct TimeBand {
  int64_t start_ns = 0, end_ns = 0;
};

// Head-of-line blocking while one seq is recovered: from its original copy to
// its last copy (spurious copies left out: that data had arrived).
struct RecoveryBand {
  int64_t start_ns = 0, end_ns = 0;
  uint32_t seq = 0;
  uint64_t original_frame = 0, last_frame = 0;
  uint32_t copies = 0;  // retransmissions of this seq
};

// One direction's data (the direction whose data the events are about).
struct DirectionTimeline {
  LodSeries rtt, srtt, rto;                       // ms; frame = the packet carrying the ack
  std::vector<RetxMark> retransmissions;          // by time
  std::vector<LossMark> losses;                   // by time
  std::vector<ana::StallEvent> stalls;            // by start
  std::vector<ana::RateChangeEvent> rateChanges;  // drops and bursts of a ticking stream, by start
  std::vector<RecoveryBand> recoveries;           // by start
  std::vector<TimeBand> recoveryUnion;            // the recoveries merged, for drawing
  LodSeries packetRate, byteRate;                 // per second, steps of rate_bucket_ns
  // tcptrace's graph: seqs relative to seqBase (unwrapped), the other
  // direction's acks in the same space.
  LodSeries seqSent, seqRetransmitted, seqAcked;
  int64_t seqBase = 0;
  // A flow analysed from timing alone: each packet's gap to the previous
  // packet of its direction (ms), drawn in the sequence lane instead.
  LodSeries gaps;
  bool seqFound = false;   // a counter was inferred from the payloads: losses are from it
  bool echoFound = false;  // and the other side's echo of it: RTT samples are from them
  bool spinRtt = false;    // QUIC left encrypted: its RTT samples are from the spin bit
};

struct FrameTime {
  uint64_t frame = 0;
  int64_t ts_ns = 0;
};

struct TimelineData {
  int64_t conn = 0;
  int64_t origin_ns = 0;                    // the capture's first frame: axis times are relative to it
  bool origin_is_connection_start = false;  // origin_ns is the connection's first packet (Compare page)
  int64_t first_ns = 0, last_ns = 0;        // the connection's first and last packet
  int64_t rate_bucket_ns = 100'000'000;
  std::vector<double> rttLimitsMs;  // the limits the database was analysed with
  std::array<DirectionTimeline, 2> dir;
  std::vector<FrameTime> frames;  // every packet of the connection, by frame
  // A live capture's: the view carries no sequence series, which come from
  // the file once the capture stops.
  bool sequence_after_stop = false;
  // No dissector claims the connection: no seqs, RTT or losses, only timing.
  bool timing_only = false;
  // QUIC whose 1-RTT packets stay encrypted (no key log for it): timing and
  // RTT only, as above, but its RTT comes from the handshake or the spin bit.
  bool encrypted = false;
  // The sequence lane shows each packet's gap to the previous one.
  bool gapsOnly() const { return timing_only || encrypted; }

  const DirectionTimeline& of(Direction d) const { return dir[static_cast<size_t>(d)]; }
  std::optional<int64_t> timeOfFrame(uint64_t frame) const;
};

// Reads one connection (both directions) and builds the pyramids. Blocking;
// call it off the UI thread with that thread's own StoreReader.
TimelineData loadTimelineData(StoreReader& reader, int64_t conn);

}  // namespace rudp::gui
