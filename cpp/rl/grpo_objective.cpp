// The GRPO objective of one batch (TRL GRPOTrainer semantics): see grpo_objective.h.
#include "rl/grpo_objective.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"
#include "rl/config_fields.h"
#include "rl/loss_terms.h"
#include "rl/token_terms.h"

namespace grpo {
namespace {

std::string index_name(const char* name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// groupSize >= 2, and `n` rows of `name` in whole groups of it.
void check_whole_groups(const char* name, std::size_t n, int group_size) {
  require(group_size >= 2,
          [&] { return "groupSize: must be an integer >= 2, got " + std::to_string(group_size); });
  require(n > 0 && n % static_cast<std::size_t>(group_size) == 0, [&] {
    return std::string(name) + ": length must be a positive multiple of groupSize (" +
           std::to_string(group_size) + "), got " + std::to_string(n);
  });
}

// The advantages of `rewards` in groups of `group_size`, after checking both.
GroupAdvantages checked_advantages(const std::vector<double>& rewards, int group_size,
                                   ScaleRewards scale, AdvantageEstimator estimator) {
  const std::size_t n = rewards.size();
  check_whole_groups("rewards", n, group_size);
  const std::size_t g = static_cast<std::size_t>(group_size);
  for (std::size_t i = 0; i < n; ++i)
    if (!std::isfinite(rewards[i]))
      throw InvalidArgument(index_name("rewards", i) + ": must be a finite number, got " +
                            format_number(rewards[i]));
  return group_advantages(rewards, g, scale, estimator);
}

// Checks a ragged input: one row per completion, row lengths as `shape` (when given), finite.
// Messages are built only on failure (this runs on every token of every update).
void check_rows(const Ragged& rows, std::size_t n, const Ragged* shape, const char* name,
                const char* shape_name) {
  require(rows.size() == n, [&] {
    return std::string(name) + ": must have one row per reward (" + std::to_string(n) + "), got " +
           std::to_string(rows.size());
  });
  for (std::size_t i = 0; i < n; ++i) {
    if (shape != nullptr && rows[i].size() != (*shape)[i].size())
      throw InvalidArgument(index_name(name, i) + ": length must equal " +
                            index_name(shape_name, i) + " (" + std::to_string((*shape)[i].size()) +
                            "), got " + std::to_string(rows[i].size()));
    for (std::size_t t = 0; t < rows[i].size(); ++t)
      if (!std::isfinite(rows[i][t]))
        throw InvalidArgument(index_name(name, i) + "[" + std::to_string(t) +
                              "]: must be a finite number, got " + format_number(rows[i][t]));
  }
}

// The share of rows whose scaling std is 0 (torch.isclose(std, 0)).
double zero_std_fraction(const GroupAdvantages& adv) {
  long long zero_std = 0;
  for (double s : adv.scale_std) zero_std += s <= 1e-8 ? 1 : 0;
  return static_cast<double>(zero_std) / static_cast<double>(adv.scale_std.size());
}

}  // namespace

const std::vector<std::string>& loss_type_names() {
  static const std::vector<std::string> names = {"grpo",  "bnpo", "dr_grpo", "dapo",
                                                 "cispo", "sapo", "luspo",   "vespo"};
  return names;
}

const std::vector<std::string>& scale_rewards_names() {
  static const std::vector<std::string> names = {"group", "batch", "none"};
  return names;
}

const std::vector<std::string>& sampler_correction_names() {
  static const std::vector<std::string> names = {"token_truncate", "token_mask",
                                                 "sequence_truncate", "sequence_mask"};
  return names;
}

const std::vector<std::string>& importance_level_names() {
  static const std::vector<std::string> names = {"token", "sequence"};
  return names;
}

const std::vector<std::string>& reward_aggregation_names() {
  static const std::vector<std::string> names = {"sum_then_normalize", "normalize_then_sum"};
  return names;
}

namespace {

// The enum value spelled `text`, checked as the config table's field `name`.
template <class Enum>
Enum parse_option(const char* name, const std::string& text) {
  const FieldSpec& spec = field(name);
  const int index = option_index(spec, text);
  check_field(spec, index, text);
  return static_cast<Enum>(index);
}

}  // namespace

LossType parse_loss_type(const std::string& text) {
  return parse_option<LossType>("lossType", text);
}

ScaleRewards parse_scale_rewards(const std::string& text) {
  return parse_option<ScaleRewards>("scaleRewards", text);
}

ImportanceLevel parse_importance_level(const std::string& text) {
  return parse_option<ImportanceLevel>("importanceSamplingLevel", text);
}

SamplerCorrection parse_sampler_correction(const std::string& text) {
  return parse_option<SamplerCorrection>("vllmImportanceSamplingMode", text);
}

AdvantageEstimator parse_advantage_estimator(const std::string& text) {
  return parse_option<AdvantageEstimator>("advantageEstimator", text);
}

RewardAggregation parse_reward_aggregation(const std::string& text) {
  return parse_option<RewardAggregation>("multiObjectiveAggregation", text);
}

const char* loss_type_name(LossType value) {
  return loss_type_names().at(static_cast<std::size_t>(value)).c_str();
}

const char* scale_rewards_name(ScaleRewards value) {
  return scale_rewards_names().at(static_cast<std::size_t>(value)).c_str();
}

const char* importance_level_name(ImportanceLevel value) {
  return importance_level_names().at(static_cast<std::size_t>(value)).c_str();
}

void ObjectiveConfig::validate() const {
  require(group_size >= 2,
          [&] { return "groupSize: must be an integer >= 2, got " + std::to_string(group_size); });
  // The clip range is the config table's (the toy experiment's fields epsLow, epsHigh).
  check_field(field("epsLow"), eps_low);
  if (eps_high) check_field(field("epsHigh"), *eps_high);
  require(beta >= 0.0 && std::isfinite(beta),
          [&] { return "beta: must be a finite number >= 0, got " + format_number(beta); });
  require(max_completion_length >= 1, [&] {
    return "maxCompletionLength: must be an integer >= 1, got " +
           std::to_string(max_completion_length);
  });
  // TRL 1.9's options: the config table's ranges where they are training fields; delta,
  // offPolicyMaskThreshold (None by default) and entropyCoef are grpoObjective's only for now.
  check_field(field("sapoTemperaturePos"), sapo_temperature_pos);
  check_field(field("sapoTemperatureNeg"), sapo_temperature_neg);
  check_field(field("vespoKPos"), vespo_k_pos);
  check_field(field("vespoLambdaPos"), vespo_lambda_pos);
  check_field(field("vespoKNeg"), vespo_k_neg);
  check_field(field("vespoLambdaNeg"), vespo_lambda_neg);
  if (delta) check_field(field("delta"), *delta);
  check_field(field("topEntropyQuantile"), top_entropy_quantile);
  if (off_policy_mask_threshold)
    check_field(field("offPolicyMaskThreshold"), *off_policy_mask_threshold);
  check_field(field("entropyCoef"), entropy_coef);
  if (vllm_importance_sampling_clip_max)
    check_field(field("vllmImportanceSamplingClipMax"), *vllm_importance_sampling_clip_max);
  if (vllm_importance_sampling_clip_min)
    check_field(field("vllmImportanceSamplingClipMin"), *vllm_importance_sampling_clip_min);
  // VESPO at importance_sampling_level "sequence" only warns in TRL (grpo_trainer.py 897): its
  // phi reads the token log-ratios whatever the level, so the run is defined, and accepted.
  check_relations();
}

// TRL's rules between these fields, at v1.9.0 (docs/trl.md "Configs TRL refuses").
void ObjectiveConfig::check_relations() const {
  const auto& min = vllm_importance_sampling_clip_min;
  const auto& max = vllm_importance_sampling_clip_max;
  // grpo_config.py 1131: clip_min must be less than clip_max.
  if (min && max)
    require_less_than_field("vllmImportanceSamplingClipMin", *min, "vllmImportanceSamplingClipMax",
                            *max);
  // grpo_config.py 1141: a *_truncate mode clamps, so it needs a bound (while correcting).
  const SamplerCorrection mode = vllm_importance_sampling_mode;
  const bool truncate =
      mode == SamplerCorrection::TokenTruncate || mode == SamplerCorrection::SequenceTruncate;
  require_coded(!(vllm_importance_sampling_correction && truncate && !min && !max),
                "truncate_needs_bound", "vllmImportanceSamplingClipMax", [&] {
                  const std::string name = sampler_correction_names()[static_cast<int>(mode)];
                  return std::pair<MessageParams, std::string>{
                      {{"other", std::string("vllmImportanceSamplingClipMin")}, {"mode", name}},
                      "vllmImportanceSamplingClipMax: vllmImportanceSamplingMode " + name +
                          " clips the ratios, so vllmImportanceSamplingClipMax or "
                          "vllmImportanceSamplingClipMin must be set; both are None"};
                });
}

void ObjectiveConfig::check_sampler_relations(bool sampler) const {
  // grpo_trainer.py 911: VESPO folds the sampler's per-token weights into its own; TRL refuses a
  // sequence-level correction for it when vLLM samples (here: a sampler of its own).
  const SamplerCorrection mode = vllm_importance_sampling_mode;
  const bool token_mode =
      mode == SamplerCorrection::TokenTruncate || mode == SamplerCorrection::TokenMask;
  require_coded(!(loss_type == LossType::Vespo && sampler && vllm_importance_sampling_correction &&
                  !token_mode),
                "one_of_with", "vllmImportanceSamplingMode", [&] {
                  const std::string got = sampler_correction_names()[static_cast<int>(mode)];
                  return std::pair<MessageParams, std::string>{
                      {{"options", std::string("token_truncate, token_mask")},
                       {"other", std::string("lossType")},
                       {"value", std::string("vespo")},
                       {"got", got}},
                      "vllmImportanceSamplingMode: must be one of token_truncate, token_mask "
                      "with lossType vespo, got " +
                          got};
                });
}

std::vector<double> grpo_advantages(const std::vector<double>& rewards, int group_size,
                                    ScaleRewards scale, AdvantageEstimator estimator) {
  return checked_advantages(rewards, group_size, scale, estimator).values;
}

double frac_reward_zero_std(const std::vector<double>& rewards, int group_size, ScaleRewards scale,
                            AdvantageEstimator estimator) {
  return zero_std_fraction(checked_advantages(rewards, group_size, scale, estimator));
}

std::vector<double> aggregate_rewards(const Ragged& per_func, const std::vector<double>& weights,
                                      int group_size, RewardAggregation aggregation) {
  const std::size_t n = per_func.size(), functions = weights.size();
  require_not_empty("rewardWeights", functions);
  for (std::size_t f = 0; f < functions; ++f)
    require_finite(FieldName("rewardWeights", f), weights[f]);
  check_whole_groups("rewardsPerFunc", n, group_size);
  for (std::size_t i = 0; i < n; ++i) {
    require_same_length(FieldName("rewardsPerFunc", i), per_func[i].size(), "rewardWeights",
                        functions);
    for (std::size_t f = 0; f < functions; ++f)
      if (!std::isfinite(per_func[i][f]))
        throw InvalidArgument(index_name("rewardsPerFunc", i) + "[" + std::to_string(f) +
                              "]: must be a finite number, got " + format_number(per_func[i][f]));
  }
  std::vector<double> out(n, 0.0), values(n);
  for (std::size_t f = 0; f < functions; ++f) {
    for (std::size_t i = 0; i < n; ++i) values[i] = per_func[i][f];
    if (aggregation == RewardAggregation::NormalizeThenSum)
      values = grpo_advantages(values, group_size, ScaleRewards::Group);
    for (std::size_t i = 0; i < n; ++i) out[i] += weights[f] * values[i];
  }
  return out;
}

ScaleRewards aggregated_scale(ScaleRewards scale, RewardAggregation aggregation) {
  return aggregation == RewardAggregation::NormalizeThenSum ? ScaleRewards::Batch : scale;
}

ObjectiveResult grpo_objective(const ObjectiveConfig& config, const ObjectiveInputs& inputs) {
  // --- Validation of the inputs (config is valid): nothing is computed before. ---------------
  GroupAdvantages adv;
  if (inputs.advantages) {
    adv.values = *inputs.advantages;  // the trainer's, computed over the whole generation
    require(!adv.values.empty(), "advantages: must not be empty");
  } else {
    adv = checked_advantages(inputs.rewards, config.group_size, config.scale_rewards,
                             config.advantage_estimator);
  }
  const std::size_t n = adv.values.size();
  const Ragged& logp = inputs.logp;
  check_rows(logp, n, nullptr, "logProbs", "logProbs");
  for (std::size_t i = 0; i < n; ++i)
    if (logp[i].size() > static_cast<std::size_t>(config.max_completion_length))
      throw InvalidArgument(index_name("logProbs", i) + ": length " +
                            std::to_string(logp[i].size()) + " exceeds maxCompletionLength (" +
                            std::to_string(config.max_completion_length) + ")");
  if (inputs.old_logp) check_rows(*inputs.old_logp, n, &logp, "oldLogProbs", "logProbs");
  require(config.beta == 0.0 || inputs.ref_logp.has_value(), [&] {
    return "refLogProbs: required when beta > 0 (beta = " + format_number(config.beta) + ")";
  });
  if (inputs.ref_logp) check_rows(*inputs.ref_logp, n, &logp, "refLogProbs", "logProbs");
  const bool entropy_masking = config.top_entropy_quantile < 1.0;
  const bool entropy_bonus = config.entropy_coef != 0.0;
  require(inputs.entropies.has_value() || !(entropy_masking || entropy_bonus), [&] {
    return std::string("entropies: required when ") +
           (entropy_masking
                ? "topEntropyQuantile < 1 (topEntropyQuantile = " +
                      format_number(config.top_entropy_quantile) + ")"
                : "entropyCoef > 0 (entropyCoef = " + format_number(config.entropy_coef) + ")");
  });
  if (inputs.entropies) check_rows(*inputs.entropies, n, &logp, "entropies", "logProbs");
  if (inputs.sampling_logp)
    check_rows(*inputs.sampling_logp, n, &logp, "samplingLogProbs", "logProbs");
  require(inputs.truncated.empty() || inputs.truncated.size() == n, [&] {
    return "truncated: must have one flag per reward (" + std::to_string(n) + "), got " +
           std::to_string(inputs.truncated.size());
  });

  // --- Loss mask and reduction weights. -------------------------------------------------------
  // Each row holds only real tokens, so a completion's mask is all ones or (masked truncated) all
  // zeros; n_i is its unmasked token count.
  ObjectiveResult result;
  result.advantages = adv.values;
  ObjectiveMetrics& metrics = result.metrics;
  std::vector<long long> active(n, 0);  // n_i
  long long total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool truncated = !inputs.truncated.empty() && inputs.truncated[i];
    metrics.num_truncated += truncated ? 1 : 0;
    active[i] = (config.mask_truncated && truncated) ? 0 : static_cast<long long>(logp[i].size());
    total += active[i];
  }
  metrics.num_tokens = total;
  const double count_n = static_cast<double>(n);
  const double total_clamped = static_cast<double>(std::max<long long>(1, total));
  const LossType loss_type = config.loss_type;
  // The token count that normalises the loss: this batch's, except that dapo/cispo/vespo take
  // the whole generation's when given (num_items_in_batch; bnpo's stays the batch's, as TRL's).
  const bool generation_normalised =
      loss_type == LossType::Cispo || loss_type == LossType::Dapo || loss_type == LossType::Vespo;
  const double loss_tokens = generation_normalised && inputs.num_items_in_batch
                                 ? std::max(1.0, *inputs.num_items_in_batch)
                                 : total_clamped;
  // 1 / D_i: the weight of each unmasked per-token loss of completion i in the scalar loss.
  auto reduction_weight = [&](std::size_t i) -> double {
    return 1.0 / loss_normalizer(config.loss_type, count_n,
                                 static_cast<double>(std::max<long long>(1, active[i])),
                                 loss_tokens, static_cast<double>(config.max_completion_length));
  };

