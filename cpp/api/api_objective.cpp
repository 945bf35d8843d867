// JSON API methods grpoObjective (the GRPO objective of one batch, rl/grpo_objective.h),
// tokenTermCurve (one token's term per loss type, rl/token_terms.h) and lossNormalizer (a
// completion's normaliser, core/reductions.h) and softOverlongPunishment (DAPO's third reward).
// Option keys a method does not read are rejected by the dispatch (api.cpp).
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "api/api.h"
#include "core/errors.h"
#include "rl/grpo_objective.h"
#include "rl/token_terms.h"
#include "rl/trainer.h"  // soft_overlong_punishment

namespace grpo::api {
namespace {

// An integer argument that must fit an int: `name: must be an integer >= min, got x`.
int bounded_int(long long value, const char* name, long long min) {
  constexpr long long kMax = 1LL << 30;
  require_integer_in_range(name, static_cast<double>(value), static_cast<double>(min), kMax);
  return static_cast<int>(value);
}

// An optional array of booleans, one per completion.
std::vector<bool> booleans_or_empty(const Json& args, const char* name) {
  if (!has(args, name)) return {};
  const Json& value = args[name];
  if (!value.is_array()) throw_wrong_kind(name, value, "not_an_array", "an array of booleans");
  std::vector<bool> out;
  out.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    if (!value[i].is_boolean())
      throw_wrong_kind(FieldName(name, i).text(), value[i], "not_a_boolean", "true or false");
    out.push_back(value[i].get<bool>());
  }
  return out;
}

std::optional<Ragged> rows_or_none(const Json& args, const char* name) {
  if (!has(args, name)) return std::nullopt;
  return number_rows(args, name);
}

// The per-token term's options (grpoObjective's and tokenTermCurve's), TRL's defaults: those of
// ObjectiveConfig (TRL's None for delta: absent/null). Not validated here.
ObjectiveConfig term_config(const Json& args) {
  ObjectiveConfig config;
  config.loss_type = parse_loss_type(string_or(args, "lossType", loss_type_name(config.loss_type)));
  config.eps_low = number_or(args, "epsLow", config.eps_low);
  if (has(args, "epsHigh") && !args.at("epsHigh").is_null())
    config.eps_high = number(args, "epsHigh");
  config.sapo_temperature_pos = number_or(args, "sapoTemperaturePos", config.sapo_temperature_pos);
  config.sapo_temperature_neg = number_or(args, "sapoTemperatureNeg", config.sapo_temperature_neg);
  config.vespo_k_pos = number_or(args, "vespoKPos", config.vespo_k_pos);
  config.vespo_lambda_pos = number_or(args, "vespoLambdaPos", config.vespo_lambda_pos);
  config.vespo_k_neg = number_or(args, "vespoKNeg", config.vespo_k_neg);
  config.vespo_lambda_neg = number_or(args, "vespoLambdaNeg", config.vespo_lambda_neg);
  if (has(args, "delta")) config.delta = number(args, "delta");
  return config;
}

// The inspector's decomposition (TokenTerm, rl/grpo_objective.h) as JSON.
Json token_terms_json(const std::vector<std::vector<TokenTerm>>& terms) {
  Json rows = Json::array();
  for (const std::vector<TokenTerm>& row : terms) {
    // One object of columns per completion (a token's numbers at the same index).
    Json columns = Json::object();
    auto column = [&](const char* name, auto get) {
      Json values = Json::array();
      for (const TokenTerm& term : row) values.push_back(get(term));
      columns[name] = std::move(values);
    };
    column("ratio", [](const TokenTerm& x) { return encode_number(x.ratio); });
    column("termRatio", [](const TokenTerm& x) { return encode_number(x.term_ratio); });
    column("policy", [](const TokenTerm& x) { return encode_number(x.policy); });
    column("coefficient", [](const TokenTerm& x) { return encode_number(x.coefficient); });
    column("shared", [](const TokenTerm& x) { return x.shared; });
    column("share", [](const TokenTerm& x) { return encode_number(x.share); });
    column("sampler", [](const TokenTerm& x) { return encode_number(x.sampler); });
    column("entropyKept", [](const TokenTerm& x) { return x.entropy_kept; });
    column("offPolicyKept", [](const TokenTerm& x) { return x.off_policy_kept; });
    column("clippedLow", [](const TokenTerm& x) { return x.clipped_low; });
    column("clippedHigh", [](const TokenTerm& x) { return x.clipped_high; });
    column("kl", [](const TokenTerm& x) { return encode_number(x.kl); });
    column("klGrad", [](const TokenTerm& x) { return encode_number(x.kl_grad); });
    column("normalizer", [](const TokenTerm& x) { return encode_number(x.normalizer); });
    column("active", [](const TokenTerm& x) { return x.active; });
    column("weight", [](const TokenTerm& x) { return encode_number(x.weight); });
    rows.push_back(std::move(columns));
  }
  return rows;
}

Json grpo_objective_method(const Json& args) {
  ObjectiveInputs in;
  in.logp = number_rows(args, "logProbs");
  in.old_logp = rows_or_none(args, "oldLogProbs");
  in.ref_logp = rows_or_none(args, "refLogProbs");
  in.entropies = rows_or_none(args, "entropies");
  in.truncated = booleans_or_empty(args, "truncated");
  in.sampling_logp = rows_or_none(args, "samplingLogProbs");

  const int group_size = bounded_int(integer(args, "groupSize"), "groupSize", 2);
  ObjectiveConfig config = term_config(args);
  config.group_size = group_size;
  const RewardAggregation aggregation =
      parse_reward_aggregation(string_or(args, "multiObjectiveAggregation", "sum_then_normalize"));
  config.scale_rewards =
      aggregated_scale(parse_scale_rewards(string_or(args, "scaleRewards",
                                                     scale_rewards_name(config.scale_rewards))),
                       aggregation);
  std::optional<std::vector<double>> weights;
  if (has(args, "advantages")) {
    // A mini-batch of a larger generation (the trainer's stepsPerGeneration > 1): its
    // advantages as they are, and TRL's num_items_in_batch (below); no rewards are read.
    for (const char* other : {"rewards", "rewardsPerFunc"})
      require_coded(!has(args, other), "exclusive", other, [&] {
        return std::pair<MessageParams, std::string>{
            {{"other", std::string("advantages")}},
            std::string(other) + ": give rewards or advantages, not both"};
      });
    in.advantages = numbers(args, "advantages");
    require_not_empty("advantages", in.advantages->size());
  } else if (has(args, "rewardsPerFunc")) {
    // TRL's rewards_per_func [N][F] with reward_weights [F] (default: all 1).
    require_coded(!has(args, "rewards"), "exclusive", "rewards", [] {
      return std::pair<MessageParams, std::string>{
          {{"other", std::string("rewardsPerFunc")}},
          "rewards: give rewards or rewardsPerFunc, not both"};
    });
    const Ragged per_func = number_rows(args, "rewardsPerFunc");
    weights = has(args, "rewardWeights")
                  ? numbers(args, "rewardWeights")
                  : std::vector<double>(per_func.empty() ? 1 : per_func[0].size(), 1.0);
    in.rewards = aggregate_rewards(per_func, *weights, group_size, aggregation);
  } else {
    require_coded(!has(args, "rewardWeights"), "needs_field", "rewardWeights", [] {
      return std::pair<MessageParams, std::string>{{{"other", std::string("rewardsPerFunc")}},
                                                   "rewardWeights: needs rewardsPerFunc"};
    });
    in.rewards = numbers(args, "rewards");
    // One reward function: normalize_then_sum normalises it in its group first.
    if (aggregation == RewardAggregation::NormalizeThenSum)
      in.rewards = grpo_advantages(in.rewards, group_size, ScaleRewards::Group);
  }
  // TRL's defaults (ObjectiveConfig's): maxCompletionLength 256, dr_grpo's normaliser's length.
  config.advantage_estimator = parse_advantage_estimator(
      string_or(args, "advantageEstimator", advantage_estimator_name(config.advantage_estimator)));
  config.beta = number_or(args, "beta", config.beta);
  config.max_completion_length =
      bounded_int(integer_or(args, "maxCompletionLength", config.max_completion_length),
                  "maxCompletionLength", 1);
  config.importance_level = parse_importance_level(
      string_or(args, "importanceSamplingLevel", importance_level_name(config.importance_level)));
  config.mask_truncated = boolean_or(args, "maskTruncated", config.mask_truncated);
  config.top_entropy_quantile = number_or(args, "topEntropyQuantile", config.top_entropy_quantile);
  if (has(args, "offPolicyMaskThreshold"))
    config.off_policy_mask_threshold = number(args, "offPolicyMaskThreshold");
  config.use_bias_correction_kl =
      boolean_or(args, "useBiasCorrectionKl", config.use_bias_correction_kl);
  config.entropy_coef = number_or(args, "entropyCoef", config.entropy_coef);
  config.vllm_importance_sampling_correction = boolean_or(
      args, "vllmImportanceSamplingCorrection", config.vllm_importance_sampling_correction);
  config.vllm_importance_sampling_mode = parse_sampler_correction(string_or(
      args, "vllmImportanceSamplingMode",
      sampler_correction_names()[static_cast<int>(config.vllm_importance_sampling_mode)]));
  if (has(args, "vllmImportanceSamplingClipMin"))
    config.vllm_importance_sampling_clip_min = number(args, "vllmImportanceSamplingClipMin");
  // Absent: TRL's 3.0; null: TRL's None, no upper bound.
  const char* clip_max = "vllmImportanceSamplingClipMax";
  if (has(args, clip_max))
    config.vllm_importance_sampling_clip_max = number(args, clip_max);
  else if (args.contains(clip_max))
    config.vllm_importance_sampling_clip_max = std::nullopt;

  if (has(args, "numItemsInBatch")) {
    const double items = number(args, "numItemsInBatch");
    require_in_range("numItemsInBatch", items, 0, 1e12);
    in.num_items_in_batch = items;
  }
  in.token_terms = boolean_or(args, "tokenTerms", false);

  config.validate();  // the one check of these values: grpo_objective takes them as valid
  config.check_sampler_relations(in.sampling_logp.has_value());
  const ObjectiveResult r = grpo_objective(config, in);

  Json grad = Json::array();
  for (const auto& row : r.grad_logp) grad.push_back(encode_numbers(row));
  Json grad_entropy = Json(nullptr);
  if (in.entropies) {
    grad_entropy = Json::array();
    for (const auto& row : r.grad_entropy) grad_entropy.push_back(encode_numbers(row));
  }
  const ObjectiveMetrics& m = r.metrics;
  auto clip_metric = [&](double value) {
    return m.has_clip_ratio ? encode_number(value) : Json(nullptr);  // TRL logs none for them
  };
  auto sampling_metric = [&](double value) {
    return m.has_sampling_ratio ? encode_number(value) : Json(nullptr);  // no sampler: none
  };
  Json metrics{
      {"clipRatioLowMean", clip_metric(m.clip_ratio_low_mean)},
      {"clipRatioLowMin", clip_metric(m.clip_ratio_low_min)},
      {"clipRatioHighMean", clip_metric(m.clip_ratio_high_mean)},
      {"clipRatioHighMax", clip_metric(m.clip_ratio_high_max)},
      {"clipRatioRegionMean", clip_metric(m.clip_ratio_region_mean)},
      {"cispoClipRatio",
       m.has_cispo_clip_ratio ? encode_number(m.cispo_clip_ratio) : Json(nullptr)},
      {"vespoPhiSeqMean", m.has_vespo_phi ? encode_number(m.vespo_phi_seq_mean) : Json(nullptr)},
      {"numEntropyMasked", m.num_entropy_masked},
      {"numOffPolicyMasked", m.num_off_policy_masked},
      {"kl", m.has_kl ? encode_number(m.kl) : Json(nullptr)},
      {"entropy", m.has_entropy ? encode_number(m.entropy) : Json(nullptr)},
      {"ratioMin", encode_number(m.ratio_min)},
      {"ratioMean", encode_number(m.ratio_mean)},
      {"ratioMax", encode_number(m.ratio_max)},
      {"numTokens", m.num_tokens},
      {"numTruncated", m.num_truncated},
      {"fracRewardZeroStd", m.frac_reward_zero_std},
      {"samplingImportanceRatioMin", sampling_metric(m.sampling_ratio_min)},
      {"samplingImportanceRatioMean", sampling_metric(m.sampling_ratio_mean)},
      {"samplingImportanceRatioMax", sampling_metric(m.sampling_ratio_max)},
      {"samplingLogpDifferenceMean", sampling_metric(m.sampling_logp_difference_mean)},
      {"samplingLogpDifferenceMax", sampling_metric(m.sampling_logp_difference_max)}};
  Json resolved = objective_settings_json(config);
  resolved["epsHigh"] = config.eps_high_value();  // resolved: None is epsilon
  resolved["multiObjectiveAggregation"] = reward_aggregation_names()[static_cast<int>(aggregation)];
  resolved["rewardWeights"] = weights ? encode_numbers(*weights) : Json(nullptr);
  Json out{{"loss", encode_number(r.loss)},
           {"rewards", encode_numbers(in.rewards)},
           {"advantages", encode_numbers(r.advantages)},
           {"gradLogProbs", grad},
           {"gradEntropies", grad_entropy},
           {"metrics", metrics},
           {"config", resolved}};
  if (in.token_terms) out["tokenTerms"] = token_terms_json(r.token_terms);
  return out;
}

// Section 3's curves: J or w of one token of one completion (the options of grpoObjective but
// the batch: no rewards, group or log-probs).
Json token_term_curve_method(const Json& args) {
  ObjectiveConfig config = term_config(args);
  const std::vector<std::string>& views = term_view_names();
  const std::string view_text = string_or(args, "view", "objective");
  const auto view = static_cast<TermView>(require_one_of("view", view_text, views));
  config.validate();
  return encode_numbers(
      token_term_curve(config, view, numbers(args, "ratios"), numbers(args, "advantages")));
}

// Section 4: D_i of a completion of `length` tokens in a batch of `completions` holding
// `totalTokens` unmasked tokens, max_completion_length `maxCompletionLength`.
Json loss_normalizer_method(const Json& args) {
  const LossType type = parse_loss_type(string(args, "lossType", 64));
  constexpr double kMax = 1e9;
  const double completions = static_cast<double>(integer(args, "completions"));
  require_integer_in_range("completions", completions, 1, kMax);
  const double length = static_cast<double>(integer(args, "length"));
  require_integer_in_range("length", length, 1, kMax);
  const double total = static_cast<double>(integer(args, "totalTokens"));
  require_integer_in_range("totalTokens", total, length, kMax);
  const double longest = static_cast<double>(integer(args, "maxCompletionLength"));
  require_integer_in_range("maxCompletionLength", longest, length, kMax);
  return Json(loss_normalizer(type, completions, length, total, longest));
}

// DAPO's soft overlong punishment of completions of `lengths` tokens (TRL's
// get_soft_overlong_punishment(max_completion_len, soft_punish_cache)): a third reward function
// for grpoObjective's rewardsPerFunc.
Json soft_overlong_punishment_method(const Json& args) {
  constexpr double kMax = 1e9;
  const double longest = static_cast<double>(integer(args, "maxCompletionLen"));
  require_integer_in_range("maxCompletionLen", longest, 1, kMax);
  // TRL takes any cache (other_rewards.py 132: cache > max ramps from below 0); 0 has no ramp.
  const double cache = static_cast<double>(integer(args, "softPunishCache"));
  require_integer_in_range("softPunishCache", cache, 0, kMax);
  const std::vector<double> lengths = numbers(args, "lengths");
  std::vector<double> out(lengths.size());
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    require_integer_in_range(FieldName("lengths", i), lengths[i], 0, kMax);
    out[i] = soft_overlong_punishment(static_cast<int>(lengths[i]), static_cast<int>(longest),
                                      static_cast<int>(cache));
  }
  return encode_numbers(out);
}

}  // namespace

