// Section 5: exact gradient ascent on a categorical policy over answer modes.
#include "core/finite_policy.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"

namespace grpo {
namespace {

FinitePolicyState state_of(const std::vector<double>& logits) {
  const auto& modes = finite_modes();
  FinitePolicyState state;
  const double top = *std::max_element(logits.begin(), logits.end());
  double total = 0.0;
  for (double logit : logits) {
    state.probabilities.push_back(std::exp(logit - top));
    total += state.probabilities.back();
  }
  for (std::size_t i = 0; i < modes.size(); ++i) {
    double& p = state.probabilities[i];
    p /= total;
    if (modes[i].successful) state.expected_reward += p;
    if (p > 0.0) state.entropy -= p * std::log(p);
  }
  state.successful_mass = state.expected_reward;
  return state;
}

}  // namespace

const std::vector<FiniteMode>& finite_modes() {
  static const std::vector<FiniteMode> modes = {
      {"A", true, 0.35},  {"B", true, 0.15},  {"C", true, 0.05},
      {"D", false, 0.20}, {"E", false, 0.15}, {"F", false, 0.10},
  };
  return modes;
}

FinitePolicyState synthetic_mode_training(double beta_entropy, double learning_rate,
                                          long long steps) {
  require_in_range("betaEntropy", beta_entropy, 0.0, 10.0);
  require_in_range("learningRate", learning_rate, 0.0, 10.0);
  require_integer_in_range("steps", static_cast<double>(steps), 0, 100000);
  const auto& modes = finite_modes();
  std::vector<double> logits;
  for (const auto& mode : modes) logits.push_back(std::log(mode.initial_probability));
  for (long long step = 0; step < steps; ++step) {
    const FinitePolicyState s = state_of(logits);
    for (std::size_t k = 0; k < modes.size(); ++k) {
      const double p = s.probabilities[k];
      const double reward = modes[k].successful ? 1.0 : 0.0;
      // dJ/dtheta_k = p_k (r_k - J);  dH/dtheta_k = -p_k (log p_k + H).
      const double log_p = p > 0.0 ? std::log(p) : 0.0;
      const double gradient =
          p * (reward - s.expected_reward) - beta_entropy * p * (log_p + s.entropy);
      logits[k] += learning_rate * gradient;
    }
  }
  return state_of(logits);
}

}  // namespace grpo
