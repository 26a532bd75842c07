// TCP: segments in flight, acks and SACK, Karn and timestamp RTT, stalls.
#include "analyzers/tcp_analyzer.h"

#include <algorithm>
#include <cmath>

#include "analyzers/direction_figures.h"
#include "analyzers/vantage.h"
#include "core/seq32.h"

namespace rudp::ana {

namespace {
using namespace tcpflag;
constexpr size_t kTsRing = 1024;
}  // namespace

TcpAnalyzer::TcpAnalyzer(const AnalyzerConfig& cfg, EventSink* sink)
    : cfg_(cfg),
      sink_(sink),
      dirs_{Dir(Direction::ClientToServer, cfg_), Dir(Direction::ServerToClient, cfg_)} {}

void TcpAnalyzer::push(Dir& d, const Seg& s, size_t pos) {
  if (d.segs.empty()) d.segs.resize(64);
  if (d.count == d.segs.size()) {
    if (d.segs.size() < kMaxSegments) {
      std::vector<Seg> bigger(d.segs.size() * 2);
      for (size_t i = 0; i < d.count; ++i) bigger[i] = at(d, i);
      d.segs.swap(bigger);
      d.head = 0;
    } else {
      popFront(d);  // forget the oldest: memory stays bounded
      if (pos > 0) --pos;
    }
  }
  // Insert at `pos` (almost always the end: new data arrives in order).
  for (size_t i = d.count; i > pos; --i) at(d, i) = at(d, i - 1);
  at(d, pos) = s;
  ++d.count;
  if (s.copies == 0) ++d.holes;
}

void TcpAnalyzer::popFront(Dir& d) {
  if (at(d, 0).copies == 0) --d.holes;
  d.head = (d.head + 1) & (d.segs.size() - 1);
  --d.count;
}

// The first byte still missing, if any (holes sit near the front: the
// cumulative ack stops at the first one).
std::optional<uint32_t> TcpAnalyzer::firstMissing(Dir& d) {
  for (size_t i = 0; d.holes > 0 && i < d.count; ++i)
    if (at(d, i).copies == 0) return at(d, i).start;
  return std::nullopt;
}

// Data above the first missing byte (firstMissing) waits until nothing below it is missing.
void TcpAnalyzer::settleHol(Dir& d, std::optional<uint32_t> missing) {
  if (missing)
    d.hol.settle(*missing);
  else
    d.hol.settleAll();
}

void TcpAnalyzer::onPacket(uint64_t frame, int64_t ns, Direction dir, const DecodedPacket& p,
                           uint32_t wire_bytes) {
  last_ns_ = ns;
  const TcpOptions& options = p.tcp.options;
  tsecr_ = options.has_timestamps ? std::optional(options.tsecr) : std::nullopt;
  Dir& d = dirs_[size_t(dir)];
  Dir& peer = other(d);
  const uint8_t fl = p.tcp.flags;
  const uint32_t len = p.payload_reported_len + ((fl & kSyn) ? 1 : 0) + ((fl & kFin) ? 1 : 0);
  const bool twice = capturedTwice(d, p, len, ns);
  if (p.tcp.flags & kSyn) {
    if (d.syns++ == 0) d.first_syn_ns = ns;
    d.last_syn_ns = ns;
  }
  if (twice) {
    ++d.m.packets;
    d.m.bytes += wire_bytes;
    d.rate.add(ns, wire_bytes, sink_);
    ++d.m.network_duplicates;
    return;
  }
  if (p.l3 == L3::IPv4 || p.l3 == L3::IPv6) {
    const bool initial = p.ip_ttl == 64 || p.ip_ttl == 128 || p.ip_ttl == 255;
    if (!d.ttl_seen || (d.ttl_initial && !initial)) {
      d.ttl_seen = true;
      d.ttl_initial = d.ttl_initial && initial;
      updateVantage();
    }
  }
  ++d.m.packets;
  d.m.bytes += wire_bytes;
  d.rate.add(ns, wire_bytes, sink_);
  if ((fl & kSyn) && !(fl & kAck)) {
    if (syn_ns_ < 0) syn_ns_ = ns;
    ++conn_.connect_attempts;
  }
  if ((fl & kSyn) && (fl & kAck) && synack_ns_ < 0) synack_ns_ = ns;
  if (fl & (kFin | kRst)) conn_.disconnected = true;
  if (dir == Direction::ClientToServer && synack_ns_ >= 0 && syn_ns_ >= 0 && conn_.handshake_ms < 0 &&
      !(fl & kSyn) && (fl & kAck))
    conn_.handshake_ms = double(ns - syn_ns_) / 1e6;

  if (p.tcp.options.has_timestamps && !(fl & kRst)) recordTsval(d, p.tcp.options.tsval, frame, ns);
  if ((fl & kAck) && !(fl & kRst)) onAck(peer, p, len == 0, frame, ns);
  if (len > 0 && !(fl & kRst))
    onData(d, p, len, frame, ns);
  else if (len == 0 && !(fl & kRst) && d.started && seqAfter(p.tcp.seq, d.nxt)) {
    // A bare ack numbered past everything captured: the sequence space in
    // between (data, or a FIN) was sent and lost before the capture point.
    Seg hole;
    hole.start = d.nxt;
    hole.end = p.tcp.seq;
    hole.first_ns = hole.last_ns = ns;
    hole.behind_ack = true;
    push(d, hole, d.count);
    d.nxt = p.tcp.seq;
  }
  if (!(fl & (kSyn | kRst))) {
    // This end's receive window limits the peer's data.
    peer.m.min_window = std::min<uint32_t>(peer.m.min_window, p.tcp.window);
    if (p.tcp.window == 0 && peer.zero_since < 0) {
      peer.zero_since = ns;
      peer.zero_frame = frame;
    }
    if (p.tcp.window != 0 && peer.zero_since >= 0) {
      // The receiver closed its window: the sender could not send at all.
      if (double(ns - peer.zero_since) / 1e6 >= cfg_.stall_ms) {
        StallEvent e;
        e.dir = peer.id;
        e.start_ns = peer.zero_since;
        e.end_ns = ns;
        e.duration_ms = double(ns - peer.zero_since) / 1e6;
        e.cause = StallCause::ZeroWindow;
        e.first_frame = peer.zero_frame;
        e.last_frame = frame;
        peer.m.stalls.push_back(e);
        if (sink_) sink_->onStall(e);
      }
      peer.zero_since = -1;
    }
  }
  peer.stall.onPeerPacket(ns, p.tcp.window == 0 && !(fl & (kSyn | kRst)));
}

// Compares the packet with the direction's last few and remembers it.
bool TcpAnalyzer::capturedTwice(Dir& d, const DecodedPacket& p, uint32_t len, int64_t ns) {
  Sighting now;
  now.seq = p.tcp.seq;
  now.ack = p.tcp.ack;
  now.len = len;
  now.window = p.tcp.window;
  now.flags = p.tcp.flags;
  now.has_ts = p.tcp.options.has_timestamps;
  now.tsval = p.tcp.options.tsval;
  now.tsecr = p.tcp.options.tsecr;
  now.ip_id = p.l3 == L3::IPv4 && p.ip_id != 0 ? int32_t{p.ip_id} : -1;
  now.ns = ns;
  // When its first SYN-ACK is lost, a server resends it twice at once on
  // the client's resent SYN: its timer and its answer to that SYN expire
  // together (both 1 s), byte for byte the same (IP id 0, same ms TSval).
  const bool synAckRetry = (now.flags & (kSyn | kAck)) == (kSyn | kAck) && other(d).syns >= 2 &&
                           d.syns >= 1 && d.first_syn_ns < other(d).last_syn_ns;
  const bool judged = (now.ip_id >= 0 || len > 0) && !synAckRetry;
  // A SYN of the peer's in between is what the copy answers (a SYN-ACK
  // resent for the client's resent SYN, the same TSval within 1 ms).
  const int64_t peer_ns = other(d).last_syn_ns;
  bool seen = false;
  for (const Sighting& s : d.recent)
    seen = seen || (judged && s == now && double(ns - s.ns) / 1e6 <= kCapturedTwiceMs && ns >= s.ns &&
                    peer_ns <= s.ns);
  if (!seen) {
    d.recent[d.recent_next] = now;
    d.recent_next = (d.recent_next + 1) % d.recent.size();
  }
  return seen;
}

// Every segment's TSval, pure acks included: the peer echoes the first one
// that carried it (a pure ack a millisecond before the data with the same
// TSval makes the data's pairing 1 ms short, below the path's RTT).
void TcpAnalyzer::recordTsval(Dir& d, uint32_t tsval, uint64_t frame, int64_t ns) {
  if (d.tsring.empty()) d.tsring.reserve(kTsRing);
  const bool fresh =
      d.tsring.empty() || d.tsring[(d.ts_head + d.tsring.size() - 1) % d.tsring.size()].tsval != tsval;
  if (!fresh) return;
  if (d.tsring.size() < kTsRing)
    d.tsring.push_back({tsval, ns, frame});
  else
    d.tsring[d.ts_head] = {tsval, ns, frame}, d.ts_head = (d.ts_head + 1) % kTsRing;
}

void TcpAnalyzer::onData(Dir& d, const DecodedPacket& p, uint32_t len, uint64_t frame, int64_t ns) {
  const uint32_t seq = p.tcp.seq;
  const TcpOptions& o = p.tcp.options;
  if (!d.started) start(d, seq, p.tcp.flags & kSyn);
  if (o.has_timestamps) d.has_ts = true;
  // A keepalive repeats the last acked byte (or none) with nothing in
  // flight: not a retransmission of data anyone lost.
  if (p.payload_reported_len <= 1 && !(p.tcp.flags & (kSyn | kFin)) && d.any_ack && d.una == d.nxt &&
      seq + 1 == d.nxt)
    return;
  ++d.m.data_packets;
  Seg s;
  s.start = seq;
  s.end = seq + len;
  s.tsval = o.tsval;
  s.ip_id = p.l3 == L3::IPv4 ? int32_t{p.ip_id} : -1;
  s.copies = 1;
  s.first_ns = s.last_ns = ns;
  s.first_frame = s.last_frame = frame;
  if (!seqBefore(seq, d.nxt)) return onNewData(d, s, o, frame, ns);
  const size_t lo = segmentHolding(d, seq);
  if (lo == d.count || seqBefore(seq, at(d, lo).start)) return copyOfAcked(d, s, frame, ns);
  Seg& e = at(d, lo);
  if (e.copies > 0) {
    ++e.copies;
    retransmission(d, e, true, frame, ns);
    e.last_ns = ns;
    e.last_frame = frame;
    return;
  }
  fillHole(d, lo, s, holeFillIsCopy(d, lo, s, o, ns), frame, ns);
}

void TcpAnalyzer::onNewData(Dir& d, Seg& s, const TcpOptions& o, uint64_t frame, int64_t ns) {
  // A jump past nxt leaves a hole: bytes lost before the capture.
  if (seqAfter(s.start, d.nxt)) {
    Seg hole;
    hole.start = d.nxt;
    hole.end = s.start;
    hole.first_ns = hole.last_ns = ns;
    push(d, hole, d.count);
  }
  d.stall.onReliableData(ns, frame, d.nxt != d.una ? 1 : 0);
  push(d, s, d.count);
  d.hol.onArrival(s.start, ns, true, 0, d.holes > 0, false);
  d.nxt = s.end;
  d.jitter.add(ns, o.has_timestamps, o.tsval, 1.0, 32);
}

// The first segment (or hole) ending after `seq`; d.count when none does.
size_t TcpAnalyzer::segmentHolding(Dir& d, uint32_t seq) {
  size_t lo = 0, hi = d.count;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (seqAfter(at(d, mid).end, seq))
      hi = mid;
    else
      lo = mid + 1;
  }
  return lo;
}