Json objective_settings_json(const ObjectiveConfig& c) {
  auto optional_number = [](const std::optional<double>& value) {
    return value ? Json(*value) : Json(nullptr);
  };
  return Json{
      {"groupSize", c.group_size},
      {"lossType", loss_type_name(c.loss_type)},
      {"scaleRewards", scale_rewards_name(c.scale_rewards)},
      {"advantageEstimator", advantage_estimator_name(c.advantage_estimator)},
      {"epsLow", c.eps_low},
      {"epsHigh", optional_number(c.eps_high)},
      {"beta", c.beta},
      {"maxCompletionLength", c.max_completion_length},
      {"importanceSamplingLevel", importance_level_name(c.importance_level)},
      {"maskTruncated", c.mask_truncated},
      {"sapoTemperaturePos", c.sapo_temperature_pos},
      {"sapoTemperatureNeg", c.sapo_temperature_neg},
      {"vespoKPos", c.vespo_k_pos},
      {"vespoLambdaPos", c.vespo_lambda_pos},
      {"vespoKNeg", c.vespo_k_neg},
      {"vespoLambdaNeg", c.vespo_lambda_neg},
      {"delta", optional_number(c.delta)},
      {"topEntropyQuantile", c.top_entropy_quantile},
      {"offPolicyMaskThreshold", optional_number(c.off_policy_mask_threshold)},
      {"useBiasCorrectionKl", c.use_bias_correction_kl},
      {"entropyCoef", c.entropy_coef},
      {"vllmImportanceSamplingCorrection", c.vllm_importance_sampling_correction},
      {"vllmImportanceSamplingMode",
       sampler_correction_names()[static_cast<int>(c.vllm_importance_sampling_mode)]},
      {"vllmImportanceSamplingClipMin", optional_number(c.vllm_importance_sampling_clip_min)},
      {"vllmImportanceSamplingClipMax", optional_number(c.vllm_importance_sampling_clip_max)}};
}

void register_objective_curves(Registry& registry) {
  registry["tokenTermCurve"] = token_term_curve_method;
  registry["lossNormalizer"] = loss_normalizer_method;
  registry["softOverlongPunishment"] = soft_overlong_punishment_method;
}

void register_objective_methods(Registry& registry) {
  register_objective_curves(registry);
  registry["grpoObjective"] = grpo_objective_method;
}

}  // namespace grpo::api
