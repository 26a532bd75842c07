// Event loop, datagram emission through the link model, and capture at the
// configured vantage point.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "sim_impl.hpp"

namespace grudp_sim {

namespace {
constexpr int64_t kMs = 1000000;
constexpr int64_t kSec = 1000000000;
int64_t to_ns(double seconds) { return int64_t(std::llround(seconds * 1e9)); }

Addr client_addr(const SimConfig& cfg, int i) {
  const uint32_t ip = (10u << 24) | uint32_t(1 + i / 250) << 8 | uint32_t(1 + i % 250);
  return {ip, uint16_t(cfg.client_port_base + i)};
}
}  // namespace

Simulator::Simulator(SimConfig cfg) : impl_(std::make_unique<Impl>(std::move(cfg))) {}
Simulator::~Simulator() = default;

RunResult Simulator::run(const std::string& pcap_path, bool keep_packets) {
  return impl_->run(pcap_path, keep_packets);
}
const std::vector<ConnTruth>& Simulator::truth() const { return impl_->truth; }
nlohmann::json Simulator::truth_json(bool with_packets) const {
  return truth_to_json(impl_->cfg, impl_->truth, impl_->result.frames, impl_->result.end_ns,
                       with_packets && impl_->keep);
}

void Simulator::Impl::setup() {
  Rng setup_rng(cfg.seed, 1);
  const Addr server{(10u << 24) | 1u, cfg.server_port};
  conns.clear();
  conns.resize(size_t(cfg.connections));
  truth.assign(size_t(cfg.connections), ConnTruth{});
  for (int i = 0; i < cfg.connections; ++i) {
    Conn& c = conns[size_t(i)];
    ConnTruth& t = truth[size_t(i)];
    t.conn_id = setup_rng.next_u32();
    t.client = client_addr(cfg, i);
    t.server = server;
    for (int d = 0; d < 2; ++d) {
      std::vector<std::pair<int64_t, int64_t>> outs;
      for (const auto& o : cfg.outages)
        if (o.conn < 0 || o.conn == i) outs.emplace_back(to_ns(o.t1_s), to_ns(o.t2_s));
      const LinkConfig& lc = d == kC2S ? cfg.c2s : cfg.s2c;
      c.link[d] = std::make_unique<Link>(lc, Rng(cfg.seed, 1000 + 4 * uint64_t(i) + uint64_t(d)), outs);
    }
    c.capture_rng = Rng(cfg.seed, 900000 + uint64_t(i));
    for (int s = 0; s < 2; ++s) {
      EndpointState& ep = c.ep[s];
      ep.rng = Rng(cfg.seed, 1002 + 4 * uint64_t(i) + uint64_t(s));
      ep.addr = s == kClient ? t.client : t.server;
      ep.peer = s == kClient ? t.server : t.client;
      ep.next_seq = cfg.seq_start ? *cfg.seq_start : setup_rng.next_u32();
      ep.clock0_ms = setup_rng.next_u32();
      ep.period_ns = 1e9 / (s == kClient ? cfg.client_hz : cfg.server_hz);
      ep.rto = RtoEstimator(cfg.rto_initial_ms, cfg.rto_min_ms, cfg.rto_max_ms);
      ep.ip_id = uint16_t(setup_rng.next_u32());
    }
    t.client_isn = c.ep[kClient].next_seq;
    t.server_isn = c.ep[kServer].next_seq;
    t.client_clock_ms = c.ep[kClient].clock0_ms;
    t.server_clock_ms = c.ep[kServer].clock0_ms;
    // Stagger connection starts over the first 100 ms.
    const int64_t start = int64_t(setup_rng.uniform() * 100.0 * kMs);
    schedule(start, EvStart, uint16_t(i), kClient);
    schedule(to_ns(cfg.duration_s), EvClose, uint16_t(i), kClient);
    schedule(to_ns(cfg.duration_s) + kSec, EvServerClose, uint16_t(i), kServer);
  }
}

RunResult Simulator::Impl::run(const std::string& path, bool keep_packets) {
  keep = keep_packets;
  result = {};
  writer.emplace(path, cfg.link, cfg.nsec, cfg.epoch_s);
  setup();
  const int64_t hard_end = to_ns(cfg.duration_s + cfg.grace_s);
  while (!queue.empty() && !stop) {
    const Event e = queue.top();
    queue.pop();
    if (e.t > hard_end) break;
    now = e.t;
    dispatch(e);
  }
  now = last_activity;
  finish();
  writer->close();
  result.end_ns = now;
  return result;
}

void Simulator::Impl::finish() {
  const int64_t thr = int64_t(cfg.stall_threshold_ms * kMs);
  for (size_t i = 0; i < conns.size(); ++i) {
    for (int s = 0; s < 2; ++s) {
      DirStats& st = truth[i].dir[s].stats;
      // A direction still waiting for acks at the end is an open stall.
      if (!conns[i].ep[s].gave_up && conns[i].ep[s].sq.has_unacked()) st.stall_close(now, thr, true);
      st.finish();
    }
  }
}

void Simulator::Impl::schedule(int64_t t, EvKind kind, uint16_t conn, uint8_t side, uint32_t a, uint32_t b) {
  queue.push(Event{t, order++, a, b, conn, uint8_t(kind), side});
}

uint32_t Simulator::Impl::local_ms(const EndpointState& ep) const {
  return ep.clock0_ms + uint32_t(now / kMs);
}

int64_t Simulator::Impl::rto_ns(const EndpointState& ep, int attempt) const {
  // Exponential backoff: the current RTO doubled per attempt already made.
  const double ms = std::min(ep.rto.rto_ms() * std::ldexp(1.0, attempt - 1), cfg.rto_max_ms);
  return int64_t(std::llround(ms * 1e6));
}

void Simulator::Impl::send_packet(uint16_t ci, uint8_t side, Header h, const uint8_t* payload, size_t len,
                                  int attempt, RetxCause cause) {
  Conn& c = conns[ci];
  EndpointState& ep = c.ep[side];
  const uint8_t dir = side;
  last_activity = now;  // the client sends client_to_server
  h.conn_id = truth[ci].conn_id;
  h.ts = local_ms(ep);
  h.window = 64;
  h.length = uint16_t(len);
  uint32_t echoed = kNoIndex;
  if (h.flags & kAckFlag) {
    h.ack = ep.recv.ack();
    h.ack_bits = ep.recv.ack_bits();
    h.ts_echo = ep.recv.ts_echo();
    echoed = ep.recv.echoed_copy();
    ep.ack_pending = false;
  }

  uint32_t si;
  if (free_slots.empty()) {
    si = uint32_t(slots.size());
    slots.emplace_back();
  } else {
    si = free_slots.back();
    free_slots.pop_back();
  }
  Slot& s = slots[si];
  uint8_t dgram[kHeaderSize + 1024];
  encode_header(h, dgram);
  if (len) std::memcpy(dgram + kHeaderSize, payload, len);  // payload may be null when empty
  s.frame.resize(kMaxFrame);
  s.frame.resize(
      build_frame(cfg.link, ep.addr, ep.peer, ep.ip_id++, dgram, kHeaderSize + len, s.frame.data()));
  s.h = h;
  s.send_ns = now;
  s.conn = ci;
  s.dir = dir;
  s.echoed_copy = echoed;
  s.refs = 0;

  const Fate f = c.link[dir]->transmit(now);
  DirStats& st = truth[ci].dir[dir].stats;
  ++st.sent;
  ++result.sent;
  if (cause == kTimeout) ++st.retx_timeout;
  if (cause == kFast) ++st.retx_fast;
  if (h.type == kAck) ++st.pure_acks;
  st.on_link(f.lost);
  if (f.lost) {
    ++st.lost;
    if (f.outage) ++st.lost_outage;
  } else {
    ++st.delivered;
  }

  LostWhere where = kNotLost;
  if (f.lost && cfg.vantage == Vantage::Middle)
    where = c.capture_rng.chance(0.5) ? kBeforeCapture : kAfterCapture;

  s.truth_idx = kNoIndex;
  if (keep) {
    auto& recs = truth[ci].dir[dir].packets;
    s.truth_idx = uint32_t(recs.size());
    PacketRecord r;
    r.h = h;
    r.send_ns = now;
    r.delay_ns = f.delay_ns;
    r.attempt = attempt;
    r.cause = cause;
    r.lost = f.lost;
    r.outage = f.outage;
    r.held_back = f.reordered;
    r.where = where;
    r.acked_copy = echoed;
    recs.push_back(r);
  }

  if (!f.lost) {
    ++s.refs;
    schedule(now + f.delay_ns, EvArrive, ci, side, si);
  }
  switch (cfg.vantage) {
    case Vantage::Client:
    case Vantage::Server: {
      const uint8_t vantage_side = cfg.vantage == Vantage::Client ? kClient : kServer;
      if (side == vantage_side) capture(s, now);  // outgoing: seen even if lost later
      break;                                      // incoming packets are captured in on_arrive
    }
    case Vantage::Middle:
      if (where != kBeforeCapture) {
        ++s.refs;
        schedule(now + int64_t(std::llround(cfg.middle_fraction * double(f.delay_ns))), EvCapture, ci, side,
                 si);
      }
      break;
  }
  if (s.refs == 0) free_slots.push_back(si);
}

void Simulator::Impl::capture(Slot& s, int64_t t) {
  if (stop) return;
  const uint64_t frame = writer->write(t, s.frame.data(), s.frame.size());
  result.frames = frame;
  ++truth[s.conn].dir[s.dir].stats.captured;
  if (keep && s.truth_idx != kNoIndex) {
    PacketRecord& r = truth[s.conn].dir[s.dir].packets[s.truth_idx];
    r.frame = frame;
    r.capture_ns = t;
  }
  if (cfg.max_packets && frame >= cfg.max_packets) {
    stop = true;
    result.hit_packet_limit = true;
  }
}

void Simulator::Impl::release(uint32_t si) {
  if (--slots[si].refs == 0) free_slots.push_back(si);
}

}  // namespace grudp_sim