  // --- topEntropyQuantile: keep tokens whose entropy >= the (1 - rho) quantile of the valid
  // tokens' entropies (get_high_entropy_mask); with no valid token, keep none.
  double entropy_threshold = -std::numeric_limits<double>::infinity();
  if (entropy_masking) {
    std::vector<double> valid;
    for (std::size_t i = 0; i < n; ++i)
      if (active[i] > 0)
        valid.insert(valid.end(), (*inputs.entropies)[i].begin(), (*inputs.entropies)[i].end());
    entropy_threshold = valid.empty() ? std::numeric_limits<double>::infinity()
                                      : linear_quantile(valid, 1.0 - config.top_entropy_quantile);
  }
  auto entropy_kept = [&](std::size_t i, std::size_t t) {
    return !entropy_masking || (*inputs.entropies)[i][t] >= entropy_threshold;
  };

  // --- Per-token loss, its gradient and the metrics. ------------------------------------------
  const bool sequence_level = config.importance_level == ImportanceLevel::Sequence;
  const bool has_ref = inputs.ref_logp.has_value();
  const bool clip_family = loss_type == LossType::Grpo || loss_type == LossType::Bnpo ||
                           loss_type == LossType::DrGrpo || loss_type == LossType::Dapo ||
                           loss_type == LossType::Luspo;
  double loss = 0.0;
  long long clipped_low = 0, clipped_high = 0;  // tokens (token level) or completions (sequence)
  long long cispo_clipped = 0;
  double kl_sum = 0.0, entropy_sum = 0.0, ratio_sum = 0.0, phi_sum = 0.0;
  double effective_entropy_sum = 0.0;  // over the tokens the entropy bonus sees
  long long effective_tokens = 0;
  double ratio_min = std::numeric_limits<double>::infinity();
  double ratio_max = -std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  double low_min = nan, high_max = nan;  // nanmin / nanmax over completions

