// Section 4: how original GRPO, Dr. GRPO and DAPO spread one group's advantages over tokens.
#pragma once

#include <vector>

namespace grpo {

using TokenWeights = std::vector<std::vector<double>>;  // [response][token]

// A_i / (G * L_i), standardized A: TRL loss_type="grpo" (sequence mean, then group mean).
TokenWeights original_grpo_token_weights(const std::vector<double>& rewards,
                                         const std::vector<long long>& lengths);

// A_i / (G * fixed_length), centered A (no std scaling): TRL loss_type="dr_grpo".
TokenWeights dr_grpo_token_weights(const std::vector<double>& rewards,
                                   const std::vector<long long>& lengths, long long fixed_length);

// A_i / sum_j L_j, standardized A: TRL loss_type="dapo" (token mean over the group).
TokenWeights dapo_token_weights(const std::vector<double>& rewards,
                                const std::vector<long long>& lengths);

// Per-response sum of token weights.
std::vector<double> response_contributions(const TokenWeights& weights);

// All token weights, response by response.
std::vector<double> flatten_token_weights(const TokenWeights& weights);

}  // namespace grpo
