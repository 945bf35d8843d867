// Section 2: informative-group probability and the expected number of draws.
#include "core/informative_groups.h"

#include <cmath>
#include <limits>
#include <string>

#include "core/errors.h"

namespace grpo {
namespace {

void check_probability_and_group(double p, long long group_size) {
  require_probability("p", p);
  require_integer_in_range("groupSize", static_cast<double>(group_size), 1, 1000000);
}

}  // namespace

double informative_group_probability(double p, long long group_size) {
  check_probability_and_group(p, group_size);
  const double g = static_cast<double>(group_size);
  // -expm1(G*log1p(-p)) keeps precision for small p where 1 - (1-p)^G cancels.
  const double some_failure = p < 1.0 ? -std::expm1(g * std::log1p(-p)) : 1.0;
  const double value = some_failure - std::pow(p, g);
  return value < 0.0 ? 0.0 : value;
}

double expected_draws_for_informative_groups(double n, double p, long long group_size) {
  require_at_least("n", n, 0.0);
  const double info = informative_group_probability(p, group_size);
  if (info <= 0.0) return std::numeric_limits<double>::infinity();
  return n / info;
}

}  // namespace grpo
