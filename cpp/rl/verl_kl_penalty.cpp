// verl v0.7.0's kl_penalty: see verl_kl_penalty.h.
#include "rl/verl_kl_penalty.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "rl/grpo_objective.h"  // k3_of_log_ratio

namespace grpo::verl {

const std::vector<std::string>& kl_penalty_names() {
  static const std::vector<std::string> names = {"kl", "k1",         "abs", "mse",
                                                 "k2", "low_var_kl", "k3"};
  return names;
}

KlPenalty parse_kl_penalty(const std::string& text, const char* field) {
  return static_cast<KlPenalty>(require_one_of(field, text, kl_penalty_names()));
}

KlTerm kl_penalty_term(double logp, double ref_logp, KlPenalty type) {
  const double d = logp - ref_logp;
  switch (type) {
    case KlPenalty::Kl:
    case KlPenalty::K1:
      return {d, 1.0};
    case KlPenalty::Abs:
      return {std::abs(d), d > 0.0 ? 1.0 : (d < 0.0 ? -1.0 : 0.0)};
    case KlPenalty::Mse:
    case KlPenalty::K2:
      return {0.5 * (d * d), d};
    default: {
      // torch.clamp passes the gradient where min <= x <= max (both ends included).
      const double raw = ref_logp - logp;
      const double x = std::min(std::max(raw, -20.0), 20.0);
      const double k = k3_of_log_ratio(x);
      const double value = std::min(std::max(k, -10.0), 10.0);
      const bool passes = raw >= -20.0 && raw <= 20.0 && k >= -10.0 && k <= 10.0;
      return {value, passes ? -std::expm1(x) : 0.0};  // d/dlp (e^x - x - 1) = 1 - e^x
    }
  }
}

KlResult kl_penalty(const Matrix& logp, const Matrix& ref_logp, KlPenalty type) {
  KlResult out{zeros_like(logp), zeros_like(logp)};
  for (std::size_t i = 0; i < logp.size(); ++i)
    for (std::size_t t = 0; t < logp[i].size(); ++t) {
      const KlTerm term = kl_penalty_term(logp[i][t], ref_logp[i][t], type);
      out.kl[i][t] = term.value;
      out.grad_logp[i][t] = term.dvalue_dlogp;
    }
  return out;
}

}  // namespace grpo::verl
