// Section 3: group-relative advantages (TRL's GRPOTrainer) and PPO-style clipping.
#pragma once

#include <string>
#include <vector>

namespace grpo {

// The update's advantage estimators (issue 14): GRPO and its ancestors, each a different
// baseline subtracted from the reward of completion i of a group of G:
//   grpo               (r_i - mean_g) / (std_g + 1e-4)  group mean and sample std (n-1), as TRL
//   dr_grpo            r_i - mean_g                     group mean, no std (Dr. GRPO)
//   rloo               r_i - (sum_g - r_i) / (G - 1)    leave-one-out mean, as TRL's RLOOTrainer
//                      (= G / (G - 1) * (r_i - mean_g))
//   reinforce_baseline r_i - mean_batch                 one baseline for the whole batch
//   reinforce          r_i                              no baseline
// The trainer's grpo is its objective's own path (scaleRewards group/batch/none applies to it
// only); the other four come from estimate_advantages below.
enum class AdvantageEstimator { Grpo, DrGrpo, Rloo, ReinforceBaseline, Reinforce };

// The API spellings, in the enum's order: grpo, dr_grpo, rloo, reinforce_baseline, reinforce.
const std::vector<std::string>& advantage_estimator_names();
const char* advantage_estimator_name(AdvantageEstimator value);

// Advantages of `rewards` in contiguous groups of `group_size` (>= 2) by `estimator`, with the
// formulas above. A group of equal rewards gives exact zeros for grpo, dr_grpo and rloo (no
// rounding noise). Throws InvalidArgument naming `rewards` or `groupSize`: rewards non-empty,
// finite, a multiple of group_size long.
std::vector<double> estimate_advantages(const std::vector<double>& rewards, int group_size,
                                        AdvantageEstimator estimator);

// Rewards minus the group mean; with `scale`, divided by (sample std (n-1) + 1e-4), as TRL.
// A group of one or of equal rewards gives zeros. rewards: non-empty, finite.
std::vector<double> group_relative_advantages(const std::vector<double>& rewards, bool scale);

// min(ratio*A, clip(ratio, 1-eps_low, 1+eps_high)*A) per element.
// ratios > 0, eps_low in [0, 1), eps_high >= 0, equal lengths.
std::vector<double> clipped_surrogate_terms(const std::vector<double>& ratios,
                                            const std::vector<double>& advantages, double eps_low,
                                            double eps_high);

// True where the clipped branch is selected and differs from the unclipped one:
// A > 0 and ratio > 1+eps_high, or A < 0 and ratio < 1-eps_low.
std::vector<bool> clip_activity(const std::vector<double>& ratios,
                                const std::vector<double>& advantages, double eps_low,
                                double eps_high);

// Shared argument checks, also used by the reductions.
void check_rewards(const std::vector<double>& rewards, const char* name);

}  // namespace grpo
