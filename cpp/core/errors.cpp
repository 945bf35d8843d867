// Number formatting for error messages.
#include "core/errors.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace grpo {

std::string format_number(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "Infinity" : "-Infinity";
  char buffer[32];
  // Whole numbers print in full ("10", "1000000"), not as the shorter "1e+01" / "1e+06".
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
    return buffer;
  }
  std::snprintf(buffer, sizeof buffer, "%.17g", value);
  // Prefer the shortest representation that still round-trips.
  for (int precision = 1; precision <= 17; ++precision) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", precision, value);
    if (std::strtod(shorter, nullptr) == value) return shorter;
  }
  return buffer;
}

}  // namespace grpo
