// The core's argument errors: the message codes, number formatting and the rule helpers.
#include "core/errors.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>

namespace grpo {
namespace {

// "name" of a message "name: ..." (the legacy constructor's field), or "".
std::string field_of_message(const std::string& message) {
  const std::size_t colon = message.find(": ");
  if (colon == std::string::npos || colon == 0) return "";
  for (std::size_t i = 0; i < colon; ++i)
    if (message[i] == ' ') return "";  // a sentence, not a parameter name
  return message.substr(0, colon);
}

std::string interval_text(double low, double high, Ends ends) {
  const bool open_low = ends == Ends::open_low || ends == Ends::open;
  const bool open_high = ends == Ends::open_high || ends == Ends::open;
  return std::string(open_low ? "(" : "[") + format_number(low) + ", " + format_number(high) +
         (open_high ? ")" : "]");
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const char x = static_cast<char>(std::tolower(static_cast<unsigned char>(a[i - 1])));
      const char y = static_cast<char>(std::tolower(static_cast<unsigned char>(b[j - 1])));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (x == y ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

}  // namespace

ArgumentError::ArgumentError(std::string code, std::string field, MessageParams params,
                             const std::string& message)
    : std::invalid_argument(message),
      code_(std::move(code)),
      field_(std::move(field)),
      params_(std::move(params)) {}

ArgumentError::ArgumentError(const std::string& message)
    : std::invalid_argument(message),
      code_("invalid"),
      field_(field_of_message(message)),
      params_{{"message", message}} {}

const std::vector<MessageCode>& message_codes() {
  // One line per code; the page's dictionaries (web/js/i18n/*-core.js) hold one text for each.
  // Every message may also use {field}.
  static const std::vector<MessageCode> codes = {
      {"invalid", {"message"}},  // not converted to a code yet: the English message only
      {"required", {}},
      {"not_a_number", {"got"}},
      {"not_an_integer", {"got"}},
      {"not_finite", {"got"}},
      {"not_a_boolean", {"got"}},
      {"not_a_string", {"got"}},
      {"not_an_array", {"got"}},
      {"not_an_object", {"got"}},
      {"range", {"min", "max", "interval", "got"}},
      {"integer_range", {"min", "max", "got"}},
      {"at_least", {"min", "got"}},
      {"greater_than", {"min", "got"}},
      {"one_of", {"options", "got", "nearest"}},
      {"unknown_option", {"option", "nearest"}},
      {"no_options", {"option"}},
      {"unknown_method", {"got"}},
      {"empty", {}},
      {"too_long", {"max", "got"}},
      {"too_many", {"max", "got"}},
      {"same_length", {"other", "expected", "got"}},
      {"size", {"expected", "got"}},
      {"sum", {"expected", "tolerance", "got"}},
      {"total_too_large", {"max", "got"}},
      {"not_json", {"detail"}},
      {"arguments_too_large", {"max", "got"}},
      {"arguments_too_deep", {"max", "at"}},
      {"arguments_too_many", {"max", "at"}},
      {"out_of_memory", {}},
      {"internal", {"detail"}},
      {"interrupted", {}},  // core/interrupt.h: the caller stopped a long call
      {"run_format", {"expected", "got"}},
      {"run_version", {"expected", "got"}},
      {"must_equal", {"expected", "got"}},
      {"duplicate", {"got"}},
      {"label", {"got"}},
      {"at_most_field", {"other", "max", "got"}},             // at most another field's value
      {"needs_positive", {"other", "got"}},                   // only when another field is > 0
      {"exclusive", {"other"}},                               // not together with another field
      {"needs_field", {"other"}},                             // only with another field
      {"must_divide", {"other", "total", "got"}},             // a divisor of another count
      {"less_than_field", {"other", "max", "got"}},           // below another field's value
      {"truncate_needs_bound", {"other", "mode"}},            // a *_truncate mode with no bound
      {"one_of_with", {"options", "other", "value", "got"}},  // an option another field allows
      {"too_frequent",
       {"other", "max", "got"}},  // too many evaluations in a run of `other` updates
  };
  return codes;
}

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

std::string FieldName::text() const {
  std::string out(name_);
  if (index_ != static_cast<std::size_t>(-1)) out += "[" + std::to_string(index_) + "]";
  return out;
}

std::string nearest_option(std::string_view value, const std::vector<std::string>& options) {
  std::string best;
  std::size_t best_distance = static_cast<std::size_t>(-1);
  for (const std::string& option : options) {
    const std::size_t d = edit_distance(value, option);
    if (d < best_distance) best_distance = d, best = option;
  }
  return best;
}

namespace detail {

void throw_range(const FieldName& field, double value, double low, double high, Ends ends,
                 const char* noun) {
  const std::string name = field.text();
  const std::string interval = interval_text(low, high, ends);
  throw InvalidArgument(
      "range", name, {{"min", low}, {"max", high}, {"interval", interval}, {"got", value}},
      name + ": must be " + (noun ? std::string(noun) + " in " : std::string("in ")) + interval +
          ", got " + format_number(value));
}

void throw_integer_range(const FieldName& field, double value, double low, double high) {
  const std::string name = field.text();
  throw InvalidArgument("integer_range", name, {{"min", low}, {"max", high}, {"got", value}},
                        name + ": must be an integer in [" + format_number(low) + ", " +
                            format_number(high) + "], got " + format_number(value));
}

void throw_at_least(const FieldName& field, double value, double low, bool strict) {
  const std::string name = field.text();
  throw InvalidArgument(strict ? "greater_than" : "at_least", name, {{"min", low}, {"got", value}},
                        name + ": must be a finite number " + (strict ? "> " : ">= ") +
                            format_number(low) + ", got " + format_number(value));
}

void throw_not_finite(const FieldName& field, double value) {
  const std::string name = field.text();
  throw InvalidArgument("not_finite", name, {{"got", value}},
                        name + ": must be a finite number, got " + format_number(value));
}

void throw_not_positive(const FieldName& field, double value) {
  const std::string name = field.text();
  throw InvalidArgument("greater_than", name, {{"min", 0.0}, {"got", value}},
                        name + ": must be a positive finite number, got " + format_number(value));
}

void throw_size(const FieldName& field, std::size_t size, std::size_t expected) {
  const std::string name = field.text();
  throw InvalidArgument(
      "size", name,
      {{"expected", static_cast<double>(expected)}, {"got", static_cast<double>(size)}},
      name + ": must have " + std::to_string(expected) + " entries, got " + std::to_string(size));
}

void throw_empty(const FieldName& field) {
  const std::string name = field.text();
  throw InvalidArgument("empty", name, {}, name + ": must be a non-empty array");
}

void throw_too_many(const FieldName& field, std::size_t size, std::size_t max) {
  const std::string name = field.text();
  throw InvalidArgument(
      "too_many", name, {{"max", static_cast<double>(max)}, {"got", static_cast<double>(size)}},
      name + ": must hold at most " + std::to_string(max) + " values, got " + std::to_string(size));
}

void throw_same_length(const FieldName& field, std::size_t size, const char* other,
                       std::size_t expected) {
  const std::string name = field.text();
  throw InvalidArgument("same_length", name,
                        {{"other", std::string(other)},
                         {"expected", static_cast<double>(expected)},
                         {"got", static_cast<double>(size)}},
                        name + ": must have the same length as " + other + " (" +
                            std::to_string(expected) + "), got " + std::to_string(size));
}

void throw_one_of(const FieldName& field, std::string_view value,
                  const std::vector<std::string>& options) {
  const std::string name = field.text();
  std::string listed;
  for (const std::string& option : options) listed += (listed.empty() ? "'" : ", '") + option + "'";
  // What was given, cut to 40 bytes (never inside a UTF-8 sequence): it may be any size.
  std::size_t cut = std::min<std::size_t>(value.size(), 40);
  while (cut < value.size() && cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80)
    --cut;
  const std::string got = std::string(value.substr(0, cut)) + (cut < value.size() ? "..." : "");
  throw InvalidArgument(
      "one_of", name,
      {{"options", listed}, {"got", got}, {"nearest", nearest_option(value, options)}},
      name + ": must be one of " + listed + ", got '" + got + "'");
}

}  // namespace detail

std::size_t require_one_of(const FieldName& field, std::string_view value,
                           const std::vector<std::string>& options) {
  for (std::size_t i = 0; i < options.size(); ++i)
    if (options[i] == value) return i;
  detail::throw_one_of(field, value, options);
}

}  // namespace grpo
