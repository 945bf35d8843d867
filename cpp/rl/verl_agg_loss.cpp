// verl v0.7.0's agg_loss and its gradient: see verl_agg_loss.h.
#include "rl/verl_agg_loss.h"

#include "core/errors.h"

namespace grpo::verl {

const std::vector<std::string>& agg_mode_names() {
  static const std::vector<std::string> names = {"token-mean", "seq-mean-token-sum",
                                                 "seq-mean-token-mean", "seq-mean-token-sum-norm"};
  return names;
}

const char* agg_mode_name(AggMode mode) {
  return agg_mode_names().at(static_cast<std::size_t>(mode)).c_str();
}

AggMode parse_agg_mode(const std::string& text, const char* field) {
  return static_cast<AggMode>(require_one_of(field, text, agg_mode_names()));
}

void check_agg_options(const AggOptions& options) {
  constexpr double kMax = 1e15;
  require_integer_in_range("dpSize", options.dp_size, 1, kMax);
  if (options.batch_num_tokens)
    require_integer_in_range("batchNumTokens", *options.batch_num_tokens, 1, kMax);
  if (options.global_batch_size)
    require_integer_in_range("globalBatchSize", *options.global_batch_size, 1, kMax);
  if (options.loss_scale_factor) require_positive("lossScaleFactor", *options.loss_scale_factor);
}

AggResult agg_loss(const Matrix& loss_mat, const Matrix& loss_mask, AggMode mode,
                   const AggOptions& options) {
  const std::size_t B = rows(loss_mat), T = cols(loss_mat);
  AggResult out{0.0, zeros_like(loss_mat)};
  const double dp = options.dp_size;
  if (mode == AggMode::TokenMean) {
    // masked_sum(L, M) / (batch_num_tokens or N) * dp_size
    const double denominator = options.batch_num_tokens.value_or(mask_count(loss_mask));
    out.loss = masked_sum(loss_mat, loss_mask) / denominator * dp;
    const double w = dp / denominator;
    for (std::size_t i = 0; i < B; ++i)
      for (std::size_t t = 0; t < T; ++t)
        if (loss_mask[i][t] != 0.0) out.weight[i][t] = w * loss_mask[i][t];
    return out;
  }
  if (mode == AggMode::SeqMeanTokenSumNorm) {
    // sum_i sum_t L M / (loss_scale_factor or T): no division by B, dp_size unused.
    const double scale = options.loss_scale_factor.value_or(static_cast<double>(T));
    double sum = 0.0;
    for (std::size_t i = 0; i < B; ++i) {
      double row = 0.0;
      for (std::size_t t = 0; t < T; ++t) row += loss_mat[i][t] * loss_mask[i][t];
      sum += row;
    }
    out.loss = sum / scale;
    const double w = 1.0 / scale;
    for (std::size_t i = 0; i < B; ++i)
      for (std::size_t t = 0; t < T; ++t) out.weight[i][t] = w * loss_mask[i][t];
    return out;
  }
  // The seq-mean modes: rows with n_i > 0 averaged, over global_batch_size or their count.
  const bool token_mean = mode == AggMode::SeqMeanTokenMean;
  double valid_rows = 0.0, sum = 0.0;
  std::vector<double> n(B);
  for (std::size_t i = 0; i < B; ++i) {
    n[i] = row_count(loss_mask, i);
    if (n[i] > 0.0) valid_rows += 1.0;
  }
  for (std::size_t i = 0; i < B; ++i) {
    if (!(n[i] > 0.0)) continue;
    double row = 0.0;
    for (std::size_t t = 0; t < T; ++t) row += loss_mat[i][t] * loss_mask[i][t];
    sum += token_mean ? row / (n[i] + 1e-8) : row;  // the eps is in the per-row denominator
  }
  const double denominator = options.global_batch_size.value_or(valid_rows);
  out.loss = sum / denominator * dp;
  const double w = dp / denominator;
  for (std::size_t i = 0; i < B; ++i) {
    if (!(n[i] > 0.0)) continue;
    const double row_w = token_mean ? w / (n[i] + 1e-8) : w;
    for (std::size_t t = 0; t < T; ++t) out.weight[i][t] = row_w * loss_mask[i][t];
  }
  return out;
}

}  // namespace grpo::verl
