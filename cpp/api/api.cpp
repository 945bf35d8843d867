// Dispatch and argument decoding for the JSON API (api.h).
#include "api/api.h"

#include <malloc.h>

#include <cmath>

#include "core/errors.h"

namespace grpo::api {
namespace {

// Bytes currently allocated by malloc: lets tests prove that errors and runs do not leak.
double heap_in_use() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || __GLIBC_MINOR__ >= 33)
  return static_cast<double>(mallinfo2().uordblks);
#else
  return static_cast<double>(mallinfo().uordblks);
#endif
}

const Registry& registry() {
  static const Registry methods = [] {
    Registry r;
    register_reference_methods(r);
    register_objective_methods(r);
    register_training_methods(r);
    register_run_methods(r);
    register_coverage_methods(r);
    r["memoryStats"] = [](const Json&) { return Json{{"heapInUse", heap_in_use()}}; };
    return r;
  }();
  return methods;
}

Json error_envelope(const char* type, const std::string& message) {
  return Json{{"error", {{"type", type}, {"message", message}}}};
}

bool is_special_number(const Json& value) {
  return value.is_object() && value.size() == 1 && value.contains("$number") &&
         value["$number"].is_string();
}

const Json& required(const Json& args, const char* name) {
  if (!args.is_object() || !args.contains(name) || args[name].is_null())
    throw ArgumentTypeError(std::string(name) + ": is required");
  return args[name];
}

// The envelope as JSON text. Strings that are not valid UTF-8 (a method name from JS with a lone
// surrogate, say) get U+FFFD instead of making the serializer throw; running out of memory
// while printing a huge result becomes an error envelope too.
std::string dump(const Json& envelope) {
  try {
    return envelope.dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (const std::exception&) {
    return R"({"error":{"type":"RangeError","message":"out of memory: the result is too large"}})";
  }
}

}  // namespace

const char* kind_of(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "boolean";
    case Json::value_t::string:
      return "string";
    case Json::value_t::array:
      return "array";
    case Json::value_t::object:
      return "object";
    default:
      return "number";
  }
}

Json call_json(const std::string& method, const Json& args) {
  try {
    const auto& methods = registry();
    auto found = methods.find(method);
    if (found == methods.end())
      return error_envelope("TypeError", "unknown method: " + short_text(method));
    return Json{{"ok", found->second(args)}};
  } catch (const ArgumentTypeError& e) {
    return error_envelope("TypeError", e.what());
  } catch (const InvalidArgument& e) {
    return error_envelope("RangeError", e.what());
  } catch (const std::bad_alloc&) {
    return error_envelope("RangeError", "out of memory: the request is too large");
  } catch (const std::exception& e) {
    return error_envelope("Error", std::string("internal error: ") + e.what());
  }
}

void check_json_text(std::string_view text) {
  require(text.size() <= kMaxArgumentBytes, [&] {
    return "arguments: must be at most " + std::to_string(kMaxArgumentBytes) +
           " bytes of JSON (64 MiB), got " + std::to_string(text.size());
  });
  std::size_t depth = 0, values = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character, whatever it is, does not end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (++depth > kMaxJsonDepth)
          throw InvalidArgument("arguments: must nest arrays and objects at most " +
                                std::to_string(kMaxJsonDepth) +
                                " levels deep, got deeper at byte " + std::to_string(i));
        [[fallthrough]];
      case ',':
        if (++values > kMaxJsonValues)
          throw InvalidArgument("arguments: must hold at most " + std::to_string(kMaxJsonValues) +
                                " JSON values (array items and object members), got more at byte " +
                                std::to_string(i));
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
}

std::string call(const std::string& method, const std::string& args_json) {
  Json args;
  try {
    check_json_text(args_json);
  } catch (const InvalidArgument& e) {
    return dump(error_envelope("RangeError", e.what()));
  }
  try {
    args = Json::parse(args_json);
  } catch (const std::bad_alloc&) {
    return dump(error_envelope("RangeError", "arguments: out of memory while parsing the JSON"));
  } catch (const std::exception& e) {
    return dump(error_envelope("TypeError", std::string("arguments: not valid JSON: ") + e.what()));
  }
  return dump(call_json(method, args));
}

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.first);
  return names;
}

bool has(const Json& args, const char* name) {
  return args.is_object() && args.contains(name) && !args[name].is_null();
}

