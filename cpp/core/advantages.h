// Section 3: group-relative advantages (TRL's GRPOTrainer) and PPO-style clipping.
#pragma once

#include <vector>

namespace grpo {

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
