#include "analyzers/timing_analyzer.h"

#include <algorithm>

#include "analyzers/vantage.h"

namespace rudp::ana {

namespace {
constexpr size_t kMaxStalls = 4096;  // kept per direction; the sink gets every one
}

bool initialTtl(uint8_t ttl) { return ttl == 32 || ttl == 64 || ttl == 128 || ttl == 255; }

TimingAnalyzer::TimingAnalyzer(const AnalyzerConfig& cfg, EventSink* sink, AddressEvidence addresses)
    : cfg_(cfg), sink_(sink), addresses_(addresses), thr_ns_(int64_t(cfg.stall_ms * 1e6)) {}

void TimingAnalyzer::onPacket(uint64_t frame, int64_t ts_ns, Direction d, uint32_t wire_bytes, uint8_t ttl,
                              const uint8_t* payload, size_t payload_len) {
  Dir& me = dir(d);
  if (any_) {
    const int64_t gap = ts_ns - last_ns_;
    if (gap > thr_ns_) noteFreeze(frame, ts_ns);
    for (Dir& x : dirs_) x.longest_both_quiet_ns = std::max(x.longest_both_quiet_ns, gap);
  }
  if (me.packets > 0 && ts_ns - me.last_ns > thr_ns_) noteSilence(me, frame, ts_ns);
  me.longest_both_quiet_ns = 0;
  ++me.packets;
  me.bytes += wire_bytes;
  me.gaps.add(ts_ns, false, 0, 0, 0);
  me.rate.add(ts_ns, wire_bytes, sink_);
  me.pace.add(ts_ns, frame);
  if (ttl != 0) {
    me.ttl_seen = true;
    me.ttl_all_initial &= initialTtl(ttl);
  }
  if (fields_chosen_)
    readFields(me, payload, payload_len, ts_ns, frame);
  else
    hold(me, payload, payload_len, ts_ns, frame);
  me.last_ns = ts_ns;
  me.last_frame = frame;
  any_ = true;
  last_ns_ = ts_ns;
  last_frame_ = frame;
  last_dir_ = d;
}

void TimingAnalyzer::hold(Dir& d, const uint8_t* payload, size_t len, int64_t ts_ns, uint64_t frame) {
  SampledPacket p;
  p.head.len = static_cast<uint8_t>(std::min(len, CounterFinder::kBytes));
  std::copy(payload, payload + p.head.len, p.head.bytes.begin());
  p.ns = ts_ns;
  p.frame = frame;
  d.pending.push_back(p);
  const bool samples =
      dirs_[0].pending.size() >= CounterFinder::kSample && dirs_[1].pending.size() >= CounterFinder::kSample;
  if (samples || d.pending.size() >= kPending) chooseFields();
}

// Picks the fields from both directions' first packets, then reads them
// from those packets in capture order.
void TimingAnalyzer::chooseFields() {
  fields_chosen_ = true;
  auto sampleOf = [](const Dir& d) {
    return std::span<const SampledPacket>(d.pending).first(
        std::min(d.pending.size(), CounterFinder::kSample));
  };
  for (Dir& d : dirs_) {
    CounterFinder finder;
    for (const SampledPacket& p : sampleOf(d)) finder.add(p.head.bytes.data(), p.head.len);
    d.seq_field = finder.find();
    d.ts_field = findTimestamp(sampleOf(d), d.seq_field);
  }
  for (Dir& d : dirs_) {
    const InferredField mine[] = {d.seq_field, d.ts_field};
    d.ack_field = findEcho(sampleOf(d), mine, other(d).pending, other(d).seq_field);
  }
  shareEchoStyle(dirs_[0].ack_field, dirs_[1].ack_field);
  for (Dir& d : dirs_) {
    if (d.seq_field.found()) d.counter.emplace(d.seq_field, d.id);
    if (d.ts_field.found()) d.ts_jitter.emplace();
    if (d.seq_field.found() && other(d).ack_field.found())
      d.echo_rtt.emplace(d.seq_field, other(d).ack_field);
  }
  std::vector<SampledPacket> c = std::move(dirs_[0].pending), s = std::move(dirs_[1].pending);
  size_t i = 0, j = 0;
  while (i < c.size() || j < s.size()) {
    const bool client = j == s.size() || (i < c.size() && c[i].frame < s[j].frame);
    const SampledPacket& p = client ? c[i++] : s[j++];
    readFields(dirs_[client ? 0 : 1], p.head.bytes.data(), p.head.len, p.ns, p.frame);
  }
}

// One protocol puts its echo at the same place both ways, with one meaning.
// A "next expected" echo is one ahead only when the echoing side has
// received everything: at the other end of a busy direction the capture
// never sees that, so what one direction shows holds for both.
void TimingAnalyzer::shareEchoStyle(InferredField& a, InferredField& b) {
  if (a.offset != b.offset || a.size != b.size || a.little_endian != b.little_endian) return;
  a.echo_next = b.echo_next = a.echo_next || b.echo_next;
}

void TimingAnalyzer::readFields(Dir& d, const uint8_t* payload, size_t len, int64_t ts_ns, uint64_t frame) {
  if (d.counter) d.counter->add(payload, len, ts_ns, frame, sink_);
  uint32_t ts = 0;
  if (d.ts_jitter && readField(d.ts_field, payload, len, ts))
    d.ts_jitter->add(ts_ns, true, ts, 1e3 / d.ts_field.unit_hz, 8u * d.ts_field.size);
  if (d.echo_rtt) d.echo_rtt->onData(payload, len, ts_ns, frame);
  Dir& data = other(d);
  double ms = 0;
  uint64_t dataFrame = 0;
  if (!data.echo_rtt || !data.echo_rtt->onEcho(payload, len, ts_ns, ms, dataFrame)) return;
  RttEvent ev{frame, dataFrame, ts_ns, data.id, ms, RttSource::InferredEcho, spanFor(vantage(), data.id)};
  data.rtt.add(ev);
  if (sink_) sink_->onRtt(ev);
}

void TimingAnalyzer::noteFreeze(uint64_t frame, int64_t ts_ns) {
  StallEvent e;
  e.dir = last_dir_;
  e.start_ns = last_ns_;
  e.end_ns = ts_ns;
  e.duration_ms = double(ts_ns - last_ns_) / 1e6;
  e.cause = StallCause::BothQuiet;
  e.first_frame = last_frame_;
  e.last_frame = frame;
  if (freezes_found_.size() < kMaxCandidates) freezes_found_.push_back(e);
}

void TimingAnalyzer::noteSilence(Dir& d, uint64_t frame, int64_t ts_ns) {
  if (d.candidates.size() < kMaxCandidates)
    d.candidates.push_back({d.last_ns, ts_ns, d.last_frame, frame, d.longest_both_quiet_ns});
}

// The flow's own rhythm: a flow that exchanges a request and its answer once
// a second has gaps, not freezes. Its faster direction sets it.
int64_t TimingAnalyzer::freezeThresholdNs() const {
  double fastest = 0;
  for (const Dir& d : dirs_) {
    GapStats g;
    d.gaps.fill(g);
    if (g.samples > 0 && (fastest == 0 || g.p50 < fastest)) fastest = g.p50;
  }
  return std::max(thr_ns_, int64_t(kSilenceTicks * fastest * 1e6));
}

void TimingAnalyzer::emit(StallEvent e) {
  Dir& d = dir(e.dir);
  if (d.stalls.size() < kMaxStalls) d.stalls.push_back(e);
  if (sink_) sink_->onStall(e);
}

Vantage TimingAnalyzer::vantage() const {
  const Dir& c = dirs_[0];
  const Dir& s = dirs_[1];
  const bool clientLocal = c.ttl_seen && c.ttl_all_initial, serverLocal = s.ttl_seen && s.ttl_all_initial;
  if (clientLocal != serverLocal && c.ttl_seen && s.ttl_seen)
    return clientLocal ? Vantage::Client : Vantage::Server;
  if (addresses_.client_private != addresses_.server_private)
    return addresses_.client_private ? Vantage::Client : Vantage::Server;
  return Vantage::Unknown;
}

StallCause TimingAnalyzer::oneSidedCause(Vantage v, Direction quiet) const {
  if (v != Vantage::Client && v != Vantage::Server) return StallCause::OneSideQuiet;
  return atSender(v, quiet) ? StallCause::LocalQuiet : StallCause::RemoteQuiet;
}

void TimingAnalyzer::reportSilences(Direction d, Vantage v, int64_t end_ns, int64_t freezeNs) {
  Dir& me = dir(d);
  GapStats g;
  me.gaps.fill(g);
  const int64_t thr = std::max(thr_ns_, int64_t(kSilenceTicks * g.p50 * 1e6));
  auto report = [&](const Candidate& c, bool open) {
    if (c.end_ns - c.start_ns <= thr || c.longest_both_quiet_ns > freezeNs) return;
    StallEvent e;
    e.dir = d;
    e.start_ns = c.start_ns;
    e.end_ns = c.end_ns;
    e.duration_ms = double(c.end_ns - c.start_ns) / 1e6;
    e.cause = oneSidedCause(v, d);
    e.first_frame = c.first_frame;
    e.last_frame = open ? 0 : c.last_frame;
    e.open = open;
    emit(e);
  };
  for (const Candidate& c : me.candidates) report(c, false);
  // Quiet until the end while the other side went on.
  if (me.packets > 0) report({me.last_ns, end_ns, me.last_frame, 0, me.longest_both_quiet_ns}, true);
}

ConnectionMetrics TimingAnalyzer::finish() {
  ConnectionMetrics m;
  m.timing_only = true;
  m.vantage = vantage();
  const bool stream = dirs_[0].packets + dirs_[1].packets >= kMinStreamPackets;
  const int64_t freezeNs = freezeThresholdNs();
  if (!fields_chosen_) chooseFields();  // a short flow: all its packets
  if (stream)
    for (const StallEvent& e : freezes_found_)
      if (e.end_ns - e.start_ns > freezeNs) emit(e);
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    if (stream) reportSilences(d, m.vantage, last_ns_, freezeNs);
    Dir& x = dir(d);
    x.rate.flush(sink_);
    DirectionMetrics& out = m.dir[static_cast<size_t>(d)];
    out.packets = x.packets;
    out.bytes = x.bytes;
    x.gaps.fill(out.gaps);
    const double p50 = out.gaps.p50;
    if (x.gaps.shareWithin(p50 * (1 - kTickTolerance), p50 * (1 + kTickTolerance)) < kMinOnTick)
      out.gaps.tick_hz = 0;
    if (out.gaps.tick_hz > 0) out.rate_changes = x.pace.finish();  // a rate changes only from a tick
    out.seq_field = x.seq_field;
    out.ts_field = x.ts_field;
    out.ack_field = x.ack_field;
    if (x.ts_jitter) out.jitter_ms = x.ts_jitter->jitterMs();
    if (x.rtt.samples() > 0) x.rtt.fill(out.rtt, spanFor(m.vantage, d));
    if (x.counter) {
      x.counter->flush(sink_);       // the losses no late packet filled
      out.data_packets = x.packets;  // every packet took a number
      out.lost = x.counter->lost();
      out.duplicates = x.counter->duplicates();
      out.reordered = x.counter->reordered();
      out.loss_bursts = x.counter->lossBursts();
      out.mean_loss_burst = meanLossBurst(out.loss_bursts);
    }
    std::stable_sort(x.stalls.begin(), x.stalls.end(),
                     [](const StallEvent& a, const StallEvent& b) { return a.start_ns < b.start_ns; });
    out.stalls = std::move(x.stalls);
  }
  return m;
}

}  // namespace rudp::ana
