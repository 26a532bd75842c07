// Acks from the peer: coverage, holes, RTT samples, stall progress and the
// loss judgement that follows the acks through the seq space.
#include <bit>

#include "analyzers/contract_analyzer.h"
#include "analyzers/vantage.h"
#include "core/seq32.h"

namespace rudp::ana {

void ContractAnalyzer::onAck(Dir& d, const Segment& s, uint64_t frame, int64_t ns) {
  const bool has_ack = s.is(Segment::Ack);
  // A segment with only `una` (KCP data) acknowledges everything below it.
  const uint32_t ack = has_ack ? unwrap(d, s.ack) : unwrap(d, s.una) - 1;
  if (!d.win.started()) {
    // Acks for data the capture has not seen yet (capture began mid-flow, or
    // the first data was lost before the capture point): start from here.
    d.win.start(ack);
    d.judge_next = d.frontier = ack;
    d.head_unknown = true;
  }
  // An ack far beyond anything sent is garbage or another numbering: its
  // coverage means nothing here (and extending to it would be unbounded).
  // (Unsigned distance: at exactly 2^31 apart `before` holds both ways.)
  if (const uint32_t fwd = ack - d.win.top(); fwd > kMaxJump && fwd <= 0x80000000u) return;
  if (ack_style_ == AckStyle::None) return;
  const uint32_t outstanding_before = d.outstanding;
  const bool advanced = !d.any_ack || seqBefore(d.max_ack, ack);
  const uint32_t judge_end = ack_style_ == AckStyle::HighestBitmap ? ackBitmap(d, s, ack, advanced, frame, ns)
                             : ack_style_ == AckStyle::Cumulative
                                 ? ackCumulative(d, ack, advanced, frame, ns)
                                 : ackPerSegment(d, s, ack, advanced, frame, ns);
  if (advanced) {
    d.max_ack = ack;
    d.any_ack = true;
  }
  if (d.outstanding < outstanding_before) d.stall.onProgress(ns, frame, sink_, d.m.stalls);
  tellRemoteSenders(d, s, ack, ns, frame);
  if (seqBefore(d.judge_next, judge_end)) judgeUpTo(d, judge_end, frame, ns);
  if (has_ack && s.is(Segment::Echo)) echoSample(d, ack, s.ts_echo, frame, ns);
}

void ContractAnalyzer::extendTo(Dir& d, uint32_t top) {
  if (const uint32_t fwd = top - d.win.top(); fwd != 0 && fwd <= kMaxJump)
    d.win.extend(top, [&](SeqSlot& e) { evict(d, e); });
}

// The highest seq and a bitmap of the ones below it (ENet, GRUDP).
uint32_t ContractAnalyzer::ackBitmap(Dir& d, const Segment& s, uint32_t ack, bool advanced, uint64_t frame,
                                     int64_t ns) {
  extendTo(d, ack);
  const uint32_t bits = s.is(Segment::AckBits) ? s.ack_bits : 0;
  // Bit 0 = ack, bit i+1 = ack-1-i. Consecutive acks repeat most of
  // their bitmap: only what the highest ack so far did not cover is new.
  uint64_t fresh = 1 | (uint64_t(bits) << 1);
  if (d.has_prev_ack && !seqBefore(ack, d.prev_ack) && ack - d.prev_ack < 64)
    fresh &= ~((1 | (uint64_t(d.prev_bits) << 1)) << (ack - d.prev_ack));
  for (uint64_t b = fresh; b; b &= b - 1) cover(d, ack - uint32_t(std::countr_zero(b)), frame, ns);
  if (!d.has_prev_ack || !seqBefore(ack, d.prev_ack)) {
    // Keep the union for an ack repeated with more bits (same highest).
    d.prev_bits = d.has_prev_ack && ack == d.prev_ack ? (d.prev_bits | bits) : bits;
    d.prev_ack = ack;
    d.has_prev_ack = true;
  }
  // Holes: seqs behind the highest one that this ack reports missing.
  for (uint32_t h = ~bits; h; h &= h - 1) {
    const uint32_t seq = ack - 1 - uint32_t(std::countr_zero(h));
    if (d.win.contains(seq)) {
      SeqSlot& slot = d.win.at(seq);
      if (!slot.has(SeqSlot::Covered)) markHole(slot, ns);
    }
  }
  return advanced ? ack - kJudgeLag : d.judge_next;
}

// `ack` = next seq expected: everything before it arrived.
uint32_t ContractAnalyzer::ackCumulative(Dir& d, uint32_t ack, bool advanced, uint64_t frame, int64_t ns) {
  extendTo(d, ack - 1);
  coverCumulative(d, ack, frame, ns);
  if (!advanced && d.win.contains(ack)) markHole(d.win.at(ack), ns);  // duplicate ack
  return ack;
}

// One seq acked, with the cumulative `una` beside it (KCP).
uint32_t ContractAnalyzer::ackPerSegment(Dir& d, const Segment& s, uint32_t ack, bool advanced,
                                         uint64_t frame, int64_t ns) {
  if (s.is(Segment::Ack)) {
    extendTo(d, ack);
    cover(d, ack, frame, ns);
  }
  if (!s.is(Segment::Una)) return advanced ? ack - kJudgeLag : d.judge_next;
  const uint32_t una = unwrap(d, s.una);
  for (uint32_t q = d.judge_next; seqBefore(q, una) && d.win.contains(q); ++q) cover(d, q, frame, ns);
  // Acked past the cumulative point: seqs between una and ack are holes,
  // each only when its last copy left no later than the acked one (the
  // echoed send time says; kcp-go's parse_fastack compares the same).
  for (uint32_t q = una; seqBefore(q, ack) && d.win.contains(q); ++q) {
    SeqSlot& hole = d.win.at(q);
    const bool sent_later =
        s.is(Segment::Echo) && hole.has(SeqSlot::HasTs) && tsAfter(hole.last.ts, s.ts_echo);
    if (!hole.has(SeqSlot::Covered) && !sent_later) markHole(hole, ns);
  }
  return una;
}

// What this ack tells the timelines of senders the capture does not see.
void ContractAnalyzer::tellRemoteSenders(Dir& d, const Segment& s, uint32_t ack, int64_t ns, uint64_t frame) {
  const uint32_t bits = s.is(Segment::AckBits) ? s.ack_bits : 0;
  if (ack_style_ == AckStyle::HighestBitmap && s.is(Segment::Ts) && !atSender(vantage_, other(d).id)) {
    // What the sender of this packet had of d's seqs when it sent it.
    Dir& sender = other(d);
    sender.remote.onSenderAck(tsMs(sender, s.ts), ack, bits);
  }
  if (!atSender(vantage_, d.id)) {
    // For the sender's timeline when it is remote: what this ack told it.
    Dir& own = other(d);
    const bool has_own = s.is(Segment::Seq) && s.consumes_seq && s.role != SegmentRole::Ack;
    d.remote.onAck(ns, frame, has_own, has_own ? unwrap(own, s.seq) : 0, ack_style_, ack, bits,
                   s.is(Segment::Una), s.is(Segment::Una) ? unwrap(d, s.una) : 0);
  }
}

void ContractAnalyzer::onNak(Dir& d, const Segment& s, int64_t ns) {
  // A loss list names seqs the peer misses: each one not acked since is a
  // hole, so a copy that follows is a NAK-driven (fast) repair. Entries for
  // seqs outside the window (before the capture, or garbage) say nothing here.
  if (!d.win.started()) return;
  const uint32_t first = unwrap(d, s.nak_first), last = unwrap(d, s.nak_last);
  if (seqBefore(last, first)) return;
  for (uint32_t q = first; d.win.contains(q); ++q) {
    SeqSlot& slot = d.win.at(q);
    if (!slot.has(SeqSlot::Covered)) {
      markHole(slot, ns);
      slot.flags |= SeqSlot::NakHole;
    }
    if (q == last) break;
  }
}

void ContractAnalyzer::markHole(SeqSlot& slot, int64_t ns) const {
  // The latest ack showing the seq missing; with fast_deferred the first
  // one since the last copy (the one that started the sender's count).
  if (!fast_deferred_ || slot.hole_ns < 0) slot.hole_ns = ns;
  if (slot.hole_acks < 255) ++slot.hole_acks;
}

void ContractAnalyzer::coverCumulative(Dir& d, uint32_t ack, uint64_t frame, int64_t ns) {
  // One RTT sample per ack, as Linux TCP takes it: from the newest seq it
  // covers, and none when it also covers a retransmitted seq (Karn's rule for
  // the whole ack: data held behind a hole would time the hole, not the path).
  bool clean = true;
  uint32_t newest = ack;
  for (uint32_t q = d.judge_next; seqBefore(q, ack) && d.win.contains(q); ++q) {
    const SeqSlot& s = d.win.at(q);
    if (s.has(SeqSlot::Covered)) continue;
    clean &= s.copies <= 1 && !s.has(SeqSlot::RetxCounted);
    newest = q;
  }
  for (uint32_t q = d.judge_next; seqBefore(q, ack) && d.win.contains(q); ++q)
    cover(d, q, frame, ns, clean && q == newest);
}

bool ContractAnalyzer::cover(Dir& d, uint32_t seq, uint64_t frame, int64_t ns, bool rttSample) {
  if (!d.win.contains(seq)) return false;
  SeqSlot& s = d.win.at(seq);
  if (s.has(SeqSlot::Covered)) return false;
  s.flags = uint16_t((s.flags & ~SeqSlot::NakHole) | SeqSlot::Covered);
  s.hole_ns = -1;
  s.hole_acks = 0;
  s.cover_ns = ns;
  if (s.has(SeqSlot::Pending)) s.flags = uint16_t((s.flags & ~SeqSlot::Pending) | SeqSlot::Judged);
  if (s.has(SeqSlot::Seen) && s.has(SeqSlot::Reliable) && d.outstanding > 0) --d.outstanding;
  if (s.has(SeqSlot::Judged) && s.has(SeqSlot::Lost)) {
    // A late (reordered) ack or a late retransmission: it did arrive after all.
    s.flags = uint16_t(s.flags & ~SeqSlot::Lost);
    if (d.m.lost > 0) --d.m.lost;
  }
  if (s.has(SeqSlot::Seen) && s.has(SeqSlot::Reliable) && !s.has(SeqSlot::RetxCounted))
    d.response.add(s.first_ns, ns);
  if (rttSample && !echo_rtt_ && s.has(SeqSlot::Seen) && s.copies == 1) {
    addRtt(d, {frame, s.last.frame, ns, d.id, double(ns - s.last.ns) / 1e6, RttSource::SeqAck, RttSpan{}});
  }
  return true;
}

void ContractAnalyzer::echoSample(Dir& d, uint32_t ack, uint32_t echo, uint64_t frame, int64_t ns) {
  if (d.has_echo && ack == d.echo_ack && echo == d.echo_ts) return;
  d.has_echo = true;
  d.echo_ack = ack;
  d.echo_ts = echo;
  if (!d.win.contains(ack)) return;
  const SeqSlot& s = d.win.at(ack);
  if (!s.has(SeqSlot::Seen)) return;
  const CopyInfo* c = s.last.ts == echo ? &s.last : (s.copies > 1 && s.prev.ts == echo ? &s.prev : nullptr);
  if (!c || ns < c->ns) return;
  addRtt(d, {frame, c->frame, ns, d.id, double(ns - c->ns) / 1e6, RttSource::TsEcho, RttSpan{}});
}

void ContractAnalyzer::addRtt(Dir& d, RttEvent ev) {
  // Each sample may place the capture (vantage.h): the span follows.
  ev.span = spanFor(vantage_, d.id);
  d.rtt.add(ev);
  const Dir& cs = dirs_[0];
  const Dir& sc = dirs_[1];
  vantage_ = detectVantage(cs.rtt.samples() > 0, cs.rtt.minMs(), sc.rtt.samples() > 0, sc.rtt.minMs());
  ev.span = spanFor(vantage_, d.id);
  if (sink_) sink_->onRtt(ev);
}

void ContractAnalyzer::judgeUpTo(Dir& d, uint32_t end, uint64_t frame, int64_t ns) {
  while (seqBefore(d.judge_next, end) && d.win.contains(d.judge_next)) {
    judge(d, d.win.at(d.judge_next), false, frame, ns);
    ++d.judge_next;
  }
  advanceFrontier(d);
}

void ContractAnalyzer::judge(Dir& d, SeqSlot& s, bool final, uint64_t frame, int64_t ns) {
  if (s.has(SeqSlot::Judged)) return;
  bool lost = false, settled = true;
  const bool reached = d.any_ack && !seqBefore(d.max_ack, s.seq);  // the acks got this far
  if (s.has(SeqSlot::Covered)) {
    lost = false;
  } else if (ack_style_ == AckStyle::None || !d.any_ack) {
    // No acks to go by: a seq never captured below the highest one is lost.
    lost = !s.has(SeqSlot::Seen) && seqBefore(s.seq, d.highest_seen);
    if (!lost) ++d.m.loss_unknown;
  } else if (s.has(SeqSlot::Seen) && s.has(SeqSlot::Reliable)) {
    // Retransmitted until covered: not lost yet. At the end, still unresolved.
    if (!final) {
      s.flags |= SeqSlot::Pending;
      settled = false;
    } else {
      ++d.m.loss_unknown;
    }
  } else if (final && !reached) {
    ++d.m.loss_unknown;  // sent after the last ack the capture saw
  } else {
    lost = true;
  }
  if (settled) s.flags |= SeqSlot::Judged;
  if (lost) {
    s.flags |= SeqSlot::Lost;
    ++d.m.lost;
  }
  lossRun(d, lost, s.seq, s.has(SeqSlot::Seen) ? s.first_frame : 0, frame, ns);
}

void ContractAnalyzer::lossRun(Dir& d, bool lost, uint32_t seq, uint64_t seq_frame, uint64_t frame,
                               int64_t ns) {
  if (lost && d.loss_run.continuedBy(seq)) return d.loss_run.extend();
  d.loss_run.end(d.m, sink_, d.id, frame, ns, seq_mask_);
  if (lost) d.loss_run.start(seq, seq_frame);
}

void ContractAnalyzer::evict(Dir& d, SeqSlot& s) {
  // The window is full: settle the oldest seq for good.
  if (!s.has(SeqSlot::Judged)) {
    if (s.has(SeqSlot::Pending)) {
      // A reliable seq the acks never covered in kMaxCap seqs: the sender gave up.
      s.flags |= SeqSlot::Judged | SeqSlot::Lost;
      ++d.m.lost;
      if (d.outstanding > 0) --d.outstanding;
    } else {
      judge(d, s, true, 0, last_ns_);
      if (s.has(SeqSlot::Seen) && s.has(SeqSlot::Reliable) && !s.has(SeqSlot::Covered) && d.outstanding > 0)
        --d.outstanding;
    }
  }
  if (d.judge_next == s.seq) ++d.judge_next;
  d.head_unknown = false;  // the window slid: nothing below it can come back
  if (d.frontier == s.seq) ++d.frontier;
  d.hol.settle(d.frontier);  // nothing can block from below the window
}

}  // namespace rudp::ana
