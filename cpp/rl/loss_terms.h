// TRL 1.9's per-token loss terms beyond the PPO clip: CISPO's cap, SAPO's gate, VESPO's weight,
// the entropy quantile and the off-policy sequence mask (used by rl/grpo_objective.cpp).
//
// Restated from huggingface/trl trl/trainer/grpo_trainer.py at v1.9.0 (commit 35def3e, per
// /work/shared/TRL-NOTES.md; its formulas checked here against the stored copies of
// `_compute_loss`, `get_gamma_weights`, `get_off_policy_mask` and `get_high_entropy_mask`).
// r is the importance ratio, A the advantage; every value is in double.
#pragma once

#include <vector>

namespace grpo {

// SAPO: the loss is -gate(r) * A with gate(r) = sigmoid(tau (r - 1)) * 4 / tau, tau =
// sapo_temperature_pos when A > 0, else sapo_temperature_neg.
struct SapoTerm {
  double loss;         // -gate(r) * A
  double dloss_dlogr;  // d loss / d log r = -4 A sigmoid (1 - sigmoid) r
};
SapoTerm sapo_term(double ratio, double advantage, double tau_pos, double tau_neg);

// VESPO's detached sequence weight phi (get_gamma_weights): log w = clamp(sum_t clamp(log r_t,
// -20, 20), ln 1e-8, 20); phi = exp(lambda + k log w - lambda w), NaN/inf -> 0; (k, lambda) =
// (k_pos, lambda_pos) when A >= 0, else (k_neg, lambda_neg), lambda clamped at >= 1e-4.
// With the sampler correction, log w also adds the sum of clamp(log is_ratio_t, ln 1e-8, 20)
// (`log_sampler_ratio`, already summed).
double vespo_phi(const std::vector<double>& token_log_ratios, double advantage, double k_pos,
                 double lambda_pos, double k_neg, double lambda_neg,
                 double log_sampler_ratio = 0.0);

// vllm_importance_sampling_correction (_generate_and_score_completions): the detached weight of
// each token's policy term, from d_t = old_t - sampling_t over a completion's valid tokens. Token
// modes: exp(d_t) per token; sequence modes: exp(sum_t d_t) for every token. *_truncate clamps to
// [clip_min, clip_max] (no lower bound when clip_min is None: pass -inf); *_mask sets a weight
// outside that range to 0.
std::vector<double> sampler_ratios(const std::vector<double>& log_differences, bool sequence,
                                   bool mask, double clip_min, double clip_max);

// torch.quantile(values, q) with its default linear interpolation; values must not be empty.
double linear_quantile(std::vector<double> values, double q);

// get_off_policy_mask: true (keep) unless A < 0 and the completion's mean of
// (sampling logp - logp) over its tokens exceeds the threshold.
bool off_policy_keep(double advantage, double mean_sampler_kl, double threshold);

}  // namespace grpo
