// Argument errors of the core: an exception that carries a stable code, the field it concerns
// and named parameters beside its English message, and the helpers that state a rule once.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace grpo {

// One named value of an error message: a number (a bound, what was given) or a text.
struct MessageParam {
  std::string name;
  std::variant<double, std::string> value;
};
using MessageParams = std::vector<MessageParam>;

// A caller mistake, in two forms: `code` (a stable snake_case name from message_codes()),
// `field` (the JS-side name: "epsHigh", "rewards[1]") and `params` for a page that renders it in
// its reader's language; what() is the English sentence Node callers read,
// "p: must be in [0, 1], got 2".
class ArgumentError : public std::invalid_argument {
 public:
  ArgumentError(std::string code, std::string field, MessageParams params,
                const std::string& message);
  // From a message alone (code not yet converted): the field is the message's "name:" prefix, the
  // code is "invalid" and the one parameter, "message", the English message.
  explicit ArgumentError(const std::string& message);

  const std::string& code() const { return code_; }
  const std::string& field() const { return field_; }
  const MessageParams& params() const { return params_; }

 private:
  std::string code_;
  std::string field_;
  MessageParams params_;
};

// A bad value, range or shape. Reaches JS as RangeError.
class InvalidArgument : public ArgumentError {
 public:
  using ArgumentError::ArgumentError;
};

// Every code an ArgumentError may carry, with the names of its parameters (the page keeps one
// text per code in each language; a test checks the two lists agree).
struct MessageCode {
  const char* code;
  std::vector<const char*> params;
};
const std::vector<MessageCode>& message_codes();

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

// --- Rules stated once: the check inline, the message and code built only on failure. -----

// A parameter's name, optionally indexed ("rewards", "rewards[3]"); the text is built on failure.
// Holds views: pass names that outlive the call (literals, the caller's strings).
class FieldName {
 public:
  FieldName(const char* name) : name_(name) {}         // NOLINT: implicit by design
  FieldName(const std::string& name) : name_(name) {}  // NOLINT
  FieldName(std::string_view name, std::size_t index) : name_(name), index_(index) {}
  std::string text() const;

 private:
  std::string_view name_;
  std::size_t index_ = static_cast<std::size_t>(-1);
};

// Which ends of [low, high] belong to the range.
enum class Ends { closed, open_high, open_low, open };

namespace detail {
[[noreturn]] void throw_range(const FieldName& field, double value, double low, double high,
                              Ends ends, const char* noun);
[[noreturn]] void throw_integer_range(const FieldName& field, double value, double low,
                                      double high);
[[noreturn]] void throw_at_least(const FieldName& field, double value, double low, bool strict);
[[noreturn]] void throw_not_finite(const FieldName& field, double value);
[[noreturn]] void throw_not_positive(const FieldName& field, double value);
[[noreturn]] void throw_size(const FieldName& field, std::size_t size, std::size_t expected);
[[noreturn]] void throw_empty(const FieldName& field);
[[noreturn]] void throw_too_many(const FieldName& field, std::size_t size, std::size_t max);
[[noreturn]] void throw_same_length(const FieldName& field, std::size_t size, const char* other,
                                    std::size_t expected);
[[noreturn]] void throw_one_of(const FieldName& field, std::string_view value,
                               const std::vector<std::string>& options);
}  // namespace detail

// `field: must be in [low, high], got x` (code "range"); NaN and infinities fail. With a noun:
// `field: must be <noun> in [low, high], got x` ("a number", "a probability").
inline void require_in_range(const FieldName& field, double value, double low, double high,
                             Ends ends = Ends::closed, const char* noun = nullptr) {
  const bool above = ends == Ends::open_low || ends == Ends::open ? value > low : value >= low;
  const bool below = ends == Ends::open_high || ends == Ends::open ? value < high : value <= high;
  if (!(std::isfinite(value) && above && below))
    detail::throw_range(field, value, low, high, ends, noun);
}

