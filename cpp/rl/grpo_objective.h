// The GRPO objective of one batch as a pure function: loss, advantages, d loss/d logp, metrics.
//
// Matches TRL's GRPOTrainer (`_generate_and_score_completions` for the advantages, `_compute_loss`
// for the loss) for one optimizer step without gradient accumulation on one process, in double
// precision. The policy supplies per-token log-probs; the trainer backpropagates `grad_logp` into
// the policy. Legend: N completions (N = groups * G), L_i tokens of completion i, G group size.
//
// TRL facts this follows. Read from huggingface/trl trl/trainer/grpo_trainer.py at d2b69d7 (the
// index's copy, ~v0.20: loss types grpo/bnpo/dr_grpo, bool scale_rewards, importance_sampling_level
// present) and, for the later additions (loss_type "dapo", scale_rewards "group"/"batch"/"none",
// num_items_in_batch), from several vendored copies of later grpo_trainer.py versions that agree
// with each other, plus the trl issues/PRs named below:
// - Advantages: rewards minus the GROUP mean. scale_rewards "group": divided by the group's sample
//   std (n-1, torch.std) + 1e-4; "batch": still centred on the group mean, divided by the sample
//   std of the whole batch + 1e-4 (PPO-Lite style: local mean, global std); "none": centred only.
//   Before v0.22 scale_rewards was a bool (True = "group", False = "none"); none of the versions
//   we read centres "batch" on the batch mean (trl issue #3991 was about the std, not the mean).
// - Per-token loss: -min(r*A, clamp(r, 1-eps_low, 1+eps_high)*A) + beta * k3, with
//   k3 = exp(ref - logp) - (ref - logp) - 1 and r = exp(logp - old). Without stored old log-probs
//   TRL uses old = logp.detach() (so r = 1 but the gradient is -A per token).
// - importance_sampling_level "sequence" (GSPO): log r_i = sum_t m*(logp-old) / max(1, sum_t m),
//   one ratio per completion broadcast to its tokens; the per-token loss and the reduction below
//   are otherwise unchanged (the ratio carries gradient to every unmasked token of the completion).
// - Reductions (mask m, n_i = sum_t m_it): grpo = mean_i( sum_t m*l / max(1, n_i) ) over ALL N
//   completions; bnpo = sum m*l / max(1, sum n); dr_grpo = sum m*l / (N * max_completion_length);
//   dapo = sum m*l / num_items_in_batch, the batch's token count. Up to TRL ~v0.2x that count was
//   taken BEFORE mask_truncated_completions zeroed truncated rows (trl issue #6369); PR #6439 fixed
//   it to count tokens after masking, clamped at 1. We follow the fixed behaviour, so dapo == bnpo
//   on one batch without accumulation.
// - mask_truncated_completions zeroes the loss mask of completions without EOS; their rewards still
//   enter the group statistics (advantages are computed before masking).
// - Metrics (masked_batch_mean): token level, masked token mean with the count clamped at 1;
//   sequence level, the clip ratios are a plain mean over all N completions (TRL's x.mean() for a
//   (B, 1) tensor). Clipped low: r < 1-eps_low and A < 0; high: r > 1+eps_high and A > 0;
//   region: either. kl (k3) and entropy are always masked token means.
// - Later versions divide grpo/bnpo/dr_grpo by current_gradient_accumulation_steps (1 here).
// TRL 1.9 additions (loss types cispo, sapo, luspo, vespo; delta, top_entropy_quantile,
// off_policy_mask_threshold, use_bias_correction_kl, entropy_coef): huggingface/trl
// trl/trainer/grpo_trainer.py at v1.9.0 (commit 35def3e, per /work/shared/TRL-NOTES.md), methods
// _compute_loss, get_gamma_weights, get_off_policy_mask, get_high_entropy_mask; the formulas are
// in rl/loss_terms.h. vllm_importance_sampling_correction (its four modes, clip min/max, where
// _compute_loss applies it and its sampling/* metrics): read from several copies of v1.9's
// _generate_and_score_completions and _compute_loss that the code search holds (they agree with
// each other and with TRL-NOTES.md); VESPO's use of the weights from get_gamma_weights.
// Choices of ours: a group whose rewards are all equal gets exactly zero advantages (TRL gets
// ~1e-13 from rounding of the mean); ratio min/mean/max are over unmasked tokens (NaN when there
// are none); a zero-length completion contributes nothing.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/advantages.h"  // ScaleRewards, group_advantages, clipped_surrogate_loss
#include "core/reductions.h"  // LossType, loss_normalizer