  // --- The sampler correction's detached weights (loss_terms.h sampler_ratios), from
  // d = old - sampling over the valid tokens (old absent: the policy itself). With the
  // correction off, the raw ratios are still measured (TRL then logs none), not applied.
  const bool sampler_given = inputs.sampling_logp.has_value();
  const bool sampler_correction = config.vllm_importance_sampling_correction && sampler_given;
  const SamplerCorrection mode = config.vllm_importance_sampling_mode;
  const bool sequence_correction =
      mode == SamplerCorrection::SequenceTruncate || mode == SamplerCorrection::SequenceMask;
  Ragged sampler_weight;
  if (sampler_given) {
    const double inf = std::numeric_limits<double>::infinity();
    const bool mask_mode = sampler_correction && (mode == SamplerCorrection::TokenMask ||
                                                  mode == SamplerCorrection::SequenceMask);
    const double clip_min =
        sampler_correction ? config.vllm_importance_sampling_clip_min.value_or(-inf) : -inf;
    const double clip_max =
        sampler_correction ? config.vllm_importance_sampling_clip_max.value_or(inf) : inf;
    double ratio_sum = 0.0, diff_sum = 0.0, diff_max = 0.0, ratio_lo = 0.0, ratio_hi = 0.0;
    long long values = 0, diffs = 0;
    sampler_weight.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<double> d(logp[i].size(), 0.0);
      if (active[i] > 0)
        for (std::size_t t = 0; t < d.size(); ++t) {
          const double old = inputs.old_logp ? (*inputs.old_logp)[i][t] : logp[i][t];
          d[t] = old - (*inputs.sampling_logp)[i][t];
          diff_sum += std::abs(d[t]);
          diff_max = std::max(diff_max, std::abs(d[t]));
          ++diffs;
        }
      sampler_weight[i] = sampler_ratios(d, sequence_correction, mask_mode, clip_min, clip_max);
      // Statistics over the valid tokens, or one value per completion in the sequence modes.
      const std::size_t count = sequence_correction
                                    ? (sampler_weight[i].empty() ? 0 : 1)
                                    : (active[i] > 0 ? sampler_weight[i].size() : 0);
      for (std::size_t t = 0; t < count; ++t) {
        const double r = sampler_weight[i][t];
        ratio_lo = values == 0 ? r : std::min(ratio_lo, r);
        ratio_hi = values == 0 ? r : std::max(ratio_hi, r);
        ratio_sum += r;
        ++values;
      }
    }
    metrics.has_sampling_ratio = true;
    metrics.sampling_ratio_min = values > 0 ? ratio_lo : 0.0;  // TRL: 0 when there is none
    metrics.sampling_ratio_max = values > 0 ? ratio_hi : 0.0;
    metrics.sampling_ratio_mean = values > 0 ? ratio_sum / static_cast<double>(values) : 0.0;
    metrics.sampling_logp_difference_mean = diffs > 0 ? diff_sum / static_cast<double>(diffs) : 0.0;
    metrics.sampling_logp_difference_max = diff_max;
    metrics.sampling_ratio_count = values;
    metrics.sampling_logp_difference_count = diffs;
  }
  auto sampler_at = [&](std::size_t i, std::size_t t) {
    return sampler_correction ? sampler_weight[i][t] : 1.0;
  };

