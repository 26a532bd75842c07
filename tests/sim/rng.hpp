// Deterministic PRNG for the simulator: xoshiro256** seeded through
// splitmix64. std:: distributions are avoided on purpose, because their output
// differs between standard-library versions and the pcap must not.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace grudp_sim {

inline uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

class Rng {
 public:
  // `stream` separates independent sub-generators (per link, per endpoint) so
  // that changing one component's draws does not perturb the others.
  explicit Rng(uint64_t seed = 0, uint64_t stream = 0) {
    uint64_t sm = seed ^ (stream * 0xD1B54A32D192ED03ull);
    for (auto& w : s_) w = splitmix64(sm);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  uint32_t next_u32() { return static_cast<uint32_t>(next() >> 32); }

  // Uniform in [0, 1) with 53 bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

  // Uniform integer in [lo, hi] (inclusive); the tiny modulo bias is irrelevant here.
  int64_t range(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi - lo) + 1;
    return lo + static_cast<int64_t>(next() % span);
  }

  bool chance(double p) { return p > 0.0 && uniform() < p; }

  // Standard normal via Box-Muller (uses libm log/cos, which are exact enough
  // and stable for a given platform).
  double normal() {
    double u1 = uniform();
    if (u1 < 1e-300) u1 = 1e-300;
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

// Filler bytes from a xorshift stream seeded with `seed` (payload content
// does not matter to the analysis, only its size and that copies match).
inline void xorshift_fill(uint64_t seed, uint8_t* p, size_t n) {
  uint64_t x = seed | 1;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    p[i] = uint8_t(x);
  }
}

}  // namespace grudp_sim
