// verl v0.7.0's agg_loss (verl/trainer/ppo/core_algos.py:772): a [B][T] loss matrix to one
// scalar in one of four modes, and its gradient (agg_loss is linear in the loss matrix, so the
// gradient is the weight each position gets). Formulas and the TRL comparison: docs/verl.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rl/verl_tensor.h"

namespace grpo::verl {

enum class AggMode { TokenMean, SeqMeanTokenSum, SeqMeanTokenMean, SeqMeanTokenSumNorm };

// token-mean, seq-mean-token-sum, seq-mean-token-mean, seq-mean-token-sum-norm (enum order).
const std::vector<std::string>& agg_mode_names();
const char* agg_mode_name(AggMode mode);
// Throws InvalidArgument naming `field` for any other text (verl raises ValueError).
AggMode parse_agg_mode(const std::string& text, const char* field = "lossAggMode");

// agg_loss's keyword arguments (config.global_batch_info): absent = verl's None.
struct AggOptions {
  double dp_size = 1.0;
  std::optional<double> batch_num_tokens;   // token-mean's denominator
  std::optional<double> global_batch_size;  // the seq-mean modes' denominator
  std::optional<double> loss_scale_factor;  // seq-mean-token-sum-norm's (None: T)
};
// Throws InvalidArgument naming dpSize, batchNumTokens, globalBatchSize (integers >= 1) or
// lossScaleFactor (> 0, finite).
void check_agg_options(const AggOptions& options);

struct AggResult {
  double loss;
  Matrix weight;  // [B][T] d loss / d loss_mat[i][t]
};
// agg_loss(loss_mat, loss_mask, mode, ...): shapes checked by the caller. A batch with nothing
// to average over (no valid token, no valid row) and no denominator given is verl's 0/0: NaN,
// with weight 0 (torch's where() in masked_sum keeps the masked gradient at 0).
AggResult agg_loss(const Matrix& loss_mat, const Matrix& loss_mask, AggMode mode,
                   const AggOptions& options = {});

}  // namespace grpo::verl
