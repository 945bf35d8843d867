// The GRPO objective of one batch (TRL GRPOTrainer semantics): see grpo_objective.h.
#include "rl/grpo_objective.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/errors.h"
#include "rl/config_fields.h"

namespace grpo {
namespace {

std::string index_name(const char* name, std::size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

// The advantages of `rewards` in groups of `group_size`, after checking both.
GroupAdvantages checked_advantages(const std::vector<double>& rewards, int group_size,
                                   ScaleRewards scale, AdvantageEstimator estimator) {
  require(group_size >= 2,
          [&] { return "groupSize: must be an integer >= 2, got " + std::to_string(group_size); });
  const std::size_t n = rewards.size();
  const std::size_t g = static_cast<std::size_t>(group_size);
  require(n > 0 && n % g == 0, [&] {
    return "rewards: length must be a positive multiple of groupSize (" +
           std::to_string(group_size) + "), got " + std::to_string(n);
  });
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

}  // namespace

const std::vector<std::string>& loss_type_names() {
  static const std::vector<std::string> names = {"grpo", "bnpo", "dr_grpo", "dapo"};
  return names;
}

const std::vector<std::string>& scale_rewards_names() {
  static const std::vector<std::string> names = {"group", "batch", "none"};
  return names;
}

const std::vector<std::string>& importance_level_names() {
  static const std::vector<std::string> names = {"token", "sequence"};
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

AdvantageEstimator parse_advantage_estimator(const std::string& text) {
  return parse_option<AdvantageEstimator>("advantageEstimator", text);
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
  check_field(field("epsHigh"), eps_high);
  require(beta >= 0.0 && std::isfinite(beta),
          [&] { return "beta: must be a finite number >= 0, got " + format_number(beta); });
  require(max_completion_length >= 1, [&] {
    return "maxCompletionLength: must be an integer >= 1, got " +
           std::to_string(max_completion_length);
  });
}

std::vector<double> grpo_advantages(const std::vector<double>& rewards, int group_size,
                                    ScaleRewards scale, AdvantageEstimator estimator) {
  return checked_advantages(rewards, group_size, scale, estimator).values;
}

ObjectiveResult grpo_objective(const ObjectiveConfig& config, const ObjectiveInputs& inputs) {
  // --- Validation of the inputs (config is valid): nothing is computed before. ---------------
  const GroupAdvantages adv = checked_advantages(inputs.rewards, config.group_size,
                                                 config.scale_rewards, config.advantage_estimator);
  const std::size_t n = inputs.rewards.size();
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
  if (inputs.entropies) check_rows(*inputs.entropies, n, &logp, "entropies", "logProbs");
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
  // 1 / D_i: the weight of each unmasked per-token loss of completion i in the scalar loss.
  auto reduction_weight = [&](std::size_t i) -> double {
    return 1.0 / loss_normalizer(config.loss_type, count_n,
                                 static_cast<double>(std::max<long long>(1, active[i])),
                                 total_clamped, static_cast<double>(config.max_completion_length));
  };

  // --- Per-token loss, its gradient and the metrics. ------------------------------------------
  const double low = 1.0 - config.eps_low;
  const double high = 1.0 + config.eps_high;
  const bool sequence_level = config.importance_level == ImportanceLevel::Sequence;
  const bool has_ref = inputs.ref_logp.has_value();
  double loss = 0.0;
  long long clipped_low = 0, clipped_high = 0;  // tokens (token level) or completions (sequence)
  double kl_sum = 0.0, entropy_sum = 0.0, ratio_sum = 0.0;
  double ratio_min = std::numeric_limits<double>::infinity();
  double ratio_max = -std::numeric_limits<double>::infinity();

  result.grad_logp.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<double>& row = logp[i];
    const std::size_t length = row.size();
    std::vector<double>& grad = result.grad_logp[i];
    grad.assign(length, 0.0);
    const bool masked_in = active[i] > 0;
    const double a = adv.values[i];
    const double weight = reduction_weight(i);
    auto log_ratio = [&](std::size_t t) {  // old absent: old = logp detached, log ratio exactly 0
      return inputs.old_logp ? row[t] - (*inputs.old_logp)[i][t] : 0.0;
    };

    // The clipped surrogate as a loss and its derivative in log r (core/advantages.h).
    struct Surrogate {
      double loss, dloss_dlogr, ratio;
      bool low, high;
    };
    auto surrogate = [&](double logr) {
      const double ratio = std::exp(logr);
      const SurrogateLoss s = clipped_surrogate_loss(ratio, a, low, high);
      return Surrogate{s.loss, s.dloss_dlogr, ratio, s.low, s.high};
    };

    Surrogate sequence{};
    if (sequence_level) {
      // GSPO: log r_i = masked mean of the token log-ratios (0 for a fully masked completion).
      double sum = 0.0;
      if (masked_in)
        for (std::size_t t = 0; t < length; ++t) sum += log_ratio(t);
      sequence = surrogate(sum / static_cast<double>(std::max<long long>(1, active[i])));
      clipped_low += sequence.low ? 1 : 0;
      clipped_high += sequence.high ? 1 : 0;
    }
    if (!masked_in) continue;

    for (std::size_t t = 0; t < length; ++t) {
      double token_loss, token_grad;
      if (sequence_level) {
        // Each of the n_i tokens carries the sequence surrogate and d log r_i / d logp_it = 1/n_i,
        // so d (n_i copies) / d logp_it = n_i * (1/n_i) * d surrogate / d log r_i.
        token_loss = sequence.loss;
        token_grad = sequence.dloss_dlogr;
        ratio_sum += sequence.ratio;
        ratio_min = std::min(ratio_min, sequence.ratio);
        ratio_max = std::max(ratio_max, sequence.ratio);
      } else {
        const Surrogate s = surrogate(log_ratio(t));
        token_loss = s.loss;
        token_grad = s.dloss_dlogr;
        clipped_low += s.low ? 1 : 0;
        clipped_high += s.high ? 1 : 0;
        ratio_sum += s.ratio;
        ratio_min = std::min(ratio_min, s.ratio);
        ratio_max = std::max(ratio_max, s.ratio);
      }
      if (has_ref) {
        // k3 and d k3 / d logp = 1 - exp(ref - logp) (k3_kl, grpo_objective.h).
        const double k3 = k3_kl(row[t], (*inputs.ref_logp)[i][t]);
        const double d = (*inputs.ref_logp)[i][t] - row[t];
        kl_sum += k3;
        if (config.beta != 0.0) {
          token_loss += config.beta * k3;
          token_grad += config.beta * (1.0 - std::exp(d));
        }
      }
      if (inputs.entropies) entropy_sum += (*inputs.entropies)[i][t];
      loss += weight * token_loss;
      grad[t] = weight * token_grad;
    }
  }
  result.loss = loss;

  // --- Metrics, as TRL's masked_batch_mean. ---------------------------------------------------
  const double clip_denominator = sequence_level ? count_n : total_clamped;
  metrics.clip_ratio_low_mean = static_cast<double>(clipped_low) / clip_denominator;
  metrics.clip_ratio_high_mean = static_cast<double>(clipped_high) / clip_denominator;
  metrics.clip_ratio_region_mean =
      static_cast<double>(clipped_low + clipped_high) / clip_denominator;  // disjoint events
  metrics.has_kl = has_ref;
  metrics.kl = has_ref ? kl_sum / total_clamped : 0.0;
  metrics.has_entropy = inputs.entropies.has_value();
  metrics.entropy = metrics.has_entropy ? entropy_sum / total_clamped : 0.0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  metrics.ratio_min = total > 0 ? ratio_min : nan;
  metrics.ratio_max = total > 0 ? ratio_max : nan;
  metrics.ratio_mean = total > 0 ? ratio_sum / static_cast<double>(total) : nan;
  long long zero_std = 0;
  for (double s : adv.scale_std) zero_std += s <= 1e-8 ? 1 : 0;  // torch.isclose(std, 0)
  metrics.frac_reward_zero_std = static_cast<double>(zero_std) / count_n;
  return result;
}

}  // namespace grpo