// A hole filled for the first time: reordered, or a copy of lost bytes.
// Sent after the next captured segment means a copy: its TSval is newer,
// or its IPv4 id is (Linux numbers a socket's packets consecutively, and
// TSvals tick only every millisecond, too coarse when the retransmission
// follows within one). Without either, a hole filled late is a copy.
bool TcpAnalyzer::holeFillIsCopy(Dir& d, size_t hole, const Seg& s, const TcpOptions& o, int64_t ns) {
  const Seg& e = at(d, hole);
  const Seg* next = nullptr;
  for (size_t i = hole + 1; i < d.count && i < hole + 64 && !next; ++i)
    if (at(d, i).copies > 0) next = &at(d, i);
  // Bytes a later bare ack already numbered past were sent before it: a
  // copy filling them came after.
  bool retx = e.behind_ack;
  if (next && !retx && o.has_timestamps) retx = seqAfter(o.tsval, next->tsval);
  if (next && !retx && s.ip_id >= 0 && next->ip_id >= 0 && s.ip_id != next->ip_id)
    retx = static_cast<uint16_t>(s.ip_id - next->ip_id) < 0x8000;
  if (!o.has_timestamps && !retx) {
    const double window = std::max(3.0, d.rtt.samples() ? d.rtt.srtt() / 2 : 3.0);
    retx = double(ns - e.first_ns) / 1e6 > window;
  }
  return retx;
}

