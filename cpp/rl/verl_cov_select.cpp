// Clip-Cov's and KL-Cov's token selection: see verl_cov_select.h.
#include "rl/verl_cov_select.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/errors.h"

namespace grpo::verl {
namespace {

std::string token_text(const Token& token) {
  return "[" + std::to_string(token.first) + ", " + std::to_string(token.second) + "]";
}

// `given` must be `count` distinct tokens each passing `allowed`.
void check_given(const std::vector<Token>& given, std::size_t count,
                 const std::vector<std::vector<bool>>& allowed, const char* what) {
  require_coded(given.size() == count, "size", "selectedTokens", [&] {
    return std::pair<MessageParams, std::string>{
        {{"expected", static_cast<double>(count)}, {"got", static_cast<double>(given.size())}},
        "selectedTokens: must have " + std::to_string(count) + " entries (the number verl " +
            "selects), got " + std::to_string(given.size())};
  });
  std::vector<Token> sorted = given;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t k = 0; k < given.size(); ++k) {
    const Token& token = given[k];
    const std::string field = FieldName("selectedTokens", k).text();
    const bool inside = token.first < allowed.size() && token.second < allowed[0].size();
    if (!inside || !allowed[token.first][token.second])
      throw InvalidArgument(field + ": " + token_text(token) + " is not " + what);
    if (k > 0 && sorted[k] == sorted[k - 1])
      throw InvalidArgument("selectedTokens: " + token_text(sorted[k]) + " is given twice");
  }
}

}  // namespace

std::vector<Token> clip_cov_selection(const Matrix& advantages, const Matrix& logp,
                                      const Matrix& mask,
                                      const std::vector<std::vector<bool>>& clipped, double ratio,
                                      double lb, double ub,
                                      const std::optional<std::vector<Token>>& given) {
  const double mean_a = masked_mean(advantages, mask), mean_lp = masked_mean(logp, mask);
  const std::size_t B = mask.size(), T = mask[0].size();
  std::vector<std::vector<bool>> candidate(B, std::vector<bool>(T, false));
  std::vector<Token> candidates;
  for (std::size_t i = 0; i < B; ++i)
    for (std::size_t t = 0; t < T; ++t) {
      if (!(mask[i][t] > 0.0) || clipped[i][t]) continue;  // cov_all = -inf there
      const double cov = (advantages[i][t] - mean_a) * (logp[i][t] - mean_lp);
      if (cov < ub && cov > lb) {
        candidate[i][t] = true;
        candidates.emplace_back(i, t);
      }
    }
  // clip_num = max(int(clip_cov_ratio * response_mask.sum().item()), 1)
  const double clip_num = std::max(std::trunc(ratio * mask_count(mask)), 1.0);
  const std::size_t count =
      std::min(static_cast<std::size_t>(std::min(clip_num, 1e15)), candidates.size());
  if (given) {
    check_given(*given, count, candidate,
                "a Clip-Cov candidate (valid, not clipped, lb < cov < ub)");
    return *given;
  }
  candidates.resize(count);
  return candidates;
}

std::vector<Token> kl_cov_selection(const Matrix& advantages, const Matrix& logp,
                                    const Matrix& mask, double ratio,
                                    const std::optional<std::vector<Token>>& given) {
  const std::size_t B = mask.size(), T = mask[0].size();
  std::vector<Token> valid;
  double sum_a = 0.0, sum_lp = 0.0;
  for (std::size_t i = 0; i < B; ++i)
    for (std::size_t t = 0; t < T; ++t)
      if (mask[i][t] > 0.0) {
        valid.emplace_back(i, t);
        sum_a += advantages[i][t];
        sum_lp += logp[i][t];
      }
  std::vector<std::vector<bool>> is_valid(B, std::vector<bool>(T, false));
  for (const Token& token : valid) is_valid[token.first][token.second] = true;
  if (valid.empty()) {  // k = min(kl_cov_ratio, 0) = 0: nothing selected
    if (given) check_given(*given, 0, is_valid, "a valid token");
    return {};
  }
  const double n = static_cast<double>(valid.size());
  const double mean_a = sum_a / n, mean_lp = sum_lp / n;
  std::vector<double> cov(valid.size());
  for (std::size_t k = 0; k < valid.size(); ++k)
    cov[k] = (advantages[valid[k].first][valid[k].second] - mean_a) *
             (logp[valid[k].first][valid[k].second] - mean_lp);
  const double k_raw = std::max(1.0, std::trunc(n * ratio));
  require_coded(k_raw <= n, "at_most_field", "klCovRatio", [&] {
    return std::pair<MessageParams, std::string>{
        {{"other", std::string("the valid tokens")}, {"max", n}, {"got", k_raw}},
        "klCovRatio: int(N * klCovRatio) = " + format_number(k_raw) +
            " must be at most the valid tokens (" + format_number(n) + "; torch.topk raises)"};
  });
  const std::size_t k = static_cast<std::size_t>(k_raw);
  std::vector<std::size_t> order(valid.size());
  for (std::size_t j = 0; j < order.size(); ++j) order[j] = j;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return cov[x] > cov[y]; });
  if (given) {
    check_given(*given, k, is_valid, "a valid token");
    // A top-k: the smallest selected cov is at least the largest unselected one.
    std::vector<std::vector<bool>> chosen(B, std::vector<bool>(T, false));
    for (const Token& token : *given) chosen[token.first][token.second] = true;
    double lowest_chosen = std::numeric_limits<double>::infinity();
    double highest_other = -std::numeric_limits<double>::infinity();
    for (std::size_t j = 0; j < valid.size(); ++j) {
      if (chosen[valid[j].first][valid[j].second])
        lowest_chosen = std::min(lowest_chosen, cov[j]);
      else
        highest_other = std::max(highest_other, cov[j]);
    }
    require(lowest_chosen >= highest_other, [&] {
      return "selectedTokens: must be the " + std::to_string(k) +
             " tokens of largest covariance (torch.topk), but a selected one has cov " +
             format_number(lowest_chosen) + " below an unselected " + format_number(highest_other);
    });
    return *given;
  }
  std::vector<Token> out;
  for (std::size_t j = 0; j < k; ++j) out.push_back(valid[order[j]]);
  return out;
}

}  // namespace grpo::verl
