// Section 4: how original GRPO, Dr. GRPO and DAPO spread one group's advantages over tokens.
#pragma once

#include <vector>

namespace grpo {

using TokenWeights = std::vector<std::vector<double>>;  // [response][token]

enum class LossType { Grpo, Bnpo, DrGrpo, Dapo };  // TRL loss_type

// D_i, the normaliser of completion i's per-token losses: the scalar loss is
// sum_i sum_t m_it * l_it / D_i. grpo: N * n_i (sequence mean, then mean over all N
// completions); dr_grpo: N * max_completion_length; bnpo and dapo: the batch's unmasked token
// count (after masking, clamped at 1 by the caller; dapo == bnpo for one batch). Shared by the
// section 4 weights below (A_i / D_i) and the GRPO objective (rl/grpo_objective.cpp).
inline double loss_normalizer(LossType type, double completions, double length, double total_tokens,
                              double max_completion_length) {
  switch (type) {
    case LossType::Grpo:
      return completions * length;
    case LossType::DrGrpo:
      return completions * max_completion_length;
    case LossType::Bnpo:
    case LossType::Dapo:
      break;
  }
  return total_tokens;
}

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
