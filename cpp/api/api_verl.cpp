// JSON API methods verlAdvantages, verlAggLoss, verlPolicyLoss and verlKlPenalty: verl v0.7.0's
// functions of verl/trainer/ppo/core_algos.py (rl/verl_*.h, docs/verl.md), verl's argument names
// in camelCase, verl's defaults for what is left out, verl's metric names as keys.
#include <optional>
#include <string>
#include <vector>

#include "api/api.h"
#include "core/errors.h"
#include "rl/verl_advantages.h"
#include "rl/verl_agg_loss.h"
#include "rl/verl_kl_penalty.h"
#include "rl/verl_policy_loss.h"

namespace grpo::api {
namespace {

using verl::Matrix;

// A [B][T] argument: a rectangle of finite numbers, of the shape given (0: any).
Matrix matrix(const Json& args, const char* name, std::size_t rows = 0, std::size_t cols = 0) {
  Matrix m = number_rows(args, name);
  verl::check_matrix(name, m, rows, cols);
  return m;
}

Matrix mask_matrix(const Json& args, const char* name, std::size_t rows, std::size_t cols) {
  Matrix m = number_rows(args, name);
  verl::check_mask(name, m, rows, cols);
  return m;
}

Json encode_matrix(const Matrix& m) {
  Json out = Json::array();
  for (const auto& row : m) out.push_back(encode_numbers(row));
  return out;
}

// verl's uid per row: numbers and strings, kept apart ("n:1" is not "s:1").
std::vector<std::string> index_keys(const Json& args, std::size_t rows) {
  const Json& value = as_array(args.at("index"), "index", rows);
  require_size("index", value.size(), rows);
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < value.size(); ++i) {
    const Json& item = value[i];
    const std::string what = FieldName("index", i).text();
    if (item.is_string()) {
      keys.push_back("s:" + as_string(item, what));
    } else if (item.is_number()) {
      const double x = item.get<double>();
      require_finite(FieldName("index", i), x);
      keys.push_back("n:" + format_number(x == 0.0 ? 0.0 : x));  // -0 == 0, as Python's dict
    } else {
      throw_wrong_kind(what, item, "not_a_number", "a number or a string (the row's uid)");
    }
  }
  return keys;
}

std::optional<double> optional_number(const Json& args, const char* name,
                                      std::optional<double> fallback) {
  if (has(args, name)) return number(args, name);
  if (args.is_object() && args.contains(name)) return std::nullopt;  // null: verl's None
  return fallback;
}

verl::AggOptions agg_options(const Json& args) {
  verl::AggOptions options;
  options.dp_size = number_or(args, "dpSize", 1.0);
  options.batch_num_tokens = optional_number(args, "batchNumTokens", std::nullopt);
  options.global_batch_size = optional_number(args, "globalBatchSize", std::nullopt);
  options.loss_scale_factor = optional_number(args, "lossScaleFactor", std::nullopt);
  verl::check_agg_options(options);
  return options;
}

Json verl_advantages_method(const Json& args) {
  const verl::Estimator estimator = verl::parse_estimator(string(args, "estimator"));
  verl::AdvantageInputs in;
  in.token_level_rewards = matrix(args, "tokenLevelRewards");
  const std::size_t B = in.token_level_rewards.size(), T = in.token_level_rewards[0].size();
  in.response_mask = mask_matrix(args, "responseMask", B, T);
  const bool grouped = estimator != verl::Estimator::ReinforcePlusPlus &&
                       estimator != verl::Estimator::Remax && estimator != verl::Estimator::Gae;
  if (has(args, "index") || grouped) {
    if (!has(args, "index"))
      throw ArgumentTypeError(
          "required", "index", {},
          "index: is required for " + verl::estimator_names()[static_cast<std::size_t>(estimator)]);
    in.index = index_keys(args, B);
  }
  in.norm_adv_by_std_in_grpo = boolean_or(args, "normAdvByStdInGrpo", true);
  in.gamma = number_or(args, "gamma", 1.0);
  require_finite("gamma", in.gamma);
  in.lam = number_or(args, "lam", 1.0);
  require_finite("lam", in.lam);
  if (has(args, "values") || estimator == verl::Estimator::Gae) {
    in.values = matrix(args, "values", B, T);
  }
  if (has(args, "rewardBaselines") || estimator == verl::Estimator::Remax) {
    in.reward_baselines = numbers(args, "rewardBaselines");
    require_size("rewardBaselines", in.reward_baselines.size(), B);
  }
  const verl::AdvantageResult r = verl::compute_advantages(estimator, in);
  return Json{{"advantages", encode_matrix(r.advantages)}, {"returns", encode_matrix(r.returns)}};
}

Json verl_agg_loss_method(const Json& args) {
  const Matrix loss_mat = matrix(args, "lossMat");
  const Matrix mask = mask_matrix(args, "lossMask", loss_mat.size(), loss_mat[0].size());
  const verl::AggMode mode = verl::parse_agg_mode(string(args, "lossAggMode"));
  const verl::AggResult r = verl::agg_loss(loss_mat, mask, mode, agg_options(args));
  return Json{{"loss", encode_number(r.loss)}, {"gradLossMat", encode_matrix(r.weight)}};
}

Json verl_kl_penalty_method(const Json& args) {
  const Matrix logp = matrix(args, "logProb");
  const Matrix ref = matrix(args, "refLogProb", logp.size(), logp[0].size());
  const verl::KlPenalty type = verl::parse_kl_penalty(string_or(args, "klPenalty", "kl"));
  const verl::KlResult r = verl::kl_penalty(logp, ref, type);
  return Json{{"kl", encode_matrix(r.kl)}, {"gradLogProb", encode_matrix(r.grad_logp)}};
}

// ActorConfig's fields (camelCase), verl's defaults; null is verl's None.
verl::PolicyConfig policy_config(const Json& args) {
  verl::PolicyConfig c;
  if (!has(args, "config")) return c;
  const Json& config = object(args, "config");
  reject_unknown_options(
      config, {"clipRatio", "clipRatioLow", "clipRatioHigh", "clipRatioC", "tauPos", "tauNeg",
               "clipCovRatio", "clipCovLb", "clipCovUb", "klCovRatio", "ppoKlCoef",
               "lossScaleFactor", "dpSize", "batchNumTokens", "globalBatchSize"});
  c.clip_ratio = number_or(config, "clipRatio", c.clip_ratio);
  c.clip_ratio_low = optional_number(config, "clipRatioLow", c.clip_ratio_low);
  c.clip_ratio_high = optional_number(config, "clipRatioHigh", c.clip_ratio_high);
  c.clip_ratio_c = number_or(config, "clipRatioC", c.clip_ratio_c);
  c.tau_pos = number_or(config, "tauPos", c.tau_pos);
  c.tau_neg = number_or(config, "tauNeg", c.tau_neg);
  c.clip_cov_ratio = optional_number(config, "clipCovRatio", c.clip_cov_ratio);
  c.clip_cov_lb = optional_number(config, "clipCovLb", c.clip_cov_lb);
  c.clip_cov_ub = optional_number(config, "clipCovUb", c.clip_cov_ub);
  c.kl_cov_ratio = optional_number(config, "klCovRatio", c.kl_cov_ratio);
  c.ppo_kl_coef = optional_number(config, "ppoKlCoef", c.ppo_kl_coef);
  c.global_batch_info = agg_options(config);
  return c;
}

std::vector<verl::Token> token_pairs(const Json& args, const char* name) {
  const Json& value = as_array(args.at(name), name, verl::kMaxCells);
  std::vector<verl::Token> out;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const std::string what = FieldName(name, k).text();
    const Json& pair = as_array(value[k], what, 2);
    require_size(FieldName(name, k), pair.size(), 2);
    const double row = as_number(pair[0], what + "[0]"), col = as_number(pair[1], what + "[1]");
    require_integer_in_range(what + "[0]", row, 0, 1e9);
    require_integer_in_range(what + "[1]", col, 0, 1e9);
    out.emplace_back(static_cast<std::size_t>(row), static_cast<std::size_t>(col));
  }
  return out;
}

