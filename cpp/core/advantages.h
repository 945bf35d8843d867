// Section 3 and the trainer: group-relative advantages (TRL's GRPOTrainer) and PPO-style clipping.
// The math lives here once; the section APIs check their arguments and call it, and the GRPO
// objective (rl/grpo_objective.cpp) calls the unchecked kernels below on every token.
#pragma once

#include <algorithm>
#include <cstddef>
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
// scaleRewards (group/batch/none) applies to grpo only.
// rloo as huggingface/trl trl/trainer/rloo_trainer.py at commit
// 00313f21920d37c3876c4021b51430224c06c936, _generate_and_score_completions: baselines =
// (grouped_sum - grouped_rewards) / (G - 1), advantages = rewards - baselines (its optional
// normalize_advantages is not reproduced here).
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

inline constexpr double kStdEpsilon = 1e-4;  // TRL: advantages / (std + 1e-4)

enum class ScaleRewards { Group, Batch, None };  // TRL scale_rewards

struct GroupAdvantages {
  std::vector<double> values;     // [N]
  std::vector<double> scale_std;  // [N] the std TRL scales (or, for "none", logs) with
};

// TRL's advantages for `rewards` in contiguous groups of `group_size`: rewards minus the GROUP
// mean; "group" divides by the group's sample std (n-1) + 1e-4, "batch" by the whole batch's
// sample std + 1e-4 (still centred on the group mean), "none" only centres. A group whose rewards
// are all equal gets exactly zero (TRL: ~1e-13 of rounding). Unchecked: rewards finite, their
// count a positive multiple of group_size >= 1 (callers check; messages name their arguments).
// With an estimator other than grpo, that estimator's values (formulas above; scale is not
// used) and the group's sample std as scale_std (for frac_reward_zero_std).
GroupAdvantages group_advantages(const std::vector<double>& rewards, std::size_t group_size,
                                 ScaleRewards scale,
                                 AdvantageEstimator estimator = AdvantageEstimator::Grpo);

// Section 3's one group: group_advantages with scale ? "group" : "none".
// A group of one or of equal rewards gives zeros. rewards: non-empty, finite.
std::vector<double> group_relative_advantages(const std::vector<double>& rewards, bool scale);

// The clipped surrogate of one token as a loss: -min(r*A, clip(r, low, high)*A), its derivative
// with respect to log r, and which clip is active. Where the clipped branch is selected and
// differs, the loss is flat in r; elsewhere (including the tie inside the band, where
// torch.minimum splits the gradient between two equal branches) it is -A*r.
// Clipped low: r < low and A < 0; high: r > high and A > 0 (disjoint).
struct SurrogateLoss {
  double loss, dloss_dlogr;
  bool low, high;
};
inline SurrogateLoss clipped_surrogate_loss(double ratio, double advantage, double low,
                                            double high) {
  SurrogateLoss s;
  const double clipped = std::min(std::max(ratio, low), high);
  s.loss = -std::min(ratio * advantage, clipped * advantage);
  s.low = ratio < low && advantage < 0.0;
  s.high = ratio > high && advantage > 0.0;
  s.dloss_dlogr = (s.low || s.high) ? 0.0 : -advantage * ratio;
  return s;
}

// min(ratio*A, clip(ratio, 1-eps_low, 1+eps_high)*A) per element (the negated loss above).
// ratios > 0, eps_low in [0, 1), eps_high >= 0, equal lengths.
std::vector<double> clipped_surrogate_terms(const std::vector<double>& ratios,
                                            const std::vector<double>& advantages, double eps_low,
                                            double eps_high);

// True where the clipped branch is selected and differs from the unclipped one:
// A > 0 and ratio > 1+eps_high, or A < 0 and ratio < 1-eps_low.
std::vector<bool> clip_activity(const std::vector<double>& ratios,
                                const std::vector<double>& advantages, double eps_low,
                                double eps_high);

// Sample standard deviation (n-1, torch.std's default) of values[begin, end): 0 for fewer than
// two values, exactly 0 when they are all equal. TRL's group std here, verl's in rl/verl_*.
double sample_std(const std::vector<double>& values, std::size_t begin, std::size_t end);

// Shared argument checks, also used by the reductions.
void check_rewards(const std::vector<double>& rewards, const char* name);

}  // namespace grpo
