// Retransmissions of contract protocols: copies seen directly, copies inferred
// from the sender's timestamps, and their cause (see contract_analyzer.h).
#include <algorithm>
#include <cmath>

#include "analyzers/contract_analyzer.h"
#include "analyzers/vantage.h"
#include "core/seq32.h"

namespace rudp::ana {

namespace {
constexpr uint32_t kScan = 128;             // slots looked at around a copy
constexpr int64_t kFastAtSenderNs = 50000;  // a fast retransmission follows its ack within 50 us
}  // namespace

bool ContractAnalyzer::tsAfter(uint32_t a, uint32_t b) const {
  const uint32_t d = (a - b) & ts_mask_;
  return d != 0 && d <= (ts_mask_ >> 1);
}

bool ContractAnalyzer::laterCopy(Dir& d, uint32_t seq, uint32_t ts) {
  // Is there a higher captured seq whose copy was sent before this one? The
  // nearest higher original bounds them all; skip copies already known late.
  uint32_t n = 0;
  for (uint32_t q = seq + 1; !seqBefore(d.highest_seen, q) && n < kScan; ++q) {
    const SeqSlot& s = d.win.at(q);
    ++n;
    if (!s.has(SeqSlot::Seen) || !s.has(SeqSlot::HasTs)) continue;
    if (s.has(SeqSlot::RetxCounted)) continue;
    return tsAfter(ts, s.first_ts);
  }
  return false;
}

void ContractAnalyzer::flagEarlierCopies(Dir& d, uint32_t seq, uint32_t ts) {
  // Lower captured seqs whose first copy was sent after this one are later
  // copies of themselves (their originals were lost before the capture point).
  uint32_t n = 0;
  for (uint32_t q = seq - 1; d.win.contains(q) && n < kScan; --q) {
    SeqSlot& s = d.win.at(q);
    ++n;
    if (!s.has(SeqSlot::Seen) || !s.has(SeqSlot::HasTs)) continue;
    if (s.has(SeqSlot::RetxCounted)) continue;
    if (!tsAfter(s.first_ts, ts)) break;      // an earlier-sent copy: anything below was checked by it
    if (!s.has(SeqSlot::Reliable)) continue;  // cannot be a retransmission (clock oddity)
    if (s.has(SeqSlot::Reordered)) {
      s.flags = uint16_t(s.flags & ~SeqSlot::Reordered);
      if (d.m.reordered > 0) --d.m.reordered;
    }
    // Reported at its own frame, now that the evidence is in.
    retransmission(d, s, false, s.first_frame, s.first_ns, s.first_ts);
  }
}

double ContractAnalyzer::sinceOriginalMs(Dir& d, uint32_t seq, uint32_t ts) {
  bool has_lo = false, has_hi = false;
  uint32_t lo = 0, hi = 0, n = 0;
  for (uint32_t q = seq - 1; d.win.contains(q) && n < kScan; --q, ++n) {
    const SeqSlot& s = d.win.at(q);
    if (s.has(SeqSlot::Seen) && s.has(SeqSlot::HasTs) && !s.has(SeqSlot::RetxCounted)) {
      lo = s.first_ts;
      has_lo = true;
      break;
    }
  }
  n = 0;
  for (uint32_t q = seq + 1; !seqBefore(d.highest_seen, q) && d.win.contains(q) && n < kScan; ++q, ++n) {
    const SeqSlot& s = d.win.at(q);
    if (s.has(SeqSlot::Seen) && s.has(SeqSlot::HasTs) && !s.has(SeqSlot::RetxCounted)) {
      hi = s.first_ts;
      has_hi = true;
      break;
    }
  }
  // Without a lower neighbour (the flow's first seq) the original could
  // have been sent any time before the higher one: unknown.
  if (!has_lo) return -1;
  double back;  // ts units from the estimated original send to this copy
  if (has_lo && has_hi)
    back = double((ts - lo) & ts_mask_) - double((hi - lo) & ts_mask_) / 2;
  else
    back = double((ts - (has_lo ? lo : hi)) & ts_mask_);
  return back * ts_unit_ms_;
}

double ContractAnalyzer::senderRtoMs(const Dir& d) const {
  // The sender's timer: at its end our estimator sees its samples; elsewhere
  // the reverse direction's round trips are the best view of the path.
  if (atSender(vantage_, d.id) || vantage_ == Vantage::Unknown || other(d).rtt.samples() == 0)
    return d.rtt.samples() ? d.rtt.rto() : 1000.0;
  return other(d).rtt.rto();
}

void ContractAnalyzer::retransmission(Dir& d, SeqSlot& s, bool direct, uint64_t frame, int64_t ns,
                                      uint32_t ts) {
  RetransmissionEvent e;
  e.frame = frame;
  e.ts_ns = ns;
  e.dir = d.id;
  e.seq = s.seq & seq_mask_;
  const bool counted_first = s.has(SeqSlot::RetxCounted);
  if (direct) {
    e.original_frame = counted_first ? 0 : s.first_frame;
    e.previous_frame = s.prev.frame;
    e.attempt = uint32_t(s.copies) + (counted_first ? 1 : 0);
    e.since_previous_ms = double(ns - s.prev.ns) / 1e6;
  } else {
    s.flags |= SeqSlot::RetxCounted;
    ++d.m.retransmissions_inferred;
  }
  const bool sender = atSender(vantage_, d.id);
  const bool acked = s.has(SeqSlot::Covered);
  if (sender && acked) {
    e.cause = RetxCause::Spurious;
  } else {
    // Time since the previous copy on the sender's clock when it has one.
    double since = e.since_previous_ms;
    double timer = s.timer_ms;
    if (direct && s.has(SeqSlot::HasTs) && !sender) {
      since = double((ts - s.prev.ts) & ts_mask_) * ts_unit_ms_;
    } else if (!direct && s.has(SeqSlot::HasTs)) {
      // The original was not captured: place its send between its captured
      // neighbours' and read the gap on the sender's clock.
      since = sinceOriginalMs(d, s.seq, ts);
      timer = senderRtoMs(d);
      if (!sender) d.remote.onLostOriginal(s.seq, since >= 0 ? tsMs(d, ts) - since : std::nan(""), true);
    }
    bool timer_due = since >= 0 && timer > 0 && since >= timer * 0.95 - 5.0;
    if (fast_deferred_ && s.hole_ns >= 0 && since >= 0 && timer > 0) {
      // A sender that flushes on an interval sends a fast copy on its next
      // flush after the ack that showed the gap, ahead of its timer: the copy
      // is the timer's only when the timer expired before that ack came.
      timer_due = since - double(ns - s.hole_ns) / 1e6 >= timer;
    }
    // A NAK names the seq: its copy is NAK-driven however long the sender took
    // to send it, unless its timer fired first (below).
    const bool nak = s.has(SeqSlot::NakHole) && s.hole_ns >= 0;
    const bool hole =
        s.hole_ns >= 0 && (!sender || fast_deferred_ || nak || ns - s.hole_ns <= kFastAtSenderNs);
    // At the sender the trigger is visible: the copy leaves as the ack comes
    // in. Elsewhere (and at a sender whose fast copies wait for its next
    // flush) the copy must also beat the sender's (estimated) timer.
    // At the sender, when an ack came just before a copy that also left on
    // (our estimate of) its timer, the closer coincidence wins.
    const bool immediate = sender && !fast_deferred_;
    const bool on_timer = immediate && hole && since >= 0 && timer > 0 &&
                          std::abs(since - timer) < double(ns - s.hole_ns) / 1e6;
    // Fewer acks than fast_acks make an early retransmit, which kcp-go sends
    // only in a flush with no new data; beside new data the copy is its timer's.
    const bool early_barred = fast_acks_ > 0 && s.hole_acks < fast_acks_ && d.new_data_in_packet;
    // Away from the sender, a copy that reaches the capture more than a timer
    // after the NAK answers its timer, not the NAK (the NAK was lost on its
    // way, or the copy sent for it was).
    const bool nak_expired = nak && !sender && timer > 0 && double(ns - s.hole_ns) / 1e6 > timer;
    const bool fast = hole && !(immediate ? on_timer : timer_due) && !early_barred && !nak_expired &&
                      (fast_repeat_ || nak || !s.has(SeqSlot::FastDone));
    e.cause = fast ? RetxCause::Fast : RetxCause::Timeout;
    if (fast) s.flags |= SeqSlot::FastDone;
  }
  ++d.m.retransmissions;
  switch (e.cause) {
    case RetxCause::Timeout: ++d.m.retransmissions_timeout; break;
    case RetxCause::Fast: ++d.m.retransmissions_fast; break;
    case RetxCause::Spurious: ++d.m.retransmissions_spurious; break;
  }
  d.stall.onRetransmission(acked);
  s.hole_ns = -1;
  s.hole_acks = 0;
  s.flags = uint16_t(s.flags & ~SeqSlot::NakHole);
  // The sender re-arms its timer, doubled per copy already sent.
  // (A sender that repeats fast retransmissions, KCP, restarts it undoubled after one.)
  const bool reset = fast_repeat_ && e.cause == RetxCause::Fast;
  s.timer_ms =
      float(std::min(senderRtoMs(d) * (reset ? 1.0 : std::ldexp(1.0, int(e.attempt) - 1)), cfg_.rto_max_ms));
  if (sink_) sink_->onRetransmission(e);
}

}  // namespace rudp::ana
