// JSON API method grpoObjective: the GRPO objective of one batch (rl/grpo_objective.h).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "api/api.h"
#include "core/errors.h"
#include "rl/grpo_objective.h"

namespace grpo::api {
namespace {

// An integer argument that must fit an int: `name: must be an integer >= min, got x`.
int bounded_int(long long value, const char* name, long long min) {
  constexpr long long kMax = 1LL << 30;
  require(value >= min && value <= kMax, [&] {
    return std::string(name) + ": must be an integer in [" + std::to_string(min) + ", " +
           std::to_string(kMax) + "], got " + std::to_string(value);
  });
  return static_cast<int>(value);
}

// An optional array of booleans, one per completion.
std::vector<bool> booleans_or_empty(const Json& args, const char* name) {
  if (!has(args, name)) return {};
  const Json& value = args[name];
  if (!value.is_array())
    throw ArgumentTypeError(std::string(name) + ": must be an array of booleans");
  std::vector<bool> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_boolean())
      throw ArgumentTypeError(std::string(name) + "[" + std::to_string(i) +
                              "]: must be true or false");
    out.push_back(value[i].get<bool>());
  }
  return out;
}

std::optional<Ragged> rows_or_none(const Json& args, const char* name) {
  if (!has(args, name)) return std::nullopt;
  return number_rows(args, name);
}

Json grpo_objective_method(const Json& args) {
  ObjectiveInputs in;
  in.rewards = numbers(args, "rewards");
  in.logp = number_rows(args, "logProbs");
  in.old_logp = rows_or_none(args, "oldLogProbs");
  in.ref_logp = rows_or_none(args, "refLogProbs");
  in.entropies = rows_or_none(args, "entropies");
  in.truncated = booleans_or_empty(args, "truncated");

  std::size_t longest = 1;
  for (const auto& row : in.logp) longest = std::max(longest, row.size());
  ObjectiveConfig config;
  config.group_size = bounded_int(integer(args, "groupSize"), "groupSize", 2);
  config.loss_type = parse_loss_type(string_or(args, "lossType", "grpo"));
  config.scale_rewards = parse_scale_rewards(string_or(args, "scaleRewards", "group"));
  config.advantage_estimator =
      parse_advantage_estimator(string_or(args, "advantageEstimator", "grpo"));
  config.eps_low = number_or(args, "epsLow", 0.2);
  config.eps_high = number_or(args, "epsHigh", config.eps_low);  // TRL: epsilon_high = epsilon
  config.beta = number_or(args, "beta", 0.0);
  config.max_completion_length =
      bounded_int(integer_or(args, "maxCompletionLength", static_cast<long long>(longest)),
                  "maxCompletionLength", 1);
  config.importance_level =
      parse_importance_level(string_or(args, "importanceSamplingLevel", "token"));
  config.mask_truncated = boolean_or(args, "maskTruncated", false);

  config.validate();  // the one check of these values: grpo_objective takes them as valid
  const ObjectiveResult r = grpo_objective(config, in);

  Json grad = Json::array();
  for (const auto& row : r.grad_logp) grad.push_back(encode_numbers(row));
  const ObjectiveMetrics& m = r.metrics;
  Json metrics{{"clipRatioLowMean", m.clip_ratio_low_mean},
               {"clipRatioHighMean", m.clip_ratio_high_mean},
               {"clipRatioRegionMean", m.clip_ratio_region_mean},
               {"kl", m.has_kl ? encode_number(m.kl) : Json(nullptr)},
               {"entropy", m.has_entropy ? encode_number(m.entropy) : Json(nullptr)},
               {"ratioMin", encode_number(m.ratio_min)},
               {"ratioMean", encode_number(m.ratio_mean)},
               {"ratioMax", encode_number(m.ratio_max)},
               {"numTokens", m.num_tokens},
               {"numTruncated", m.num_truncated},
               {"fracRewardZeroStd", m.frac_reward_zero_std}};
  Json resolved{{"groupSize", config.group_size},
                {"lossType", loss_type_name(config.loss_type)},
                {"scaleRewards", scale_rewards_name(config.scale_rewards)},
                {"advantageEstimator", advantage_estimator_name(config.advantage_estimator)},
                {"epsLow", config.eps_low},
                {"epsHigh", config.eps_high},
                {"beta", config.beta},
                {"maxCompletionLength", config.max_completion_length},
                {"importanceSamplingLevel", importance_level_name(config.importance_level)},
                {"maskTruncated", config.mask_truncated}};
  return Json{{"loss", encode_number(r.loss)},
              {"advantages", encode_numbers(r.advantages)},
              {"gradLogProbs", grad},
              {"metrics", metrics},
              {"config", resolved}};
}

}  // namespace

void register_objective_methods(Registry& registry) {
  registry["grpoObjective"] = grpo_objective_method;
}

}  // namespace grpo::api
