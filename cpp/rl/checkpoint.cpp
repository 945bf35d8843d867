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
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    default:
      return "a number";
  }
}

// A string for a message: JSON-quoted, ASCII only (\u escapes, so a cut never splits a UTF-8
// character), at most ~40 characters of it, and its length when cut.
std::string quoted(const std::string& text) {
  constexpr std::size_t kShown = 36;
  if (text.size() <= kShown) return Json(text).dump(-1, ' ', true, Json::error_handler_t::replace);
  std::size_t cut = kShown;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  const std::string shown =
      Json(text.substr(0, cut)).dump(-1, ' ', true, Json::error_handler_t::replace);
  return shown.substr(0, shown.size() - 1) + "...\" (" + std::to_string(text.size()) + " bytes)";
}

// An object key in a field path: as-is when short printable ASCII, else quoted() (bounded).
std::string key_text(const std::string& key) {
  bool plain = key.size() <= 64;
  for (std::size_t i = 0; plain && i < key.size(); ++i) plain = key[i] >= 0x20 && key[i] < 0x7F;
  return plain ? key : quoted(key);
}

// The 7 tensors of a policy with `dims` (names, shapes, sizes, offsets in PyTorch order): the
// table GruPolicy builds, known here before the policy's buffers are allocated, so that a small
// checkpoint claiming large dims is rejected first. import_checkpoint checks the two agree.
std::vector<ParamInfo> expected_table(const GruDims& dims) {
  const int V = dims.vocab, E = dims.embed, H = dims.hidden;
  const std::pair<const char*, std::vector<int>> tensors[kNumPolicyTensors] = {
      {"embedding.weight", {V, E}},
      {"gru.weight_ih_l0", {3 * H, E}},
      {"gru.weight_hh_l0", {3 * H, H}},
      {"gru.bias_ih_l0", {3 * H}},
      {"gru.bias_hh_l0", {3 * H}},
      {"head.weight", {V, H}},
      {"head.bias", {V}}};
  std::vector<ParamInfo> table;
  std::size_t offset = 0;
  for (const auto& [name, shape] : tensors) {
    ParamInfo info;
    info.name = name;
    info.shape = shape;
    info.offset = offset;
    info.size = 1;
    for (int d : shape) info.size *= static_cast<std::size_t>(d);
    offset += info.size;
    table.push_back(std::move(info));
  }
  return table;
}

