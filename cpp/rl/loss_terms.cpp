// TRL 1.9's per-token loss terms beyond the PPO clip: see loss_terms.h.
#include "rl/loss_terms.h"

#include <algorithm>
#include <cmath>

namespace grpo {

SapoTerm sapo_term(double ratio, double advantage, double tau_pos, double tau_neg) {
  const double tau = advantage > 0.0 ? tau_pos : tau_neg;  // torch.where(A > 0, pos, neg)
  const double sigmoid = 1.0 / (1.0 + std::exp(-tau * (ratio - 1.0)));
  return {-sigmoid * 4.0 / tau * advantage, -4.0 * advantage * sigmoid * (1.0 - sigmoid) * ratio};
}

double vespo_phi(const std::vector<double>& token_log_ratios, double advantage, double k_pos,
                 double lambda_pos, double k_neg, double lambda_neg, double log_sampler_ratio) {
  const double lower = std::log(1e-8);
  double sum = log_sampler_ratio;
  for (double lr : token_log_ratios) sum += std::clamp(lr, -20.0, 20.0);
  const double log_w = std::clamp(sum, lower, 20.0);
  const bool nonneg = advantage >= 0.0;
  const double k = nonneg ? k_pos : k_neg;
  const double lambda = std::max(nonneg ? lambda_pos : lambda_neg, 1e-4);
  const double phi = std::exp(lambda + k * log_w - lambda * std::exp(log_w));
  return std::isfinite(phi) ? phi : 0.0;  // nan_to_num(nan=0, posinf=0, neginf=0)
}

std::vector<double> sampler_ratios(const std::vector<double>& log_differences, bool sequence,
                                   bool mask, double clip_min, double clip_max) {
  std::vector<double> ratios(log_differences.size());
  double sum = 0.0;
  for (double d : log_differences) sum += d;
  for (std::size_t t = 0; t < ratios.size(); ++t) {
    const double r = std::exp(sequence ? sum : log_differences[t]);
    const bool inside = r >= clip_min && r <= clip_max;
    ratios[t] = mask ? (inside ? r : 0.0) : std::clamp(r, clip_min, clip_max);
  }
  return ratios;
}

double linear_quantile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = q * static_cast<double>(values.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(position));
  const std::size_t above = std::min(below + 1, values.size() - 1);
  const double fraction = position - static_cast<double>(below);
  return values[below] + fraction * (values[above] - values[below]);
}

bool off_policy_keep(double advantage, double mean_sampler_kl, double threshold) {
  return advantage >= 0.0 || mean_sampler_kl <= threshold;
}

}  // namespace grpo
