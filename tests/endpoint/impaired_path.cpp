#include "impaired_path.hpp"

#include "endpoint.hpp"

namespace grudp_ep {

using grudp_sim::Header;

namespace {

// A packet held for reordering that nothing overtakes within this time
// leaves anyway (and is not counted as reordered).
constexpr int64_t kHoldTimeoutNs = 200'000'000;

grudp_sim::LinkConfig link_config(const ImpairOptions& o) {
  grudp_sim::LinkConfig c;
  c.loss = o.loss;
  c.burst = o.burst;
  c.delay_ms = o.delay_ms;
  c.jitter_ms = o.jitter_ms;
  c.reorder = 0;  // reordering is done here, so that it is certain to happen
  return c;
}

// Pure ACKs carry no seq of their own: the receiver cannot see them
// reordered or duplicated, so only seq-consuming packets are.
bool consumes_seq(const Header& h) { return h.type != grudp_sim::kAck; }

}  // namespace

ImpairedPath::ImpairedPath(const ImpairOptions& o, uint64_t seed, uint64_t stream, DelayLine& line,
                           DelayLine::Target to)
    : opt_(o),
      link_(link_config(o), grudp_sim::Rng(seed, stream * 2), {}),
      rng_(seed, stream * 2 + 1),
      line_(line),
      to_(to) {}

void ImpairedPath::count_drop(const Header& h, bool retransmission) {
  DropCounts& d = to_.counters->drops;
  ++(retransmission ? d.retransmissions : d.originals);
  ++((h.flags & grudp_sim::kReliable) ? d.reliable : d.unreliable);
  d.by_type.add(h);
}

void ImpairedPath::send(int64_t now_ns, const Header& h, const uint8_t* data, size_t len,
                        bool retransmission) {
  ConnCounters& c = *to_.counters;
  c.sent.add(h);
  const grudp_sim::Fate fate = link_.transmit(now_ns);
  // Always draw both, so one option does not shift the other's pattern.
  const bool dup_draw = rng_.chance(opt_.duplicate);
  const bool hold_draw = rng_.chance(opt_.reorder);
  if (!retransmission && consumes_seq(h))
    c.last_original_dropped = fate.lost && (h.flags & grudp_sim::kReliable);
  if (fate.lost) {
    count_drop(h, retransmission);
    return;
  }
  const int64_t delay = opt_.any_delay() ? fate.delay_ns : 0;
  const int64_t release = now_ns + delay;
  if (delay > 0) ++c.delayed;
  const bool can_hold = consumes_seq(h) && !(holding_ && line_.pending(held_));
  if (can_hold && hold_draw) {
    holding_ = true;
    held_seq_ = h.seq;
    held_ = line_.push(release + kHoldTimeoutNs, to_, h, data, len);
    return;
  }
  emit(now_ns, release, h, data, len);
  if (holding_ && consumes_seq(h) && grudp_sim::seq_after(h.seq, held_seq_)) release_held_behind(release);
  if (consumes_seq(h) && dup_draw) {
    c.duplicated.add(h);
    emit(now_ns, release, h, data, len);
  }
}

void ImpairedPath::emit(int64_t now_ns, int64_t release_ns, const Header& h, const uint8_t* data,
                        size_t len) {
  if (release_ns <= now_ns)
    write_datagram(to_, h, data, len);
  else
    line_.push(release_ns, to_, h, data, len);
}

void ImpairedPath::release_held_behind(int64_t release_ns) {
  holding_ = false;
  if (!line_.pending(held_)) return;  // its hold timed out: it left in order
  line_.reschedule(held_, release_ns);
  ++to_.counters->reordered;
}

}  // namespace grudp_ep
