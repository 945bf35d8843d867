// Entropy and pass@k: how spread out a policy is and how often k tries contain a success.
#pragma once

#include <vector>

namespace grpo {

// -sum p log p (natural log). Entries in [0, 1] summing to 1 within 1e-6.
double categorical_entropy(const std::vector<double>& probabilities);

// 1 - (1 - p)^k: chance that k independent samples include a success. p in [0, 1], k >= 1.
double pass_at_k_independent(double p, long long k);

// Unbiased pass@k from n samples with c successes (Chen et al. 2021):
// 1 - C(n-c, k) / C(n, k), computed as a stable product. 0 <= c <= n, 1 <= k <= n.
double pass_at_k_unbiased(long long n, long long c, long long k);

}  // namespace grpo