  result.grad_logp.resize(n);
  if (inputs.entropies) result.grad_entropy.resize(n);
  if (inputs.token_terms) result.token_terms.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double>& row = logp[i];
    const std::size_t length = row.size();
    std::vector<double>& grad = result.grad_logp[i];
    grad.assign(length, 0.0);
    if (inputs.entropies) result.grad_entropy[i].assign(length, 0.0);
    const bool masked_in = active[i] > 0;
    const double a = adv.values[i];
    const double weight = reduction_weight(i);
    auto log_ratio = [&](std::size_t t) {  // old absent: old = logp detached, log ratio exactly 0
      return inputs.old_logp ? row[t] - (*inputs.old_logp)[i][t] : 0.0;
    };

    // The ratio-based term as a loss and its derivative in log r (rl/token_terms.h).
    struct Surrogate {
      double loss, dloss_dlogr, ratio;
      bool low, high;
    };
    auto surrogate = [&](double logr) {
      const double ratio = std::exp(logr);
      const RatioTerm term = ratio_term(config, ratio, a);
      return Surrogate{term.loss, term.dloss_dlogr, ratio, term.low, term.high};
    };

    // Per-completion factors: the off-policy mask and VESPO's weight (both detached).
    double keep = 1.0;
    if (config.off_policy_mask_threshold && masked_in) {
      double kl = 0.0;
      const Ragged* sampler = inputs.sampling_logp ? &*inputs.sampling_logp
                              : inputs.old_logp    ? &*inputs.old_logp
                                                   : nullptr;
      if (sampler != nullptr)
        for (std::size_t t = 0; t < length; ++t) kl += (*sampler)[i][t] - row[t];
      kl /= static_cast<double>(active[i]);
      if (!off_policy_keep(a, kl, *config.off_policy_mask_threshold)) keep = 0.0;
      metrics.num_off_policy_masked += keep == 0.0 ? 1 : 0;
    }
    double phi = 0.0;
    if (loss_type == LossType::Vespo) {
      std::vector<double> ratios;
      if (masked_in)
        for (std::size_t t = 0; t < length; ++t) ratios.push_back(log_ratio(t));
      // TRL folds the sampler weights into VESPO's w instead of multiplying the loss by them.
      double log_sampler = 0.0;
      if (sampler_correction && masked_in) {
        const double lower = std::log(1e-8);
        const std::size_t count = sequence_correction ? 1 : length;
        for (std::size_t t = 0; t < count; ++t)
          log_sampler += std::clamp(std::log(sampler_weight[i][t]), lower, 20.0);
      }
      phi = vespo_phi(ratios, a, config.vespo_k_pos, config.vespo_lambda_pos, config.vespo_k_neg,
                      config.vespo_lambda_neg, log_sampler);
      phi_sum += phi;
    }