namespace grpo {

enum class ImportanceLevel { Token, Sequence };

// vllm_importance_sampling_mode: how the sampler-to-learner ratio corrects the loss.
enum class SamplerCorrection { TokenTruncate, TokenMask, SequenceTruncate, SequenceMask };

// The API spellings, in the enums' order (the config table's options, config_fields.h).
const std::vector<std::string>& loss_type_names();  // grpo bnpo dr_grpo dapo cispo sapo luspo vespo
const std::vector<std::string>& scale_rewards_names();     // group, batch, none
const std::vector<std::string>& importance_level_names();  // token, sequence
// token_truncate, token_mask, sequence_truncate, sequence_mask
const std::vector<std::string>& sampler_correction_names();

// Parse the API spellings; throw InvalidArgument naming the field and listing the allowed values,
// e.g. "lossType: must be one of grpo, bnpo, dr_grpo, dapo, got 'x'".
LossType parse_loss_type(const std::string& text);                    // grpo|bnpo|dr_grpo|dapo
ScaleRewards parse_scale_rewards(const std::string& text);            // group|batch|none
ImportanceLevel parse_importance_level(const std::string& text);      // token|sequence
SamplerCorrection parse_sampler_correction(const std::string& text);  // sampler_correction_names
const char* loss_type_name(LossType value);
const char* scale_rewards_name(ScaleRewards value);
const char* importance_level_name(ImportanceLevel value);

// grpo|dr_grpo|rloo|reinforce_baseline|reinforce (core/advantages.h), as the config field.
AdvantageEstimator parse_advantage_estimator(const std::string& text);

// TRL names in comments; the defaults are TRL v1.9.0's (grpo_config.py), grpoObjective's too.
struct ObjectiveConfig {
  int group_size = 2;                                // num_generations, >= 2
  LossType loss_type = LossType::Dapo;               // loss_type (line 791)
  ScaleRewards scale_rewards = ScaleRewards::Group;  // scale_rewards
  double eps_low = 0.2;                              // epsilon, in [0, 1)
  std::optional<double> eps_high;   // epsilon_high, in [0, 10]; None (TRL's default): epsilon
  double beta = 0.0;                // beta (KL weight), >= 0
  int max_completion_length = 256;  // max_completion_length (488)
  ImportanceLevel importance_level = ImportanceLevel::Token;  // importance_sampling_level
  bool mask_truncated = false;                                // mask_truncated_completions
  // TRL 1.9 options, each off by default exactly as TRL's default is.
  double sapo_temperature_pos = 1.0;                // sapo_temperature_pos, in (0, 100]
  double sapo_temperature_neg = 1.05;               // sapo_temperature_neg, in (0, 100]
  double vespo_k_pos = 2.0;                         // vespo_k_pos, in [0, 100]
  double vespo_lambda_pos = 3.0;                    // vespo_lambda_pos, in [0, 100]
  double vespo_k_neg = 3.0;                         // vespo_k_neg, in [0, 100]
  double vespo_lambda_neg = 2.0;                    // vespo_lambda_neg, in [0, 100]
  std::optional<double> delta;                      // delta (None), in (0, 1e6]
  double top_entropy_quantile = 1.0;                // top_entropy_quantile, in [0, 1]
  std::optional<double> off_policy_mask_threshold;  // off_policy_mask_threshold (None), finite
  bool use_bias_correction_kl = false;              // use_bias_correction_kl
  double entropy_coef = 0.0;                        // entropy_coef, in [0, 10]
  // The sampler-to-learner correction. TRL applies it only when vLLM samples (its
  // sampling_per_token_logps); here, only when samplingLogProbs are given. TRL's defaults.
  bool vllm_importance_sampling_correction = true;  // vllm_importance_sampling_correction
  SamplerCorrection vllm_importance_sampling_mode =
      SamplerCorrection::SequenceMask;                      // vllm_importance_sampling_mode
  std::optional<double> vllm_importance_sampling_clip_min;  // ..._clip_min (None), in [0, 1e6]
  // ..._clip_max, in [0, 1e6]; None is no upper bound (TRL masks with +inf, grpo_trainer.py 2607)
  std::optional<double> vllm_importance_sampling_clip_max = 3.0;
  // The baseline (core/advantages.h). TRL's GRPOConfig has no such field: grpo is its only one.
  AdvantageEstimator advantage_estimator = AdvantageEstimator::Grpo;

