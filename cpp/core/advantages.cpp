// Section 3 and the trainer: group-relative advantages and the clipped surrogate.
#include "core/advantages.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo {
namespace {

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

double sample_std(const std::vector<double>& values, std::size_t begin, std::size_t end) {
  const std::size_t count = end - begin;
  if (count < 2) return 0.0;
  const auto [lo, hi] = std::minmax_element(values.begin() + begin, values.begin() + end);
  if (*lo == *hi) return 0.0;
  double mean = 0.0;
  for (std::size_t i = begin; i < end; ++i) mean += values[i];
  mean /= static_cast<double>(count);
  double squares = 0.0;
  for (std::size_t i = begin; i < end; ++i) squares += (values[i] - mean) * (values[i] - mean);
  return std::sqrt(squares / static_cast<double>(count - 1));
}

void check_rewards(const std::vector<double>& rewards, const char* name) {
  require_not_empty(name, rewards.size());
  require_at_most_values(name, rewards.size(), 1000000);
  for (std::size_t i = 0; i < rewards.size(); ++i) require_finite({name, i}, rewards[i]);
}

namespace {

// The estimators' values, unchecked (estimate_advantages checks).
std::vector<double> estimator_values(const std::vector<double>& rewards, std::size_t g,
                                     AdvantageEstimator estimator) {
  const std::size_t n = rewards.size();
  std::vector<double> out(rewards);
  if (estimator == AdvantageEstimator::Reinforce) return out;
  if (estimator == AdvantageEstimator::ReinforceBaseline) {
    double mean = 0.0;
    for (double r : rewards) mean += r;
    mean /= static_cast<double>(n);
    for (double& a : out) a -= mean;
    return out;
  }
  for (std::size_t begin = 0; begin < n; begin += g) {
    const auto first = rewards.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last = first + static_cast<std::ptrdiff_t>(g);
    if (std::all_of(first, last, [&](double r) { return r == *first; })) {
      std::fill(out.begin() + static_cast<std::ptrdiff_t>(begin),
                out.begin() + static_cast<std::ptrdiff_t>(begin + g), 0.0);
      continue;  // equal rewards: exact zeros
    }
    double sum = 0.0;
    for (auto it = first; it != last; ++it) sum += *it;
    const double mean = sum / static_cast<double>(g);
    double squares = 0.0;
    for (auto it = first; it != last; ++it) squares += (*it - mean) * (*it - mean);
    const double std_dev = std::sqrt(squares / static_cast<double>(g - 1));
    for (std::size_t i = begin; i < begin + g; ++i) {
      switch (estimator) {
        case AdvantageEstimator::Grpo:
          out[i] = (rewards[i] - mean) / (std_dev + kStdEpsilon);
          break;
        case AdvantageEstimator::DrGrpo:
          out[i] = rewards[i] - mean;
          break;
        default:
          out[i] = rewards[i] - (sum - rewards[i]) / static_cast<double>(g - 1);
          break;
      }
    }
  }
  return out;
}

}  // namespace

GroupAdvantages group_advantages(const std::vector<double>& rewards, std::size_t group_size,
                                 ScaleRewards scale, AdvantageEstimator estimator) {
  const std::size_t n = rewards.size();
  GroupAdvantages out;
  out.values.assign(n, 0.0);
  out.scale_std.assign(n, 0.0);
  const double batch_std = scale == ScaleRewards::Batch ? sample_std(rewards, 0, n) : 0.0;
  for (std::size_t begin = 0; begin < n; begin += group_size) {
    const std::size_t end = begin + group_size;
    const double group_std = sample_std(rewards, begin, end);
    if (group_std > 0.0) {  // equal rewards: exactly zero advantages (TRL: ~1e-13 of rounding)
      double mean = 0.0;
      for (std::size_t i = begin; i < end; ++i) mean += rewards[i];
      mean /= static_cast<double>(group_size);
      for (std::size_t i = begin; i < end; ++i) out.values[i] = rewards[i] - mean;
    }
    if (estimator != AdvantageEstimator::Grpo) {  // the ancestors: their own baseline, no scale
      for (std::size_t i = begin; i < end; ++i) out.scale_std[i] = group_std;
      continue;
    }
    const double std_used = scale == ScaleRewards::Batch ? batch_std : group_std;
    for (std::size_t i = begin; i < end; ++i) {
      out.scale_std[i] = std_used;
      if (scale != ScaleRewards::None) out.values[i] /= std_used + kStdEpsilon;
    }
  }
  if (estimator != AdvantageEstimator::Grpo)
    out.values = estimator_values(rewards, group_size, estimator);
  return out;
}

std::vector<double> group_relative_advantages(const std::vector<double>& rewards, bool scale) {
  check_rewards(rewards, "rewards");
  return group_advantages(rewards, rewards.size(), scale ? ScaleRewards::Group : ScaleRewards::None)
      .values;
}

const std::vector<std::string>& advantage_estimator_names() {
  static const std::vector<std::string> names = {"grpo", "dr_grpo", "rloo", "reinforce_baseline",
                                                 "reinforce"};
  return names;
}

const char* advantage_estimator_name(AdvantageEstimator value) {
  return advantage_estimator_names().at(static_cast<std::size_t>(value)).c_str();
}

std::vector<double> estimate_advantages(const std::vector<double>& rewards, int group_size,
                                        AdvantageEstimator estimator) {
  check_rewards(rewards, "rewards");
  require(group_size >= 2,
          [&] { return "groupSize: must be an integer >= 2, got " + std::to_string(group_size); });
  const std::size_t n = rewards.size(), g = static_cast<std::size_t>(group_size);
  require(n % g == 0, [&] {
    return "rewards: length must be a positive multiple of groupSize (" +
           std::to_string(group_size) + "), got " + std::to_string(n);
  });
  return estimator_values(rewards, g, estimator);
}

std::vector<double> clipped_surrogate_terms(const std::vector<double>& ratios,
                                            const std::vector<double>& advantages, double eps_low,
                                            double eps_high) {
  check_clip_arguments(ratios, advantages, eps_low, eps_high);
  std::vector<double> terms(ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i)
    terms[i] =
        -clipped_surrogate_loss(ratios[i], advantages[i], 1.0 - eps_low, 1.0 + eps_high).loss;
  return terms;
}

std::vector<bool> clip_activity(const std::vector<double>& ratios,
                                const std::vector<double>& advantages, double eps_low,
                                double eps_high) {
  check_clip_arguments(ratios, advantages, eps_low, eps_high);
  std::vector<bool> active(ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    const SurrogateLoss s =
        clipped_surrogate_loss(ratios[i], advantages[i], 1.0 - eps_low, 1.0 + eps_high);
    active[i] = s.low || s.high;
  }
  return active;
}

}  // namespace grpo
