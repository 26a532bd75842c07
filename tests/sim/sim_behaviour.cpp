// What the endpoints do: handshake, game ticks, pings, acks, retransmission
// timers and the reaction to arriving datagrams.
#include <algorithm>
#include <cmath>

#include "sim_impl.hpp"

namespace grudp_sim {

namespace {
constexpr int64_t kMs = 1000000;

// Deterministic filler: payload content does not matter, only its size.
void fill(Rng& rng, uint8_t* p, size_t n) { xorshift_fill(rng.next(), p, n); }
}  // namespace

void Simulator::Impl::dispatch(const Event& e) {
  switch (EvKind(e.kind)) {
    case EvStart: {
      uint8_t token[8];
      fill(conns[e.conn].ep[kClient].rng, token, sizeof token);
      send_original(e.conn, kClient, kConnect, kReliable, 0, token, sizeof token);
      break;
    }
    case EvTick: on_tick(e.conn, e.side); break;
    case EvArrive: on_arrive(e.a); break;
    case EvCapture:
      capture(slots[e.a], now);
      release(e.a);
      break;
    case EvRto: on_rto(e.conn, e.side, e.a, e.b); break;
    case EvAckTimer: on_ack_timer(e.conn, e.side); break;
    case EvPing: {
      EndpointState& ep = conns[e.conn].ep[kClient];
      if (ep.closed || ep.gave_up) break;
      if (!window_full(ep)) send_original(e.conn, kClient, kPing, 0, 0, nullptr, 0);
      schedule(now + int64_t(cfg.ping_interval_ms * kMs), EvPing, e.conn, kClient);
      break;
    }
    case EvClose: {
      EndpointState& ep = conns[e.conn].ep[kClient];
      if (!ep.closed && !ep.gave_up && ep.established) {
        if (window_full(ep)) {  // DISCONNECT must stay ackable: retry a tick later
          schedule(now + int64_t(ep.period_ns), EvClose, e.conn, kClient);
          break;
        }
        send_original(e.conn, kClient, kDisconnect, kReliable, 0, nullptr, 0);
      }
      ep.closed = true;
      break;
    }
    case EvServerClose:
      // Safety net when the DISCONNECT never arrives (e.g. the client gave up).
      conns[e.conn].ep[kServer].closed = true;
      break;
  }
}

void Simulator::Impl::send_original(uint16_t ci, uint8_t side, uint8_t type, uint8_t flags, uint8_t channel,
                                    const uint8_t* payload, size_t len) {
  EndpointState& ep = conns[ci].ep[side];
  Header h;
  h.type = type;
  h.flags = flags;
  h.channel = channel;
  // A pure ACK carries the next seq without consuming it.
  h.seq = type == kAck ? ep.next_seq : ep.next_seq++;
  if (ep.recv.any()) h.flags |= kAckFlag | kEcho;
  if (h.flags & kReliable) {
    if (!ep.sq.has_unacked()) truth[ci].dir[side].stats.stall_reset(now);
    Outstanding o;
    o.header = h;
    o.payload.assign(payload, payload + len);
    ep.sq.push(std::move(o));
    schedule(now + rto_ns(ep, 1), EvRto, ci, side, h.seq, 1);
  }
  send_packet(ci, side, h, payload, len, 1, kOriginal);
}

void Simulator::Impl::retransmit(uint16_t ci, uint8_t side, uint32_t seq, RetxCause cause) {
  EndpointState& ep = conns[ci].ep[side];
  Outstanding* o = ep.sq.find(seq);
  if (!o) return;
  const int attempt = ++o->attempt;
  // Same seq, payload and flags; send_packet gives it a fresh ts (and fresh
  // ack fields when the ACK flag is part of its flags).
  // send_packet does not touch the send queue, so `o` stays valid.
  send_packet(ci, side, o->header, o->payload.data(), o->payload.size(), attempt, cause);
  schedule(now + rto_ns(ep, attempt), EvRto, ci, side, seq, uint32_t(attempt));
}

bool Simulator::Impl::window_full(const EndpointState& ep) const {
  return !ep.sq.empty() && ep.next_seq - ep.sq.oldest() >= kAckSpan;
}

void Simulator::Impl::start_ticking(uint16_t ci, uint8_t side) {
  EndpointState& ep = conns[ci].ep[side];
  if (ep.ticking) return;
  ep.ticking = true;
  ep.tick_origin = now + int64_t(ep.period_ns / 2);
  ep.ticks = 0;
  schedule(ep.tick_origin, EvTick, ci, side);
  if (side == kClient && cfg.ping_interval_ms > 0)
    schedule(now + int64_t(cfg.ping_interval_ms * kMs), EvPing, ci, kClient);
}

void Simulator::Impl::on_tick(uint16_t ci, uint8_t side) {
  EndpointState& ep = conns[ci].ep[side];
  if (ep.closed || ep.gave_up) return;
  uint8_t buf[1024];
  if (window_full(ep)) {
    // Nothing new may be numbered until the oldest reliable packet is acked.
    ++truth[ci].dir[side].stats.blocked_ticks;
    ++ep.ticks;
    schedule(ep.tick_origin + int64_t(std::llround(double(ep.ticks) * ep.period_ns)), EvTick, ci, side);
    return;
  }
  const int size = int(ep.rng.range(cfg.payload_min, cfg.payload_max));
  if (!ep.frags.empty() || ep.rng.chance(1.0 - cfg.idle_frac)) {
    if (ep.frags.empty()) {
      const double u = ep.rng.uniform();
      if (u < cfg.reliable_frac) {
        if (ep.rng.chance(cfg.fragment_prob)) {
          // A large reliable message split over the next ticks.
          const int count = int(ep.rng.range(2, 4));
          const uint16_t id = ep.msg_id++;
          for (int k = 0; k < count; ++k)
            ep.frags.push_back(
                {id, uint8_t(k), uint8_t(count), int(ep.rng.range(cfg.payload_min, cfg.payload_max))});
        } else {
          fill(ep.rng, buf, size_t(size));
          send_original(ci, side, kData, kReliable, ep.rng.chance(0.25) ? 1 : 0, buf, size_t(size));
        }
      } else if (u < cfg.reliable_frac + cfg.unsequenced_frac) {
        fill(ep.rng, buf, size_t(size));
        send_original(ci, side, kData, kUnsequenced, 3, buf, size_t(size));
      } else {
        fill(ep.rng, buf, size_t(size));
        send_original(ci, side, kData, 0, 2, buf, size_t(size));
      }
    }
    if (!ep.frags.empty()) {
      const Fragment f = ep.frags.front();
      ep.frags.pop_front();
      const size_t n = size_t(std::max(f.size, 5));
      buf[0] = uint8_t(f.msg_id >> 8);
      buf[1] = uint8_t(f.msg_id);
      buf[2] = f.index;
      buf[3] = f.count;
      fill(ep.rng, buf + 4, n - 4);
      send_original(ci, side, kData, kReliable | kFragment, 1, buf, n);
    }
  }
  ++ep.ticks;
  schedule(ep.tick_origin + int64_t(std::llround(double(ep.ticks) * ep.period_ns)), EvTick, ci, side);
}

void Simulator::Impl::mark_ack_pending(uint16_t ci, uint8_t side) {
  EndpointState& ep = conns[ci].ep[side];
  if (!ep.ack_pending) {
    ep.ack_pending = true;
    ep.ack_since = now;
  }
  if (!ep.ack_timer) {
    ep.ack_timer = true;
    // ~1 tick: normally the next DATA carries the ack and no pure ACK is needed.
    schedule(ep.ack_since + int64_t(ep.period_ns * 1.1), EvAckTimer, ci, side);
  }
}

void Simulator::Impl::on_ack_timer(uint16_t ci, uint8_t side) {
  EndpointState& ep = conns[ci].ep[side];
  ep.ack_timer = false;
  if (!ep.ack_pending || ep.gave_up) return;
  const int64_t due = ep.ack_since + int64_t(ep.period_ns * 1.1);
  if (now >= due) {
    send_original(ci, side, kAck, 0, 0, nullptr, 0);
  } else {
    ep.ack_timer = true;
    schedule(due, EvAckTimer, ci, side);
  }
}

void Simulator::Impl::on_rto(uint16_t ci, uint8_t side, uint32_t seq, uint32_t attempt) {
  EndpointState& ep = conns[ci].ep[side];
  if (ep.gave_up) return;
  Outstanding* o = ep.sq.find(seq);
  if (!o || o->attempt != int(attempt)) return;  // acked, or superseded by a later copy
  if (int(attempt) >= cfg.max_attempts) {
    give_up(ci, side);
    return;
  }
  retransmit(ci, side, seq, kTimeout);
}

void Simulator::Impl::give_up(uint16_t ci, uint8_t side) {
  EndpointState& ep = conns[ci].ep[side];
  DirStats& st = truth[ci].dir[side].stats;
  st.gave_up = true;
  st.gave_up_ns = now;
  st.stall_close(now, int64_t(cfg.stall_threshold_ms * kMs), true);
  ep.gave_up = true;
  ep.closed = true;
  ep.sq.clear();
}

void Simulator::Impl::handle_ack(uint16_t ci, uint8_t side, const Header& h) {
  EndpointState& ep = conns[ci].ep[side];
  const AckOutcome out = ep.sq.apply_ack(h.ack, h.ack_bits, cfg.fast_retx_threshold);
  if (out.newly_acked > 0)
    truth[ci].dir[side].stats.stall_close(now, int64_t(cfg.stall_threshold_ms * kMs), false);
  // One RTT sample per distinct (ack, ts_echo): repeats of the same echo
  // would include the time the peer had nothing new to ack.
  if ((h.flags & kEcho) && (!ep.sampled || h.ack != ep.sampled_ack || h.ts_echo != ep.sampled_echo)) {
    ep.sampled = true;
    ep.sampled_ack = h.ack;
    ep.sampled_echo = h.ts_echo;
    const int32_t rtt = int32_t(local_ms(ep) - h.ts_echo);
    if (rtt >= 0) ep.rto.sample(double(rtt));
  }
  for (uint32_t seq : out.fast_retx) retransmit(ci, side, seq, kFast);
}

void Simulator::Impl::on_arrive(uint32_t si) {
  // Copy what is needed: the slot is released (and may be reused) below.
  struct {
    Header h;
    uint32_t truth_idx, echoed_copy;
    uint16_t conn;
    uint8_t dir;
  } const s{slots[si].h, slots[si].truth_idx, slots[si].echoed_copy, slots[si].conn, slots[si].dir};
  const uint8_t side = uint8_t(1 - s.dir);  // receiver
  const uint16_t ci = s.conn;
  last_activity = now;
  EndpointState& ep = conns[ci].ep[side];
  DirTruth& dt = truth[ci].dir[s.dir];

  const bool vantage_here = (cfg.vantage == Vantage::Client && side == kClient) ||
                            (cfg.vantage == Vantage::Server && side == kServer);
  if (vantage_here) capture(slots[si], now);
  if (keep && s.truth_idx != kNoIndex && s.echoed_copy != kNoIndex) {
    // True RTT of the acked copy: its send to this ack's arrival at its sender.
    PacketRecord& r = dt.packets[s.truth_idx];
    r.true_rtt_ns = now - truth[ci].dir[side].packets[s.echoed_copy].send_ns;
  }
  release(si);
  if (ep.gave_up) return;

  const Header& h = s.h;
  if (h.type != kAck) {
    const auto rr = ep.recv.on_receive(h.seq, h.ts, s.truth_idx);
    if (rr.duplicate) {
      ++dt.stats.duplicates;
      if (keep && s.truth_idx != kNoIndex) dt.packets[s.truth_idx].duplicate = true;
    }
    mark_ack_pending(ci, side);
  }
  if (h.flags & kAckFlag) handle_ack(ci, side, h);

  if (side == kServer) {
    if (h.type == kConnect && !ep.established) {
      ep.established = true;
      send_original(ci, kServer, kAccept, kReliable, 0, nullptr, 0);
      start_ticking(ci, kServer);
    } else if (h.type == kPing && !ep.closed && !window_full(ep)) {
      send_original(ci, kServer, kPong, 0, 0, nullptr, 0);
    } else if (h.type == kDisconnect) {
      ep.closed = true;  // stops ticking; the DISCONNECT is acked by a pure ACK
    }
  } else if (!ep.established) {
    // Any server packet (normally the ACCEPT) completes the handshake.
    ep.established = true;
    if (!ep.closed) start_ticking(ci, kClient);
  }
}

}  // namespace grudp_sim
