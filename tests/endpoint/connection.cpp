#include "connection.hpp"

#include <cstring>

namespace grudp_ep {

using namespace grudp_sim;

namespace {
constexpr int64_t kMs = 1000000;

// Payload bytes are a function of (conn_id, seq), so a retransmission
// regenerates exactly the original's bytes without keeping them.
void fill_payload(uint32_t conn_id, uint32_t seq, uint8_t* p, size_t n) {
  xorshift_fill(uint64_t(conn_id) << 32 | seq, p, n);
}
}  // namespace

Connection::Connection(const EndpointOptions& o, bool client, uint32_t conn_id, uint64_t stream,
                       const Clock& clock, DelayLine& line, DelayLine::Target to)
    : opt_(o),
      client_(client),
      conn_id_(conn_id),
      clock_(clock),
      rng_(o.seed, stream * 4),
      path_(o.impair, o.seed, stream * 4 + 1, line, DelayLine::Target{to.fd, to.dst, &counters_}),
      rto_(o.rto_initial_ms, o.rto_min_ms, o.rto_max_ms) {
  (void)to.counters;
  next_seq_ = rng_.next_u32();
  clock0_ms_ = rng_.next_u32();
  period_ns_ = 1e9 / o.effective_tick_hz();
  state_ = client ? State::Connecting : State::Open;
}

const char* Connection::state_name() const {
  switch (state_) {
    case State::Connecting: return "connecting";
    case State::Open: return "open";
    case State::Closing: return "closing";
    case State::Closed: return "closed";
    case State::GaveUp: return "gave_up";
    case State::TimedOut: return "timed_out";
  }
  return "?";
}

uint32_t Connection::local_ms(int64_t now) const {
  return clock0_ms_ + uint32_t((now - clock_.start_ns()) / kMs);
}

bool Connection::window_full() const { return !sq_.empty() && next_seq_ - sq_.oldest() >= kAckSpan; }

void Connection::start(int64_t now) {
  last_rx_ = now;
  send_original(now, kConnect, kReliable, 0, 8);
  refresh_due();
}

void Connection::send_original(int64_t now, uint8_t type, uint8_t flags, uint8_t channel, size_t len) {
  Header h;
  h.type = type;
  h.flags = flags;
  h.channel = channel;
  h.length = uint16_t(len);
  // A pure ACK carries the next seq without consuming it.
  h.seq = type == kAck ? next_seq_ : next_seq_++;
  if (recv_.any()) h.flags |= kAckFlag | kEcho;
  if (h.flags & kReliable) {
    Outstanding o;
    o.header = h;  // the payload is regenerated from (conn_id, seq)
    sq_.push(std::move(o));
    timers_[h.seq % timers_.size()] = {h.seq, 1, now + rto_ns(1)};
  }
  counters_.originals.add(h);
  transmit(now, h, false);
}

void Connection::transmit(int64_t now, Header h, bool retransmission) {
  h.conn_id = conn_id_;
  h.ts = local_ms(now);
  h.window = 64;
  if (h.flags & kAckFlag) {
    h.ack = recv_.ack();
    h.ack_bits = recv_.ack_bits();
    h.ts_echo = recv_.ts_echo();
    ack_pending_ = false;
  }
  uint8_t buf[kHeaderSize + 1024];
  encode_header(h, buf);
  fill_payload(conn_id_, h.seq, buf + kHeaderSize, h.length);
  path_.send(now, h, buf, kHeaderSize + h.length, retransmission);
}

void Connection::retransmit(int64_t now, uint32_t seq, bool fast) {
  Outstanding* o = sq_.find(seq);
  if (!o) return;
  const int attempt = ++o->attempt;
  ++(fast ? counters_.retx.fast : counters_.retx.timeout);
  // Same seq, flags and payload; fresh ts and (with the ACK flag) fresh acks.
  transmit(now, o->header, true);
  timers_[seq % timers_.size()] = {seq, attempt, now + rto_ns(attempt)};
}

void Connection::on_datagram(int64_t now, const Header& h) {
  last_rx_ = now;
  counters_.received.add(h);
  if (state_ == State::GaveUp || state_ == State::TimedOut) return;
  if (h.type != kAck) {
    const bool below = recv_.any() && seq_after(recv_.ack(), h.seq);
    const auto r = recv_.on_receive(h.seq, h.ts, kNoIndex);
    count_arrival(h, r.duplicate, below);
    if (!ack_pending_) {
      ack_pending_ = true;
      ack_since_ = now;
    }
  }
  if (h.flags & kAckFlag) handle_ack(now, h);
  react(now, h);
  refresh_due();
}

void Connection::count_arrival(const Header& h, bool duplicate, bool below_highest) {
  if (duplicate) {
    ++counters_.received_duplicates;
    return;
  }
  if (below_highest) ++counters_.received_out_of_order;
  if (h.type != kData) return;
  if (h.flags & kReliable) {
    ++counters_.delivered_reliable;
  } else if (h.flags & kUnsequenced) {
    ++counters_.delivered_unsequenced;
  } else if (!any_sequenced_[h.channel] || seq_after(h.seq, last_sequenced_[h.channel])) {
    // Sequenced unreliable: only newer than the last delivered on its channel.
    any_sequenced_[h.channel] = true;
    last_sequenced_[h.channel] = h.seq;
    ++counters_.delivered_unreliable;
  } else {
    ++counters_.stale_unreliable;
  }
}

void Connection::handle_ack(int64_t now, const Header& h) {
  const AckOutcome out = sq_.apply_ack(h.ack, h.ack_bits, opt_.fast_threshold);
  // One RTT sample per distinct (ack, ts_echo), as the simulator and the
  // analysis do: repeats would include the peer's idle time.
  if ((h.flags & kEcho) && (!sampled_ || h.ack != sampled_ack_ || h.ts_echo != sampled_echo_)) {
    sampled_ = true;
    sampled_ack_ = h.ack;
    sampled_echo_ = h.ts_echo;
    const int32_t rtt = int32_t(local_ms(now) - h.ts_echo);
    if (rtt >= 0) {
      rto_.sample(double(rtt));
      counters_.rtt.push_back({clock_.unix_ms(now), rtt});
    }
  }
  for (uint32_t seq : out.fast_retx) retransmit(now, seq, true);
}

void Connection::react(int64_t now, const Header& h) {
  if (!client_) {
    if (h.type == kConnect && !ticking_) {
      send_original(now, kAccept, kReliable, 0, 0);
      start_ticking(now);
    } else if (h.type == kPing && !peer_closed_ && !window_full()) {
      send_original(now, kPong, 0, 0, 0);
    } else if (h.type == kDisconnect) {
      peer_closed_ = true;  // stops ticking; the DISCONNECT is acked by a pure ACK
      state_ = State::Closing;
    }
    return;
  }
  if (state_ == State::Connecting) {
    // Any server packet (normally the ACCEPT) completes the handshake.
    state_ = State::Open;
    if (!disconnect_wanted_) start_ticking(now);
  }
}

bool Connection::finished(int64_t now) const {
  if (state_ == State::GaveUp || state_ == State::TimedOut) return true;
  if (now - close_started_ >= int64_t(opt_.close_timeout_ms * kMs) && disconnect_wanted_) return true;
  if (!disconnect_wanted_) return false;
  if (state_ == State::Connecting) return true;  // never connected: nothing to say goodbye to
  return disconnect_sent_ && !sq_.has_unacked() && !ack_pending_ &&
         now - last_rx_ >= int64_t(opt_.linger_ms * kMs);
}

bool Connection::done(int64_t now) const {
  if (state_ == State::GaveUp || state_ == State::TimedOut) return true;
  return peer_closed_ && !sq_.has_unacked() && !ack_pending_ &&
         now - last_rx_ >= int64_t(opt_.drain_ms * kMs);
}

}  // namespace grudp_ep