// Splits the hole at `lo` around the bytes `s` fills.
void TcpAnalyzer::fillHole(Dir& d, size_t lo, Seg& s, bool copy, uint64_t frame, int64_t ns) {
  const Seg hole = at(d, lo);
  --d.holes;  // replaced below by what is left of it
  size_t pos = lo;
  Seg left = hole, right = hole;
  left.end = s.start;
  right.start = s.end;
  if (seqAfter(s.start, hole.start)) {
    at(d, pos) = left;
    ++d.holes;
    push(d, s, ++pos);
  } else {
    at(d, pos) = s;
  }
  if (seqBefore(s.end, hole.end)) push(d, right, pos + 1);
  Seg& filled = at(d, pos);
  // The acks that showed the bytes missing before this copy came.
  filled.hole_ns = hole.hole_ns;
  filled.hole_first_ns = hole.hole_first_ns;
  filled.hole_news_ns = hole.hole_news_ns;
  filled.hole_tsval = hole.hole_tsval;
  const auto missing = firstMissing(d);
  d.hol.onArrival(s.start, ns, true, 0, missing && seqBefore(*missing, s.start), true);
  settleHol(d, missing);
  if (copy) {
    filled.retx_first = true;
    ++d.m.lost;
    lossRun(d, true, frame, ns, s.start);
    retransmission(d, filled, false, frame, ns);
  } else {
    ++d.m.reordered;
  }
}

