#include "analyzers/stall.h"

namespace rudp::ana {

namespace {
constexpr size_t kMaxKept = 4096;  // bounded per connection
}

void StallTracker::begin(int64_t ns, uint64_t frame) {
  start_ns_ = ns;
  start_frame_ = frame;
  retx_ = 0;
  peer_seen_ = zero_window_ = acks_lost_ = false;
}

void StallTracker::emit(int64_t end_ns, uint64_t frame, bool open, EventSink* sink,
                        std::vector<StallEvent>& out) {
  if (!report_) return;
  StallEvent e;
  e.dir = dir_;
  e.start_ns = start_ns_;
  e.end_ns = end_ns;
  e.duration_ms = double(end_ns - start_ns_) / 1e6;
  e.first_frame = start_frame_;
  e.last_frame = open ? 0 : frame;
  e.retransmissions = retx_;
  e.open = open;
  e.cause = zero_window_  ? StallCause::ZeroWindow
            : !peer_seen_ ? StallCause::PeerSilent
            : acks_lost_  ? StallCause::AcksLost
                          : StallCause::RetransmissionTimeout;
  if (out.size() < kMaxKept) out.push_back(e);  // the sink gets every one
  if (sink) sink->onStall(e);
}

void StallTracker::onProgress(int64_t ns, uint64_t frame, EventSink* sink, std::vector<StallEvent>& out) {
  if (ns - start_ns_ >= thr_ns_) emit(ns, frame, false, sink, out);
  // The next wait (if data is still outstanding) runs from this progress.
  begin(ns, frame);
}

void StallTracker::finish(bool outstanding, int64_t end_ns, EventSink* sink, std::vector<StallEvent>& out) {
  if (outstanding && end_ns - start_ns_ >= thr_ns_) emit(end_ns, 0, true, sink, out);
}

}  // namespace rudp::ana
