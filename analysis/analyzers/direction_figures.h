// The figures every analyzer's finish() derives the same way from one
// direction's trackers: RTT and response times as the vantage lets them be
// read, the gaps between packets, the mean loss burst, and whether
// head-of-line blocking can be seen from the capture point.
#pragma once
#include "analyzers/jitter.h"
#include "analyzers/metrics.h"
#include "analyzers/rtt.h"
#include "analyzers/vantage.h"

namespace rudp::ana {

inline void fillDirectionFigures(DirectionMetrics& m, Direction dir, Vantage vantage, RttTracker& rtt,
                                 ResponseTracker& response, const JitterTracker& gaps) {
  const RttSpan span = spanFor(vantage, dir);
  rtt.fill(m.rtt, span);
  response.fill(m.response, span);
  gaps.fill(m.gaps);
  m.mean_loss_burst = meanLossBurst(m.loss_bursts);
  m.hol_observable = !atSender(vantage, dir) && vantage != Vantage::Unknown;
}

}  // namespace rudp::ana