// The first data of a direction. Without a SYN, as in tshark, relative
// sequence numbers count from one below the first byte seen, or below an ack
// of it captured earlier. An earlier ack below `seq` means the bytes between
// were in flight, sent before the capture began: a hole the acks that follow
// can show missing, like one lost before the capture point.
void TcpAnalyzer::start(Dir& d, uint32_t seq, bool syn) {
  d.started = true;
  d.mid_stream = !syn;
  const bool inFlight = !syn && d.has_early_ack && seqBefore(d.early_ack_last, seq);
  d.una = d.nxt = inFlight ? d.early_ack_last : seq;
  const bool ackFirst = !syn && d.has_early_ack && seqBefore(d.early_ack_first, seq);
  d.isn = syn ? seq : (ackFirst ? d.early_ack_first : seq) - 1;
}

// The first ack of a direction numbers bytes below everything captured: they
// were in flight when the capture began. They become a hole at the front.
void TcpAnalyzer::extendBack(Dir& d, uint32_t ack, int64_t ns) {
  Seg hole;
  hole.start = ack;
  hole.end = d.una;
  hole.first_ns = hole.last_ns = ns;
  push(d, hole, 0);
  d.una = ack;
}

void TcpAnalyzer::onAck(Dir& d, const DecodedPacket& p, bool pure, uint64_t frame, int64_t ns) {
  const uint32_t a = p.tcp.ack;
  if (!d.started) {
    if (!d.has_early_ack) d.early_ack_first = a;
    d.has_early_ack = true;
    d.early_ack_last = a;
    return;
  }
  if (!d.any_ack && d.mid_stream && seqBefore(a, d.una)) extendBack(d, a, ns);
  const TcpOptions& o = p.tcp.options;
  // RFC 7323 section 4: an echo times the path only on an ack of new data (an
  // ack of nothing new may wait on the peer's own sending).
  const bool ackedNew = !d.any_ack || seqAfter(a, d.una) || o.sack_block_count > 0;
  if (!d.any_ack || seqAfter(a, d.una)) {
    ackNewData(d, a, o, frame, ns);
  } else if (a == d.una && pure && d.nxt != d.una) {
    ++d.dupacks;
    if (d.count) markHole(at(d, 0), ns, o, o.sack_block_count == 0);
  }
  if (o.sack_block_count) applySack(d, a, o, ns);
  if (ackedNew && o.has_timestamps && o.tsecr != 0 && (!d.has_echo || o.tsecr != d.last_echo))
    echoSample(d, o.tsecr, frame, ns);
}