  // Throws InvalidArgument naming the field (API spelling) and its range. Called once where a
  // config enters the core (the grpoObjective method, ExperimentConfig::validate); grpo_objective
  // takes a validated config and does not check it again.
  // epsilon_high as TRL resolves it (grpo_trainer.py: epsilon_high if not None else epsilon).
  double eps_high_value() const { return eps_high.value_or(eps_low); }
  void validate() const;
  // TRL's rules between its fields (clipMin < clipMax, a *_truncate mode needs a bound), also
  // part of check_field_relations.
  void check_relations() const;
  // The rule that holds only when a sampler's log-probs reach the objective (TRL: use_vllm):
  // VESPO takes a token-level correction only. Throws InvalidArgument naming the field.
  void check_sampler_relations(bool sampler) const;
};

using Ragged = std::vector<std::vector<double>>;  // [N][L_i]

struct ObjectiveInputs {
  std::vector<double> rewards;      // [N], N a positive multiple of group_size, groups contiguous
  Ragged logp;                      // [N][L_i] current policy log-probs (the differentiated input)
  std::optional<Ragged> old_logp;   // behaviour policy; absent = on-policy (old = logp detached)
  std::optional<Ragged> ref_logp;   // reference policy; required when beta > 0
  std::vector<bool> truncated;      // [N] no EOS; empty = none truncated
  std::optional<Ragged> entropies;  // per-token entropies: the metric, topEntropyQuantile < 1,
                                    // entropyCoef > 0 (required by the last two)
  std::optional<Ragged> sampling_logp;  // the sampler's log-probs (TRL's sampling_per_token_logps):
                                        // the importance-sampling correction and
                                        // offPolicyMaskThreshold (absent: old_logp, else logp)
  // A mini-batch of a larger generation (the trainer's stepsPerGeneration > 1, TRL's
  // steps_per_generation): TRL computes the advantages over the whole generation and shuffles its
  // rows before splitting it, so a mini-batch holds no whole groups. Given, these [N] advantages
  // are used as they are; `rewards` is then ignored (and frac_reward_zero_std is NaN).
  std::optional<std::vector<double>> advantages;
  // TRL's num_items_in_batch, the loss-mask tokens of the whole generation: the normaliser of
  // dapo, cispo and vespo (and of their entropy bonus). Absent: this batch's tokens.
  std::optional<double> num_items_in_batch;
  // The step inspector's decomposition (ObjectiveResult::token_terms): off in training.
  bool token_terms = false;
};

struct ObjectiveMetrics {
  double clip_ratio_low_mean = 0.0;     // TRL clip_ratio/low_mean
  double clip_ratio_high_mean = 0.0;    // TRL clip_ratio/high_mean
  double clip_ratio_region_mean = 0.0;  // TRL clip_ratio/region_mean
  bool has_kl = false;                  // beta > 0 (TRL logs no kl at beta 0)
  double kl = 0.0;                      // masked token mean of k3
  bool has_entropy = false;             // entropies given
  double entropy = 0.0;                 // masked token mean
  double effective_entropy = 0.0;       // mean over the tokens topEntropyQuantile keeps (the
                                        // entropy the bonus and its adaptive control see)
  double ratio_min = 0.0;               // over unmasked tokens; NaN when there are none
  double ratio_mean = 0.0;
  double ratio_max = 0.0;
  long long num_tokens = 0;           // unmasked tokens after masking truncated completions
  long long num_truncated = 0;        // completions flagged truncated
  double frac_reward_zero_std = 0.0;  // TRL frac_reward_zero_std (std used for scaling)
  // TRL logs the clip_ratio/* family only for grpo, bnpo, dr_grpo, dapo and luspo.
  bool has_clip_ratio = true;
  double clip_ratio_low_min = 0.0;      // TRL clip_ratio/low_min: min over completions of their
                                        // low-clipped token fraction (NaN when no token)
  double clip_ratio_high_max = 0.0;     // TRL clip_ratio/high_max
  bool has_cispo_clip_ratio = false;    // loss_type cispo
  double cispo_clip_ratio = 0.0;        // TRL cispo_clip_ratio: r > epsilon_high and A > 0
  bool has_vespo_phi = false;           // loss_type vespo
  double vespo_phi_seq_mean = 0.0;      // TRL vespo/phi_seq_mean, over all N completions
  long long num_entropy_masked = 0;     // unmasked tokens dropped by topEntropyQuantile
  long long num_off_policy_masked = 0;  // completions dropped by offPolicyMaskThreshold
  // The sampler's ratios (samplingLogProbs given; with the correction off, unclipped): TRL's
  // sampling/importance_sampling_ratio/{min,mean,max} (over tokens, or over completions in the
  // sequence modes) and sampling/sampling_logp_difference/{mean,max} (|old - sampling| per token).
  bool has_sampling_ratio = false;
  double sampling_ratio_min = 1.0, sampling_ratio_mean = 1.0, sampling_ratio_max = 1.0;
  double sampling_logp_difference_mean = 0.0, sampling_logp_difference_max = 0.0;
  // What the two means are over (values of the ratio, tokens of the difference): the trainer
  // pools several mini-batches' metrics into the generation's.
  long long sampling_ratio_count = 0, sampling_logp_difference_count = 0;
  // The trainer's engine verl (rl/trainer_verl.h): verl's metrics under verl's names
  // ("actor/pg_clipfrac", ...), those its loss mode returns; empty with engine trl.
  std::vector<std::pair<std::string, double>> verl;
};

// One token's term of the objective taken apart (the step inspector, docs/inspector.md). Its
// gradient weight dJ/d log pi = -grad_logp is, with D the row's normaliser,
//   token-level terms:         (policy * off_policy * entropy * sampler - kl_grad) / D
//   shared (sequence level):   (policy * share * off_policy - kl_grad) / D
// (`shared`: a sequence-level ratio-based term, whose gradient every token of the completion
// shares; the entropy mask and the sampler weights are then inside `share`).
struct TokenTerm {
  double ratio = 1.0;        // the token's own ratio exp(logp - old)
  double term_ratio = 1.0;   // the ratio the policy term reads (sequence level: the completion's)
  double policy = 0.0;       // w = -d(policy term)/d log r (CISPO, VESPO: c A), before any mask
  double coefficient = 0.0;  // CISPO's min(r, eps_high) or VESPO's phi (detached); else 0
  bool shared = false;
  double share = 1.0;    // k_i / n_i: the kept tokens' sampler weights over the row's tokens
  double sampler = 1.0;  // the sampler correction's weight (1 when none is applied)
  bool entropy_kept = true, off_policy_kept = true;
  bool clipped_low = false, clipped_high = false;  // TRL's clip_ratio events
  double kl = 0.0;          // k3 to the reference (times r with useBiasCorrectionKl); 0 without
  double kl_grad = 0.0;     // beta * d k3 / d logp: the KL term's part of d loss / d logp
  double normalizer = 1.0;  // D_i (core/reductions.h loss_normalizer)
  bool active = true;       // false: its row is masked (maskTruncated), weight 0
  double weight = 0.0;      // dJ/d log pi, exactly -grad_logp
};

struct ObjectiveResult {
  double loss = 0.0;
  std::vector<double> advantages;  // [N]
  Ragged grad_logp;                // [N][L_i] d loss / d logp
  Ragged grad_entropy;  // [N][L_i] d loss / d entropy (nonzero only with entropyCoef > 0);
                        // empty when no entropies were given
  ObjectiveMetrics metrics;
  std::vector<std::vector<TokenTerm>> token_terms;  // [N][L_i] when inputs.token_terms
};

// k3 estimate of KL(policy || reference) at one token: exp(d) - d - 1 with d = ref - logp,
// written expm1(d) - d (no cancellation near d = 0). Its derivative: d k3 / d logp = 1 - exp(d).
// k3_of_log_ratio takes d itself (verl's low_var_kl, rl/verl_kl_penalty.cpp, clamps around it).
inline double k3_of_log_ratio(double d) {
  return std::expm1(d) - d;
}
inline double k3_kl(double logp, double ref_logp) {
  return k3_of_log_ratio(ref_logp - logp);
}

// TRL's advantages for `rewards` in contiguous groups of `group_size` (core/advantages.h
// group_advantages, the one implementation). Throws InvalidArgument naming `rewards` unless
// rewards.size() is a positive multiple of group_size and every reward is finite.
// With an estimator other than grpo, that estimator's advantages (scale is then not used).
std::vector<double> grpo_advantages(const std::vector<double>& rewards, int group_size,
                                    ScaleRewards scale,
                                    AdvantageEstimator estimator = AdvantageEstimator::Grpo);

// TRL's frac_reward_zero_std of `rewards` (contiguous groups of group_size): the share of rows
// whose std, as the advantages scale with it (`scale`, `estimator`), is 0 (torch.isclose(std, 0)).
// The objective's metric, and the trainer's over every group before dynamic sampling drops any.
double frac_reward_zero_std(const std::vector<double>& rewards, int group_size, ScaleRewards scale,
                            AdvantageEstimator estimator = AdvantageEstimator::Grpo);

// multi_objective_aggregation: how several reward functions' rewards make the one reward.
enum class RewardAggregation { SumThenNormalize, NormalizeThenSum };
const std::vector<std::string>& reward_aggregation_names();  // sum_then_normalize, ..._then_sum
RewardAggregation parse_reward_aggregation(const std::string& text);

// TRL's rewards from the reward functions' rewards `per_func` [N][F] (rows in contiguous groups
// of group_size) and `weights` [F] (_generate_and_score_completions): sum_then_normalize, each
// row's weighted sum (rewards_per_func * reward_weights).nansum(1); normalize_then_sum (GDPO),
// each function normalised in its group ((r - mean) / (std + 1e-4), std with n - 1), then the
// weighted sum. Throws InvalidArgument naming rewardsPerFunc (shape, finite) or rewardWeights.
std::vector<double> aggregate_rewards(const Ragged& per_func, const std::vector<double>& weights,
                                      int group_size, RewardAggregation aggregation);
// The scaling the advantages of aggregated rewards take: normalize_then_sum normalises the sum
// over the batch whatever scale_rewards says (TRL: (r - r.mean()) / (r.std() + 1e-4); here
// "batch", which centres on the group mean: both means are 0 up to ~1e-17).
ScaleRewards aggregated_scale(ScaleRewards scale, RewardAggregation aggregation);

// `config` must be valid (ObjectiveConfig::validate). Validates the inputs (ragged shapes equal,
// values finite, flags count = N, every L_i <= max_completion_length), then computes loss,
// advantages, gradient and metrics.
ObjectiveResult grpo_objective(const ObjectiveConfig& config, const ObjectiveInputs& inputs);

}  // namespace grpo
