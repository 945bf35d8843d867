// Section 5: an exact softmax policy over a few answer modes, trained by exact gradient ascent.
#pragma once

#include <string>
#include <vector>

namespace grpo {

struct FiniteMode {
  std::string label;           // "A", "B", ...
  bool successful;             // reward 1 when sampled
  double initial_probability;  // unequal on purpose
};

// The six modes of the demonstration: three successful (35 %, 15 %, 5 %) and three failing.
const std::vector<FiniteMode>& finite_modes();

struct FinitePolicyState {
  std::vector<double> probabilities;  // one per mode
  double expected_reward = 0.0;       // sum of p over successful modes (reward is 0/1)
  double successful_mass = 0.0;       // same number, named as the notebook names it
  double entropy = 0.0;               // natural log
};

// Runs `steps` updates theta += learning_rate * grad(J + beta_entropy * H) on the logits,
// with J the expected reward and H the entropy, both exact. Returns the state after them.
// beta_entropy in [0, 10], learning_rate in [0, 10], steps in [0, 100000].
FinitePolicyState synthetic_mode_training(double beta_entropy, double learning_rate,
                                          long long steps);

}  // namespace grpo
