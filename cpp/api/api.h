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

#include "core/errors.h"

namespace grpo {
struct ObjectiveConfig;  // rl/grpo_objective.h
}

namespace grpo::api {

using Json = nlohmann::json;
using Method = std::function<Json(const Json& args)>;
using Registry = std::map<std::string, Method>;

// A caller passed a value of the wrong kind (a string for a number, an object for an
// array), or an option no method knows. Reaches JS as TypeError; InvalidArgument
// (core/errors.h) reaches it as RangeError. Both carry a code, a field and parameters.
class ArgumentTypeError : public ArgumentError {
 public:
  using ArgumentError::ArgumentError;
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
//   {"ok": <result>}  on success,
//   {"error": {"type": "RangeError"|"TypeError"|"Error", "code": "range", "field": "epsHigh",
//              "params": {"min": 0, ...}, "message": "epsHigh: must be in [0, 10], got 50"}}
// otherwise (code from grpo::message_codes(); field "" when no one parameter is at fault).
// Never throws: every C++ exception is caught here and freed before returning.
// A method of the reference, objective and run areas that is given an option key it did not read
// fails with code "unknown_option", naming the key and the nearest one it reads.
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

// What a caller gave, as a learner would recognise it: a string's own (short) text, a number,
// true/false, null; "[...]" / "{...}" for containers (the "got" parameter of an error).
std::string typed_text(const Json& value);

// Throws ArgumentTypeError (code "not_a_number", "not_a_string", ... per `code`) for `value` of
// the wrong kind: "what: must be <expected>, got "abc"" (a string quoted; "got an array").
[[noreturn]] void throw_wrong_kind(const std::string& what, const Json& value, const char* code,
                                   const char* expected);

// Throws ArgumentTypeError "name: unknown option (did you mean 'x'?)" (code "unknown_option")
// for the first key of `args` not in `known`. For readers that know their keys up front (the
// config field table): call it before acting on the arguments.
void reject_unknown_options(const Json& args, const std::vector<std::string>& known);

// --- Readers of one value, for nested data: `what` names it in errors ("run.history[3].kl").
// The argument readers above are these applied to a member of the arguments.
double as_number(const Json& value, const std::string& what);  // NaN/inf decoded, not refused
const Json& as_object(const Json& value, const std::string& what);
// An array of at most max_size items (code "too_many" beyond).
const Json& as_array(const Json& value, const std::string& what, std::size_t max_size);
const std::string& as_string(const Json& value, const std::string& what,
                             std::size_t max_bytes = kMaxStringBytes);
// The member `key` of `object` (already known to be an object), required: "path.key: is
// required" when absent or null; with allow_null, a null value is returned (not refused).
const Json& member(const Json& object, const std::string& path, const char* key,
                   bool allow_null = false);

// `text` for an error message: as-is up to max_bytes, else its start, "..." and its length.
std::string short_text(std::string_view text, std::size_t max_bytes = 40);

// Encodes a double for output: finite numbers as-is, others as {"$number": "..."}.
Json encode_number(double value);
Json encode_numbers(const std::vector<double>& values);
// An objective's settings as grpoObjective reads them back (None: null), api_objective.cpp.
Json objective_settings_json(const ObjectiveConfig& config);

// Each area registers its methods here (explicit calls: static registration in a static
// library would be dropped by the linker).
void register_reference_methods(Registry& registry);   // sections 1-5, api_reference.cpp
void register_objective_methods(Registry& registry);   // grpoObjective + curves, api_objective.cpp
void register_objective_curves(Registry& registry);    // tokenTermCurve, lossNormalizer, ... alone
void register_config_methods(Registry& registry);      // the config table, api_config.cpp
void register_config_check(Registry& registry);        // experimentConfig alone
void register_training_methods(Registry& registry);    // sections 6-8, api_training.cpp
void register_run_methods(Registry& registry);         // importRun, api_run.cpp
void register_coverage_methods(Registry& registry);    // coverage over prompts, api_coverage.cpp
void register_verl_methods(Registry& registry);        // verl v0.7.0's functions, api_verl.cpp
void register_inspection_methods(Registry& registry);  // the step inspector, api_inspect.cpp

// The areas a build answers, registered by one function: `checked` gets the methods whose unread
// option keys the dispatch rejects, `checking_own_keys` those that check their keys before they
// act (the config and training methods: a step must not run and then fail). The library's
// api_methods.cpp registers every area; the page's reference build (CMake target
// grpo_core_reference) links bindings/methods_reference.cpp instead, which registers sections
// 0-5 and the config table, so the linker never pulls the trainer in.
void register_methods(Registry& checked, Registry& checking_own_keys);

}  // namespace grpo::api
