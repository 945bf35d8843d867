// verl v0.7.0's kl_penalty (verl/trainer/ppo/core_algos.py:1588, kl_penalty_forward :1614): the
// per-token KL estimate of log_prob against ref_log_prob, and d/d log_prob of its sum.
#pragma once

#include <string>
#include <vector>

#include "rl/verl_tensor.h"

namespace grpo::verl {

enum class KlPenalty { Kl, K1, Abs, Mse, K2, LowVarKl, K3 };

// kl, k1, abs, mse, k2, low_var_kl, k3. verl v0.7.0 raises NotImplementedError for "full" and
// for every "+" (straight-through) variant: parse throws InvalidArgument naming `field` for
// those and any other text.
const std::vector<std::string>& kl_penalty_names();
KlPenalty parse_kl_penalty(const std::string& text, const char* field = "klPenalty");

struct KlTerm {
  double value, dvalue_dlogp;
};
// One token: kl/k1 lp - ref; abs |lp - ref| (d/dlp sign, 0 at 0 as torch's abs); mse/k2
// (lp - ref)^2 / 2; low_var_kl/k3 x = clamp(ref - lp, -20, 20), clamp(e^x - x - 1, -10, 10)
// (k3_of_log_ratio, shared with TRL's k3), zero gradient where either clamp is active.
KlTerm kl_penalty_term(double logp, double ref_logp, KlPenalty type);

struct KlResult {
  Matrix kl;         // [B][T]
  Matrix grad_logp;  // [B][T] d sum(kl) / d logp
};
KlResult kl_penalty(const Matrix& logp, const Matrix& ref_logp, KlPenalty type);

}  // namespace grpo::verl