void TcpAnalyzer::ackNewData(Dir& d, uint32_t a, const TcpOptions& o, uint64_t frame, int64_t ns) {
  karnSample(d, a, frame, ns);
  int64_t delivered_ns = -1;  // the latest send among the segments this ack covers
  const size_t holes_before = d.holes;
  while (d.count && !seqAfter(at(d, 0).end, a)) {
    if (at(d, 0).copies > 0) {
      rememberAcked(d, at(d, 0));
      if (!at(d, 0).retx_first) d.response.add(at(d, 0).first_ns, ns);
      lossRun(d, false, frame, ns, at(d, 0).start);
      delivered_ns = std::max(delivered_ns, at(d, 0).last_ns);
    }
    popFront(d);
  }
  if (d.holes != holes_before) settleHol(d, firstMissing(d));
  // RACK (RFC 8985): a segment sent before one now delivered is lost; the
  // sender learns it from this ack even without a SACK block (the copy
  // that filled a hole is acked, the next segment is still missing).
  for (size_t i = 0; delivered_ns >= 0 && i < d.count && i < 64; ++i) {
    Seg& x = at(d, i);
    if (x.copies > 0 && !x.sacked && x.last_ns < delivered_ns) markHole(x, ns, o, true);
  }
  const bool inflight = d.nxt != d.una;
  d.una = a;
  if (d.rto_recovery && !seqBefore(a, d.recovery_point)) d.rto_recovery = false;
  d.any_ack = true;
  d.dupacks = 0;
  if (seqAfter(a, d.nxt)) d.nxt = a;  // acks for bytes the capture never saw
  if (inflight) d.stall.onProgress(ns, frame, sink_, d.m.stalls);
}

// Karn: the highest segment ack `a` newly covers, when nothing it covers was
// sent twice (the ack may have been caused by the retransmission).
void TcpAnalyzer::karnSample(Dir& d, uint32_t a, uint64_t frame, int64_t ns) {
  const Seg* newest = nullptr;
  bool clean = true;
  for (size_t i = 0; i < d.count && !seqAfter(at(d, i).end, a); ++i) {
    newest = &at(d, i);
    clean &= newest->copies == 1 && !newest->retx_first;
  }
  if (!newest || !clean) return;
  const double ms = double(ns - newest->first_ns) / 1e6;
  if (!d.has_ts) return rttSample(d, ms, RttSource::TcpAck, frame, newest->first_frame, ns);
  if (!sink_) return;
  RttEvent ev{frame, newest->first_frame, ns, d.id, ms, RttSource::TcpAck, spanFor(vantage_, d.id)};
  ev.srtt_ms = d.rtt.srtt();
  ev.rto_ms = d.rtt.rto();
  sink_->onRtt(ev);  // reported, but the statistics use the timestamps
}

