// One token's policy term under each TRL 1.9 loss type as a function of its ratio r and advantage
// A: the ratio-based terms grpo_objective uses on every token, and section 3's curves of them.
//
// "The per-token objective" of section 3 (docs/trl.md): the surrogate J(r, A) whose derivative
// in log r is the weight w(r, A) = -d loss / d logp the loss puts on the token's gradient of
// log pi. For the clip family, delta and SAPO, J is minus TRL's per-token loss itself. CISPO's
// and VESPO's losses, -c A logp with c detached, are not functions of r (their value depends on
// logp); their surrogate is J(r) = A * integral from 0 to r of c(s) / s ds, the one anchored at
// J(0) = 0 like r A: CISPO (c = min(r, eps_high)) J = A r for r <= eps_high, else
// A eps_high (1 + ln(r / eps_high)); VESPO (c = phi(r), one token: log w = log r) J = A e^lambda
// lambda^-k gamma(k, lambda r), the lower incomplete gamma function (needs k > 0).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "rl/grpo_objective.h"

namespace grpo {

// The ratio-based per-token loss of the clip family (with or without delta) and SAPO, as a
// loss: its value, d loss / d log r, and the PPO clip activity TRL's clip_ratio metrics count
// (with delta TRL reads the capped ratio for the high side). config must be valid.
struct RatioTerm {
  double loss, dloss_dlogr;
  bool low, high;
};
RatioTerm ratio_term(const ObjectiveConfig& config, double ratio, double advantage);

// CISPO's detached coefficient: the ratio capped at epsilon_high itself (TRL's trap: the cap is
// eps_high, not 1 + eps_high). verl's CISPO (rl/verl_policy_loss.cpp) clamps from below too:
// clamp(r, 1 - clip_ratio_low, 1 + clip_ratio_high) is this with high = 1 + clip_ratio_high and
// low = 1 - clip_ratio_low; TRL has no lower bound (low = -inf, the same value bit for bit).
inline double cispo_coefficient(double ratio, double high,
                                double low = -std::numeric_limits<double>::infinity()) {
  const double floored = ratio > low ? ratio : low;
  return floored < high ? floored : high;
}

enum class TermView { Objective, Weight };          // J(r, A), or w = dJ / d log r
const std::vector<std::string>& term_view_names();  // objective, weight

// Section 3's curves: J or w of config's loss type for one token of one completion at each
// (ratios[i], advantages[i]). Throws InvalidArgument naming the field: ratios positive and
// finite, advantages finite and as many, at most 100000 points, vespoK* > 0 for the VESPO
// objective. config must be valid (ObjectiveConfig::validate).
std::vector<double> token_term_curve(const ObjectiveConfig& config, TermView view,
                                     const std::vector<double>& ratios,
                                     const std::vector<double>& advantages);

}  // namespace grpo
