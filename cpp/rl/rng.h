// Deterministic random numbers: the same seed gives the same stream natively, in Node and in
// every browser. Never use std::*_distribution here: their output differs between libraries.
#pragma once

#include <cmath>
#include <cstdint>

namespace grpo {

// xoshiro256** seeded through splitmix64 (Blackman & Vigna), 2^256 - 1 period.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) {
    std::uint64_t x = seed;
    for (auto& word : state_) word = splitmix64(x);
  }

  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(state_[1] * 5, 7) * 9;
    const std::uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = rotl(state_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

  // Uniform in [low, high).
  double uniform(double low, double high) { return low + (high - low) * uniform(); }

  // Uniform integer in [0, n) by rejection (no modulo bias). n must be > 0.
  std::uint64_t below(std::uint64_t n) {
    const std::uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    std::uint64_t x;
    do x = next_u64();
    while (x >= limit);
    return x % n;
  }

  // Standard normal by Box-Muller (one value per call; simple beats fast here).
  double normal() {
    const double u1 = 1.0 - uniform();  // (0, 1]
    const double u2 = uniform();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

  // A child stream for an independent purpose (warm-up, rollouts, evaluation).
  Rng fork(std::uint64_t salt) { return Rng(next_u64() ^ (salt * 0x9E3779B97F4A7C15ull)); }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t state_[4];
};

}  // namespace grpo