// SACK: blocks are received; anything below the highest block still
// unsacked is a hole the sender knows of.
void TcpAnalyzer::applySack(Dir& d, uint32_t a, const TcpOptions& o, int64_t ns) {
  uint32_t top = a;
  bool newlySacked = false;
  for (uint8_t b = 0; b < o.sack_block_count && b < o.sack_blocks.size(); ++b) {
    const auto [l, r] = o.sack_blocks[b];
    if (seqAfter(r, top)) top = r;
    for (size_t i = 0; i < d.count; ++i) {
      Seg& s = at(d, i);
      if (s.sacked || seqBefore(s.start, l) || seqAfter(s.end, r)) continue;
      s.sacked = true;
      newlySacked = true;
    }
  }
  for (size_t i = 0; i < d.count && seqBefore(at(d, i).start, top); ++i)
    if (!at(d, i).sacked) markHole(at(d, i), ns, o, newlySacked);
}

// Timestamps: the ack echoes the TSval of a segment; one sample per echo,
// from the first capture of that TSval.
void TcpAnalyzer::echoSample(Dir& d, uint32_t tsecr, uint64_t frame, int64_t ns) {
  d.has_echo = true;
  d.last_echo = tsecr;
  const size_t n = d.tsring.size();
  for (size_t k = 0; k < n; ++k) {
    const TsSend& t = d.tsring[(d.ts_head + n - 1 - k) % n];  // newest first
    if (t.tsval == tsecr) {
      // The first capture of that TSval: walk back over equal ones.
      const TsSend* first = &t;
      for (size_t j = k + 1; j < n; ++j) {
        const TsSend& u = d.tsring[(d.ts_head + n - 1 - j) % n];
        if (u.tsval != tsecr) break;
        first = &u;
      }
      if (ns >= first->ns)
        rttSample(d, double(ns - first->ns) / 1e6, RttSource::TcpTimestamp, frame, first->frame, ns);
      return;
    }
    if (seqBefore(t.tsval, tsecr)) return;
  }
}

void TcpAnalyzer::rttSample(Dir& d, double ms, RttSource src, uint64_t frame, uint64_t data_frame,
                            int64_t ns) {
  RttEvent ev{frame, data_frame, ns, d.id, ms, src, spanFor(vantage_, d.id)};
  d.rtt.add(ev);
  updateVantage();
  ev.span = spanFor(vantage_, d.id);
  if (sink_) sink_->onRtt(ev);
}

void TcpAnalyzer::updateVantage() {
  const Dir& cs = dirs_[0];
  const Dir& sc = dirs_[1];
  vantage_ = detectVantage(cs.rtt.samples() > 0, cs.rtt.minMs(), sc.rtt.samples() > 0, sc.rtt.minMs());
  if (vantage_ != Vantage::Unknown || !cs.ttl_seen || !sc.ttl_seen) return;
  // Round trips too short to tell the ends apart (a LAN, veth): one side's
  // packets still carry their initial TTL, the other's were routed.
  if (cs.ttl_initial && !sc.ttl_initial)
    vantage_ = Vantage::Client;
  else if (sc.ttl_initial && !cs.ttl_initial)
    vantage_ = Vantage::Server;
}

bool TcpAnalyzer::shortPath() const {
  const Dir& cs = dirs_[0];
  const Dir& sc = dirs_[1];
  return vantage_ == Vantage::Unknown && cs.rtt.samples() && sc.rtt.samples() &&
         std::max(cs.rtt.minMs(), sc.rtt.minMs()) < kShortRoundTripMs;
}