// The free config object is kept and exported again: bounded so that neither costs much.
void check_config_size(const Json& config) {
  std::vector<std::pair<const Json*, std::size_t>> stack{{&config, 1}};  // no recursion
  std::size_t nodes = 0;
  while (!stack.empty()) {
    const auto [value, depth] = stack.back();
    stack.pop_back();
    if (depth > kMaxCheckpointConfigDepth)
      throw InvalidArgument("checkpoint.config: must nest at most " +
                            std::to_string(kMaxCheckpointConfigDepth) + " levels deep");
    if (++nodes > kMaxCheckpointConfigValues)
      throw InvalidArgument("checkpoint.config: must hold at most " +
                            std::to_string(kMaxCheckpointConfigValues) + " values");
    if (value->is_string() && value->get_ref<const std::string&>().size() > kMaxTokenBytes)
      throw InvalidArgument("checkpoint.config: strings must be at most " +
                            std::to_string(kMaxTokenBytes) + " bytes, got one of " +
                            std::to_string(value->get_ref<const std::string&>().size()));
    if (value->is_structured())
      for (const Json& item : *value) stack.emplace_back(&item, depth + 1);
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
  if (value.is_string()) return quoted(value.get_ref<const std::string&>());
  return kind_of(value);
}

std::string shape_text(const std::vector<int>& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
  return text + "]";
}

// Reads config.<name> as an integer in [1, max].
int config_dim(const Json& config, const char* name, int max) {
  const std::string field = std::string("checkpoint.config.") + name;
  const std::string range = "an integer in [1, " + std::to_string(max) + "]";
  if (!config.contains(name)) throw InvalidArgument(field + ": is required (" + range + ")");
  const Json& value = config[name];
  const double number = value.is_number() ? value.get<double>() : 0;
  if (!(value.is_number() && std::isfinite(number) && number == std::floor(number) && number >= 1 &&
        number <= max))
    throw InvalidArgument(field + ": must be " + range + ", got " + describe(value));
  return static_cast<int>(number);
}

// config.temperature if present (a positive finite number), else 1.
double config_temperature(const Json& config, const std::string& field) {
  if (!config.contains("temperature")) return 1;
  const Json& value = config["temperature"];
  const double number = value.is_number() ? value.get<double>() : 0;
  if (!(value.is_number() && std::isfinite(number) && number > 0))
    throw InvalidArgument(field + ": must be a positive finite number, got " + describe(value));
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
  if (buffer.size() != policy.num_params())
    throw InvalidArgument("buffer: must have " + std::to_string(policy.num_params()) +
                          " entries, got " + std::to_string(buffer.size()));
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
  if (static_cast<int>(vocab.size()) != dims.vocab)
    throw InvalidArgument("vocab: must have " + std::to_string(dims.vocab) +
                          " entries (the policy's vocabulary size), got " +
                          std::to_string(vocab.size()));
  if (!(config.is_null() || config.is_object()))
    throw InvalidArgument(std::string("config: must be an object, got ") + kind_of(config));
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
  if (!checkpoint.is_object())
    throw InvalidArgument(
        std::string("checkpoint: must be an object {vocab, config, tensors}, got ") +
        kind_of(checkpoint));

  // vocab
  if (!checkpoint.contains("vocab"))
    throw InvalidArgument("checkpoint.vocab: is required (an array of strings)");
  const Json& vocab_json = checkpoint["vocab"];
  if (!(vocab_json.is_array() && !vocab_json.empty() &&
        vocab_json.size() <= static_cast<std::size_t>(kMaxPolicyVocab)))
    throw InvalidArgument("checkpoint.vocab: must be an array of 1 to " +
                          std::to_string(kMaxPolicyVocab) + " token strings, got " +
                          describe(vocab_json));
  std::vector<std::string> vocab;
  vocab.reserve(vocab_json.size());
  for (std::size_t i = 0; i < vocab_json.size(); ++i) {
    if (!vocab_json[i].is_string())
      throw InvalidArgument("checkpoint.vocab[" + std::to_string(i) + "]: must be a string, got " +
                            describe(vocab_json[i]));
    const std::string& token = vocab_json[i].get_ref<const std::string&>();
    if (token.size() > kMaxTokenBytes)
      throw InvalidArgument("checkpoint.vocab[" + std::to_string(i) +
                            "]: must be a string of at most " + std::to_string(kMaxTokenBytes) +
                            " bytes, got " + std::to_string(token.size()));
    vocab.push_back(token);
  }

  // config
  if (!checkpoint.contains("config"))
    throw InvalidArgument("checkpoint.config: is required (an object)");
  const Json& config = checkpoint["config"];
  if (!config.is_object())
    throw InvalidArgument(std::string("checkpoint.config: must be an object, got ") +
                          kind_of(config));
  GruDims dims;
  dims.vocab = static_cast<int>(vocab.size());
  dims.embed = config_dim(config, "embed", kMaxPolicyEmbed);
  dims.hidden = config_dim(config, "hidden", kMaxPolicyHidden);
  const double temperature = config_temperature(config, "checkpoint.config.temperature");
  check_config_size(config);

  // tensors: names first (none unknown, none missing), then each tensor's shape and data
  // length, and only then the policy's buffers (their size is now that of the data given).
  const std::vector<ParamInfo> table = expected_table(dims);
  if (!checkpoint.contains("tensors"))
    throw InvalidArgument("checkpoint.tensors: is required (an object)");
  const Json& tensors = checkpoint["tensors"];
  if (!tensors.is_object())
    throw InvalidArgument(std::string("checkpoint.tensors: must be an object, got ") +
                          kind_of(tensors));
  for (auto it = tensors.begin(); it != tensors.end(); ++it) {
    bool known = false;
    for (const ParamInfo& info : table) known = known || info.name == it.key();
    if (!known)
      throw InvalidArgument("checkpoint.tensors." + key_text(it.key()) +
                            ": unknown tensor (expected exactly " + expected_names(table) + ")");
  }
  for (const ParamInfo& info : table) {
    const std::string field = "checkpoint.tensors." + info.name;
    if (!tensors.contains(info.name))
      throw InvalidArgument(field + ": is required (a tensor of shape " + shape_text(info.shape) +
                            ")");
    const Json& tensor = tensors[info.name];
    if (!tensor.is_object())
      throw InvalidArgument(field + ": must be an object {shape, data}, got " + describe(tensor));
    if (!tensor.contains("shape"))
      throw InvalidArgument(field + ".shape: is required (" + shape_text(info.shape) + ")");
    const Json& shape = tensor["shape"];
    bool shape_ok = shape.is_array() && shape.size() == info.shape.size();
    for (std::size_t d = 0; shape_ok && d < info.shape.size(); ++d)
      shape_ok = shape[d].is_number() && shape[d].get<double>() == info.shape[d];
    if (!shape_ok)
      throw InvalidArgument(field + ".shape: must be " + shape_text(info.shape) + ", got " +
                            describe(shape));
    if (!tensor.contains("data"))
      throw InvalidArgument(field + ".data: is required (" + std::to_string(info.size) +
                            " numbers, row-major)");
    const Json& data = tensor["data"];
    if (!(data.is_array() && data.size() == info.size))
      throw InvalidArgument(
          field + ".data: must be an array of " + std::to_string(info.size) +
          " numbers (product of shape " + shape_text(info.shape) + "), got " +
          (data.is_array() ? std::to_string(data.size()) : std::string(kind_of(data))));
  }
  GruPolicy<Scalar> policy(dims);
  const std::vector<ParamInfo>& built = policy.param_table();
  for (std::size_t t = 0; t < table.size(); ++t)
    if (built.size() != table.size() || built[t].name != table[t].name ||
        built[t].shape != table[t].shape || built[t].offset != table[t].offset)
      throw std::logic_error("import_checkpoint: expected_table differs from GruPolicy's table");
  std::vector<Scalar>& params = policy.params();
  for (const ParamInfo& info : table) {
    const std::string field = "checkpoint.tensors." + info.name;
    const Json& data = tensors[info.name]["data"];
    for (std::size_t i = 0; i < info.size; ++i) {
      const Json& value = data[i];
      const double number = value.is_number() ? value.get<double>() : 0;
      // Finite and within Scalar's range (a double beyond float's range would become inf).
      const bool ok = value.is_number() && std::isfinite(number) &&
                      std::fabs(number) <= static_cast<double>(std::numeric_limits<Scalar>::max());
      if (!ok)
        throw InvalidArgument(field + ".data[" + std::to_string(i) + "]: must be a finite number" +
                              (sizeof(Scalar) < sizeof(double) ? " in float range" : "") +
                              ", got " + describe(value));
      params[info.offset + i] = static_cast<Scalar>(number);
    }
  }
  return Checkpoint<Scalar>{std::move(vocab), config, temperature, std::move(policy)};
}

template Json tensors_to_json<float>(const GruPolicy<float>&, const std::vector<float>&);
template Json tensors_to_json<double>(const GruPolicy<double>&, const std::vector<double>&);
template Json export_checkpoint<float>(const GruPolicy<float>&, const std::vector<std::string>&,
                                       const Json&);
template Json export_checkpoint<double>(const GruPolicy<double>&, const std::vector<std::string>&,
                                        const Json&);
template Checkpoint<float> import_checkpoint<float>(const Json&);
template Checkpoint<double> import_checkpoint<double>(const Json&);

}  // namespace grpo
