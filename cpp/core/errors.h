// Argument errors of the core: one exception type whose message names the parameter and its range.
#pragma once

#include <stdexcept>
#include <string>

namespace grpo {

// Thrown for any caller mistake (bad value, range, shape). The JS wrapper turns it into a
// RangeError; the message must name the parameter and the allowed range, e.g.
// "p: must be in [0, 1], got 2".
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws InvalidArgument(message) unless condition holds.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw InvalidArgument(message);
}

// Shortest round-trip text of a number, for error messages ("got 2.5").
std::string format_number(double value);

}  // namespace grpo