// Timeout or fast, for a copy the capture did not see acknowledged; keeps the
// segment's and the direction's recovery state.
RetxCause TcpAnalyzer::timeoutOrFast(Dir& d, Seg& s, double since_previous_ms, bool sender, int64_t ns) {
  const double tolerance = atSender(vantage_, d.id) ? 0.0 : d.rtt.minMs();
  const double rto = d.rtt.samples() ? d.rtt.rto() : 1000.0;
  // Only the timer backs itself off: after a fast copy it runs one RTO again.
  const double timer = rto * std::ldexp(1.0, s.timer_copies) * 0.9;
  const bool hole = s.hole_ns >= 0;
  // Sent as the ack showing the hole came in: loss detection, not a timer.
  const bool withAck =
      sender && s.hole_news_ns >= 0 && double(ns - s.hole_news_ns) / 1e6 <= kAckTriggerMs + tolerance;
  bool early;
  if (since_previous_ms >= 0) {
    // Before the sender's retransmission timer could have fired, or (at
    // the sender) sent right after the ack that showed the hole: a timer
    // does not fire in step with an arriving ack, loss detection does.
    // (Linux after a tail loss probe: the probe's SACK marks the hole lost
    // and the copy leaves with that ACK, long after the original.)
    early = since_previous_ms < timer || withAck;
  } else {
    // The earlier copy was lost before the capture point. A fast copy
    // follows the first ack that showed the hole by about a round trip; a
    // timeout one comes at least the minimum RTO (200 ms on Linux) after
    // the original, which left before that ack's trigger.
    const Dir& rev = other(d);
    const double rtt = rev.rtt.samples() ? rev.rtt.minMs() : 0.0;
    early = hole && double(ns - s.hole_first_ns) / 1e6 < rtt + 100.0;
  }
  const bool afterTimeout = d.rto_recovery && seqBefore(s.start, d.recovery_point);
  // A copy leaving at once with the ack that showed its bytes missing again
  // is fast again (RACK: a lost retransmission, Linux's TCPLostRetransmit).
  // Not within all of kAckTriggerMs: a timer's later copy may follow an
  // unrelated ack by a few milliseconds.
  const bool mayBeFast = !s.fast_done || lostAgain(d, s, sender, ns);
  const RetxCause cause = hole && early && mayBeFast && !afterTimeout ? RetxCause::Fast : RetxCause::Timeout;
  if (!early && s.start == d.una) {  // the timer fired on the first unacked segment
    d.rto_recovery = true;
    d.recovery_point = d.nxt;
  }
  if (cause == RetxCause::Fast) s.fast_done = true;
  if (cause == RetxCause::Timeout) ++s.timer_copies;
  return cause;
}

// A copy leaving at once with the ack that showed its bytes missing again.
// Away from the sender the copy must also echo that ack's TSval: the sender
// had that ack when it sent the copy (the two may pass within microseconds).
bool TcpAnalyzer::lostAgain(const Dir& d, const Seg& s, bool sender, int64_t ns) const {
  if (s.hole_news_ns < 0) return false;
  const double tolerance = atSender(vantage_, d.id) ? 0.0 : d.rtt.minMs();
  const bool soon = double(ns - s.hole_news_ns) / 1e6 <= kLostAgainMs + tolerance;
  return soon && (sender || (s.hole_tsval && tsecr_ == s.hole_tsval));
}

