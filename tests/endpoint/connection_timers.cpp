// What time drives in a Connection: game ticks, pings, the pure-ACK timer,
// retransmission timers, the DISCONNECT and giving up.
#include <algorithm>
#include <cmath>

#include "connection.hpp"

namespace grudp_ep {

using namespace grudp_sim;

namespace {
constexpr int64_t kMs = 1000000;
constexpr int64_t kNever = std::numeric_limits<int64_t>::max();
// A loop that fell this many ticks behind (a stopped process, an overloaded
// box) skips them instead of sending a burst.
constexpr uint64_t kMaxTickBacklog = 4;
}  // namespace

int64_t Connection::rto_ns(int attempt) const {
  // Exponential backoff: the current RTO doubled per attempt already made.
  const double factor = opt_.backoff ? std::ldexp(1.0, attempt - 1) : 1.0;
  const double ms = std::min(rto_.rto_ms() * factor, opt_.rto_max_ms);
  return int64_t(std::llround(ms * 1e6));
}

void Connection::start_ticking(int64_t now) {
  if (ticking_) return;
  ticking_ = true;
  tick_origin_ = now + int64_t(period_ns_ / 2);
  ticks_ = 0;
  next_tick_ = tick_origin_;
  if (client_ && opt_.ping_ms > 0) next_ping_ = now + int64_t(opt_.ping_ms * kMs);
}

bool Connection::stopped_sending() const {
  return disconnect_wanted_ || peer_closed_ || state_ == State::GaveUp;
}

void Connection::poll(int64_t now) {
  if (state_ == State::GaveUp || state_ == State::TimedOut) {
    next_due_ = kNever;
    return;
  }
  poll_rto(now);
  if (state_ == State::GaveUp) return;
  if (ticking_ && !stopped_sending()) {
    if (now >= next_tick_) tick(now);
    if (client_ && opt_.ping_ms > 0 && now >= next_ping_) {
      if (!window_full()) send_original(now, kPing, 0, 0, 0);
      next_ping_ += int64_t(opt_.ping_ms * kMs);
    }
  }
  if (disconnect_wanted_ && !disconnect_sent_ && state_ == State::Open && now >= next_tick_)
    try_disconnect(now);
  // ~1 tick: normally the next DATA carries the ack and no pure ACK is needed.
  if (ack_pending_ && now >= ack_since_ + int64_t(period_ns_ * 1.1)) send_original(now, kAck, 0, 0, 0);
  if (!client_ && state_ != State::Closed && now - last_rx_ >= int64_t(opt_.idle_timeout_ms * kMs))
    state_ = State::TimedOut;
  refresh_due();
}

void Connection::tick(int64_t now) {
  uint64_t due = uint64_t(double(now - tick_origin_) / period_ns_) + 1;  // ticks that should have happened
  if (due > ticks_ + kMaxTickBacklog) {
    counters_.skipped_ticks += due - ticks_ - 1;
    ticks_ = due - 1;
  }
  while (ticks_ < due) {
    if (window_full())  // nothing new may be numbered until the oldest reliable packet is acked
      ++counters_.blocked_ticks;
    else
      send_tick_data(now);
    ++ticks_;
  }
  next_tick_ = tick_origin_ + int64_t(std::llround(double(ticks_) * period_ns_));
}

void Connection::send_tick_data(int64_t now) {
  const size_t size = size_t(rng_.range(opt_.payload_min, opt_.payload_max));
  if (!rng_.chance(1.0 - opt_.idle)) return;
  const double u = rng_.uniform();
  if (u < opt_.reliable)
    send_original(now, kData, kReliable, rng_.chance(0.25) ? 1 : 0, size);
  else if (u < opt_.reliable + opt_.unsequenced)
    send_original(now, kData, kUnsequenced, 3, size);
  else
    send_original(now, kData, 0, 2, size);
}

void Connection::poll_rto(int64_t now) {
  if (sq_.empty()) return;
  // Outstanding seqs lie in [oldest, next_seq): at most kAckSpan of them.
  const uint32_t first = sq_.oldest();
  for (uint32_t seq = first; seq != next_seq_; ++seq) {
    RtoTimer& t = timers_[seq % timers_.size()];
    if (t.seq != seq || t.deadline > now) continue;
    Outstanding* o = sq_.find(seq);
    if (!o || o->attempt != t.attempt) {  // acked, or superseded by a later copy
      t.deadline = kNever;
      continue;
    }
    if (t.attempt >= opt_.max_attempts) {
      give_up();
      return;
    }
    retransmit(now, seq, false);
  }
}

void Connection::give_up() {
  state_ = State::GaveUp;
  counters_.gave_up = true;
  sq_.clear();
  next_due_ = kNever;
}

void Connection::close(int64_t now) {
  if (disconnect_wanted_) return;
  disconnect_wanted_ = true;
  close_started_ = now;
  if (state_ == State::Open) try_disconnect(now);
  refresh_due();
}

void Connection::try_disconnect(int64_t now) {
  if (window_full()) {  // DISCONNECT must stay ackable: retry a tick later
    next_tick_ = now + int64_t(period_ns_);
    return;
  }
  send_original(now, kDisconnect, kReliable, 0, 0);
  disconnect_sent_ = true;
}

void Connection::refresh_due() {
  const bool ended = state_ == State::GaveUp || state_ == State::TimedOut;
  if (!ended && (disconnect_sent_ || peer_closed_) && !sq_.has_unacked()) state_ = State::Closed;
  int64_t due = kNever;
  if (ticking_ && !stopped_sending()) {
    due = std::min(due, next_tick_);
    if (client_ && opt_.ping_ms > 0) due = std::min(due, next_ping_);
  }
  if (disconnect_wanted_ && !disconnect_sent_ && state_ == State::Open) due = std::min(due, next_tick_);
  if (ack_pending_) due = std::min(due, ack_since_ + int64_t(period_ns_ * 1.1));
  if (!sq_.empty()) {
    for (uint32_t seq = sq_.oldest(); seq != next_seq_; ++seq) {
      const RtoTimer& t = timers_[seq % timers_.size()];
      if (t.seq == seq) due = std::min(due, t.deadline);
    }
  }
  if (!client_ && state_ != State::Closed)
    due = std::min(due, last_rx_ + int64_t(opt_.idle_timeout_ms * kMs));
  next_due_ = due;
}

}  // namespace grudp_ep
