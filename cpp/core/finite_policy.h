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

// Why entropy falls (docs/entropy-mechanism.md): one row per step t of the same training, the
// change from pi_t to pi_{t+1}. With A_k = r_k - J - beta_entropy (log p_k + H) the step is
// theta_k += learning_rate p_k A_k, and to first order in learning_rate
//   H(pi_{t+1}) - H(pi_t) = -learning_rate Cov_{k~pi_t}(log p_k, p_k A_k)
//                         = sum_k contributions[k],
//   contributions[k] = -learning_rate p_k (log p_k + H) p_k A_k;
// the rest (difference) is O(learning_rate^2).
struct FiniteEntropyStep {
  long long step = 0;                 // t
  double entropy = 0.0;               // H(pi_t), natural log
  double exact_change = 0.0;          // H(pi_{t+1}) - H(pi_t)
  double predicted_change = 0.0;      // -learning_rate Cov(log p, p A)
  double difference = 0.0;            // exact_change - predicted_change
  std::vector<double> advantages;     // A_k, one per mode
  std::vector<double> contributions;  // one per mode, summing to predicted_change
};

// Same arguments and ranges as synthetic_mode_training; `steps` rows (t = 0 .. steps-1).
std::vector<FiniteEntropyStep> finite_entropy_mechanism(double beta_entropy, double learning_rate,
                                                        long long steps);

}  // namespace grpo
