// Dispatch and argument decoding for the JSON API (api.h).
#include "api/api.h"

#include <malloc.h>

#include <algorithm>
#include <cmath>
#include <variant>

#include "core/errors.h"
#include "core/interrupt.h"

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

Json message_codes_json() {
  Json out = Json::array();
  for (const MessageCode& entry : message_codes()) {
    Json params = Json::array();
    for (const char* name : entry.params) params.push_back(name);
    out.push_back(Json{{"code", entry.code}, {"params", params}});
  }
  return out;
}

// The option keys a method read from its top-level arguments (through has() and required(),
// which every reader goes through), so that the dispatch can reject the keys it did not read.
struct ReadKeys {
  const Json* args = nullptr;
  std::vector<std::string> keys;
};
thread_local ReadKeys* read_keys = nullptr;

void note_read(const Json& args, const char* name) {
  if (read_keys && read_keys->args == &args) read_keys->keys.emplace_back(name);
}

// Wraps a pure method (no side effects before it returns) so that an option key it did not read
// is an error, not silently ignored: grpoObjective({epsilonHigh: 5}) names epsHigh.
Method rejecting_unread_keys(Method method) {
  return [method = std::move(method)](const Json& args) {
    ReadKeys scope{&args, {}};
    ReadKeys* outer = read_keys;
    read_keys = &scope;
    struct Restore {
      ReadKeys* outer;
      ~Restore() { read_keys = outer; }
    } restore{outer};
    Json result = method(args);
    if (args.is_object()) reject_unknown_options(args, scope.keys);
    return result;
  };
}

const Registry& registry() {
  static const Registry methods = [] {
    Registry r, checking_own_keys;
    register_methods(r, checking_own_keys);
    r["memoryStats"] = [](const Json&) { return Json{{"heapInUse", heap_in_use()}}; };
    r["messageCodes"] = [](const Json&) { return message_codes_json(); };
    for (auto& entry : r) entry.second = rejecting_unread_keys(std::move(entry.second));
    r.merge(checking_own_keys);
    return r;
  }();
  return methods;
}

Json params_json(const MessageParams& params) {
  Json out = Json::object();
  for (const MessageParam& p : params) {
    if (const double* number = std::get_if<double>(&p.value))
      out[p.name] = encode_number(*number);
    else
      out[p.name] = std::get<std::string>(p.value);
  }
  return out;
}

Json error_envelope(const char* type, const char* code, const std::string& field,
                    const Json& params, const std::string& message) {
  return Json{{"error",
               {{"type", type},
                {"code", code},
                {"field", field},
                {"params", params},
                {"message", message}}}};
}

Json error_envelope(const char* type, const ArgumentError& e) {
  return error_envelope(type, e.code().c_str(), e.field(), params_json(e.params()), e.what());
}

bool is_special_number(const Json& value) {
  return value.is_object() && value.size() == 1 && value.contains("$number") &&
         value["$number"].is_string();
}

const Json& required(const Json& args, const char* name) {
  note_read(args, name);
  if (!args.is_object() || !args.contains(name) || args[name].is_null())
    throw ArgumentTypeError("required", name, {}, std::string(name) + ": is required");
  return args[name];
}

// The envelope as JSON text. Strings that are not valid UTF-8 (a method name from JS with a lone
// surrogate, say) get U+FFFD instead of making the serializer throw; running out of memory
// while printing a huge result becomes an error envelope too.
std::string dump(const Json& envelope) {
  try {
    return envelope.dump(-1, ' ', false, Json::error_handler_t::replace);
  } catch (const std::exception&) {
    return R"({"error":{"type":"RangeError","code":"out_of_memory","field":"","params":{},)"
           R"("message":"out of memory: the result is too large"}})";
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
      return error_envelope("TypeError", "unknown_method", "", Json{{"got", short_text(method)}},
                            "unknown method: " + short_text(method));
    return Json{{"ok", found->second(args)}};
  } catch (const ArgumentTypeError& e) {
    return error_envelope("TypeError", e);
  } catch (const InvalidArgument& e) {
    return error_envelope("RangeError", e);
  } catch (const std::bad_alloc&) {
    return error_envelope("RangeError", "out_of_memory", "", Json::object(),
                          "out of memory: the request is too large");
  } catch (const Interrupted& e) {
    return error_envelope("Error", "interrupted", "", Json::object(), e.what());
  } catch (const std::exception& e) {
    return error_envelope("Error", "internal", "", Json{{"detail", e.what()}},
                          std::string("internal error: ") + e.what());
  } catch (...) {
    // A net: the core throws nothing else, and what escaped here would reach JS as a bare
    // WebAssembly.Exception, no message (as every argument error once did in the -pthread build,
    // whose typed catches matched nothing: cpp/bindings/wasm_eh_pthreads.cpp).
    return error_envelope("Error", "internal", "", Json{{"detail", "unknown exception"}},
                          "internal error: unknown exception");
  }
}

