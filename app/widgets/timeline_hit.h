// What is under a point of the timeline.
#pragma once
#include <QString>
#include <cstdint>

#include "widgets/timeline_layout.h"

namespace rudp::gui {

enum class HitKind {
  RttSample,
  RetransmissionTimeout,
  RetransmissionFast,
  RetransmissionSpurious,
  Loss,
  StallBand,
  RecoveryBand,
  RateChangeBand,  // a drop or burst of a ticking stream, in the rate lanes
  SeqPoint,        // a sent or retransmitted seq, or an ack, in the sequence graph
};
const char* toString(HitKind k);

struct TimelineHit {
  HitKind kind = HitKind::RttSample;
  Lane lane = Lane::Rtt;
  uint64_t frame = 0;  // the packet to select
  int64_t ts_ns = 0;   // the mark's or point's time (a band's start)
  double value = 0;    // its value in the lane's unit (RTT ms, relative seq; a band's length in ms)
  QString text;        // one line for the tooltip
};

}  // namespace rudp::gui
