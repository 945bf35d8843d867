// Which tokens verl v0.7.0's Clip-Cov and KL-Cov losses treat apart (core_algos.py:1197,1302):
// the candidates, how many are taken, and a selection given by the caller or by the documented
// deterministic rule (docs/verl.md, "Clip-Cov and KL-Cov selection").
#pragma once

#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

#include "rl/verl_tensor.h"

namespace grpo::verl {

using Token = std::pair<std::size_t, std::size_t>;  // [row, col]

// Clip-Cov: candidates are valid tokens not PPO-clipped (`clipped[i][t]`) with
// lb < cov < ub, cov = (A - masked_mean(A)) (logp - masked_mean(logp)); clip_num =
// max(int(ratio N), 1); verl takes min(clip_num, #candidates) of them by torch.randperm.
// `given` (the tokens verl drew): checked to be that many distinct candidates, else
// InvalidArgument naming selectedTokens[k]. Absent: the first ones in row-major order.
std::vector<Token> clip_cov_selection(const Matrix& advantages, const Matrix& logp,
                                      const Matrix& mask,
                                      const std::vector<std::vector<bool>>& clipped, double ratio,
                                      double lb, double ub,
                                      const std::optional<std::vector<Token>>& given);

// KL-Cov: over the valid tokens, cov = (A - mean A)(logp - mean logp) with plain means; k =
// max(1, int(count ratio)) (none when no token is valid); torch.topk's k largest. `given`:
// checked to be k distinct valid tokens none of whose cov is below an unselected one's (a top-k
// under some tie order). Absent: the k largest, ties to the earlier token in row-major order.
// Throws InvalidArgument naming klCovRatio when k exceeds the valid tokens (torch.topk raises).
std::vector<Token> kl_cov_selection(const Matrix& advantages, const Matrix& logp,
                                    const Matrix& mask, double ratio,
                                    const std::optional<std::vector<Token>>& given);

}  // namespace grpo::verl
