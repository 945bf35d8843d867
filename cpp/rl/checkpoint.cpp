// Export and validated import of GRU policy checkpoints as JSON (see checkpoint.h).
#include "rl/checkpoint.h"

#include <cmath>
#include <limits>
#include <utility>

#include "core/errors.h"

namespace grpo {
namespace {

using Json = nlohmann::json;

const char* kind_of(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "a boolean";
    case Json::value_t::string: return "a string";
    case Json::value_t::array: return "an array";
    case Json::value_t::object: return "an object";
    default: return "a number";
  }
}

// A short readable rendering of a JSON value for "got ..." in messages.
std::string number_text(const Json& value) {
  return value.is_number_integer() ? value.dump() : format_number(value.get<double>());
}

std::string describe(const Json& value) {
  if (value.is_number()) return number_text(value);
  if (value.is_object() && value.size() == 1 && value.contains("$number") &&
      value["$number"].is_string())
    return value["$number"].get<std::string>();  // the API's encoding of NaN / Infinity
  if (value.is_array()) {
    bool numbers = value.size() <= 8;
    for (const Json& item : value) numbers = numbers && item.is_number();
    if (numbers) {
      std::string text = "[";
      for (std::size_t i = 0; i < value.size(); ++i)
        text += (i ? ", " : "") + number_text(value[i]);
      return text + "]";
    }
    return "an array of " + std::to_string(value.size());
  }
  if (value.is_string()) {
    std::string text = value.dump();
    return text.size() <= 40 ? text : text.substr(0, 37) + "...\"";
  }
  return kind_of(value);
}

std::string shape_text(const std::vector<int>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// Reads config.<name> as an integer in [1, max].
int config_dim(const Json& config, const char* name, int max) {
  const std::string field = std::string("checkpoint.config.") + name;
  const std::string range = "an integer in [1, " + std::to_string(max) + "]";
  require(config.contains(name), field + ": is required (" + range + ")");
  const Json& value = config[name];
  const double number = value.is_number() ? value.get<double>() : 0;
  require(value.is_number() && std::isfinite(number) && number == std::floor(number) &&
              number >= 1 && number <= max,
          field + ": must be " + range + ", got " + describe(value));
  return static_cast<int>(number);
}

// config.temperature if present (a positive finite number), else 1.
double config_temperature(const Json& config, const std::string& field) {
  if (!config.contains("temperature")) return 1;
  const Json& value = config["temperature"];
  const double number = value.is_number() ? value.get<double>() : 0;
  require(value.is_number() && std::isfinite(number) && number > 0,
          field + ": must be a positive finite number, got " + describe(value));
  return number;
}

std::string expected_names(const std::vector<ParamInfo>& table) {
  std::string text;
  for (std::size_t i = 0; i < table.size(); ++i) text += (i ? ", " : "") + table[i].name;
  return text;
}

}  // namespace

template <typename Scalar>
Json tensors_to_json(const GruPolicy<Scalar>& policy, const std::vector<Scalar>& buffer) {
  require(buffer.size() == policy.num_params(),
          "buffer: must have " + std::to_string(policy.num_params()) + " entries, got " +
              std::to_string(buffer.size()));
  Json tensors = Json::object();
  for (const ParamInfo& info : policy.param_table()) {
    Json data = Json::array();
    data.get_ref<Json::array_t&>().reserve(info.size);
    for (std::size_t i = 0; i < info.size; ++i)
      data.push_back(static_cast<double>(buffer[info.offset + i]));
    tensors[info.name] = Json{{"shape", info.shape}, {"data", std::move(data)}};
  }
  return tensors;
}

template <typename Scalar>
Json export_checkpoint(const GruPolicy<Scalar>& policy, const std::vector<std::string>& vocab,
                       const Json& config) {
  const GruDims& dims = policy.dims();
  require(static_cast<int>(vocab.size()) == dims.vocab,
          "vocab: must have " + std::to_string(dims.vocab) +
              " entries (the policy's vocabulary size), got " + std::to_string(vocab.size()));
  require(config.is_null() || config.is_object(),
          std::string("config: must be an object, got ") + kind_of(config));
  Json out_config = config.is_null() ? Json::object() : config;
  config_temperature(out_config, "config.temperature");
  out_config["embed"] = dims.embed;
  out_config["hidden"] = dims.hidden;
  return Json{{"vocab", vocab},
              {"config", std::move(out_config)},
              {"tensors", tensors_to_json(policy, policy.params())}};
}

template <typename Scalar>
Checkpoint<Scalar> import_checkpoint(const Json& checkpoint) {
  require(checkpoint.is_object(),
          std::string("checkpoint: must be an object {vocab, config, tensors}, got ") +
              kind_of(checkpoint));

  // vocab
  require(checkpoint.contains("vocab"), "checkpoint.vocab: is required (an array of strings)");
  const Json& vocab_json = checkpoint["vocab"];
  require(vocab_json.is_array() && !vocab_json.empty() &&
              vocab_json.size() <= static_cast<std::size_t>(kMaxPolicyVocab),
          "checkpoint.vocab: must be an array of 1 to " + std::to_string(kMaxPolicyVocab) +
              " token strings, got " + describe(vocab_json));
  std::vector<std::string> vocab;
  vocab.reserve(vocab_json.size());
  for (std::size_t i = 0; i < vocab_json.size(); ++i) {
    require(vocab_json[i].is_string(), "checkpoint.vocab[" + std::to_string(i) +
                                           "]: must be a string, got " +
                                           describe(vocab_json[i]));
    vocab.push_back(vocab_json[i].get<std::string>());
  }

  // config
  require(checkpoint.contains("config"), "checkpoint.config: is required (an object)");
  const Json& config = checkpoint["config"];
  require(config.is_object(),
          std::string("checkpoint.config: must be an object, got ") + kind_of(config));
  GruDims dims;
  dims.vocab = static_cast<int>(vocab.size());
  dims.embed = config_dim(config, "embed", kMaxPolicyEmbed);
  dims.hidden = config_dim(config, "hidden", kMaxPolicyHidden);
  const double temperature = config_temperature(config, "checkpoint.config.temperature");

  // tensors: names first (none unknown, none missing), then each tensor's shape and data.
  GruPolicy<Scalar> policy(dims);
  const std::vector<ParamInfo>& table = policy.param_table();
  require(checkpoint.contains("tensors"), "checkpoint.tensors: is required (an object)");
  const Json& tensors = checkpoint["tensors"];
  require(tensors.is_object(),
          std::string("checkpoint.tensors: must be an object, got ") + kind_of(tensors));
  for (auto it = tensors.begin(); it != tensors.end(); ++it) {
    bool known = false;
    for (const ParamInfo& info : table) known = known || info.name == it.key();
    require(known, "checkpoint.tensors." + it.key() + ": unknown tensor (expected exactly " +
                       expected_names(table) + ")");
  }
  std::vector<Scalar>& params = policy.params();
  for (const ParamInfo& info : table) {
    const std::string field = "checkpoint.tensors." + info.name;
    require(tensors.contains(info.name),
            field + ": is required (a tensor of shape " + shape_text(info.shape) + ")");
    const Json& tensor = tensors[info.name];
    require(tensor.is_object(),
            field + ": must be an object {shape, data}, got " + describe(tensor));
    require(tensor.contains("shape"), field + ".shape: is required (" + shape_text(info.shape) + ")");
    const Json& shape = tensor["shape"];
    bool shape_ok = shape.is_array() && shape.size() == info.shape.size();
    for (std::size_t d = 0; shape_ok && d < info.shape.size(); ++d)
      shape_ok = shape[d].is_number() && shape[d].get<double>() == info.shape[d];
    require(shape_ok,
            field + ".shape: must be " + shape_text(info.shape) + ", got " + describe(shape));
    require(tensor.contains("data"), field + ".data: is required (" + std::to_string(info.size) +
                                         " numbers, row-major)");
    const Json& data = tensor["data"];
    require(data.is_array() && data.size() == info.size,
            field + ".data: must be an array of " + std::to_string(info.size) +
                " numbers (product of shape " + shape_text(info.shape) + "), got " +
                (data.is_array() ? std::to_string(data.size()) : std::string(kind_of(data))));
    for (std::size_t i = 0; i < info.size; ++i) {
      const Json& value = data[i];
      const double number = value.is_number() ? value.get<double>() : 0;
      // Finite and within Scalar's range (a double beyond float's range would become inf).
      const bool ok = value.is_number() && std::isfinite(number) &&
                      std::fabs(number) <= static_cast<double>(std::numeric_limits<Scalar>::max());
      require(ok, field + ".data[" + std::to_string(i) + "]: must be a finite number" +
                      (sizeof(Scalar) < sizeof(double) ? " in float range" : "") + ", got " +
                      describe(value));
      params[info.offset + i] = static_cast<Scalar>(number);
    }
  }
  return Checkpoint<Scalar>{std::move(vocab), config, temperature, std::move(policy)};
}

template Json tensors_to_json<float>(const GruPolicy<float>&, const std::vector<float>&);
template Json tensors_to_json<double>(const GruPolicy<double>&, const std::vector<double>&);
template Json export_checkpoint<float>(const GruPolicy<float>&, const std::vector<std::string>&,
                                       const Json&);
template Json export_checkpoint<double>(const GruPolicy<double>&,
                                        const std::vector<std::string>&, const Json&);
template Checkpoint<float> import_checkpoint<float>(const Json&);
template Checkpoint<double> import_checkpoint<double>(const Json&);

}  // namespace grpo
