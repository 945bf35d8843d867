// verl v0.7.0's policy losses (verl/trainer/ppo/core_algos.py:906-1528, 1731): the loss of one
// micro-batch, the metrics verl's actor logs from it and d loss / d log_prob. Formulas, file:line
// and how each differs from TRL's namesake: docs/verl.md.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rl/verl_agg_loss.h"
#include "rl/verl_cov_select.h"
#include "rl/verl_tensor.h"

namespace grpo::verl {

enum class LossMode { Vanilla, Gspo, Sapo, Gpg, ClipCov, KlCov, GeoMean, Cispo, Reinforce };

// vanilla, gspo, sapo, gpg, clip_cov, kl_cov, geo_mean, cispo, reinforce (enum order).
const std::vector<std::string>& loss_mode_names();
LossMode parse_loss_mode(const std::string& text, const char* field = "lossMode");

// ActorConfig / PolicyLossConfig, verl's defaults (actor.yaml). An optional left empty is verl's
// None: clip_ratio_low/high fall back to clip_ratio, the *_cov ones to the function's fallback.
struct PolicyConfig {
  double clip_ratio = 0.2;
  std::optional<double> clip_ratio_low = 0.2, clip_ratio_high = 0.2;
  double clip_ratio_c = 3.0;  // vanilla's dual clip, must be > 1
  double tau_pos = 1.0, tau_neg = 1.05;
  std::optional<double> clip_cov_ratio = 2e-4, clip_cov_lb = 1.0, clip_cov_ub = 5.0;
  std::optional<double> kl_cov_ratio = 2e-4, ppo_kl_coef = 0.1;  // None: 2e-4, 1.0
  AggOptions global_batch_info;  // agg_loss's keyword arguments (legacy workers: none)
};

// Throws InvalidArgument naming the field where verl asserts: clipRatioC > 1 (vanilla),
// clipCovRatio > 0 (clip_cov), klCovRatio > 0 (kl_cov); every value finite, tauPos and tauNeg
// > 0 (sapo's 4 / tau), the agg options as check_agg_options.
void check_policy_config(const PolicyConfig& config, LossMode mode);

struct PolicyInputs {
  Matrix old_logp, logp, advantages, mask;   // [B][T]; old_logp unused by gpg and reinforce
  std::optional<Matrix> rollout_logp;        // reinforce's (its ppo_kl); required there
  std::optional<Matrix> rollout_is_weights;  // multiplies the token loss (geo_mean: per row)
  std::optional<std::vector<Token>> selected_tokens;  // clip_cov / kl_cov (verl_cov_select.h)
  AggMode agg_mode = AggMode::TokenMean;
};

struct PolicyResult {
  double loss = 0.0;
  std::vector<std::pair<std::string, double>> metrics;  // verl's keys ("actor/pg_clipfrac")
  Matrix grad_logp;                                     // [B][T] d loss / d log_prob
  std::vector<Token> selected;  // clip_cov, kl_cov: the tokens treated apart
};

// Shapes checked by the caller; config checked (check_policy_config).
PolicyResult policy_loss(LossMode mode, const PolicyConfig& config, const PolicyInputs& in);

}  // namespace grpo::verl
