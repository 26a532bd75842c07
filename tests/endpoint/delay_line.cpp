#include "delay_line.hpp"

#include <algorithm>
#include <cstring>

#include "udp_socket.hpp"

namespace grudp_ep {

void write_datagram(const DelayLine::Target& to, const grudp_sim::Header& h, const uint8_t* data,
                    size_t len) {
  if (send_datagram(to.fd, to.dst, data, len))
    to.counters->sent_wire.add(h);
  else
    ++to.counters->send_errors;
}

DelayLine::Handle DelayLine::push(int64_t release_ns, const Target& to, const grudp_sim::Header& h,
                                  const uint8_t* data, size_t len) {
  uint32_t idx;
  if (free_.empty()) {
    idx = uint32_t(slots_.size());
    slots_.emplace_back();
  } else {
    idx = free_.back();
    free_.pop_back();
  }
  Slot& s = slots_[idx];
  s.to = to;
  s.header = h;
  s.used = true;
  s.len = uint16_t(std::min(len, sizeof s.data));
  std::memcpy(s.data, data, s.len);
  ++in_use_;
  schedule(idx, release_ns);
  return {idx, s.token};
}

void DelayLine::schedule(uint32_t slot, int64_t t) {
  heap_.push_back({t, order_++, slot, slots_[slot].token});
  std::push_heap(heap_.begin(), heap_.end());
}

void DelayLine::reschedule(Handle h, int64_t release_ns) {
  if (!pending(h)) return;
  // The old heap entry goes stale: a new token makes flush skip it.
  Slot& s = slots_[h.slot];
  ++s.token;
  schedule(h.slot, release_ns);
}

bool DelayLine::pending(Handle h) const {
  return h.slot < slots_.size() && slots_[h.slot].used && slots_[h.slot].token == h.token;
}

void DelayLine::flush(int64_t now_ns) {
  while (!heap_.empty() && heap_.front().t <= now_ns) {
    std::pop_heap(heap_.begin(), heap_.end());
    const Entry e = heap_.back();
    heap_.pop_back();
    Slot& s = slots_[e.slot];
    if (!s.used || s.token != e.token) continue;  // rescheduled: a later entry stands for it
    write_datagram(s.to, s.header, s.data, s.len);
    s.used = false;
    ++s.token;
    --in_use_;
    free_.push_back(e.slot);
  }
}

}  // namespace grudp_ep
