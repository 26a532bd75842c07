// Stalls of one direction: intervals of at least the threshold during which
// reliable data was outstanding and the acks made no progress.
//
// Timeline (the sender's, as the capture sees it): a wait starts when a
// reliable seq is first captured while nothing reliable is outstanding, and
// every ack that newly covers an outstanding reliable seq is progress; the
// wait from the start (or the previous progress) to the progress is a stall
// when it lasts at least the threshold. A wait still running at the end is
// an open stall. At the sender's end this is exactly the sender's view; at
// the receiver's end waits for data lost before the capture point are not
// visible as such (they show as retransmissions and head-of-line blocking).
//
// Cause, in this order: zero window (the receiver advertised 0 during it),
// peer silent (no packet from the receiver during it), acks lost (a copy of
// data the capture had seen acknowledged was sent again: the ack did not
// reach the sender), else retransmission timeout and backoff.
#pragma once
#include <cstdint>
#include <vector>

#include "analyzers/events.h"

namespace rudp::ana {

class StallTracker {
 public:
  StallTracker(Direction dir, double threshold_ms) : dir_(dir), thr_ns_(int64_t(threshold_ms * 1e6)) {}
  // A reliable seq first captured; `outstanding_before` reliable seqs were waiting.
  void onReliableData(int64_t ns, uint64_t frame, uint32_t outstanding_before) {
    if (outstanding_before == 0) begin(ns, frame);
  }
  // An ack newly covered reliable data; `outstanding_after` still wait.
  void onProgress(int64_t ns, uint64_t frame, EventSink* sink, std::vector<StallEvent>& out);
  void onPeerPacket(int64_t ns, bool zero_window) {
    if (ns > start_ns_) peer_seen_ = true;
    zero_window_ |= zero_window;
  }
  // Off while the capture is at the receiver (remote_stall.h reports then).
  void setReporting(bool on) { report_ = on; }
  void onRetransmission(bool already_acked) {
    ++retx_;
    acks_lost_ |= already_acked;
  }
  // Closes a wait still open at `end_ns` (the last packet of the connection).
  void finish(bool outstanding, int64_t end_ns, EventSink* sink, std::vector<StallEvent>& out);

 private:
  void begin(int64_t ns, uint64_t frame);
  void emit(int64_t end_ns, uint64_t frame, bool open, EventSink* sink, std::vector<StallEvent>& out);
  Direction dir_;
  int64_t thr_ns_;
  int64_t start_ns_ = 0;
  uint64_t start_frame_ = 0;
  uint32_t retx_ = 0;
  bool peer_seen_ = false, zero_window_ = false, acks_lost_ = false, report_ = true;
};

}  // namespace rudp::ana
