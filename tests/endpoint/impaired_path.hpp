// The send side of one connection: every datagram the protocol emits passes
// here, meets the impairment (loss, delay, jitter, reordering, duplication)
// and is counted before it reaches the socket.
#pragma once

#include <cstdint>

#include "counters.hpp"
#include "delay_line.hpp"
#include "link.hpp"
#include "options.hpp"
#include "rng.hpp"

namespace grudp_ep {

class ImpairedPath {
 public:
  ImpairedPath(const ImpairOptions& o, uint64_t seed, uint64_t stream, DelayLine& line, DelayLine::Target to);

  // One datagram as the protocol emitted it (`retransmission`: a later copy of a reliable seq).
  void send(int64_t now_ns, const grudp_sim::Header& h, const uint8_t* data, size_t len, bool retransmission);
  void set_target(DelayLine::Target to) { to_ = to; }

 private:
  void count_drop(const grudp_sim::Header& h, bool retransmission);
  void release_held_behind(int64_t release_ns);
  void emit(int64_t now_ns, int64_t release_ns, const grudp_sim::Header& h, const uint8_t* data, size_t len);

  ImpairOptions opt_;
  grudp_sim::Link link_;  // the simulator's link model: Gilbert loss, delay + FIFO jitter
  grudp_sim::Rng rng_;    // duplicate and reorder draws
  DelayLine& line_;
  DelayLine::Target to_;
  bool holding_ = false;
  DelayLine::Handle held_;
  uint32_t held_seq_ = 0;
};

}  // namespace grudp_ep