// `field: must be a probability in [0, 1], got x` (code "range").
inline void require_probability(const FieldName& field, double value) {
  if (!(std::isfinite(value) && value >= 0.0 && value <= 1.0))
    detail::throw_range(field, value, 0.0, 1.0, Ends::closed, "a probability");
}

// `field: must be an integer in [low, high], got x` (code "integer_range"); whole numbers only.
inline void require_integer_in_range(const FieldName& field, double value, double low,
                                     double high) {
  if (!(value >= low && value <= high && std::floor(value) == value))
    detail::throw_integer_range(field, value, low, high);
}

// `field: must be a finite number >= low, got x` (code "at_least"), or `> low` (code
// "greater_than") when strict.
inline void require_at_least(const FieldName& field, double value, double low,
                             bool strict = false) {
  if (!(std::isfinite(value) && (strict ? value > low : value >= low)))
    detail::throw_at_least(field, value, low, strict);
}

// `field: must be a positive finite number, got x` (code "greater_than", min 0).
inline void require_positive(const FieldName& field, double value) {
  if (!(std::isfinite(value) && value > 0.0)) detail::throw_not_positive(field, value);
}

// `field: must have n entries, got m` (code "size").
inline void require_size(const FieldName& field, std::size_t size, std::size_t expected) {
  if (size != expected) detail::throw_size(field, size, expected);
}

// `field: must be a finite number, got x` (code "not_finite").
inline void require_finite(const FieldName& field, double value) {
  if (!std::isfinite(value)) detail::throw_not_finite(field, value);
}

// `field: must be a non-empty array` (code "empty").
inline void require_not_empty(const FieldName& field, std::size_t size) {
  if (size == 0) detail::throw_empty(field);
}

// `field: must hold at most max values, got n` (code "too_many").
inline void require_at_most_values(const FieldName& field, std::size_t size, std::size_t max) {
  if (size > max) detail::throw_too_many(field, size, max);
}

// `field: must have the same length as other (expected), got n` (code "same_length").
inline void require_same_length(const FieldName& field, std::size_t size, const char* other,
                                std::size_t expected) {
  if (size != expected) detail::throw_same_length(field, size, other, expected);
}

// `field: must be one of 'a', 'b', got 'c'` (code "one_of", with the nearest option). Returns
// the index of `value` in `options`.
std::size_t require_one_of(const FieldName& field, std::string_view value,
                           const std::vector<std::string>& options);

// Throws InvalidArgument(code, field, params, message()) unless condition holds: for rules that
// are one of a kind (a length that must match another), still with a code and parameters.
template <typename MakeMessage>
inline void require_coded(bool condition, const char* code, const FieldName& field,
                          MakeMessage&& make_params_and_message) {
  if (condition) return;
  std::pair<MessageParams, std::string> built = make_params_and_message();
  throw InvalidArgument(code, field.text(), std::move(built.first), built.second);
}

// `field` must be at most the field `other`, whose value is `max` (code "at_most_field").
inline void require_at_most_field(const char* field, double value, const char* other, double max) {
  require_coded(value <= max, "at_most_field", field, [&] {
    return std::pair<MessageParams, std::string>{
        {{"other", std::string(other)}, {"max", max}, {"got", value}},
        std::string(field) + ": must be at most " + other + " (" + format_number(max) + "), got " +
            format_number(value)};
  });
}

// `field` must be less than the field `other`, whose value is `max` (code "less_than_field").
inline void require_less_than_field(const char* field, double value, const char* other,
                                    double max) {
  require_coded(value < max, "less_than_field", field, [&] {
    return std::pair<MessageParams, std::string>{
        {{"other", std::string(other)}, {"max", max}, {"got", value}},
        std::string(field) + ": must be less than " + other + " (" + format_number(max) +
            "), got " + format_number(value)};
  });
}

// The option among `options` closest to `value` by edit distance (for "did you mean"), or "".
std::string nearest_option(std::string_view value, const std::vector<std::string>& options);

}  // namespace grpo
