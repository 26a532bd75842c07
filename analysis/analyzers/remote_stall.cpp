#include "analyzers/remote_stall.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "core/seq32.h"

namespace rudp::ana {

namespace {
bool bit(const std::array<uint64_t, 64>& b, uint32_t s) { return (b[(s % 4096) / 64] >> (s % 64)) & 1u; }
void set(std::array<uint64_t, 64>& b, uint32_t s, bool v) {
  const uint64_t m = uint64_t(1) << (s % 64);
  if (v)
    b[(s % 4096) / 64] |= m;
  else
    b[(s % 4096) / 64] &= ~m;
}
}  // namespace

void RemoteStallEstimator::onCopy(uint32_t seq, bool first, bool reliable, double ts_ms, int64_t capture_ns,
                                  uint64_t frame) {
  any_ = true;
  const double off = double(capture_ns) / 1e6 - ts_ms;
  if (!has_off_ || off < off_min_ms_) off_min_ms_ = off;
  has_off_ = true;
  if (!first && !reliable) return;
  Ev e{};
  e.s_ms = ts_ms;
  e.capture_ns = capture_ns;
  e.frame = frame;
  e.seq = seq;
  e.kind = Send;
  e.reliable = reliable;
  e.has_own_seq = first;  // reused: a first copy (an original) vs a later copy
  evs_.push_back(e);
}

void RemoteStallEstimator::onLostOriginal(uint32_t seq, double orig_ts_ms, bool first_copy_fed) {
  if (first_copy_fed) {
    // The copy was taken for the original: make it a later copy.
    for (size_t i = evs_.size(); i-- > 0;) {
      Ev& e = evs_[i];
      if (e.kind == Send && e.seq == seq && e.has_own_seq) {
        e.has_own_seq = false;
        break;
      }
    }
  }
  Ev e{};
  e.s_ms = orig_ts_ms;
  e.kind = Send;
  if (std::isnan(orig_ts_ms)) {
    if (open_ns_ < 0) return;
    e.s_ms = double(open_ns_) / 1e6;  // mapped like an ack when replayed
    e.kind = SendAtOpen;
  }
  e.capture_ns = evs_.empty() ? 0 : evs_.back().capture_ns;
  e.seq = seq;
  e.reliable = true;
  e.has_own_seq = true;
  evs_.push_back(e);
}

void RemoteStallEstimator::onSenderAck(double ts_ms, uint32_t ack, uint32_t bits) {
  if (sacks_.size() < kSenderAcks) {
    sacks_.push_back({ts_ms, ack, bits});
  } else {
    sacks_[sack_next_] = {ts_ms, ack, bits};
    sack_next_ = (sack_next_ + 1) % kSenderAcks;
  }
}

bool RemoteStallEstimator::arrived(uint32_t x, double s_ms, double hold_max_ms) const {
  // The sender's first captured packet sent after it would have acked this
  // copy: does it have x? The ring is in capture order, which is send order
  // but for reordering: binary search, then look around for the earliest.
  const double after = s_ms + hold_max_ms;
  const size_t n = sacks_.size();
  const size_t start = n < kSenderAcks ? 0 : sack_next_;
  auto at = [&](size_t i) -> const SenderAck& { return sacks_[(start + i) % n]; };
  size_t lo = 0, hi = n;
  while (lo < hi) {
    const size_t mid = (lo + hi) / 2;
    if (at(mid).s_ms < after)
      lo = mid + 1;
    else
      hi = mid;
  }
  const SenderAck* first = nullptr;
  for (size_t i = lo >= 8 ? lo - 8 : 0; i < n && i < lo + 8; ++i)
    if (at(i).s_ms >= after && (!first || at(i).s_ms < first->s_ms)) first = &at(i);
  if (!first) return true;  // nothing sent since (or not captured): assume it did
  const uint32_t back = first->ack - x;
  if (int32_t(back) < 0) return false;  // its highest is below x: not received
  if (back == 0) return true;
  if (back > 32) return true;  // out of the bitmap: cannot tell
  return (first->bits >> (back - 1)) & 1u;
}

void RemoteStallEstimator::onAck(int64_t capture_ns, uint64_t frame, bool has_own_seq, uint32_t own_seq,
                                 AckStyle style, uint32_t ack, uint32_t bits, bool has_una, uint32_t una) {
  if (!any_) return;
  Ev e{};
  e.s_ms = double(capture_ns) / 1e6;
  e.capture_ns = capture_ns;
  e.frame = frame;
  e.kind = Ack;
  e.has_own_seq = has_own_seq;
  e.own_seq = own_seq;
  e.style = style;
  e.ack = ack;
  e.bits = bits;
  e.has_una = has_una;
  e.una = una;
  evs_.push_back(e);
}

int64_t RemoteStallEstimator::toCapture(double s_ms) const {
  // capture = S clock + theta, theta = off_min - d1_min, d1_min ~ path_min / 2.
  return int64_t(std::llround((s_ms + off_min_ms_ - path_ms_ / 2) * 1e6));
}

void RemoteStallEstimator::forget(uint32_t upto) {
  // Slots about to be reused for seqs up to `upto`: drop what they held.
  if (!has_hi_) {
    hi_ = upto;
    has_hi_ = true;
    return;
  }
  for (uint32_t s = hi_ + 1, n = 0; seqBefore(hi_, upto) && n < kBits; ++s, ++n) {
    if (bit(out_, s) && outstanding_ > 0) --outstanding_;
    set(out_, s, false);
    set(sent_, s, false);
    hi_ = s;
    if (s == upto) break;
  }
  hi_ = seqBefore(hi_, upto) ? upto : hi_;
}

void RemoteStallEstimator::cover(uint32_t seq, bool& progressed) {
  if (!has_hi_ || seqBefore(hi_, seq) || hi_ - seq >= kBits) return;
  if (bit(out_, seq)) {
    set(out_, seq, false);
    --outstanding_;
    progressed = true;
  }
}

void RemoteStallEstimator::coverBelow(uint32_t limit, bool& progressed) {
  if (!has_hi_ || outstanding_ == 0) return;
  for (uint32_t w = 0; w < kBits / 64; ++w)
    for (uint64_t m = out_[w]; m; m &= m - 1) {
      const uint32_t idx = w * 64 + uint32_t(std::countr_zero(m));
      const uint32_t s = hi_ - ((hi_ - idx) % kBits);  // the seq that slot holds
      if (seqBefore(s, limit)) cover(s, progressed);
    }
}

void RemoteStallEstimator::replay(const Ev& e, double s_ms, EventSink* sink, std::vector<StallEvent>& out) {
  if (e.kind == SendAtOpen) {
    Ev send = e;
    send.kind = Send;
    return replay(send, s_ms, sink, out);
  }
  if (e.kind == Send) {
    if (!e.has_own_seq) {  // a later copy: part of the current wait
      if (waiting_) ++retx_;
      return;
    }
    if (!has_hi_ || seqBefore(hi_, e.seq)) forget(e.seq);
    if (!e.reliable || bit(sent_, e.seq) || hi_ - e.seq >= kBits) return;
    set(sent_, e.seq, true);
    if (outstanding_ == 0) {
      waiting_ = true;
      start_ms_ = s_ms;
      start_frame_ = e.frame;
      retx_ = 0;
    }
    set(out_, e.seq, true);
    ++outstanding_;
    return;
  }
  bool progressed = false;
  switch (e.style) {
    case AckStyle::HighestBitmap:
      cover(e.ack, progressed);
      for (uint32_t b = e.bits; b; b &= b - 1) cover(e.ack - 1 - uint32_t(std::countr_zero(b)), progressed);
      break;
    case AckStyle::Cumulative: coverBelow(e.ack, progressed); break;
    case AckStyle::PerSegment:
      cover(e.ack, progressed);
      if (e.has_una) coverBelow(e.una, progressed);
      break;
    case AckStyle::None: break;
  }
  if (!progressed) return;
  if (waiting_ && s_ms - start_ms_ >= thr_ms_) {
    StallEvent st;
    st.dir = dir_;
    st.start_ns = toCapture(start_ms_);
    st.end_ns = toCapture(s_ms);
    // From the rounded ends: a difference of two epoch-sized ms doubles
    // carries digits below their precision (2349.999755859375).
    st.duration_ms = double(st.end_ns - st.start_ns) / 1e6;
    st.cause = retx_ ? StallCause::RetransmissionTimeout : StallCause::AcksLost;
    st.first_frame = start_frame_;
    st.last_frame = e.frame;
    st.retransmissions = retx_;
    st.estimated = true;
    if (out.size() < 4096) out.push_back(st);
    if (sink) sink->onStall(st);
  }
  // The next wait (if data is still outstanding) runs from this progress.
  waiting_ = outstanding_ > 0;
  start_ms_ = s_ms;
  start_frame_ = e.frame;
  retx_ = 0;
}

void RemoteStallEstimator::advance(int64_t now_ns, double path_min_ms, double hold_max_ms, bool enabled,
                                   bool final, EventSink* sink, std::vector<StallEvent>& out) {
  replay_ = enabled && path_min_ms > 0;
  if (evs_.empty() || !has_off_) {
    if (final) evs_.clear();
    return;
  }
  path_ms_ = path_min_ms;
  const double now_s = double(now_ns) / 1e6 - off_min_ms_;
  const double cut = final ? 1e300 : now_s - kHorizonMs;
  // Map acks onto the sender's clock, keep what arrived there, replay in order.
  struct Ready {
    double s_ms;
    size_t i;
  };
  static thread_local std::vector<Ready> ready;
  ready.clear();
  for (size_t i = 0; i < evs_.size(); ++i) {
    Ev& e = evs_[i];
    const double s = e.kind == Send ? e.s_ms : e.s_ms + path_min_ms - off_min_ms_;  // Ack, SendAtOpen
    if (s < cut) ready.push_back({s, i});
  }
  if (ready.empty()) return;
  std::stable_sort(ready.begin(), ready.end(),
                   [](const Ready& a, const Ready& b) { return a.s_ms < b.s_ms; });
  for (const Ready& r : ready) {
    Ev& e = evs_[r.i];
    e.done = true;
    if (!replay_) continue;  // not the receiver's capture: just let it go
    if (e.kind == Ack && e.has_own_seq && !arrived(e.own_seq, r.s_ms, hold_max_ms))
      continue;  // lost on the way
    replay(e, r.s_ms, sink, out);
  }
  size_t keep = 0;
  for (size_t i = 0; i < evs_.size(); ++i)
    if (!evs_[i].done) evs_[keep++] = evs_[i];
  evs_.resize(keep);
}

}  // namespace rudp::ana
