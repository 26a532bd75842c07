#include "analyzers/two_level_analyzer.h"

#include <algorithm>

#include "analyzers/direction_figures.h"
#include "analyzers/loss_run.h"
#include "analyzers/vantage.h"

namespace rudp::ana {

namespace {
double msBetween(int64_t from_ns, int64_t to_ns) { return double(to_ns - from_ns) / 1e6; }
}  // namespace

TwoLevelAnalyzer::TwoLevelAnalyzer(const TwoLevelContract& contract, const AnalyzerConfig& cfg,
                                   EventSink* sink)
    : sink_(sink),
      cfg_(cfg),
      number_mask_(uint32_t((uint64_t{1} << contract.number_bits) - 1)),
      id_mask_(uint32_t((uint64_t{1} << contract.msg_id_bits) - 1)),
      order_bits_(contract.order_bits),
      dirs_{Dir(Direction::ClientToServer, cfg_, contract.number_bits, contract.msg_id_bits),
            Dir(Direction::ServerToClient, cfg_, contract.number_bits, contract.msg_id_bits)} {}

void TwoLevelAnalyzer::onPacket(uint64_t frame, int64_t ts_ns, Direction dir, const TwoLevelDatagram& d,
                                uint32_t wire_bytes) {
  Dir& x = dirs_[static_cast<int>(dir)];
  ++x.m.packets;
  x.m.bytes += wire_bytes;
  x.rate.add(ts_ns, wire_bytes, sink_);
  other(x).stall.onPeerPacket(ts_ns, false);
  if (d.repeated_number) return;  // not analysed (TwoLevelDatagram::repeated_number)
  onAcks(other(x), d, frame, ts_ns);
  if (!d.has_number) return;
  const uint64_t n = x.numbers.take(d.number);
  if (!onNumber(x, n, frame, ts_ns)) return;  // the network duplicated it
  bool ticks = false;
  for (const Message& m : d.messages) ticks |= onMessage(x, m, n, frame, ts_ns);
  if (ticks) x.spacing.add(ts_ns, false, 0, 0, 0);
}

// A numbered packet captured: numbers skipped since the highest one were
// lost before the capture point (a late arrival below it is reordering).
bool TwoLevelAnalyzer::onNumber(Dir& d, uint64_t n, uint64_t frame, int64_t ns) {
  if (d.sent.count(n)) {
    ++d.m.network_duplicates;
    return false;
  }
  Sent& s = d.sent[n];
  s.frame = frame;
  s.ns = ns;
  if (d.any_number && n < d.highest) {
    ++d.m.reordered;
  } else {
    if (d.any_number && n > d.highest + 1) {
      const uint64_t missing = n - d.highest - 1;
      // Placed between the neighbours that arrived, not at the arrival that revealed it.
      const int64_t at = d.highest_ns + (ns - d.highest_ns) / int64_t(missing + 1);
      lossRun(d, d.highest + 1, uint32_t(std::min<uint64_t>(missing, UINT32_MAX)), frame, at, 0);
    }
    d.any_number = true;
    d.highest = n;
    d.highest_ns = ns;
  }
  forgetOld(d);
  return true;
}

bool TwoLevelAnalyzer::onMessage(Dir& d, const Message& msg, uint64_t packet, uint64_t frame, int64_t ns) {
  if (!isReliable(msg.cls) || !msg.has_id) return true;
  ++d.m.data_packets;
  const uint64_t id = d.ids.take(msg.id);
  d.sent[packet].reliable.push_back(id);
  auto [it, fresh] = d.msgs.try_emplace(id);
  Msg& m = it->second;
  if (fresh) {
    m = Msg{frame, frame, packet, ns, ns, 1, false, msg.split, msg.split_id};
    d.stall.onReliableData(ns, frame, d.outstanding);
    ++d.outstanding;
    if (msg.split) {
      auto [split, started] = d.split_delivery.try_emplace(msg.split_id);
      if (started) split->second = SplitDelivery{ns, 0, std::max<uint32_t>(1, msg.split_count)};
    }
    if (msg.cls == MessageClass::ReliableOrdered && msg.has_order) onOrdered(d, msg, ns);
    return true;
  }
  resend(d, m, id, packet, frame, ns);
  return false;
}

void TwoLevelAnalyzer::resend(Dir& d, Msg& m, uint64_t id, uint64_t packet, uint64_t frame, int64_t ns) {
  const Sent* prev = nullptr;
  if (auto p = d.sent.find(m.last_packet); p != d.sent.end()) prev = &p->second;
  const bool ackedBefore = prev && prev->acked && prev->ack_ns <= ns;
  const RetxCause cause = ackedBefore                                 ? RetxCause::Spurious
                          : prev && prev->naked && prev->nak_ns <= ns ? RetxCause::Fast
                                                                      : RetxCause::Timeout;
  ++m.copies;
  const uint64_t previous_frame = m.last_frame;
  const int64_t previous_ns = m.last_ns;
  m.last_frame = frame;
  m.last_ns = ns;
  m.last_packet = packet;
  d.stall.onRetransmission(ackedBefore);
  // A split message counts one resend per round, however many fragments it resends.
  if (m.split) {
    uint32_t& counted = d.split_copies[m.split_id];
    if (m.copies <= counted) return;
    counted = m.copies;
  }
  ++d.m.retransmissions;
  ++(cause == RetxCause::Spurious ? d.m.retransmissions_spurious
     : cause == RetxCause::Fast   ? d.m.retransmissions_fast
                                  : d.m.retransmissions_timeout);
  RetransmissionEvent ev{frame,         ns,
                         d.id,          uint32_t(id & id_mask_),
                         m.first_frame, previous_frame,
                         m.copies,      msBetween(previous_ns, ns),
                         cause};
  if (sink_) sink_->onRetransmission(ev);
}

// Head-of-line blocking per ordering channel: an index is delivered once it
// and every earlier index have arrived (all their fragments).
void TwoLevelAnalyzer::onOrdered(Dir& d, const Message& msg, int64_t ns) {
  Channel& ch = d.channels.try_emplace(msg.channel, order_bits_).first->second;
  const uint64_t index = ch.index.take(msg.order_index);
  if (!ch.started) {
    ch.started = true;
    ch.next = index;
  }
  if (index < ch.next) return;
  Ordered& o = ch.waiting[index];
  o.need = msg.split ? std::max<uint32_t>(1, msg.split_count) : 1;
  ++o.fragments;
  o.arrival_ns = std::max(o.arrival_ns, ns);
  // An index that never arrives (lost before a capture that ends, or given
  // up by the sender) blocks nothing: past kMaxWaiting, it is skipped.
  if (ch.waiting.size() > kMaxWaiting) ch.next = ch.waiting.begin()->first;
  while (!ch.waiting.empty() && ch.waiting.begin()->first == ch.next &&
         ch.waiting.begin()->second.fragments >= ch.waiting.begin()->second.need) {
    const int64_t arrived = ch.waiting.begin()->second.arrival_ns;
    const int64_t delivered = std::max(arrived, ch.delivered_ns);
    if (delivered > arrived) {
      const double wait = msBetween(arrived, delivered);
      d.m.hol_blocking_ms += wait;
      d.m.hol_max_ms = std::max(d.m.hol_max_ms, wait);
      ++d.m.hol_blocked_packets;
    }
    ch.delivered_ns = delivered;
    ch.waiting.erase(ch.waiting.begin());
    ++ch.next;
  }
}

// The ack and NAK records of a datagram, about `data`'s packets.
void TwoLevelAnalyzer::onAcks(Dir& data, const TwoLevelDatagram& d, uint64_t frame, int64_t ns) {
  if (d.acks.empty() || !data.numbers.started()) return;
  if (d.nak) {
    onNak(data, d, frame, ns);
    return;
  }
  const Sent* largest = nullptr;
  for (const AckRecord& r : d.acks) {
    const uint64_t first = data.numbers.nearest(r.first);
    const uint64_t last = std::max(first, data.numbers.nearest(r.last));
    for (auto it = data.sent.lower_bound(first); it != data.sent.end() && it->first <= last; ++it) {
      if (it->second.acked) continue;
      acked(data, it->second, frame, ns);
      largest = &it->second;
    }
  }
  if (!largest) return;
  RttEvent ev{frame, largest->frame, ns, data.id, msBetween(largest->ns, ns), RttSource::SeqAck};
  data.rtt.add(ev);
  if (sink_) sink_->onRtt(ev);
}

// NAK records: the captured packets they name did not arrive; consecutive
// numbers are one loss run.
void TwoLevelAnalyzer::onNak(Dir& data, const TwoLevelDatagram& d, uint64_t frame, int64_t ns) {
  for (const AckRecord& r : d.acks) {
    const uint64_t first = data.numbers.nearest(r.first);
    const uint64_t last = std::max(first, data.numbers.nearest(r.last));
    uint64_t run_first = 0, run_frame = 0;
    uint32_t run = 0;
    auto flush = [&] {
      if (run) lossRun(data, run_first, run, frame, ns, run_frame);
      run = 0;
    };
    for (auto it = data.sent.lower_bound(first); it != data.sent.end() && it->first <= last; ++it) {
      Sent& s = it->second;
      if (s.acked || s.naked) {
        flush();
        continue;
      }
      s.naked = true;
      s.nak_ns = ns;
      if (run && it->first != run_first + run) flush();
      if (!run) run_first = it->first, run_frame = s.frame;
      ++run;
    }
    flush();
  }
}

void TwoLevelAnalyzer::acked(Dir& data, Sent& s, uint64_t frame, int64_t ns) {
  s.acked = true;
  s.ack_ns = ns;
  const uint32_t before = data.outstanding;
  for (uint64_t id : s.reliable) {
    auto it = data.msgs.find(id);
    if (it == data.msgs.end() || it->second.delivered) continue;
    it->second.delivered = true;
    delivered(data, it->second, ns);
    --data.outstanding;
  }
  if (data.outstanding < before) data.stall.onProgress(ns, frame, sink_, data.m.stalls);
}

// One response sample per message: a split one's when its last fragment is delivered.
void TwoLevelAnalyzer::delivered(Dir& data, const Msg& m, int64_t ns) {
  if (!m.split) {
    data.response.add(m.first_ns, ns);
    return;
  }
  auto it = data.split_delivery.find(m.split_id);
  if (it == data.split_delivery.end() || ++it->second.delivered < it->second.need) return;
  data.response.add(it->second.first_ns, ns);
  data.split_delivery.erase(it);
}

void TwoLevelAnalyzer::lossRun(Dir& d, uint64_t first, uint32_t count, uint64_t frame, int64_t ns,
                               uint64_t first_frame) {
  d.m.lost += count;
  recordLossBurst(d.m, sink_, LossEvent{frame, ns, d.id, uint32_t(first & number_mask_), count, first_frame});
}

// Keeps the packets of the last kKeepPackets numbers, acknowledged or not;
// a message leaves with its last copy's packet (one never acknowledged that
// long is no longer outstanding), a split message with any of its fragments.
void TwoLevelAnalyzer::forgetOld(Dir& d) {
  while (!d.sent.empty() && d.sent.begin()->first + kKeepPackets < d.highest) {
    for (uint64_t id : d.sent.begin()->second.reliable) {
      auto it = d.msgs.find(id);
      if (it == d.msgs.end() || it->second.last_packet != d.sent.begin()->first) continue;
      if (!it->second.delivered) --d.outstanding;
      if (it->second.split) {
        d.split_copies.erase(it->second.split_id);
        d.split_delivery.erase(it->second.split_id);
      }
      d.msgs.erase(it);
    }
    d.sent.erase(d.sent.begin());
  }
}

ConnectionMetrics TwoLevelAnalyzer::finish() {
  ConnectionMetrics c;
  if (finished_) return c;
  finished_ = true;
  const Dir& cs = dirs_[0];
  const Dir& sc = dirs_[1];
  c.vantage = detectVantage(cs.rtt.samples() > 0, cs.rtt.minMs(), sc.rtt.samples() > 0, sc.rtt.minMs());
  int64_t end_ns = 0;
  for (const Dir& d : dirs_)
    if (!d.sent.empty()) end_ns = std::max(end_ns, d.highest_ns);
  for (Dir& d : dirs_) {
    d.rate.flush(sink_);
    d.stall.setReporting(!atReceiver(c.vantage, d.id));
    d.stall.finish(d.outstanding > 0, end_ns, sink_, d.m.stalls);
    fillDirectionFigures(d.m, d.id, c.vantage, d.rtt, d.response, d.spacing);
    c.dir[static_cast<int>(d.id)] = d.m;
  }
  return c;
}

}  // namespace rudp::ana