    Surrogate sequence{};
    // The tokens the entropy mask keeps, each weighted by its sampler weight (the share of the
    // sequence-level gradient).
    double kept_tokens = 0.0;
    if (sequence_level) {
      // GSPO: log r_i = masked mean of the token log-ratios (0 for a fully masked completion).
      double sum = 0.0;
      if (masked_in)
        for (std::size_t t = 0; t < length; ++t) {
          sum += log_ratio(t);
          kept_tokens += entropy_kept(i, t) ? sampler_at(i, t) : 0.0;
        }
      sequence = surrogate(sum / static_cast<double>(std::max<long long>(1, active[i])));
      clipped_low += sequence.low ? 1 : 0;
      clipped_high += sequence.high ? 1 : 0;
      if (clip_family) {
        low_min = std::isnan(low_min) ? (sequence.low ? 1.0 : 0.0)
                                      : std::min(low_min, sequence.low ? 1.0 : 0.0);
        high_max = std::isnan(high_max) ? (sequence.high ? 1.0 : 0.0)
                                        : std::max(high_max, sequence.high ? 1.0 : 0.0);
      }
      if (loss_type == LossType::Cispo)
        cispo_clipped += (sequence.ratio > config.eps_high_value() && a > 0.0) ? 1 : 0;
    }
    // The inspector's decomposition of this row (TokenTerm); a masked row keeps weight 0.
    TokenTerm* terms = nullptr;
    if (inputs.token_terms) {
      result.token_terms[i].assign(length, TokenTerm{});
      terms = result.token_terms[i].data();
      for (std::size_t t = 0; t < length; ++t) {
        terms[t].ratio = std::exp(log_ratio(t));
        terms[t].term_ratio = sequence_level ? sequence.ratio : terms[t].ratio;
        terms[t].active = masked_in;
        terms[t].normalizer = 1.0 / weight;
      }
    }
    if (!masked_in) continue;

