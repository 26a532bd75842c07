// What one look at a running capture gives the window: its counters, a row
// per connection and the watched connection's timeline. Built off the UI
// thread from a LiveView snapshot and handed over as a value.
#pragma once
#include <QMetaType>
#include <memory>
#include <vector>

#include "capture/live_capture.h"
#include "store/records.h"
#include "widgets/timeline_data.h"

namespace rudp {
struct LiveConnection;
struct LiveSnapshot;
}  // namespace rudp

namespace rudp::gui {

struct LiveFrame {
  uint64_t generation = 0;  // the snapshot's; 0: nothing published yet
  uint64_t packets = 0;
  int64_t first_ts_ns = 0, last_ts_ns = 0;
  rudp::LiveCounters counters;                      // file size and drops
  std::vector<rudp::ConnectionRecord> connections;  // by id
  // The watched connection's events so far; null when none is watched or it
  // has not been seen yet.
  std::shared_ptr<const TimelineData> timeline;
  double buildMs = 0;  // snapshot and conversion, measured
};

// A connection row from what the live analysis knows so far: packets, bytes,
// retransmissions and losses per direction. The figures only the finished
// analysis has (RTT percentiles, causes, jitter) stay empty until Stop.
rudp::ConnectionRecord liveConnectionRecord(const rudp::LiveConnection& c);

// The watched connection's timeline (null when it has none) and every row.
LiveFrame makeLiveFrame(const rudp::LiveSnapshot& s, const std::vector<double>& rttLimitsMs);

}  // namespace rudp::gui

Q_DECLARE_METATYPE(rudp::gui::LiveFrame)
