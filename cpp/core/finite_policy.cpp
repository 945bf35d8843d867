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

void require_training_options(double beta_entropy, double learning_rate, long long steps) {
  require_in_range("betaEntropy", beta_entropy, 0.0, 10.0);
  require_in_range("learningRate", learning_rate, 0.0, 10.0);
  require_integer_in_range("steps", static_cast<double>(steps), 0, 100000);
}

std::vector<double> initial_logits() {
  std::vector<double> logits;
  for (const auto& mode : finite_modes()) logits.push_back(std::log(mode.initial_probability));
  return logits;
}

// The one update of section 5: theta_k += learning_rate * grad_k(J + beta_entropy * H), exact.
// Writes each mode's advantage A_k = r_k - J - beta_entropy (log p_k + H) (grad_k = p_k A_k) and
// its gradient into the given vectors (one per mode).
void finite_policy_step(std::vector<double>& logits, const FinitePolicyState& s,
                        double beta_entropy, double learning_rate, std::vector<double>& advantages,
                        std::vector<double>& gradients) {
  const auto& modes = finite_modes();
  advantages.assign(modes.size(), 0.0);
  gradients.assign(modes.size(), 0.0);
  for (std::size_t k = 0; k < modes.size(); ++k) {
    const double p = s.probabilities[k];
    const double reward = modes[k].successful ? 1.0 : 0.0;
    // dJ/dtheta_k = p_k (r_k - J);  dH/dtheta_k = -p_k (log p_k + H).
    const double log_p = p > 0.0 ? std::log(p) : 0.0;
    advantages[k] = reward - s.expected_reward - beta_entropy * (log_p + s.entropy);
    gradients[k] = p * (reward - s.expected_reward) - beta_entropy * p * (log_p + s.entropy);
    logits[k] += learning_rate * gradients[k];
  }
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
  require_training_options(beta_entropy, learning_rate, steps);
  std::vector<double> logits = initial_logits();
  std::vector<double> advantages, gradients;
  for (long long step = 0; step < steps; ++step)
    finite_policy_step(logits, state_of(logits), beta_entropy, learning_rate, advantages,
                       gradients);
  return state_of(logits);
}

std::vector<FiniteEntropyStep> finite_entropy_mechanism(double beta_entropy, double learning_rate,
                                                        long long steps) {
  require_training_options(beta_entropy, learning_rate, steps);
  std::vector<double> logits = initial_logits();
  std::vector<double> gradients;
  std::vector<FiniteEntropyStep> rows;
  rows.reserve(static_cast<std::size_t>(steps));
  FinitePolicyState before = state_of(logits);
  for (long long step = 0; step < steps; ++step) {
    FiniteEntropyStep row;
    row.step = step;
    row.entropy = before.entropy;
    finite_policy_step(logits, before, beta_entropy, learning_rate, row.advantages, gradients);
    const FinitePolicyState after = state_of(logits);
    // -lr Cov(log p, p A) = -lr sum_k p_k (log p_k + H) (p_k A_k), as E[log p] = -H.
    for (std::size_t k = 0; k < gradients.size(); ++k) {
      const double p = before.probabilities[k];
      const double log_p = p > 0.0 ? std::log(p) : 0.0;
      row.contributions.push_back(-learning_rate * p * (log_p + before.entropy) * gradients[k]);
      row.predicted_change += row.contributions.back();
    }
    row.exact_change = after.entropy - before.entropy;
    row.difference = row.exact_change - row.predicted_change;
    rows.push_back(std::move(row));
    before = after;
  }
  return rows;
}

}  // namespace grpo
