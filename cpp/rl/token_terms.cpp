// One token's policy term under each TRL 1.9 loss type: see token_terms.h.
#include "rl/token_terms.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "rl/loss_terms.h"

namespace grpo {

RatioTerm ratio_term(const ObjectiveConfig& config, double ratio, double advantage) {
  const double a = advantage;
  if (config.loss_type == LossType::Sapo) {
    const SapoTerm term =
        sapo_term(ratio, a, config.sapo_temperature_pos, config.sapo_temperature_neg);
    return {term.loss, term.dloss_dlogr, false, false};
  }
  const double low = 1.0 - config.eps_low;
  const double high = 1.0 + config.eps_high_value();
  const SurrogateLoss s = clipped_surrogate_loss(ratio, a, low, high);
  if (!config.delta) return {s.loss, s.dloss_dlogr, s.low, s.high};
  // Two-sided clipping: torch.clamp(r, max=delta) is flat above delta.
  const double clipped = std::min(std::max(ratio, low), high);
  const double capped = std::min(ratio, *config.delta);
  const double unclipped_term = capped * a, clipped_term = clipped * a;
  const double d_unclipped = ratio < *config.delta ? -a * ratio : 0.0;
  const double d_clipped = (ratio > low && ratio < high) ? -a * ratio : 0.0;
  const double dloss_dlogr = unclipped_term < clipped_term   ? d_unclipped
                             : clipped_term < unclipped_term ? d_clipped
                                                             : 0.5 * (d_unclipped + d_clipped);
  // TRL's clip metric reads the capped ratio.
  return {-std::min(unclipped_term, clipped_term), dloss_dlogr, s.low, capped > high && a > 0.0};
}

const std::vector<std::string>& term_view_names() {
  static const std::vector<std::string> names = {"objective", "weight"};
  return names;
}

namespace {

// A * integral_0^r phi(s) / s ds for one token (log w = log r): phi(r) * sum_n x^n /
// (k (k+1) ... (k+n)), x = lambda r, the series of e^lambda lambda^-k gamma(k, x). Past the
// point where the series' terms stop mattering in double, gamma(k, x) = Gamma(k).
double vespo_objective(double ratio, double advantage, const ObjectiveConfig& c) {
  const bool nonneg = advantage >= 0.0;
  const double k = nonneg ? c.vespo_k_pos : c.vespo_k_neg;
  const double lambda = std::max(nonneg ? c.vespo_lambda_pos : c.vespo_lambda_neg, 1e-4);
  const double x = lambda * ratio;
  if (x > k + 60.0 + 12.0 * std::sqrt(k + 1.0))  // Q(k, x) < 1e-20: gamma(k, x) = Gamma(k)
    return advantage * std::exp(lambda - k * std::log(lambda) + std::lgamma(k));
  const double phi = vespo_phi({std::log(ratio)}, advantage, c.vespo_k_pos, c.vespo_lambda_pos,
                               c.vespo_k_neg, c.vespo_lambda_neg);
  double term = 1.0 / k, sum = term;
  for (int n = 1; n < 100000 && term > 1e-17 * sum; ++n) {
    term *= x / (k + n);
    sum += term;
  }
  return advantage * phi * sum;
}

// A * integral_0^r min(s, e) / s ds.
double cispo_objective(double ratio, double advantage, double eps_high) {
  if (eps_high <= 0.0) return 0.0;  // c = 0: no gradient, a flat surrogate
  if (ratio <= eps_high) return advantage * ratio;
  return advantage * eps_high * (1.0 + std::log(ratio / eps_high));
}

}  // namespace

std::vector<double> token_term_curve(const ObjectiveConfig& config, TermView view,
                                     const std::vector<double>& ratios,
                                     const std::vector<double>& advantages) {
  require_not_empty("ratios", ratios.size());
  require_at_most_values("ratios", ratios.size(), 100000);
  require_same_length("advantages", advantages.size(), "ratios", ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    require_positive(FieldName("ratios", i), ratios[i]);
    require_finite(FieldName("advantages", i), advantages[i]);
  }
  const LossType type = config.loss_type;
  if (type == LossType::Vespo && view == TermView::Objective) {
    require_at_least("vespoKPos", config.vespo_k_pos, 0.0, true);
    require_at_least("vespoKNeg", config.vespo_k_neg, 0.0, true);
  }
  std::vector<double> out(ratios.size());
  for (std::size_t i = 0; i < ratios.size(); ++i) {
    const double r = ratios[i], a = advantages[i];
    if (type == LossType::Cispo) {
      out[i] = view == TermView::Weight ? cispo_coefficient(r, config.eps_high_value()) * a
                                        : cispo_objective(r, a, config.eps_high_value());
    } else if (type == LossType::Vespo) {
      out[i] = view == TermView::Weight
                   ? vespo_phi({std::log(r)}, a, config.vespo_k_pos, config.vespo_lambda_pos,
                               config.vespo_k_neg, config.vespo_lambda_neg) *
                         a
                   : vespo_objective(r, a, config);
    } else {
      const RatioTerm term = ratio_term(config, r, a);
      out[i] = view == TermView::Weight ? -term.dloss_dlogr : -term.loss;
    }
  }
  return out;
}

}  // namespace grpo
