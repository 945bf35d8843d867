// The core's single entry point for outside callers (Embind binding, bench, fuzzers):
// a method name and JSON arguments in, a JSON envelope out. Knows nothing of JavaScript.
#pragma once

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace grpo::api {

using Json = nlohmann::json;
using Method = std::function<Json(const Json& args)>;
using Registry = std::map<std::string, Method>;

// A caller passed a value of the wrong kind (a string for a number, an object for an
// array). Reaches JS as TypeError; InvalidArgument (core/errors.h) reaches it as RangeError.
class ArgumentTypeError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// Limits on the JSON text `call` accepts, checked by a linear scan before parsing (docs/limits.md).
// The parser itself is iterative, but copying, comparing or printing a JSON value recurses once
// per nesting level, so a deeply nested argument could overflow the (5 MB, WASM) stack later.
inline constexpr std::size_t kMaxArgumentBytes = std::size_t{64} << 20;  // 64 MiB of JSON text
inline constexpr std::size_t kMaxJsonDepth = 64;                     // nested arrays and objects
inline constexpr std::size_t kMaxJsonValues = std::size_t{4} << 20;  // items and members, 4 Mi
inline constexpr std::size_t kMaxStringBytes = 256;  // default limit of the string readers

// Throws InvalidArgument ("arguments: ...", naming the limit) when `json_text` is longer than
// kMaxArgumentBytes, nests deeper than kMaxJsonDepth or holds more than kMaxJsonValues values.
// Does not check the syntax (the parser does); linear time, constant memory.
void check_json_text(std::string_view json_text);

// Calls `method` with `args_json` (a JSON object). Returns
//   {"ok": <result>}                                              on success,
//   {"error": {"type": "RangeError"|"TypeError"|"Error", "message": "..."}}  otherwise.
// Never throws: every C++ exception is caught here and freed before returning.
std::string call(const std::string& method, const std::string& args_json);

// Same, for native callers that already hold JSON values (tests, bench).
Json call_json(const std::string& method, const Json& args);

// Every method name, sorted (the JS wrapper's tests check that it covers them all).
std::vector<std::string> method_names();

// --- Argument readers: name the parameter in every error. -------------------------------
// Non-finite numbers travel as {"$number": "NaN" | "Infinity" | "-Infinity"} because JSON
// has no literal for them; the readers decode them so range checks can report "got NaN".
bool has(const Json& args, const char* name);
double number(const Json& args,
              const char* name);  // any number; NaN/inf for the core's range check
double number_or(const Json& args, const char* name, double fallback);  // absent/null -> fallback
long long integer(const Json& args, const char* name);                  // finite integral number
long long integer_or(const Json& args, const char* name, long long fallback);
bool boolean_or(const Json& args, const char* name, bool fallback);
// A string of at most max_bytes bytes (UTF-8); longer ones are a RangeError naming the limit.
std::string string(const Json& args, const char* name, std::size_t max_bytes = kMaxStringBytes);
std::string string_or(const Json& args, const char* name, const std::string& fallback,
                      std::size_t max_bytes = kMaxStringBytes);
std::vector<double> numbers(const Json& args, const char* name);  // array of finite numbers
std::vector<long long> integers(const Json& args, const char* name);
std::vector<std::vector<double>> number_rows(const Json& args, const char* name);  // ragged
const Json& object(const Json& args, const char* name);

// "null", "boolean", "string", "array", "object" or "number": for error messages.
const char* kind_of(const Json& value);

// Reads a JSON value as a number; `what` names it in errors ("rewards[2]").
double as_number(const Json& value, const std::string& what);

// `text` for an error message: as-is up to max_bytes, else its start, "..." and its length.
std::string short_text(std::string_view text, std::size_t max_bytes = 40);

// Encodes a double for output: finite numbers as-is, others as {"$number": "..."}.
Json encode_number(double value);
Json encode_numbers(const std::vector<double>& values);

// Each area registers its methods here (explicit calls: static registration in a static
// library would be dropped by the linker).
void register_reference_methods(Registry& registry);  // sections 1-5, api_reference.cpp
void register_objective_methods(Registry& registry);  // grpoObjective, api_objective.cpp
void register_training_methods(Registry& registry);   // sections 6-8, api_training.cpp
void register_run_methods(Registry& registry);        // importRun, api_run.cpp
void register_coverage_methods(Registry& registry);   // coverage over prompts, api_coverage.cpp

}  // namespace grpo::api
