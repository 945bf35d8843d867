// The trainer's engine verl: one optimizer step's objective as verl v0.7.0's actor computes it
// (the estimator's advantages, policy_loss + agg_loss, the KL loss, the entropy bonus), calling
// the verl_* functions; the result in the TRL objective's form, so the trainer's backward through
// the GRU, clipping and Adam are the TRL path's. Mapping of the fields: docs/verl.md.
#pragma once

#include <vector>

#include "rl/experiment_config.h"
#include "rl/grpo_objective.h"

namespace grpo {

// The advantage of each row of the generation's kept groups (rows in groups of `group`, groups
// contiguous) from verl's estimator (verl_options.estimator): the reward on the last of the
// row's `lengths[i]` tokens (verl's token_level_rewards), its response mask, the group as uid.
// With outcome rewards and gamma 1 every estimator gives one value per row (its first token's).
// `baselines` [B]: remax's reward_baselines (its greedy completion's reward), else empty.
std::vector<double> verl_row_advantages(const ExperimentConfig& config,
                                        const std::vector<double>& rewards,
                                        const std::vector<int>& lengths, int group,
                                        const std::vector<double>& baselines = {});

// One step: verl's policy loss of `verl_options.loss_mode` aggregated by its agg mode, plus
// beta x agg_loss(kl_penalty(klLossType)) when beta > 0 (use_kl_loss) and minus entropy_coef x
// agg_loss(entropy) (dp_actor's policy_loss). The loss mask is the response minus truncated rows
// when maskTruncated; the old log-probs are in.old_logp (also reinforce's rollout_log_probs).
// Clip-Cov's tokens: verl_cov_select's documented rule (the first candidates, row-major).
// metrics.verl holds verl's keys (actor/pg_loss, actor/pg_clipfrac, ..., actor/kl_loss).
ObjectiveResult verl_objective(const ExperimentConfig& config, double entropy_coef,
                               const ObjectiveInputs& in, const std::vector<double>& advantages);

}  // namespace grpo