void check_json_text(std::string_view text) {
  if (text.size() > kMaxArgumentBytes)
    throw InvalidArgument("arguments_too_large", "arguments",
                          {{"max", static_cast<double>(kMaxArgumentBytes)},
                           {"got", static_cast<double>(text.size())}},
                          "arguments: must be at most " + std::to_string(kMaxArgumentBytes) +
                              " bytes of JSON (64 MiB), got " + std::to_string(text.size()));
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
          throw InvalidArgument(
              "arguments_too_deep", "arguments",
              {{"max", static_cast<double>(kMaxJsonDepth)}, {"at", static_cast<double>(i)}},
              "arguments: must nest arrays and objects at most " + std::to_string(kMaxJsonDepth) +
                  " levels deep, got deeper at byte " + std::to_string(i));
        [[fallthrough]];
      case ',':
        if (++values > kMaxJsonValues)
          throw InvalidArgument(
              "arguments_too_many", "arguments",
              {{"max", static_cast<double>(kMaxJsonValues)}, {"at", static_cast<double>(i)}},
              "arguments: must hold at most " + std::to_string(kMaxJsonValues) +
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
    return dump(error_envelope("RangeError", e));
  }
  try {
    args = Json::parse(args_json);
  } catch (const std::bad_alloc&) {
    return dump(error_envelope("RangeError", "out_of_memory", "arguments", Json::object(),
                               "arguments: out of memory while parsing the JSON"));
  } catch (const std::exception& e) {
    return dump(error_envelope("TypeError", "not_json", "arguments", Json{{"detail", e.what()}},
                               std::string("arguments: not valid JSON: ") + e.what()));
  }
  return dump(call_json(method, args));
}

std::vector<std::string> method_names() {
  std::vector<std::string> names;
  for (const auto& entry : registry()) names.push_back(entry.first);
  return names;
}

void reject_unknown_options(const Json& args, const std::vector<std::string>& known) {
  if (!args.is_object()) return;
  for (const auto& item : args.items()) {
    if (std::find(known.begin(), known.end(), item.key()) != known.end()) continue;
    const std::string option = short_text(item.key());
    if (known.empty())
      throw ArgumentTypeError("no_options", option, {{"option", option}},
                              option + ": unknown option (this method takes no options)");
    const std::string nearest = nearest_option(item.key(), known);
    throw ArgumentTypeError("unknown_option", option, {{"option", option}, {"nearest", nearest}},
                            option + ": unknown option (did you mean '" + nearest + "'?)");
  }
}

bool has(const Json& args, const char* name) {
  note_read(args, name);
  return args.is_object() && args.contains(name) && !args[name].is_null();
}

std::string typed_text(const Json& value) {
  switch (value.type()) {
    case Json::value_t::string:
      return short_text(value.get_ref<const std::string&>());
    case Json::value_t::array:
      return "[...]";
    case Json::value_t::object:
      return "{...}";
    default:
      return short_text(value.dump());  // numbers, true/false, null
  }
}

void throw_wrong_kind(const std::string& what, const Json& value, const char* code,
                      const char* expected) {
  const std::string got = typed_text(value);
  const std::string shown = value.is_string()   ? "\"" + got + "\""
                            : value.is_array()  ? std::string("an array")
                            : value.is_object() ? std::string("an object")
                                                : got;
  throw ArgumentTypeError(code, what, {{"got", got}},
                          what + ": must be " + expected + ", got " + shown);
}

double as_number(const Json& value, const std::string& what) {
  if (value.is_number()) return value.get<double>();
  if (is_special_number(value)) {
    const std::string text = value["$number"].get<std::string>();
    if (text == "NaN") return std::nan("");
    if (text == "Infinity") return HUGE_VAL;
    if (text == "-Infinity") return -HUGE_VAL;
  }
  throw_wrong_kind(what, value, "not_a_number", "a number");
}

