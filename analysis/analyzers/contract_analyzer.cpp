// Packet intake, data segments (copies, reordering, HOL) and the final metrics.
#include "analyzers/contract_analyzer.h"

#include <algorithm>

#include "analyzers/direction_figures.h"
#include "analyzers/vantage.h"
#include "core/seq32.h"

namespace rudp::ana {

namespace {
uint32_t maskOf(int bits) { return bits >= 32 || bits <= 0 ? 0xFFFFFFFFu : ((1u << bits) - 1); }
// A seq this far below the window start is not taken as the flow's beginning.
constexpr uint32_t kPrependMax = 256;
}  // namespace

namespace {
AnalyzerConfig withContract(AnalyzerConfig cfg, const Contract& c) {
  if (c.rto_min_ms > 0) cfg.rto_min_ms = c.rto_min_ms;  // the protocol's own lower bound
  return cfg;
}
}  // namespace

ContractAnalyzer::ContractAnalyzer(const Contract& c, const AnalyzerConfig& cfg, EventSink* sink)
    : cfg_(withContract(cfg, c)),
      ack_style_(c.ack_style),
      ts_unit_ms_(c.ts_unit_ms > 0 ? c.ts_unit_ms : 1.0),
      ts_bits_(uint32_t(c.ts_bits)),
      sink_(sink),
      seq_mask_(maskOf(c.seq_bits)),
      ts_mask_(maskOf(c.ts_bits)),
      echo_rtt_(c.ts_echo >= 0),
      spaces_(c.seq_space >= 0),
      per_datagram_jitter_(!c.unreliable_seq.empty()),
      fast_repeat_(c.fast_repeat),
      fast_deferred_(c.fast_deferred),
      fast_acks_(c.fast_acks),
      dirs_{Dir(Direction::ClientToServer, cfg_), Dir(Direction::ServerToClient, cfg_)} {
  for (size_t i = 0; i < c.unreliable_seq.size() && i < size_t(Segment::kNumberings); ++i) {
    un_mask_[i] = maskOf(c.unreliable_seq[i].bits);
    un_group_[i] = c.unreliable_seq[i].group >= 0;
  }
}

void ContractAnalyzer::selectSpace(Dir& d, const Segment& s) {
  if (!spaces_) return;
  const uint32_t sp = s.is(Segment::Space) ? s.space : 0;
  if (sp == d.space) return;
  for (auto& p : d.parked)
    if (p.first == sp) {
      std::swap(static_cast<SeqState&>(d), p.second);
      p.first = d.space;
      d.space = sp;
      return;
    }
  // A space's first use: park the current one, start a fresh state.
  d.parked.emplace_back(d.space, std::move(static_cast<SeqState&>(d)));
  static_cast<SeqState&>(d) = SeqState{};
  d.space = sp;
}

void ContractAnalyzer::onNumbered(Dir& d, const Segment& s, uint64_t frame, int64_t ns) {
  // Never-retransmitted segments numbered 1, 2, ... (within a group, when
  // the numbering has one): a number skipped at the capture point never
  // passed it. Exact at the receiver; at the sender nothing is skipped.
  for (int i = 0; i < Segment::kNumberings; ++i) {
    using Part = Segment::Numbers::Part;
    const Segment::Numbers& numbers = s.numbers[i];
    if (!numbers.has(Part::Number)) continue;
    const uint32_t mask = un_mask_[size_t(i)];
    const uint32_t space = numbers.orZero(Part::Space);
    const uint32_t group = numbers.orZero(Part::Group);
    const uint32_t n = numbers.value[Part::Number] & mask;
    Numbering* u = nullptr;
    for (Numbering& x : d.numberings)
      if (x.index == i && x.space == space) u = &x;
    if (!u) {
      d.numberings.push_back({space, uint8_t(i), false, 0, 0, 0});
      u = &d.numberings.back();
    }
    uint32_t gap = 0, first_missing = 0;
    if (!u->started || (un_group_[size_t(i)] && group != u->group)) {
      // A new group restarts at 1 (the group's predecessor was a reliable
      // segment); the numbering's first segment is 1 when the capture saw
      // the connection open.
      const bool known_start = u->started || connect_ns_ >= 0;
      // Groups are the contract's seqs (ENet: the channel's last reliable
      // number): a late segment of an older group tells nothing.
      if (u->started) {
        const uint32_t older = (u->group - group) & seq_mask_;
        if (older != 0 && older <= (seq_mask_ >> 1)) continue;
      }
      if (known_start && n > 1 && n - 1 <= (mask >> 1)) {
        gap = n - 1;
        first_missing = 1;
      }
      u->started = true;
      u->group = group;
      u->high = n;
      u->seen = 1;
    } else {
      const uint32_t fwd = (n - u->high) & mask;
      if (fwd == 0) continue;  // a network duplicate
      if (fwd <= (mask >> 1)) {
        gap = fwd - 1;
        first_missing = (u->high + 1) & mask;
        u->seen = fwd >= 64 ? 1 : ((u->seen << fwd) | 1);
        u->high = n;
      } else {
        const uint32_t back = (u->high - n) & mask;
        if (back < 64 && !(u->seen & (uint64_t(1) << back))) {
          // Arrived late (reordered): it was counted lost when it was skipped.
          u->seen |= uint64_t(1) << back;
          if (d.m.lost > 0) --d.m.lost;
          ++d.m.reordered;
        }
        continue;
      }
    }
    // A new number is a send of the sender's tick like a reliable first copy.
    if (d.jitter_frame != frame + 1)
      d.jitter.add(ns, s.is(Segment::Ts), s.is(Segment::Ts) ? s.ts : 0, ts_unit_ms_, ts_bits_);
    d.jitter_frame = frame + 1;
    if (gap == 0) continue;
    d.m.lost += gap;
    ++d.m.loss_bursts[gap];
    if (sink_) {
      LossEvent ev{frame, ns, d.id, first_missing, gap, 0};
      sink_->onLoss(ev);
    }
  }
}

double ContractAnalyzer::holdMaxMs(const Dir& d) const {
  // The sender of `d` acks on its next packet: at most about one send tick.
  const double gap = d.jitter.medianGapMs();
  return (gap > 0 ? gap * 1.15 : 50.0) + 2.0;
}

double ContractAnalyzer::tsMs(Dir& d, uint32_t ts) {
  // The sender's clock, unwrapped at 2^ts_bits around the latest value.
  if (!d.has_ts_ref) {
    d.has_ts_ref = true;
    d.ts_raw = ts;
    d.ts_u = ts & ts_mask_;
    return double(d.ts_u) * ts_unit_ms_;
  }
  const uint64_t mask = ts_mask_;
  const uint64_t delta = (uint64_t(ts) - uint64_t(d.ts_raw)) & mask;
  const int64_t sd = delta > (mask >> 1) ? int64_t(delta) - int64_t(mask) - 1 : int64_t(delta);
  const int64_t u = d.ts_u + sd;
  if (sd > 0) {
    d.ts_u = u;
    d.ts_raw = ts;
  }
  return double(u) * ts_unit_ms_;
}

uint32_t ContractAnalyzer::unwrap(Dir& d, uint32_t seq) {
  // Narrow seqs (ENet: 16 bits) are unwrapped around the last one seen so the
  // window works in one 32-bit serial space.
  if (seq_mask_ == 0xFFFFFFFFu) return seq;
  seq &= seq_mask_;
  if (!d.has_ref) {
    d.has_ref = true;
    d.seq_ref = seq;
    return seq;
  }
  const uint32_t half = (seq_mask_ >> 1) + 1;
  uint32_t delta = (seq - d.seq_ref) & seq_mask_;
  const uint32_t u = delta >= half ? d.seq_ref - ((d.seq_ref - seq) & seq_mask_) : d.seq_ref + delta;
  if (int32_t(u - d.seq_ref) > 0) d.seq_ref = u;
  return u;
}

void ContractAnalyzer::onPacket(uint64_t frame, int64_t ns, Direction dir, const Segment* segs, size_t n,
                                uint32_t wire_bytes, int32_t ip_id) {
  if (first_ns_ < 0) first_ns_ = ns;
  last_ns_ = ns;
  Dir& d = dirs_[size_t(dir)];
  Dir& peer = other(d);
  ++d.m.packets;
  d.m.bytes += wire_bytes;
  d.rate.add(ns, wire_bytes, sink_);
  if (fast_acks_ > 0) d.new_data_in_packet = carriesNewData(d, segs, n);
  bool zero_window = false;
  for (size_t i = 0; i < n; ++i) {
    const Segment& s = segs[i];
    selectSpace(d, s);
    selectSpace(peer, s);
    if (s.numbered()) onNumbered(d, s, frame, ns);
    switch (s.role) {
      case SegmentRole::Connect:
        if (connect_ns_ < 0) connect_ns_ = ns;
        peer.remote.onPeerOpen(ns);
        // The server's half of a handshake both ends call connect (UDT's
        // request and response) is not an attempt.
        if (dir == Direction::ClientToServer) ++conn_.connect_attempts;
        break;
      case SegmentRole::Accept:
        if (accept_ns_ < 0) accept_ns_ = ns;
        break;
      case SegmentRole::Disconnect: conn_.disconnected = true; break;
      default: break;
    }
    // The handshake completes when the client acks the ACCEPT: CONNECT to that
    // ack is one round trip plus the ends' reaction times at any vantage.
    if (dir == Direction::ClientToServer && accept_ns_ >= 0 && connect_ns_ >= 0 && conn_.handshake_ms < 0 &&
        s.is(Segment::Ack))
      conn_.handshake_ms = double(ns - connect_ns_) / 1e6;
    // Acks first: a fast retransmission in the same packet follows its trigger.
    // (KCP puts `una` on every segment: it acknowledges even without an ack.)
    if (ack_style_ != AckStyle::None &&
        (s.is(Segment::Ack) || (ack_style_ == AckStyle::PerSegment && s.is(Segment::Una))))
      onAck(peer, s, frame, ns);
    if (s.is(Segment::Nak)) onNak(peer, s, ns);
    if (s.is(Segment::Seq) && s.consumes_seq && s.role != SegmentRole::Ack) onData(d, s, frame, ns, ip_id);
    if (s.is(Segment::Window)) {
      peer.m.min_window = std::min(peer.m.min_window, s.window);
      zero_window |= s.window == 0;
    }
  }
  peer.stall.onPeerPacket(ns, zero_window);
  if (ns - last_advance_ns_ >= kAdvanceEveryNs) {
    last_advance_ns_ = ns;
    for (Dir& x : dirs_) {
      x.stall.setReporting(!atReceiver(vantage_, x.id));
      x.remote.advance(ns, other(x).rtt.minMs(), holdMaxMs(x), atReceiver(vantage_, x.id), false, sink_,
                       x.m.stalls);
    }
  }
}

// Whether any data segment of the packet is above every seq seen so far (in
// one 32-bit seq space: the contracts with fast_acks, KCP, have no other).
bool ContractAnalyzer::carriesNewData(const Dir& d, const Segment* segs, size_t n) const {
  if (spaces_ || seq_mask_ != 0xFFFFFFFFu) return false;
  for (size_t i = 0; i < n; ++i) {
    const Segment& s = segs[i];
    const bool data = s.is(Segment::Seq) && s.consumes_seq && s.role != SegmentRole::Ack;
    if (data && (!d.any_seen || seqBefore(d.highest_seen, s.seq))) return true;
  }
  return false;
}

void ContractAnalyzer::onData(Dir& d, const Segment& s, uint64_t frame, int64_t ns, int32_t ip_id) {
  const uint32_t seq = unwrap(d, s.seq);
  ++d.m.data_packets;
  const bool opening = s.role == SegmentRole::Connect || s.role == SegmentRole::Accept;
  if (!d.win.started()) {
    d.win.start(seq);
    d.judge_next = d.frontier = seq;
    d.head_unknown = !opening;
  }
  if (seqBefore(seq, d.win.base()) && !seqBefore(seq, d.win.base() - kPrependMax) &&
      !seqBefore(seq, d.win.top() - (SeqWindow::kMaxCap - 1)) && d.win.prepend(seq)) {
    // Below the first seq captured: the flow's first packets were lost (or
    // reordered) before the capture point. Judge them like any other seq.
    if (seqBefore(seq, d.judge_next)) d.judge_next = seq;
    if (seqBefore(seq, d.frontier)) d.frontier = seq;
  }
  if (opening && d.head_unknown && !seqBefore(seq, d.win.base())) {
    // The flow's first seq: from here on, what is missing below is known.
    d.head_unknown = false;
    d.frontier = d.win.base();
  }
  if (seqBefore(seq, d.win.base())) {
    // Older than anything kept: only a retransmission can be this late.
    if (s.reliability == Reliability::Reliable) {
      SeqSlot tmp;
      tmp.seq = seq;
      tmp.flags = SeqSlot::Reliable;
      retransmission(d, tmp, false, frame, ns, s.ts);
    }
    return;
  }
  if (seqBefore(d.win.top(), seq)) {
    if (seq - d.win.top() > kMaxJump)
      restart(d, seq);  // a new numbering (or garbage): start over
    else
      d.win.extend(seq, [&](SeqSlot& e) { evict(d, e); });
  }
  SeqSlot& slot = d.win.at(seq);
  if (!slot.has(SeqSlot::Seen)) {
    firstCopy(d, slot, s, seq, frame, ns, ip_id);
    return;
  }
  // A later copy of a captured seq.
  const uint32_t ts = s.is(Segment::Ts) ? s.ts : 0;
  const auto same = [&](const CopyInfo& c) {
    return ts == c.ts && (ip_id < 0 || c.ip_id < 0 || ip_id == c.ip_id);
  };
  if (s.is(Segment::Ts) && (same(slot.last) || (slot.copies > 1 && same(slot.prev)))) {
    ++d.m.network_duplicates;  // the same copy again: not sent twice by the sender
    return;
  }
  ++d.dup_seen;
  if (slot.has(SeqSlot::Covered)) ++d.dup_covered;
  ++slot.copies;
  slot.prev = slot.last;
  slot.last = {ts, ip_id, ns, frame};
  if (s.is(Segment::Ts) && !atSender(vantage_, d.id))
    d.remote.onCopy(seq, false, s.reliability == Reliability::Reliable, tsMs(d, ts), ns, frame);
  if (slot.has(SeqSlot::Reliable) || s.reliability == Reliability::Reliable) {
    slot.flags |= SeqSlot::Reliable;
    retransmission(d, slot, true, frame, ns, ts);
  }
}

void ContractAnalyzer::firstCopy(Dir& d, SeqSlot& slot, const Segment& s, uint32_t seq, uint64_t frame,
                                 int64_t ns, int32_t ip_id) {
  const bool reliable = s.reliability == Reliability::Reliable;
  const bool has_ts = s.is(Segment::Ts);
  const uint32_t ts = has_ts ? s.ts : 0;
  slot.flags |= SeqSlot::Seen;
  if (reliable) slot.flags |= SeqSlot::Reliable;
  if (s.reliability == Reliability::Unsequenced) slot.flags |= SeqSlot::Unsequenced;
  if (has_ts) slot.flags |= SeqSlot::HasTs;
  slot.copies = 1;
  slot.first_ts = ts;
  slot.first_frame = frame;
  slot.first_ns = ns;
  slot.channel = s.is(Segment::Channel) ? s.channel : 0;
  slot.last = {ts, ip_id, ns, frame};  // hole_ns stays: acks may have reported it missing already

  const bool late = d.any_seen && seqBefore(seq, d.highest_seen);
  if (!d.any_seen || seqBefore(d.highest_seen, seq)) d.highest_seen = seq;
  d.any_seen = true;

  if (has_ts && !atSender(vantage_, d.id)) d.remote.onCopy(seq, true, reliable, tsMs(d, ts), ns, frame);
  bool retx = false;
  if (has_ts) {
    if (late && reliable) retx = laterCopy(d, seq, ts);
    flagEarlierCopies(d, seq, ts);
  }
  if (retx) {
    retransmission(d, slot, false, frame, ns, ts);
  } else {
    if (late) {
      ++d.m.reordered;
      slot.flags |= SeqSlot::Reordered;
    }
    if (!per_datagram_jitter_ || d.jitter_frame != frame + 1)
      d.jitter.add(ns, has_ts, ts, ts_unit_ms_, ts_bits_);
    d.jitter_frame = frame + 1;
    slot.timer_ms = float(senderRtoMs(d));
  }
  if (reliable && !slot.has(SeqSlot::Covered)) {
    d.stall.onReliableData(ns, frame, d.outstanding);
    ++d.outstanding;
  }
  // Head-of-line blocking: is an earlier seq still missing?
  const bool missing_below = seqBefore(d.frontier, seq) || d.head_unknown;
  d.hol.onArrival(seq, ns, reliable && s.reliability != Reliability::Unsequenced, slot.channel, missing_below,
                  late);
  advanceFrontier(d);
}

void ContractAnalyzer::restart(Dir& d, uint32_t seq) {
  // Settle the old numbering as at the end of a capture, then begin again.
  for (uint32_t s = d.judge_next; d.win.contains(s); ++s) {
    judge(d, d.win.at(s), true, 0, last_ns_);
    if (s == d.win.top()) break;
  }
  lossRun(d, false, 0, 0, 0, last_ns_);
  d.hol.settleAll();
  d.win.start(seq);
  d.judge_next = d.frontier = d.highest_seen = seq;
  d.head_unknown = true;
  d.outstanding = 0;
  d.any_ack = d.has_echo = d.has_prev_ack = false;
}

void ContractAnalyzer::advanceFrontier(Dir& d) {
  const uint32_t old = d.frontier;
  while (!seqBefore(d.highest_seen, d.frontier) && d.win.contains(d.frontier)) {
    const SeqSlot& f = d.win.at(d.frontier);
    // A seq judged lost may still come back (a long backoff chain): it keeps
    // blocking until it arrives or the window slides past it.
    if (!f.has(SeqSlot::Seen)) break;
    ++d.frontier;
  }
  if (seqBefore(d.frontier, d.win.base())) d.frontier = d.win.base();
  if (d.frontier != old && !d.head_unknown) d.hol.settle(d.frontier);
}

size_t ContractAnalyzer::memoryBytes() const {
  size_t n = sizeof(*this);
  for (const Dir& d : dirs_) {
    n += d.win.capacity() * sizeof(SeqSlot) + d.rtt.memoryBytes() + d.hol.memoryBytes() +
         d.remote.memoryBytes() + d.jitter.memoryBytes() + d.m.stalls.capacity() * sizeof(StallEvent) +
         d.m.loss_bursts.size() * 48;
    n += d.parked.capacity() * sizeof(d.parked[0]) + d.numberings.capacity() * sizeof(Numbering);
    for (const auto& p : d.parked)
      n += p.second.win.capacity() * sizeof(SeqSlot) + p.second.hol.memoryBytes();
  }
  return n;
}

ConnectionMetrics ContractAnalyzer::finish() {
  if (finished_) return conn_;
  finished_ = true;
  for (Dir& d : dirs_) {
    double hol_ms = 0, hol_max = 0;
    uint64_t hol_blocked = 0;
    eachSpace(d, [&] {
      if (d.win.started()) {
        // Settle every seq still open: what the last ack reaches is decided.
        for (uint32_t s = d.judge_next; d.win.contains(s); ++s) {
          judge(d, d.win.at(s), true, 0, last_ns_);
          if (s == d.win.top()) break;
        }
        lossRun(d, false, 0, 0, 0, last_ns_);
        d.hol.settleAll();
      }
      hol_ms += d.hol.totalMs();
      hol_max = std::max(hol_max, d.hol.maxMs());
      hol_blocked += d.hol.blocked();
    });
    d.m.hol_blocking_ms = hol_ms;
    d.m.hol_max_ms = hol_max;
    d.m.hol_blocked_packets = hol_blocked;
    d.stall.setReporting(!atReceiver(vantage_, d.id));
    d.remote.advance(last_ns_, other(d).rtt.minMs(), holdMaxMs(d), atReceiver(vantage_, d.id), true, sink_,
                     d.m.stalls);
    d.stall.finish(d.outstanding > 0, last_ns_, sink_, d.m.stalls);
    d.rate.flush(sink_);
  }
  conn_.vantage = vantage_;
  for (Dir& d : dirs_) {
    DirectionMetrics& m = d.m;
    m.duplicates = atReceiver(vantage_, d.id) ? d.dup_seen : d.dup_covered;
    fillDirectionFigures(m, d.id, vantage_, d.rtt, d.response, d.jitter);
    m.jitter_ms = d.jitter.jitterMs();
    conn_.dir[size_t(d.id)] = m;
  }
  return conn_;
}

}  // namespace rudp::ana