void TcpAnalyzer::retransmission(Dir& d, Seg& s, bool direct, uint64_t frame, int64_t ns) {
  RetransmissionEvent e;
  e.frame = frame;
  e.ts_ns = ns;
  e.dir = d.id;
  e.seq = s.start - d.isn;  // relative, as tshark shows it
  if (direct && s.last_frame != 0) {
    e.original_frame = s.retx_first ? 0 : s.first_frame;
    e.previous_frame = s.last_frame;
    e.attempt = s.copies + (s.retx_first ? 1u : 0u);
    e.since_previous_ms = double(ns - s.last_ns) / 1e6;
  } else {
    e.attempt = 2;
  }
  // On a short path the capture sits within a round trip of both ends, so
  // it is judged as the sender's, with that round trip as the tolerance.
  const bool sender = atSender(vantage_, d.id) || shortPath();
  // Spurious: the capture saw the receiver acknowledge these bytes before
  // the copy came. At the sender it had the ack; elsewhere the ack may have
  // been lost on its way, but the receiver had the data all the same.
  const bool acked = s.sacked || (d.any_ack && !seqAfter(s.end, d.una));
  if (acked) {
    e.cause = RetxCause::Spurious;
  } else {
    e.cause = timeoutOrFast(d, s, e.since_previous_ms, sender, ns);
    if (direct && sender) {
      ++d.m.lost;  // the sender resends what it believes lost
      lossRun(d, true, frame, ns, s.start);
    }
  }
  if (direct && acked) ++d.dup_data;
  ++d.m.retransmissions;
  if (!direct) ++d.m.retransmissions_inferred;
  switch (e.cause) {
    case RetxCause::Timeout: ++d.m.retransmissions_timeout; break;
    case RetxCause::Fast: ++d.m.retransmissions_fast; break;
    case RetxCause::Spurious: ++d.m.retransmissions_spurious; break;
  }
  d.stall.onRetransmission(acked);
  s.hole_ns = s.hole_first_ns = s.hole_news_ns = -1;
  if (sink_) sink_->onRetransmission(e);
}

void TcpAnalyzer::rememberAcked(Dir& d, const Seg& s) {
  if (d.acked.empty()) d.acked.resize(kAckedKept);
  d.acked[d.acked_next] = {s.start, s.end, s.copies, s.retx_first, s.last_ns, s.first_frame, s.last_frame};
  d.acked_next = (d.acked_next + 1) % kAckedKept;
}

// A copy of bytes already acked (and no longer in flight): it links the
// copies of them the capture saw, when they are still remembered, and none
// otherwise (never itself).
void TcpAnalyzer::copyOfAcked(Dir& d, Seg& copy, uint64_t frame, int64_t ns) {
  copy.sacked = true;  // acked: the capture saw it covered
  for (Acked& a : d.acked) {
    if (a.copies == 0 || seqAfter(a.start, copy.start) || !seqAfter(a.end, copy.start)) continue;
    copy.first_frame = a.first_frame;
    copy.last_frame = a.last_frame;
    copy.last_ns = a.last_ns;
    copy.retx_first = a.retx_first;
    copy.copies = ++a.copies;
    a.last_frame = frame;
    a.last_ns = ns;
    retransmission(d, copy, true, frame, ns);
    return;
  }
  copy.copies = 2;
  copy.first_frame = copy.last_frame = 0;  // captured once, but forgotten
  retransmission(d, copy, true, frame, ns);
}

void TcpAnalyzer::lossRun(Dir& d, bool lost, uint64_t frame, int64_t ns, uint32_t seq) {
  // Runs of consecutive lost segments, reported when they end.
  if (!lost) return d.loss_run.end(d.m, sink_, d.id, frame, ns);
  if (d.loss_run.open())
    d.loss_run.extend();
  else
    d.loss_run.start(seq - d.isn, frame);
}

ConnectionMetrics TcpAnalyzer::finish() {
  if (finished_) return conn_;
  finished_ = true;
  conn_.vantage = vantage_;
  for (Dir& d : dirs_) {
    lossRun(d, false, 0, last_ns_, 0);
    d.hol.settleAll();
    d.rate.flush(sink_);
    d.stall.finish(d.started && d.nxt != d.una, last_ns_, sink_, d.m.stalls);
    DirectionMetrics& m = d.m;
    m.duplicates = d.dup_data;
    fillDirectionFigures(m, d.id, vantage_, d.rtt, d.response, d.jitter);
    m.jitter_ms = d.jitter.jitterMs();
    m.hol_blocking_ms = d.hol.totalMs();
    m.hol_max_ms = d.hol.maxMs();
    m.hol_blocked_packets = d.hol.blocked();
    conn_.dir[size_t(d.id)] = m;
  }
  return conn_;
}

}  // namespace rudp::ana
