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
  if (ttl != 0) {
    me.ttl_seen = true;
    me.ttl_all_initial &= initialTtl(ttl);
  }
  countPayload(me, d, payload, payload_len, ts_ns, frame);
  me.last_ns = ts_ns;
  me.last_frame = frame;
  any_ = true;
  last_ns_ = ts_ns;
  last_frame_ = frame;
  last_dir_ = d;
}

void TimingAnalyzer::countPayload(Dir& d, Direction dir, const uint8_t* payload, size_t len, int64_t ts_ns,
                                  uint64_t frame) {
  if (d.counter) {
    d.counter->add(payload, len, ts_ns, frame, sink_);
    return;
  }
  if (d.finder.full()) return;  // decided: no counter
  d.finder.add(payload, len);
  d.sampled.emplace_back(ts_ns, frame);
  if (d.finder.full()) decideCounter(d, dir);
}

// Picks the counter from the sample and replays the sample through it.
void TimingAnalyzer::decideCounter(Dir& d, Direction dir) {
  d.seq_field = d.finder.find();
  if (d.seq_field.found()) {
    d.counter.emplace(d.seq_field, dir);
    const auto& heads = d.finder.sample();
    for (size_t i = 0; i < heads.size(); ++i)
      d.counter->add(heads[i].bytes.data(), heads[i].len, d.sampled[i].first, d.sampled[i].second, sink_);
    d.finder.clear();
  }
  std::vector<std::pair<int64_t, uint64_t>>().swap(d.sampled);
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
  if (stream)
    for (const StallEvent& e : freezes_found_)
      if (e.end_ns - e.start_ns > freezeNs) emit(e);
  for (Direction d : {Direction::ClientToServer, Direction::ServerToClient}) {
    if (stream) reportSilences(d, m.vantage, last_ns_, freezeNs);
    Dir& x = dir(d);
    if (!x.counter && !x.finder.full()) decideCounter(x, d);  // a short flow: its whole sample
    x.rate.flush(sink_);
    DirectionMetrics& out = m.dir[static_cast<size_t>(d)];
    out.packets = x.packets;
    out.bytes = x.bytes;
    x.gaps.fill(out.gaps);
    const double p50 = out.gaps.p50;
    if (x.gaps.shareWithin(p50 * (1 - kTickTolerance), p50 * (1 + kTickTolerance)) < kMinOnTick)
      out.gaps.tick_hz = 0;
    out.seq_field = x.seq_field;
    if (x.counter) {
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
