#include "link.hpp"

#include <algorithm>
#include <cmath>

namespace grudp_sim {

Link::Link(const LinkConfig& cfg, Rng rng, std::vector<std::pair<int64_t, int64_t>> outages)
    : cfg_(cfg), rng_(rng), outages_(std::move(outages)) {
  const double p = std::clamp(cfg.loss, 0.0, 0.99);
  // Simple Gilbert model: the Bad state drops everything, Good drops nothing.
  // Runs of Bad are geometric with mean `burst` (P(B->G) = 1/burst), and the
  // stationary Bad share equals the loss rate: pi_B = g/(g+b) = p.
  independent_ = cfg.burst <= 1.0;
  if (!independent_) {
    p_bg_ = 1.0 / cfg.burst;
    p_gb_ = p * p_bg_ / (1.0 - p);
    bad_ = rng_.chance(p);  // start in the stationary distribution
  } else {
    p_gb_ = p;
    p_bg_ = 1.0 - p;
  }
}

Fate Link::transmit(int64_t now_ns) {
  Fate f;
  // Loss: advance the chain once per packet, independent of the outage so
  // the outage does not shift the rest of the loss pattern.
  if (independent_) {
    f.lost = rng_.chance(cfg_.loss);
  } else {
    bad_ = bad_ ? !rng_.chance(p_bg_) : rng_.chance(p_gb_);
    f.lost = bad_;
  }
  for (const auto& [t1, t2] : outages_) {
    if (now_ns >= t1 && now_ns < t2) {
      f.outage = !f.lost;
      f.lost = true;
    }
  }

  // Delay: base + jitter, always drawn so lost packets get a nominal delay
  // (needed for the middle vantage) and the stream of draws stays aligned.
  double d_ms = cfg_.delay_ms;
  if (cfg_.jitter_ms > 0) {
    d_ms += cfg_.jitter_dist == JitterDist::Uniform ? rng_.uniform(-cfg_.jitter_ms, cfg_.jitter_ms)
                                                    : rng_.normal() * cfg_.jitter_ms;
  }
  d_ms = std::max(d_ms, 0.05);
  const double extra_u = rng_.uniform(0.5, 1.5);
  f.reordered = rng_.chance(cfg_.reorder);
  int64_t arrival = now_ns + int64_t(std::llround(d_ms * 1e6));
  if (f.reordered) {
    // Held back: exempt from FIFO, so packets sent after it arrive first.
    arrival += int64_t(std::llround(cfg_.reorder_extra_ms * extra_u * 1e6));
  } else {
    // Jitter alone never reorders: a queue keeps FIFO order.
    arrival = std::max(arrival, last_fifo_arrival_);
    if (!f.lost) last_fifo_arrival_ = arrival;
  }
  f.delay_ns = arrival - now_ns;
  return f;
}

}  // namespace grudp_sim
