// Section 4: token weights of the three loss reductions (their normalisers: reductions.h).
#include "core/reductions.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/advantages.h"
#include "core/errors.h"

namespace grpo {
namespace {

constexpr long long kMaxLength = 100000;
constexpr long long kMaxTotalTokens = 1000000;

void check_lengths(const std::vector<double>& rewards, const std::vector<long long>& lengths) {
  check_rewards(rewards, "rewards");
  require(lengths.size() == rewards.size(), [&] {
    return "lengths: must have one entry per reward (" + std::to_string(rewards.size()) +
           "), got " + std::to_string(lengths.size());
  });
  long long total = 0;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    require(lengths[i] >= 1 && lengths[i] <= kMaxLength, [&] {
      return "lengths[" + std::to_string(i) + "]: must be an integer in [1, " +
             std::to_string(kMaxLength) + "], got " + std::to_string(lengths[i]);
    });
    total += lengths[i];
  }
  require(total <= kMaxTotalTokens, [&] {
    return "lengths: the total must be at most " + std::to_string(kMaxTotalTokens) +
           " tokens, got " + std::to_string(total);
  });
}

// Each response i gets L_i copies of A_i / denominator_i.
template <typename Denominator>
TokenWeights spread(const std::vector<double>& advantages, const std::vector<long long>& lengths,
                    Denominator denominator) {
  TokenWeights weights(advantages.size());
  for (std::size_t i = 0; i < advantages.size(); ++i)
    weights[i].assign(static_cast<std::size_t>(lengths[i]), advantages[i] / denominator(i));
  return weights;
}

}  // namespace

TokenWeights original_grpo_token_weights(const std::vector<double>& rewards,
                                         const std::vector<long long>& lengths) {
  check_lengths(rewards, lengths);
  const double group = static_cast<double>(rewards.size());
  return spread(group_relative_advantages(rewards, true), lengths, [&](std::size_t i) {
    return loss_normalizer(LossType::Grpo, group, static_cast<double>(lengths[i]), 0, 0);
  });
}

TokenWeights dr_grpo_token_weights(const std::vector<double>& rewards,
                                   const std::vector<long long>& lengths, long long fixed_length) {
  check_lengths(rewards, lengths);
  const long long longest = *std::max_element(lengths.begin(), lengths.end());
  require(fixed_length >= longest && fixed_length <= kMaxLength, [&] {
    return "fixedLength: must be an integer in [" + std::to_string(longest) +
           " (the longest length), " + std::to_string(kMaxLength) + "], got " +
           std::to_string(fixed_length);
  });
  const double denominator = loss_normalizer(LossType::DrGrpo, static_cast<double>(rewards.size()),
                                             0, 0, static_cast<double>(fixed_length));
  return spread(group_relative_advantages(rewards, false), lengths,
                [&](std::size_t) { return denominator; });
}

TokenWeights dapo_token_weights(const std::vector<double>& rewards,
                                const std::vector<long long>& lengths) {
  check_lengths(rewards, lengths);
  double total = 0.0;
  for (long long length : lengths) total += static_cast<double>(length);
  const double denominator = loss_normalizer(LossType::Dapo, 0, 0, total, 0);
  return spread(group_relative_advantages(rewards, true), lengths,
                [&](std::size_t) { return denominator; });
}

std::vector<double> response_contributions(const TokenWeights& weights) {
  std::vector<double> sums;
  sums.reserve(weights.size());
  for (const auto& response : weights) {
    double sum = 0.0;
    for (double w : response) sum += w;
    sums.push_back(sum);
  }
  return sums;
}

std::vector<double> flatten_token_weights(const TokenWeights& weights) {
  std::vector<double> flat;
  for (const auto& response : weights) flat.insert(flat.end(), response.begin(), response.end());
  return flat;
}

}  // namespace grpo