Json verl_policy_loss_method(const Json& args) {
  const verl::LossMode mode = verl::parse_loss_mode(string_or(args, "lossMode", "vanilla"));
  verl::PolicyInputs in;
  in.logp = matrix(args, "logProb");
  const std::size_t B = in.logp.size(), T = in.logp[0].size();
  const bool reinforce = mode == verl::LossMode::Reinforce;
  if (!reinforce || has(args, "oldLogProb")) in.old_logp = matrix(args, "oldLogProb", B, T);
  in.advantages = matrix(args, "advantages", B, T);
  in.mask = mask_matrix(args, "responseMask", B, T);
  if (reinforce || has(args, "rolloutLogProb"))
    in.rollout_logp = matrix(args, "rolloutLogProb", B, T);
  if (has(args, "rolloutIsWeights")) in.rollout_is_weights = matrix(args, "rolloutIsWeights", B, T);
  const bool cov = mode == verl::LossMode::ClipCov || mode == verl::LossMode::KlCov;
  if (has(args, "selectedTokens")) {
    require_coded(cov, "needs_field", "selectedTokens", [] {
      return std::pair<MessageParams, std::string>{
          {{"other", std::string("lossMode clip_cov or kl_cov")}},
          "selectedTokens: needs lossMode clip_cov or kl_cov"};
    });
    in.selected_tokens = token_pairs(args, "selectedTokens");
  }
  // The function's own default: seq-mean-token-sum for reinforce, token-mean for the others.
  in.agg_mode = verl::parse_agg_mode(
      string_or(args, "lossAggMode", reinforce ? "seq-mean-token-sum" : "token-mean"));
  const verl::PolicyConfig config = policy_config(args);
  verl::check_policy_config(config, mode);
  const verl::PolicyResult r = verl::policy_loss(mode, config, in);
  Json metrics = Json::object();
  for (const auto& entry : r.metrics) metrics[entry.first] = encode_number(entry.second);
  Json out{{"pgLoss", encode_number(r.loss)},
           {"metrics", metrics},
           {"gradLogProb", encode_matrix(r.grad_logp)}};
  if (cov) {
    Json selected = Json::array();
    for (const verl::Token& token : r.selected) selected.push_back({token.first, token.second});
    out["selectedTokens"] = selected;
  }
  return out;
}

}  // namespace

void register_verl_methods(Registry& registry) {
  registry["verlAdvantages"] = verl_advantages_method;
  registry["verlAggLoss"] = verl_agg_loss_method;
  registry["verlPolicyLoss"] = verl_policy_loss_method;
  registry["verlKlPenalty"] = verl_kl_penalty_method;
}

}  // namespace grpo::api
