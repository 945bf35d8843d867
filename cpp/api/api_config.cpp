// The toy experiment's config through the JSON API, driven by the field table (api_config.h).
#include "api/api_config.h"

#include <cmath>

#include "core/errors.h"
#include "rl/config_fields.h"
#include "rl/config_warnings.h"

namespace grpo::api {
namespace {

const char* kind_name(FieldKind kind) {
  switch (kind) {
    case FieldKind::Int:
      return "int";
    case FieldKind::Number:
      return "number";
    case FieldKind::Bool:
      return "bool";
    case FieldKind::Enum:
      return "enum";
  }
  return "?";
}

// A field's number (Int, Bool 0/1, Enum option index) as its JSON value.
Json value_json(const FieldSpec& spec, double value) {
  switch (spec.kind) {
    case FieldKind::Int:
      return static_cast<long long>(value);
    case FieldKind::Number:
      return std::isnan(value) ? Json(nullptr) : Json(value);  // NaN only for None (nullable)
    case FieldKind::Bool:
      return value != 0;
    case FieldKind::Enum:
      return spec.options.at(static_cast<std::size_t>(value));
  }
  return nullptr;
}

// Reads args[spec.name] as the field's kind (type errors name the field), checks it (the one
// range check of a value that enters the core, config_fields.h check_field) and sets it.
void read_field(const Json& args, const FieldSpec& spec, ExperimentConfig& config) {
  double value = 0;
  std::string text;
  switch (spec.kind) {
    case FieldKind::Int:
      value = static_cast<double>(integer(args, spec.name));  // integral, |x| < 9e15: exact
      break;
    case FieldKind::Number:
      // null is None for a None-able field; NaN and infinities reach check_field, which names them
      value = spec.nullable && args[spec.name].is_null() ? std::nan("") : number(args, spec.name);
      break;
    case FieldKind::Bool:
      value = boolean_or(args, spec.name, false) ? 1 : 0;
      break;
    case FieldKind::Enum:
      text = string(args, spec.name);
      value = option_index(spec, text);
      break;
  }
  check_field(spec, value, text);
  spec.set(config, value);
}

}  // namespace

ExperimentConfig read_config(const Json& args) {
  if (!args.is_object()) throw ArgumentTypeError("config: must be an object");
  for (const auto& item : args.items())
    if (find_field(item.key()) == nullptr)
      throw ArgumentTypeError(short_text(item.key()) +
                              ": unknown option (see docs/api.md for the config fields)");
  // The defaults are valid (a test checks every profile's): only what the caller gave is checked.
  ExperimentConfig config = profile_defaults(string_or(args, "profile", "smoke"));
  // null is TRL's None for a None-able field (vllmImportanceSamplingClipMax: null, no upper
  // bound), the profile's default for any other.
  for (const FieldSpec& spec : config_fields())
    if (std::string(spec.name) != "profile" &&
        (has(args, spec.name) || (spec.nullable && args.contains(spec.name))))
      read_field(args, spec, config);
  check_field_relations(config);
  return config;
}

Json config_json(const ExperimentConfig& config) {
  Json out = Json::object();
  for (const FieldSpec& spec : config_fields()) out[spec.name] = value_json(spec, spec.get(config));
  return out;
}

Json warnings_json(const ExperimentConfig& config) {
  Json out = Json::array();
  for (const ConfigWarning& w : config_warnings(config)) {
    Json params = Json::object();
    for (const MessageParam& p : w.params)
      std::visit([&](const auto& value) { params[p.name] = value; }, p.value);
    out.push_back(
        Json{{"code", w.code}, {"field", w.field}, {"params", params}, {"message", w.message}});
  }
  return out;
}

Json warning_codes_json() {
  Json out = Json::array();
  for (const MessageCode& entry : warning_codes())
    out.push_back(Json{{"code", entry.code}, {"params", entry.params}});
  return out;
}

Json config_schema_json() {
  Json fields = Json::array();
  for (const FieldSpec& spec : config_fields()) {
    Json f{{"name", spec.name},
           {"member", spec.member},
           {"kind", kind_name(spec.kind)},
           {"defaults",
            {{"smoke", value_json(spec, spec.smoke)}, {"full", value_json(spec, spec.full)}}},
           {"trl", spec.trl ? Json(spec.trl) : Json(nullptr)},
           {"description", spec.description},
           {"group", spec.group},
           {"notebook", spec.notebook}};
    if (spec.kind == FieldKind::Int || spec.kind == FieldKind::Number) {
      f["min"] = spec.min;
      f["max"] = spec.max;
      f["minOpen"] = spec.min_open;
      f["maxOpen"] = spec.max_open;
      if (spec.nullable) f["nullable"] = true;  // null (TRL's None) is allowed
    }
    if (spec.kind == FieldKind::Enum) f["options"] = spec.options;
    if (spec.trl_default) f["trlDefault"] = spec.trl_default;  // where it is not the notebook's
    fields.push_back(f);
  }
  return Json{{"profiles", profile_names()}, {"fields", fields}};
}

void register_config_check(Registry& r) {
  r["experimentConfig"] = [](const Json& a) { return config_json(read_config(a)); };
}

void register_config_methods(Registry& r) {
  register_config_check(r);
  r["configSchema"] = [](const Json&) { return config_schema_json(); };
  r["configWarnings"] = [](const Json& a) { return warnings_json(read_config(a)); };
  r["warningCodes"] = [](const Json&) { return warning_codes_json(); };
}

}  // namespace grpo::api