const Json& as_object(const Json& value, const std::string& what) {
  if (!value.is_object()) throw_wrong_kind(what, value, "not_an_object", "an object");
  return value;
}

const Json& as_array(const Json& value, const std::string& what, std::size_t max_size) {
  if (!value.is_array()) throw_wrong_kind(what, value, "not_an_array", "an array");
  if (value.size() > max_size)
    throw InvalidArgument(
        "too_many", what,
        {{"max", static_cast<double>(max_size)}, {"got", static_cast<double>(value.size())}},
        what + ": must hold at most " + std::to_string(max_size) + " entries, got " +
            std::to_string(value.size()));
  return value;
}

const std::string& as_string(const Json& value, const std::string& what, std::size_t max_bytes) {
  if (!value.is_string()) throw_wrong_kind(what, value, "not_a_string", "a string");
  const std::string& text = value.get_ref<const std::string&>();
  if (text.size() > max_bytes)
    throw InvalidArgument(
        "too_long", what,
        {{"max", static_cast<double>(max_bytes)}, {"got", static_cast<double>(text.size())}},
        what + ": must be a string of at most " + std::to_string(max_bytes) + " bytes, got " +
            std::to_string(text.size()));
  return text;
}

const Json& member(const Json& object, const std::string& path, const char* key, bool allow_null) {
  const auto found = object.find(key);
  if (found == object.end() || (found->is_null() && !allow_null)) {
    const std::string what = path + "." + key;
    throw ArgumentTypeError("required", what, {}, what + ": is required");
  }
  return *found;
}

double number(const Json& args, const char* name) {
  // NaN and infinities pass through: the core's range check then names the allowed range.
  return as_number(required(args, name), name);
}

double number_or(const Json& args, const char* name, double fallback) {
  return has(args, name) ? number(args, name) : fallback;
}

namespace {

// `what: must be an integer, got x` (code "not_an_integer") unless value is a whole number that
// a double holds exactly.
void require_integer(const FieldName& what, double value) {
  if (std::floor(value) == value && std::fabs(value) < 9.0e15) return;
  const std::string name = what.text();
  throw InvalidArgument("not_an_integer", name, {{"got", value}},
                        name + ": must be an integer, got " + format_number(value));
}

}  // namespace

long long integer(const Json& args, const char* name) {
  const double value = number(args, name);
  require_integer(name, value);
  return static_cast<long long>(value);
}

long long integer_or(const Json& args, const char* name, long long fallback) {
  return has(args, name) ? integer(args, name) : fallback;
}

bool boolean_or(const Json& args, const char* name, bool fallback) {
  if (!has(args, name)) return fallback;
  const Json& value = args[name];
  if (!value.is_boolean()) throw_wrong_kind(name, value, "not_a_boolean", "true or false");
  return value.get<bool>();
}

std::string string(const Json& args, const char* name, std::size_t max_bytes) {
  return as_string(required(args, name), name, max_bytes);
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

namespace {

std::vector<double> numbers_of(const Json& value, const std::string& name) {
  if (!value.is_array()) throw_wrong_kind(name, value, "not_an_array", "an array of numbers");
  std::vector<double> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    const Json& item = value[i];
    const double x =
        item.is_number() ? item.get<double>() : as_number(item, FieldName(name, i).text());
    require_finite(FieldName(name, i), x);
    out.push_back(x);
  }
  return out;
}

}  // namespace

std::vector<double> numbers(const Json& args, const char* name) {
  return numbers_of(required(args, name), name);
}

std::vector<long long> integers(const Json& args, const char* name) {
  std::vector<long long> out;
  const std::vector<double> values = numbers(args, name);
  out.reserve(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    require_integer(FieldName(name, i), values[i]);
    out.push_back(static_cast<long long>(values[i]));
  }
  return out;
}

std::vector<std::vector<double>> number_rows(const Json& args, const char* name) {
  const Json& value = required(args, name);
  if (!value.is_array())
    throw_wrong_kind(name, value, "not_an_array", "an array of arrays of numbers");
  std::vector<std::vector<double>> rows;
  rows.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    rows.push_back(numbers_of(value[i], FieldName(name, i).text()));
  return rows;
}

const Json& object(const Json& args, const char* name) {
  return as_object(required(args, name), name);
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
