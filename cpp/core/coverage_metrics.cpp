// Entropy and pass@k estimators.
#include "core/coverage_metrics.h"

#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo {

double categorical_entropy(const std::vector<double>& probabilities) {
  require(!probabilities.empty(), [&] { return "probabilities: must be a non-empty array"; });
  double total = 0.0;
  double entropy = 0.0;
  for (std::size_t i = 0; i < probabilities.size(); ++i) {
    const double p = probabilities[i];
    require(std::isfinite(p) && p >= 0.0 && p <= 1.0, [&] {
      return "probabilities[" + std::to_string(i) + "]: must be in [0, 1], got " + format_number(p);
    });
    total += p;
    if (p > 0.0) entropy -= p * std::log(p);
  }
  require(std::fabs(total - 1.0) <= 1e-6, [&] {
    return "probabilities: must sum to 1 within 1e-6, got a sum of " + format_number(total);
  });
  return entropy;
}

double pass_at_k_independent(double p, long long k) {
  require(std::isfinite(p) && p >= 0.0 && p <= 1.0,
          [&] { return "p: must be a probability in [0, 1], got " + format_number(p); });
  require(k >= 1 && k <= 1000000000,
          [&] { return "k: must be an integer in [1, 1000000000], got " + std::to_string(k); });
  return -std::expm1(static_cast<double>(k) * std::log1p(-p));
}

double pass_at_k_unbiased(long long n, long long c, long long k) {
  require(n >= 1 && n <= 100000000,
          [&] { return "n: must be an integer in [1, 100000000], got " + std::to_string(n); });
  require(c >= 0 && c <= n, [&] {
    return "c: must be an integer in [0, n=" + std::to_string(n) + "], got " + std::to_string(c);
  });
  require(k >= 1 && k <= n, [&] {
    return "k: must be an integer in [1, n=" + std::to_string(n) + "], got " + std::to_string(k);
  });
  if (n - c < k) return 1.0;
  // C(n-c, k) / C(n, k) = prod_{i=n-c+1}^{n} (1 - k / i)
  double all_fail = 1.0;
  for (long long i = n - c + 1; i <= n; ++i) all_fail *= 1.0 - static_cast<double>(k) / i;
  return 1.0 - all_fail;
}

}  // namespace grpo
