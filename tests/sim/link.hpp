// One direction of a path: base delay + jitter (FIFO-preserving), explicit
// reordering, Gilbert-Elliott burst loss and optional full outages.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "config.hpp"
#include "rng.hpp"

namespace grudp_sim {

struct Fate {
  bool lost = false;
  bool outage = false;     // lost because of an outage interval
  bool reordered = false;  // held back so later packets overtake it
  int64_t delay_ns = 0;    // one-way delay (also computed for lost packets)
};

class Link {
 public:
  // `outages` are [t1, t2) in simulation ns.
  Link(const LinkConfig& cfg, Rng rng, std::vector<std::pair<int64_t, int64_t>> outages);

  // Decides the fate of a packet that enters the link at `now_ns`. Packets are
  // offered in send order, which is what the burst statistics count over.
  Fate transmit(int64_t now_ns);

  // Gilbert-Elliott parameters derived from (loss, burst); exposed for tests.
  double p_good_to_bad() const { return p_gb_; }
  double p_bad_to_good() const { return p_bg_; }

 private:
  LinkConfig cfg_;
  Rng rng_;
  std::vector<std::pair<int64_t, int64_t>> outages_;
  bool independent_ = true;
  bool bad_ = false;
  double p_gb_ = 0.0;
  double p_bg_ = 1.0;
  int64_t last_fifo_arrival_ = 0;
};

}  // namespace grudp_sim
