// Builds a TimelineData from analysis events: the store's (loadTimelineData)
// or what a live capture has found so far (the live timeline). The same
// series, marks and bands either way; the packets (sequence graph, loss
// placement on the lost copy) are added only when they are known.
#pragma once
#include <climits>
#include <cstdint>
#include <vector>

#include "analyzers/events.h"
#include "widgets/timeline_data.h"

namespace rudp::gui {

// One direction's analysis events (the direction whose data they concern).
using DirectionEvents = ana::EventLists;

class TimelineBuilder {
 public:
  // `origin_ns`: the capture's first frame; [first_ns, last_ns]: the
  // connection's packets.
  TimelineBuilder(int64_t conn, int64_t origin_ns, int64_t first_ns, int64_t last_ns,
                  std::vector<double> rttLimitsMs);

  // RTT series, rates, retransmission marks and stalls now; the losses wait
  // for finish() (they are placed on their lost copy when its frame is known).
  void setEvents(Direction d, DirectionEvents events);
  // A live capture's connection: its newest packet so far, whose rate bucket
  // may not be reported yet (call before setEvents).
  void setLastPacket(int64_t ns) { m_lastPacketNs = ns; }
  // For adding the packets (frames, sequence graph) before finish().
  TimelineData& data() { return m_data; }
  // Places the losses and builds the recovery bands.
  TimelineData finish();

 private:
  TimelineData m_data;
  std::array<std::vector<ana::LossEvent>, 2> m_losses;
  int64_t m_lastPacketNs = INT64_MIN;  // a finished connection: every bucket reported
};

}  // namespace rudp::gui
