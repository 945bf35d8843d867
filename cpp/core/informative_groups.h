// Section 2: how likely a group of G binary rewards carries a learning signal.
#pragma once

namespace grpo {

// 1 - p^G - (1-p)^G: the probability that a group holds at least one success and one failure.
// p in [0, 1], group_size >= 1 (a group of one is never informative).
double informative_group_probability(double p, long long group_size);

// n / P_info: expected prompts drawn to collect n informative groups; +infinity where
// P_info is 0 (p = 0, p = 1 or group_size = 1). n >= 0.
double expected_draws_for_informative_groups(double n, double p, long long group_size);

}  // namespace grpo
