// The trainer's engine verl (trainer_verl.h): verl's functions on the trainer's batch.
#include "rl/trainer_verl.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "rl/verl_advantages.h"
#include "rl/verl_agg_loss.h"
#include "rl/verl_kl_penalty.h"
#include "rl/verl_policy_loss.h"

namespace grpo {
namespace {

using verl::Matrix;

std::size_t width_of(const Ragged& rows) {
  std::size_t width = 1;
  for (const auto& r : rows) width = std::max(width, r.size());
  return width;
}

// [B][T] rows padded with 0 to the batch's width T.
Matrix padded(const Ragged& rows, std::size_t width) {
  Matrix m(rows.size(), std::vector<double>(width, 0.0));
  for (std::size_t i = 0; i < rows.size(); ++i)
    std::copy(rows[i].begin(), rows[i].end(), m[i].begin());
  return m;
}

// The [B][L_i] rows of a [B][T] matrix, as the policy's backward takes them.
Ragged unpadded(const Matrix& m, const Ragged& like) {
  Ragged out(like.size());
  for (std::size_t i = 0; i < like.size(); ++i)
    out[i].assign(m[i].begin(), m[i].begin() + static_cast<std::ptrdiff_t>(like[i].size()));
  return out;
}

verl::PolicyConfig policy_config(const ExperimentConfig& config) {
  const ObjectiveConfig& o = config.objective;
  const VerlTrainOptions& v = config.verl_options;
  verl::PolicyConfig p;
  p.clip_ratio = o.eps_low;
  p.clip_ratio_low = o.eps_low;
  p.clip_ratio_high = o.eps_high.value_or(o.eps_low);
  p.clip_ratio_c = v.clip_ratio_c;
  p.tau_pos = o.sapo_temperature_pos;
  p.tau_neg = o.sapo_temperature_neg;
  p.clip_cov_ratio = v.clip_cov_ratio;
  p.clip_cov_lb = v.clip_cov_lb;
  p.clip_cov_ub = v.clip_cov_ub;
  p.kl_cov_ratio = v.kl_cov_ratio;
  p.ppo_kl_coef = v.ppo_kl_coef;
  return p;
}

}  // namespace

std::vector<double> verl_row_advantages(const ExperimentConfig& config,
                                        const std::vector<double>& rewards,
                                        const std::vector<int>& lengths, int group,
                                        const std::vector<double>& baselines) {
  const std::size_t n = rewards.size();
  std::size_t width = 1;
  for (int l : lengths) width = std::max(width, static_cast<std::size_t>(l));
  verl::AdvantageInputs in;
  in.token_level_rewards.assign(n, std::vector<double>(width, 0.0));
  in.response_mask.assign(n, std::vector<double>(width, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t length = static_cast<std::size_t>(std::max(lengths[i], 1));
    in.token_level_rewards[i][length - 1] = rewards[i];
    for (std::size_t t = 0; t < length; ++t) in.response_mask[i][t] = 1.0;
    in.index.push_back(std::to_string(i / static_cast<std::size_t>(group)));
  }
  in.norm_adv_by_std_in_grpo = config.objective.scale_rewards != ScaleRewards::None;
  in.reward_baselines = baselines;
  const verl::AdvantageResult result = verl::compute_advantages(config.verl_options.estimator, in);
  std::vector<double> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = result.advantages[i][0];
  return out;
}

ObjectiveResult verl_objective(const ExperimentConfig& config, double entropy_coef,
                               const ObjectiveInputs& in, const std::vector<double>& advantages) {
  const ObjectiveConfig& o = config.objective;
  const VerlTrainOptions& v = config.verl_options;
  const std::size_t rows = in.logp.size(), width = width_of(in.logp);
  const Ragged& old = in.old_logp ? *in.old_logp : in.logp;
  verl::PolicyInputs p;
  p.logp = padded(in.logp, width);
  p.old_logp = padded(old, width);
  p.rollout_logp = p.old_logp;
  p.agg_mode = v.agg_mode;
  p.mask.assign(rows, std::vector<double>(width, 0.0));
  p.advantages.assign(rows, std::vector<double>(width, 0.0));
  for (std::size_t i = 0; i < rows; ++i) {
    const bool out = o.mask_truncated && !in.truncated.empty() && in.truncated[i];
    for (std::size_t t = 0; t < in.logp[i].size(); ++t) {
      p.mask[i][t] = out ? 0.0 : 1.0;
      p.advantages[i][t] = advantages[i] * p.mask[i][t];  // verl: scores x response_mask
    }
  }
  const verl::PolicyResult pg = verl::policy_loss(v.loss_mode, policy_config(config), p);
  ObjectiveResult result;
  result.loss = pg.loss;
  result.advantages = advantages;
  Matrix grad = pg.grad_logp;
  ObjectiveMetrics& m = result.metrics;
  m.verl.emplace_back("actor/pg_loss", pg.loss);
  m.verl.insert(m.verl.end(), pg.metrics.begin(), pg.metrics.end());
  m.has_clip_ratio = false;  // TRL's clip_ratio/low_min, high_max: none in verl
  if (o.beta > 0) {  // use_kl_loss: kl_loss_coef x agg_loss(kl_penalty(...), mask, agg mode)
    const verl::KlResult kl = verl::kl_penalty(p.logp, padded(*in.ref_logp, width), v.kl_loss_type);
    const verl::AggResult kl_loss = verl::agg_loss(kl.kl, p.mask, v.agg_mode);
    result.loss += o.beta * kl_loss.loss;
    for (std::size_t i = 0; i < rows; ++i)
      for (std::size_t t = 0; t < width; ++t)
        grad[i][t] += o.beta * kl_loss.weight[i][t] * kl.grad_logp[i][t];
    m.has_kl = true;
    m.kl = verl::masked_mean(kl.kl, p.mask);
    m.verl.emplace_back("actor/kl_loss", kl_loss.loss);
  } else {
    m.verl.emplace_back("actor/kl_loss", 0.0);  // dp_actor logs it from 0 (dp_actor.py:436)
  }
  if (in.entropies) {  // entropy_coeff: pg_loss - entropy_coeff x agg_loss(entropy)
    const Matrix entropy = padded(*in.entropies, width);
    m.has_entropy = true;
    m.entropy = m.effective_entropy = verl::masked_mean(entropy, p.mask);
    Matrix grad_entropy = verl::zeros_like(entropy);
    if (entropy_coef != 0.0) {
      const verl::AggResult bonus = verl::agg_loss(entropy, p.mask, v.agg_mode);
      result.loss -= entropy_coef * bonus.loss;
      for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t t = 0; t < width; ++t)
          grad_entropy[i][t] = -entropy_coef * bonus.weight[i][t];
    }
    result.grad_entropy = unpadded(grad_entropy, in.logp);
  }
  result.grad_logp = unpadded(grad, in.logp);
  // TRL's columns where they mean the same: the ratio over the loss-mask tokens, its clipped
  // shares (ratio outside [1 - epsLow, 1 + epsHigh] on the side the advantage's sign clips).
  const double lo = 1.0 - o.eps_low, hi = 1.0 + o.eps_high.value_or(o.eps_low);
  double low = 0, high = 0, sum = 0;
  m.ratio_min = std::numeric_limits<double>::infinity();
  m.ratio_max = -std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < rows; ++i) {
    m.num_truncated += !in.truncated.empty() && in.truncated[i] ? 1 : 0;
    for (std::size_t t = 0; t < width; ++t) {
      if (p.mask[i][t] == 0.0) continue;
      const double r = std::exp(p.logp[i][t] - p.old_logp[i][t]);
      m.ratio_min = std::min(m.ratio_min, r);
      m.ratio_max = std::max(m.ratio_max, r);
      sum += r;
      low += r < lo && advantages[i] < 0 ? 1 : 0;
      high += r > hi && advantages[i] > 0 ? 1 : 0;
      ++m.num_tokens;
    }
  }
  const double tokens = static_cast<double>(m.num_tokens);
  if (m.num_tokens > 0) {
    m.ratio_mean = sum / tokens;
    m.clip_ratio_low_mean = low / tokens;
    m.clip_ratio_high_mean = high / tokens;
    m.clip_ratio_region_mean = (low + high) / tokens;
  } else {
    m.ratio_min = m.ratio_mean = m.ratio_max = std::nan("");
  }
  return result;
}

}  // namespace grpo