double as_number(const Json& value, const std::string& what) {
  if (value.is_number()) return value.get<double>();
  if (is_special_number(value)) {
    const std::string text = value["$number"].get<std::string>();
    if (text == "NaN") return std::nan("");
    if (text == "Infinity") return HUGE_VAL;
    if (text == "-Infinity") return -HUGE_VAL;
  }
  throw ArgumentTypeError(what + ": must be a number, got " + kind_of(value));
}

double number(const Json& args, const char* name) {
  // NaN and infinities pass through: the core's range check then names the allowed range.
  return as_number(required(args, name), name);
}

double number_or(const Json& args, const char* name, double fallback) {
  return has(args, name) ? number(args, name) : fallback;
}

long long integer(const Json& args, const char* name) {
  const double value = number(args, name);
  require(std::floor(value) == value && std::fabs(value) < 9.0e15,
          [&] { return std::string(name) + ": must be an integer, got " + format_number(value); });
  return static_cast<long long>(value);
}

long long integer_or(const Json& args, const char* name, long long fallback) {
  return has(args, name) ? integer(args, name) : fallback;
}

bool boolean_or(const Json& args, const char* name, bool fallback) {
  if (!has(args, name)) return fallback;
  const Json& value = args[name];
  if (!value.is_boolean())
    throw ArgumentTypeError(std::string(name) + ": must be true or false, got " + kind_of(value));
  return value.get<bool>();
}

std::string string(const Json& args, const char* name, std::size_t max_bytes) {
  const Json& value = required(args, name);
  if (!value.is_string())
    throw ArgumentTypeError(std::string(name) + ": must be a string, got " + kind_of(value));
  const std::string& text = value.get_ref<const std::string&>();
  require(text.size() <= max_bytes, [&] {
    return std::string(name) + ": must be a string of at most " + std::to_string(max_bytes) +
           " bytes, got " + std::to_string(text.size());
  });
  return text;
}

std::string string_or(const Json& args, const char* name, const std::string& fallback,
                      std::size_t max_bytes) {
  return has(args, name) ? string(args, name, max_bytes) : fallback;
}

std::string short_text(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return std::string(text);
  std::size_t cut = max_bytes;  // never split a UTF-8 sequence: back up to its first byte
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return std::string(text.substr(0, cut)) + "... (" + std::to_string(text.size()) + " bytes)";
}

std::vector<double> numbers(const Json& args, const char* name) {
  const Json& value = required(args, name);
  if (!value.is_array())
    throw ArgumentTypeError(std::string(name) + ": must be an array of numbers, got " +
                            kind_of(value));
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string what = std::string(name) + "[" + std::to_string(i) + "]";
    const double x = as_number(value[i], what);
    require(std::isfinite(x),
            [&] { return what + ": must be a finite number, got " + format_number(x); });
    out.push_back(x);
  }
  return out;
}

std::vector<long long> integers(const Json& args, const char* name) {
  std::vector<long long> out;
  const std::vector<double> values = numbers(args, name);
  for (std::size_t i = 0; i < values.size(); ++i) {
    require(std::floor(values[i]) == values[i] && std::fabs(values[i]) < 9.0e15, [&] {
      return std::string(name) + "[" + std::to_string(i) + "]: must be an integer, got " +
             format_number(values[i]);
    });
    out.push_back(static_cast<long long>(values[i]));
  }
  return out;
}

std::vector<std::vector<double>> number_rows(const Json& args, const char* name) {
  const Json& value = required(args, name);
  if (!value.is_array())
    throw ArgumentTypeError(std::string(name) + ": must be an array of arrays of numbers, got " +
                            kind_of(value));
  std::vector<std::vector<double>> rows;
  rows.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const std::string row_name = std::string(name) + "[" + std::to_string(i) + "]";
    Json wrapper{{row_name, value[i]}};
    rows.push_back(numbers(wrapper, row_name.c_str()));
  }
  return rows;
}

const Json& object(const Json& args, const char* name) {
  const Json& value = required(args, name);
  if (!value.is_object())
    throw ArgumentTypeError(std::string(name) + ": must be an object, got " + kind_of(value));
  return value;
}

Json encode_number(double value) {
  if (std::isfinite(value)) return value;
  return Json{{"$number", std::isnan(value) ? "NaN" : (value > 0 ? "Infinity" : "-Infinity")}};
}

Json encode_numbers(const std::vector<double>& values) {
  Json out = Json::array();
  for (double v : values) out.push_back(encode_number(v));
  return out;
}

}  // namespace grpo::api
