// Section 3: group-relative advantages and the clipped surrogate.
#include "core/advantages.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo {
namespace {

constexpr double kStdEpsilon = 1e-4;  // TRL adds this to the std before dividing.

void check_clip_arguments(const std::vector<double>& ratios, const std::vector<double>& advantages,
                          double eps_low, double eps_high) {
  require_not_empty("ratios", ratios.size());
  require_same_length("advantages", advantages.size(), "ratios", ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    require_at_least({"ratios", i}, ratios[i], 0.0, /*strict=*/true);
    require_finite({"advantages", i}, advantages[i]);
  }
  require_in_range("epsLow", eps_low, 0.0, 1.0, Ends::open_high);
  require_in_range("epsHigh", eps_high, 0.0, 10.0);
}

}  // namespace

void check_rewards(const std::vector<double>& rewards, const char* name) {
  require_not_empty(name, rewards.size());
  require_at_most_values(name, rewards.size(), 1000000);
  for (std::size_t i = 0; i < rewards.size(); ++i) require_finite({name, i}, rewards[i]);
}

std::vector<double> group_relative_advantages(const std::vector<double>& rewards, bool scale) {
  check_rewards(rewards, "rewards");
  const double n = static_cast<double>(rewards.size());
  double mean = 0.0;
  for (double r : rewards) mean += r;
  mean /= n;
  std::vector<double> advantages(rewards.size());
  for (std::size_t i = 0; i < rewards.size(); ++i) advantages[i] = rewards[i] - mean;
  if (scale && rewards.size() > 1) {
    double squares = 0.0;
    for (double a : advantages) squares += a * a;
    const double std_dev = std::sqrt(squares / (n - 1.0));
    for (double& a : advantages) a /= std_dev + kStdEpsilon;
  }
  // Equal rewards: exact zeros, not rounding noise.
  const bool all_equal =
      std::all_of(rewards.begin(), rewards.end(), [&](double r) { return r == rewards.front(); });
  if (all_equal) std::fill(advantages.begin(), advantages.end(), 0.0);
  return advantages;
}

std::vector<double> clipped_surrogate_terms(const std::vector<double>& ratios,
                                            const std::vector<double>& advantages, double eps_low,
                                            double eps_high) {
  check_clip_arguments(ratios, advantages, eps_low, eps_high);
  std::vector<double> terms(ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    const double clipped = std::clamp(ratios[i], 1.0 - eps_low, 1.0 + eps_high);
    terms[i] = std::min(ratios[i] * advantages[i], clipped * advantages[i]);
  }
  return terms;
}

std::vector<bool> clip_activity(const std::vector<double>& ratios,
                                const std::vector<double>& advantages, double eps_low,
                                double eps_high) {
  check_clip_arguments(ratios, advantages, eps_low, eps_high);
  std::vector<bool> active(ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i)
    active[i] = (advantages[i] > 0.0 && ratios[i] > 1.0 + eps_high) ||
                (advantages[i] < 0.0 && ratios[i] < 1.0 - eps_low);
  return active;
}

}  // namespace grpo
