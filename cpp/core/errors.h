// Argument errors of the core: one exception type whose message names the parameter and its range.
#pragma once

#include <stdexcept>
#include <string>
#include <type_traits>

namespace grpo {

// Thrown for any caller mistake (bad value, range, shape). The JS wrapper turns it into a
// RangeError; the message must name the parameter and the allowed range, e.g.
// "p: must be in [0, 1], got 2".
class InvalidArgument : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Throws InvalidArgument(make_message()) unless condition holds. The message is built only on
// failure: formatting numbers on every successful call would dominate cheap calls.
template <typename MakeMessage, typename = std::enable_if_t<std::is_invocable_v<MakeMessage>>>
inline void require(bool condition, MakeMessage&& make_message) {
  if (!condition) throw InvalidArgument(make_message());
}

// For messages that cost nothing to build (literals, cold paths).
inline void require(bool condition, const std::string& message) {
  if (!condition) throw InvalidArgument(message);
}

// Shortest round-trip text of a number, for error messages ("got 2.5").
std::string format_number(double value);

}  // namespace grpo
