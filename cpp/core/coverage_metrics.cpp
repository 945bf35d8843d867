// Entropy and pass@k estimators.
#include "core/coverage_metrics.h"

#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo {

double categorical_entropy(const std::vector<double>& probabilities) {
  require_not_empty("probabilities", probabilities.size());
  double total = 0.0;
  double entropy = 0.0;
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    const double p = probabilities[i];
    require_in_range({"probabilities", i}, p, 0.0, 1.0);
    total += p;
    if (p > 0.0) entropy -= p * std::log(p);
  }
  require_coded(std::fabs(total - 1.0) <= 1e-6, "sum", "probabilities", [&] {
    return std::make_pair(
        MessageParams{{"expected", 1.0}, {"tolerance", 1e-6}, {"got", total}},
        "probabilities: must sum to 1 within 1e-6, got a sum of " + format_number(total));
  });
  return entropy;
}

double pass_at_k_independent(double p, long long k) {
  require_probability("p", p);
  require_integer_in_range("k", static_cast<double>(k), 1, 1000000000);
  return -std::expm1(static_cast<double>(k) * std::log1p(-p));
}

double pass_at_k_unbiased(long long n, long long c, long long k) {
  require_integer_in_range("n", static_cast<double>(n), 1, 100000000);
  require_integer_in_range("c", static_cast<double>(c), 0, static_cast<double>(n));
  require_integer_in_range("k", static_cast<double>(k), 1, static_cast<double>(n));
  if (n - c < k) return 1.0;
  // C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
  double all_fail = 1.0;
  for (long long i = n - c + 1; i <= n; ++i) all_fail *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - all_fail;
}

}  // namespace grpo
