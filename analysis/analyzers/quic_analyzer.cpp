#include "analyzers/quic_analyzer.h"

#include <algorithm>
#include <cmath>

#include "analyzers/direction_figures.h"
#include "analyzers/vantage.h"

namespace rudp::ana {

namespace {

constexpr double kGranularityMs = 1.0;  // RFC 9002 kGranularity
constexpr uint64_t kPacketThreshold = 3;

double msBetween(int64_t from_ns, int64_t to_ns) { return double(to_ns - from_ns) / 1e6; }
int64_t nsOf(double ms) { return int64_t(std::llround(ms * 1e6)); }

// RFC 9002 2: packets that count in flight (and so can be declared lost):
// ack-eliciting ones and those carrying PADDING.
bool inFlight(const quic::Packet& p) {
  return std::any_of(p.frames.begin(), p.frames.end(), [](const quic::Frame& f) {
    return quic::ackEliciting(f.type) || f.is(quic::frame::kPadding);
  });
}

}  // namespace

void QuicRtt::add(double latestMs, double ackDelayMs) {
  latest = latestMs;
  if (!has_sample) {
    has_sample = true;
    min = latestMs;
    adjusted = latestMs;
    smoothed = latestMs;
    rttvar = latestMs / 2;
    return;
  }
  min = std::min(min, latestMs);
  adjusted = latestMs >= min + ackDelayMs ? latestMs - ackDelayMs : latestMs;
  rttvar = 0.75 * rttvar + 0.25 * std::abs(smoothed - adjusted);
  smoothed = 0.875 * smoothed + 0.125 * adjusted;
}

double QuicRtt::lossDelay() const { return std::max(9.0 / 8.0 * std::max(smoothed, latest), kGranularityMs); }

double QuicRtt::pto(double maxAckDelayMs) const {
  return smoothed + std::max(4 * rttvar, kGranularityMs) + maxAckDelayMs;
}

QuicAnalyzer::QuicAnalyzer(const AnalyzerConfig& cfg, EventSink* sink, AddressEvidence addresses)
    : sink_(sink),
      cfg_(cfg),
      dirs_{Dir(Direction::ClientToServer, cfg_), Dir(Direction::ServerToClient, cfg_)},
      addresses_(addresses) {}

QuicAnalyzer::~QuicAnalyzer() = default;

namespace {
bool oneRtt(const quic::Packet& p) { return p.header.type == quic::PacketType::OneRtt; }
}  // namespace

void QuicAnalyzer::onDatagram(uint64_t frame, int64_t ts_ns, Direction dir, const quic::Datagram& d,
                              uint32_t wire_bytes, const quic::TransportParameters& ackParams, uint8_t ttl) {
  if (mode_ == Mode::Unknown) {  // the first 1-RTT packet tells whether the keys are there
    const auto first = std::find_if(d.packets.begin(), d.packets.end(), oneRtt);
    const bool told = first != d.packets.end() && !first->keys_pending;
    if (!told && waiting_.size() < kMaxWaiting) {
      waiting_.push_back({frame, ts_ns, dir, d, wire_bytes, ackParams, ttl});
      return;
    }
    decide(told && first->no_keys ? Mode::Encrypted : Mode::Decoded);
  }
  take(frame, ts_ns, dir, d, wire_bytes, ackParams, ttl);
}

void QuicAnalyzer::decide(Mode mode) {
  mode_ = mode;
  if (mode_ == Mode::Encrypted) timing_ = std::make_unique<TimingAnalyzer>(cfg_, sink_, addresses_);
  for (const Waiting& w : waiting_) take(w.frame, w.ts_ns, w.dir, w.d, w.wire_bytes, w.params, w.ttl);
  waiting_.clear();
}

void QuicAnalyzer::take(uint64_t frame, int64_t ts_ns, Direction dir, const quic::Datagram& d,
                        uint32_t wire_bytes, const quic::TransportParameters& ackParams, uint8_t ttl) {
  Dir& x = dirs_[int(dir)];
  if (timing_) {
    timing_->onPacket(frame, ts_ns, dir, wire_bytes, ttl, nullptr, 0);
    onSpin(x, frame, ts_ns, d);
  } else {
    fireLossTimers(ts_ns, frame);
    ++x.m.packets;
    x.m.bytes += wire_bytes;
    x.rate.add(ts_ns, wire_bytes, sink_);
    other(x).stall.onPeerPacket(ts_ns, false);
  }
  readPackets(x, frame, ts_ns, d, ackParams);
}

void QuicAnalyzer::readPackets(Dir& x, uint64_t frame, int64_t ts_ns, const quic::Datagram& d,
                               const quic::TransportParameters& ackParams) {
  bool ticks = false;
  for (const quic::Packet& p : d.packets) {
    if (!p.decrypted) continue;
    for (const quic::Frame& f : p.frames)
      if (f.isAck())
        onAck(other(x), quic::spaceOf(p.header.type), f, p.packet_number, frame, ts_ns, ackParams);
    const size_t before = x.chunks.size();
    onPacket(x, p, frame, ts_ns);
    ticks |= x.chunks.size() > before || std::any_of(p.frames.begin(), p.frames.end(),
                                                     [](const quic::Frame& f) { return f.isDatagram(); });
  }
  if (ticks) x.spacing.add(ts_ns, false, 0, 0, 0);
}

void QuicAnalyzer::onPacket(Dir& d, const quic::Packet& p, uint64_t frame, int64_t ns) {
  const int space = int(quic::spaceOf(p.header.type));
  auto [it, fresh] = d.sent[space].try_emplace(p.packet_number);
  if (!fresh) {
    ++d.m.network_duplicates;  // a packet number is sent once: the network copied it
    return;
  }
  Sent& s = it->second;
  s.frame = frame;
  s.ns = ns;
  s.in_flight = inFlight(p);
  s.ack_eliciting = std::any_of(p.frames.begin(), p.frames.end(),
                                [](const quic::Frame& f) { return quic::ackEliciting(f.type); });
  if (s.in_flight) ++d.m.data_packets;
  for (const quic::Frame& f : p.frames) {
    if (f.isDatagram()) {
      ++s.datagrams;
      ++d.datagrams;
    }
    if (f.isStream()) onStreamFrame(d, f, space, p.packet_number, frame, ns);
    if (f.is(quic::frame::kHandshakeDone)) dirs_[0].confirmed = dirs_[1].confirmed = true;
    d.closed |= f.is(quic::frame::kConnectionClose) || f.is(quic::frame::kApplicationClose);
  }
}

void QuicAnalyzer::onStreamFrame(Dir& d, const quic::Frame& f, int space, uint64_t number, uint64_t frame,
                                 int64_t ns) {
  Sent& s = d.sent[space][number];
  // The chunk these bytes belong to: one starting at or before them that reaches them.
  auto it = d.chunks.upper_bound({f.stream_id, f.offset});
  if (it != d.chunks.begin()) {
    --it;
    if (it->first.first != f.stream_id || f.offset >= std::max(it->second.end, it->first.second + 1))
      it = d.chunks.end();
  } else {
    it = d.chunks.end();
  }
  if (it == d.chunks.end()) {
    StreamChunk c;
    c.end = f.offset + f.length;
    c.first_ns = c.last_ns = ns;
    c.first_frame = c.last_frame = frame;
    c.copies = 1;
    c.packets.emplace_back(space, number);
    d.stall.onReliableData(ns, frame, d.outstanding);
    ++d.outstanding;
    d.chunks.emplace(std::make_pair(f.stream_id, f.offset), std::move(c));
    s.chunks.push_back({f.stream_id, f.offset, f.length});
    return;
  }
  StreamChunk& c = it->second;
  const auto [prevSpace, prevNumber] = c.packets.back();
  const Sent& prev = d.sent[prevSpace][prevNumber];
  const bool ackedBefore = prev.acked && prev.ack_ns <= ns;
  const RetxCause cause = ackedBefore ? RetxCause::Spurious
                          : prev.lost ? RetxCause::Fast
                                      : RetxCause::Timeout;
  ++c.copies;
  ++d.m.retransmissions;
  ++(cause == RetxCause::Spurious ? d.m.retransmissions_spurious
     : cause == RetxCause::Fast   ? d.m.retransmissions_fast
                                  : d.m.retransmissions_timeout);
  d.stall.onRetransmission(ackedBefore);
  if (sink_)
    sink_->onRetransmission(RetransmissionEvent{frame, ns, d.id, uint32_t(it->first.second), c.first_frame,
                                                c.last_frame, c.copies, msBetween(c.last_ns, ns), cause});
  c.last_ns = ns;
  c.last_frame = frame;
  c.packets.emplace_back(space, number);
  s.chunks.push_back({it->first.first, it->first.second, f.length});
}

void QuicAnalyzer::onAck(Dir& data, quic::Space space, const quic::Frame& ack, uint64_t ackPacket,
                         uint64_t frame, int64_t ns, const quic::TransportParameters& ackParams) {
  auto& sent = data.sent[int(space)];
  bool largestNewly = false, anyEliciting = false, any = false;
  const uint32_t outstandingBefore = data.outstanding;
  // Numbers below the lowest one not yet acknowledged need no walk (a hostile
  // ACK of [0, largest] on every packet stays linear).
  uint64_t& unacked = data.first_unacked[int(space)];
  auto open = sent.lower_bound(unacked);
  while (open != sent.end() && open->second.acked) ++open;
  unacked = open != sent.end() ? open->first : sent.empty() ? 0 : sent.rbegin()->first + 1;
  for (const quic::AckRange& r : ack.ranges)
    for (auto it = sent.lower_bound(std::max(r.smallest, unacked));
         it != sent.end() && it->first <= r.largest; ++it) {
      if (it->second.acked) continue;
      any = true;
      anyEliciting |= it->second.ack_eliciting;
      largestNewly |= it->first == ack.largest;
      acked(data, int(space), it->first, it->second, ns);
    }
  if (!any) return;
  data.largest_acked[int(space)] = std::max<int64_t>(data.largest_acked[int(space)], int64_t(ack.largest));
  if (largestNewly && anyEliciting) {
    const Sent& largest = sent.at(ack.largest);
    // RFC 9002 5.3: the ACK delay counts in 1-RTT packets only, capped once
    // the handshake is confirmed.
    double delayMs = 0;
    if (space == quic::Space::Application) {
      delayMs = double(ack.ack_delay) *
                std::ldexp(1.0, int(std::min<uint64_t>(ackParams.ack_delay_exponent, 20))) / 1000;
      if (data.confirmed) delayMs = std::min(delayMs, double(ackParams.max_ack_delay_ms));
    }
    const double latest = msBetween(largest.ns, ns);
    data.estimator.add(latest, delayMs);
    data.history.push_back({space, ack.largest, ackPacket, delayMs, data.estimator});
    RttEvent ev{frame, largest.frame, ns, data.id, latest, RttSource::SeqAck, RttSpan::Unknown, 0, 0};
    data.rtt.add(ev);
    ev.srtt_ms = data.estimator.smoothed;
    ev.rto_ms = data.estimator.pto(double(ackParams.max_ack_delay_ms));
    if (sink_) sink_->onRtt(ev);
  }
  if (data.outstanding < outstandingBefore) data.stall.onProgress(ns, frame, sink_, data.m.stalls);
  detectLost(data, int(space), frame, ns);
}

void QuicAnalyzer::acked(Dir& data, int space, uint64_t number, Sent& s, int64_t ns) {
  s.acked = true;
  s.ack_ns = ns;
  if (s.lost)  // declared lost, yet it arrived
    for (Declared& d : data.declared)
      if (int(d.space) == space && d.number == number) d.spurious = true;
  for (const Chunk& c : s.chunks) {
    StreamChunk& chunk = data.chunks.at({c.stream, c.offset});
    if (chunk.delivered) continue;
    chunk.delivered = true;
    data.response.add(chunk.first_ns, ns);
    --data.outstanding;
  }
}

// The oldest packet of `space` that may still be declared lost (in flight,
// neither acknowledged nor lost): where every walk of the loss detection
// starts, so it stays within the packets outstanding.
QuicAnalyzer::SentMap::iterator QuicAnalyzer::firstOpen(Dir& d, int space) {
  auto& sent = d.sent[space];
  auto it = sent.lower_bound(d.first_open[space]);
  while (it != sent.end() && (it->second.acked || it->second.lost || !it->second.in_flight)) ++it;
  d.first_open[space] = it == sent.end() ? (sent.empty() ? 0 : sent.rbegin()->first + 1) : it->first;
  return it;
}

// RFC 9002 6.1 (DetectAndRemoveLostPackets), as of `now`, oldest first.
void QuicAnalyzer::detectLost(Dir& d, int space, uint64_t frame, int64_t now) {
  const int64_t largest = d.largest_acked[space];
  if (largest < 0 || d.closed) return;
  const int64_t lostSendTime = now - nsOf(d.estimator.lossDelay());
  std::vector<SentMap::iterator> upToLargest;
  for (auto it = firstOpen(d, space); it != d.sent[space].end() && it->first <= uint64_t(largest); ++it)
    upToLargest.push_back(it);
  for (size_t i = 0; i < upToLargest.size(); ++i) {
    const auto it = upToLargest[i];
    Sent& s = it->second;
    if (it->first == uint64_t(largest) || s.acked || s.lost || !s.in_flight) continue;
    // The packet threshold counts packets sent after it, as quic-go does (RFC
    // 9002 counts numbers; a number skipped on purpose was never sent).
    const uint64_t sentAfter = upToLargest.size() - 1 - i;
    if (s.ns <= lostSendTime)
      declareLost(d, space, it->first, s, false, frame, now);
    else if (sentAfter >= kPacketThreshold)
      declareLost(d, space, it->first, s, true, frame, now);
  }
}

void QuicAnalyzer::declareLost(Dir& d, int space, uint64_t number, Sent& s, bool packetThreshold,
                               uint64_t frame, int64_t now) {
  s.lost = true;
  d.declared.push_back({quic::Space(space), number, packetThreshold, now, false});
  // Runs of consecutive numbers declared lost form a burst.
  if (d.run.continuedBy(uint32_t(number)) && d.run_last + 1 == number)
    d.run.extend();
  else {
    d.run.end(d.m, sink_, d.id, frame, now);
    d.run.start(uint32_t(number), s.frame);
  }
  d.run_last = number;
}

// A loss timer that would have fired before `now` (RFC 9002 6.1.2): the
// packets it declares lost are declared at its time.
void QuicAnalyzer::fireLossTimers(int64_t now, uint64_t frame) {
  for (Dir& d : dirs_)
    for (int space = 0; space < quic::kSpaces; ++space) {
      const int64_t largest = d.largest_acked[space];
      if (largest < 0) continue;
      // The oldest outstanding packet below the largest acknowledged sets the timer.
      const auto oldest = firstOpen(d, space);
      if (oldest == d.sent[space].end() || oldest->first >= uint64_t(largest)) continue;
      const int64_t fires = oldest->second.ns + nsOf(d.estimator.lossDelay());
      if (fires <= now) detectLost(d, space, frame, fires);
    }
}

uint64_t QuicAnalyzer::datagramsLost(Direction dir) const {
  uint64_t n = 0;
  for (const auto& space : dirs_[int(dir)].sent)
    for (const auto& [number, s] : space) n += s.lost && !s.acked ? s.datagrams : 0;
  return n;
}

double QuicAnalyzer::handshakeMinRttMs() const {
  double min = 0;
  for (const Dir& d : dirs_)
    if (d.rtt.samples() > 0 && (min == 0 || d.rtt.minMs() < min)) min = d.rtt.minMs();
  return min;
}

// An edge (the spin value changing) in one direction's 1-RTT packets comes
// one round trip after the previous one. An endpoint that does not spin
// sends one value (quic-go) or random ones (RFC 9000 allows it), and a
// reordered packet makes two false edges: a sample under half the
// handshake's RTT is one of those, not a round trip, and is dropped.
void QuicAnalyzer::onSpin(Dir& x, uint64_t frame, int64_t ts_ns, const quic::Datagram& d) {
  const auto last = std::find_if(d.packets.rbegin(), d.packets.rend(), oneRtt);
  if (last == d.packets.rend()) return;
  const int spin = last->header.spin ? 1 : 0;
  const bool edge = x.spin >= 0 && spin != x.spin;
  x.spin = spin;
  if (!edge) return;
  const int64_t previous = x.spin_edge_ns;
  const uint64_t previousFrame = x.spin_edge_frame;
  x.spin_edge_ns = ts_ns;
  x.spin_edge_frame = frame;
  if (previous < 0) return;
  const double ms = msBetween(previous, ts_ns), handshake = handshakeMinRttMs();
  if (handshake > 0 && ms < handshake / 2) return;
  RttEvent ev{frame, previousFrame, ts_ns, x.id, ms, RttSource::SpinBit, RttSpan::RoundTrip, 0, 0};
  x.spin_rtt.add(ev);
  if (sink_) sink_->onRtt(ev);
}

// The timing analysis, with RTT from the spin bit where the endpoints spin
// it, else from the handshake packets that opened.
ConnectionMetrics QuicAnalyzer::finishEncrypted() {
  ConnectionMetrics c = timing_->finish();
  c.timing_only = false;
  c.encrypted = true;
  for (Dir& d : dirs_) {
    if (d.spin_rtt.samples() > 0)
      d.spin_rtt.fill(c.dir[int(d.id)].rtt, RttSpan::RoundTrip);
    else if (d.rtt.samples() > 0)
      d.rtt.fill(c.dir[int(d.id)].rtt, spanFor(c.vantage, d.id));
  }
  return c;
}

ConnectionMetrics QuicAnalyzer::finish() {
  ConnectionMetrics c;
  if (finished_) return c;
  finished_ = true;
  if (mode_ == Mode::Unknown) decide(Mode::Decoded);  // no 1-RTT packet: the handshake's alone
  if (mode_ == Mode::Encrypted) return finishEncrypted();
  const Dir& cs = dirs_[0];
  const Dir& sc = dirs_[1];
  c.vantage = detectVantage(cs.rtt.samples() > 0, cs.rtt.minMs(), sc.rtt.samples() > 0, sc.rtt.minMs());
  int64_t end_ns = 0;
  for (const Dir& d : dirs_)
    for (const auto& space : d.sent)
      if (!space.empty()) end_ns = std::max(end_ns, space.rbegin()->second.ns);
  for (Dir& d : dirs_) {
    d.run.end(d.m, sink_, d.id, 0, end_ns);
    for (const Declared& x : d.declared) d.m.lost += !x.spurious;
    d.rate.flush(sink_);
    d.stall.setReporting(!atReceiver(c.vantage, d.id));
    d.stall.finish(d.outstanding > 0, end_ns, sink_, d.m.stalls);
    fillDirectionFigures(d.m, d.id, c.vantage, d.rtt, d.response, d.spacing);
    if (d.estimator.has_sample) d.m.rtt.srtt = d.estimator.smoothed;
    c.dir[int(d.id)] = d.m;
  }
  return c;
}

}  // namespace rudp::ana
