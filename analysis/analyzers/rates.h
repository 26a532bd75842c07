// Packets and bytes per 100 ms of one direction, streamed to the sink as
// each bucket closes (O(1) per packet, no history kept).
#pragma once
#include "analyzers/events.h"

namespace rudp::ana {

class RateTracker {
 public:
  static constexpr int64_t kBucketNs = 100000000;
  explicit RateTracker(Direction dir) { cur_.dir = dir; }
  void add(int64_t ns, uint32_t bytes, EventSink* sink) {
    const int64_t start = floorBucket(ns);
    if (cur_.packets && start != cur_.start_ns) flush(sink);
    cur_.start_ns = start;
    ++cur_.packets;
    cur_.bytes += bytes;
  }
  void flush(EventSink* sink) {
    if (cur_.packets && sink) sink->onRate(cur_);
    cur_.packets = 0;
    cur_.bytes = 0;
  }

 private:
  static int64_t floorBucket(int64_t ns) {
    const int64_t q = ns / kBucketNs;
    return (ns < 0 && q * kBucketNs != ns ? q - 1 : q) * kBucketNs;
  }
  RateEvent cur_;
};

}  // namespace rudp::ana