    // Bias-corrected KL at sequence level: d/d logp_s of sum_t k3_t r_i carries sum_t k3_t / n_i.
    double row_k3 = 0.0;
    if (has_ref && config.use_bias_correction_kl && sequence_level)
      for (std::size_t t = 0; t < length; ++t) row_k3 += k3_kl(row[t], (*inputs.ref_logp)[i][t]);

    long long row_low = 0, row_high = 0;
    for (std::size_t t = 0; t < length; ++t) {
      double token_loss, token_grad;
      double ratio;
      double coefficient = 0.0, share = 1.0;
      bool low = false, high = false;
      if (loss_type == LossType::Cispo || loss_type == LossType::Vespo) {
        // -c * A * logp with c detached: CISPO c = min(r, epsilon_high), VESPO c = phi_i.
        ratio = sequence_level ? sequence.ratio : std::exp(log_ratio(t));
        if (!sequence_level && loss_type == LossType::Cispo)
          cispo_clipped += (ratio > config.eps_high_value() && a > 0.0) ? 1 : 0;
        const double c =
            loss_type == LossType::Cispo ? cispo_coefficient(ratio, config.eps_high_value()) : phi;
        token_loss = -c * a * row[t];
        token_grad = -c * a;
        coefficient = c;
        low = sequence_level && sequence.low;
        high = sequence_level && sequence.high;
      } else if (sequence_level) {
        // Each of the n_i tokens carries the sequence surrogate and d log r_i / d logp_it = 1/n_i,
        // so d (n_i copies) / d logp_it = n_i * (1/n_i) * d surrogate / d log r_i (with the
        // entropy mask, k_i kept copies of n_i).
        ratio = sequence.ratio;
        token_loss = sequence.loss;
        token_grad = sequence.dloss_dlogr;
        low = sequence.low;
        high = sequence.high;
        if (entropy_masking || sampler_correction)
          share = kept_tokens / static_cast<double>(active[i]);
      } else {
        const Surrogate s = surrogate(log_ratio(t));
        ratio = s.ratio;
        token_loss = s.loss;
        token_grad = s.dloss_dlogr;
        low = s.low;
        high = s.high;
        clipped_low += s.low ? 1 : 0;
        clipped_high += s.high ? 1 : 0;
        row_low += s.low ? 1 : 0;
        row_high += s.high ? 1 : 0;
      }
      ratio_sum += ratio;
      ratio_min = std::min(ratio_min, ratio);
      ratio_max = std::max(ratio_max, ratio);
      // The off-policy and entropy masks multiply the policy term only (not the KL term).
      // At sequence level a ratio-based term's gradient is shared by all the completion's tokens
      // (already scaled by k_i / n_i above), so a token the entropy mask drops keeps its share.
      const bool kept = entropy_kept(i, t);
      const bool shared_gradient =
          sequence_level && loss_type != LossType::Cispo && loss_type != LossType::Vespo;
      const double policy_weight = -token_grad;  // w, before the share, masks and sampler weight
      token_grad *= share;
      if (keep == 0.0) {
        token_loss = 0.0;
        token_grad = 0.0;
      } else if (!kept) {
        token_loss = 0.0;
        if (!shared_gradient) token_grad = 0.0;
        metrics.num_entropy_masked += 1;
      } else if (sampler_correction && loss_type != LossType::Vespo) {
        // The sampler weight multiplies the policy term (after the masks, before the KL term);
        // a shared sequence gradient already carries the weights in kept_tokens.
        token_loss *= sampler_at(i, t);
        if (!shared_gradient) token_grad *= sampler_at(i, t);
      }
      if (has_ref) {
        // k3 and d k3 / d logp = 1 - exp(ref - logp) (k3_kl, grpo_objective.h).
        double k3 = k3_kl(row[t], (*inputs.ref_logp)[i][t]);
        const double d = (*inputs.ref_logp)[i][t] - row[t];
        double dk3 = 1.0 - std::exp(d);
        if (config.use_bias_correction_kl) {
          // kl *= r (un-clamped, not detached): d (k3 r) = dk3 r + k3 dr.
          const double dr =
              sequence_level ? ratio * row_k3 / static_cast<double>(active[i]) : ratio * k3;
          dk3 = dk3 * ratio + dr;
          k3 *= ratio;
        }
        kl_sum += k3;
        if (config.beta != 0.0) {
          token_loss += config.beta * k3;
          token_grad += config.beta * dk3;
        }
        if (terms != nullptr) {
          terms[t].kl = k3;
          terms[t].kl_grad = config.beta != 0.0 ? config.beta * dk3 : 0.0;
        }
      }
      if (inputs.entropies) {
        const double h = (*inputs.entropies)[i][t];
        entropy_sum += h;
        if (kept) {
          effective_entropy_sum += h;
          ++effective_tokens;
        }
      }
      loss += weight * token_loss;
      grad[t] = weight * token_grad;
      if (terms != nullptr) {
        TokenTerm& term = terms[t];
        term.policy = policy_weight;
        term.coefficient = coefficient;
        term.shared = shared_gradient;
        term.share = share;
        term.sampler = sampler_correction && loss_type != LossType::Vespo ? sampler_at(i, t) : 1.0;
        term.entropy_kept = kept;
        term.off_policy_kept = keep != 0.0;
        term.clipped_low = low;
        term.clipped_high = high;
        term.weight = -grad[t];
      }
    }
    if (!sequence_level && clip_family) {
      const double len = static_cast<double>(length);
      const double fl = static_cast<double>(row_low) / len,
                   fh = static_cast<double>(row_high) / len;
      low_min = std::isnan(low_min) ? fl : std::min(low_min, fl);
      high_max = std::isnan(high_max) ? fh : std::max(high_max, fh);
    }
  }

  // --- Entropy bonus: loss -= coef * H, H the mean entropy of the tokens the policy term sees
  // (cispo/dapo/vespo: summed over the same global token count as their loss, so a mean too).
  if (entropy_bonus) {
    const double denominator = generation_normalised
                                   ? loss_tokens
                                   : static_cast<double>(std::max<long long>(1, effective_tokens));
    loss -= config.entropy_coef * effective_entropy_sum / denominator;
    for (std::size_t i = 0; i < n; ++i) {
      if (active[i] == 0) continue;
      for (std::size_t t = 0; t < logp[i].size(); ++t)
        if (entropy_kept(i, t)) result.grad_entropy[i][t] = -config.entropy_coef / denominator;
    }
  }
  result.loss = loss;

  // --- Metrics, as TRL's masked_batch_mean. ---------------------------------------------------
  const double clip_denominator = sequence_level ? count_n : total_clamped;
  metrics.has_clip_ratio = clip_family;
  if (clip_family) {
    metrics.clip_ratio_low_mean = static_cast<double>(clipped_low) / clip_denominator;
    metrics.clip_ratio_high_mean = static_cast<double>(clipped_high) / clip_denominator;
    metrics.clip_ratio_region_mean =
        static_cast<double>(clipped_low + clipped_high) / clip_denominator;  // disjoint events
    metrics.clip_ratio_low_min = low_min;
    metrics.clip_ratio_high_max = high_max;
  }
  metrics.has_cispo_clip_ratio = loss_type == LossType::Cispo;
  if (metrics.has_cispo_clip_ratio)
    metrics.cispo_clip_ratio = static_cast<double>(cispo_clipped) / clip_denominator;
  metrics.has_vespo_phi = loss_type == LossType::Vespo;
  if (metrics.has_vespo_phi) metrics.vespo_phi_seq_mean = phi_sum / count_n;
  // TRL logs kl only when beta != 0 (grpo_trainer.py 3237), whatever reference it holds.
  metrics.has_kl = has_ref && config.beta > 0.0;
  metrics.kl = metrics.has_kl ? kl_sum / total_clamped : 0.0;
  metrics.has_entropy = inputs.entropies.has_value();
  metrics.entropy = metrics.has_entropy ? entropy_sum / total_clamped : 0.0;
  metrics.effective_entropy =
      effective_entropy_sum / static_cast<double>(std::max<long long>(1, effective_tokens));
  metrics.ratio_min = total > 0 ? ratio_min : nan;
  metrics.ratio_max = total > 0 ? ratio_max : nan;
  metrics.ratio_mean = total > 0 ? ratio_sum / static_cast<double>(total) : nan;
  metrics.frac_reward_zero_std =
      inputs.advantages ? std::numeric_limits<double>::quiet_NaN() : zero_std_fraction(adv);
  return result;
}

}  // namespace grpo
