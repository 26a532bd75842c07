// Runs of consecutive losses in one direction: each finished run is one
// bar of the burst histogram (DirectionMetrics::loss_bursts) and one
// LossEvent, the same way for every analyzer.
#pragma once
#include <cstdint>

#include "analyzers/events.h"
#include "analyzers/metrics.h"

namespace rudp::ana {

// One finished run: counted, and reported to the sink.
inline void recordLossBurst(DirectionMetrics& m, EventSink* sink, const LossEvent& burst) {
  ++m.loss_bursts[burst.count];
  if (sink) sink->onLoss(burst);
}

// The run still growing.
class LossRun {
 public:
  bool open() const { return count_ > 0; }
  // `seq` is the one right after the run's last.
  bool continuedBy(uint32_t seq) const { return open() && seq == first_ + count_; }
  void start(uint32_t first, uint64_t first_frame) {
    first_ = first;
    count_ = 1;
    frame_ = first_frame;
  }
  void extend() { ++count_; }
  // Ends the open run, if any, as known at `frame`/`ns`; `mask` cuts its
  // first seq to the protocol's width.
  void end(DirectionMetrics& m, EventSink* sink, Direction dir, uint64_t frame, int64_t ns,
           uint32_t mask = ~0u) {
    if (!open()) return;
    recordLossBurst(m, sink, LossEvent{frame, ns, dir, first_ & mask, count_, frame_});
    count_ = 0;
  }

 private:
  uint32_t first_ = 0, count_ = 0;
  uint64_t frame_ = 0;
};

}  // namespace rudp::ana
