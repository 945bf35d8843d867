// verl v0.7.0's policy losses and their gradients: see verl_policy_loss.h.
//
// Each token loss is built from branches {value, d value / d log_prob} combined the way torch's
// autograd combines them: torch.maximum / torch.minimum pass the gradient of the selected branch
// and half of each on a tie; torch.clamp passes it where min <= x <= max. The agg_loss weight W
// (verl_agg_loss.h) then gives d loss / d log_prob = W * rollout_is_weight * d token / d log_prob.
#include "rl/verl_policy_loss.h"

#include <algorithm>
#include <cmath>

#include "core/errors.h"
#include "rl/loss_terms.h"   // sapo_term, shared with TRL's SAPO
#include "rl/token_terms.h"  // cispo_coefficient, shared with TRL's CISPO

namespace grpo::verl {
namespace {

struct Branch {
  double value, grad;
};

Branch maximum(const Branch& a, const Branch& b) {
  if (a.value > b.value) return a;
  if (b.value > a.value) return b;
  return {a.value, 0.5 * (a.grad + b.grad)};
}

Branch minimum(const Branch& a, const Branch& b) {
  if (a.value < b.value) return a;
  if (b.value < a.value) return b;
  return {a.value, 0.5 * (a.grad + b.grad)};
}

double clamp(double x, double low, double high) {
  return std::min(std::max(x, low), high);
}
bool inside(double x, double low, double high) {
  return x >= low && x <= high;
}

// The PPO clip pair of a ratio r whose d r / d log_prob is dr: l1 = -A r, l2 = -A clip(r).
struct ClipPair {
  Branch l1, l2;
};
ClipPair clip_pair(double r, double dr, double a, double low, double high) {
  const double clipped = clamp(r, low, high);
  return {{-a * r, -a * dr}, {-a * clipped, inside(r, low, high) ? -a * dr : 0.0}};
}

// A [B][T] indicator's masked_mean.
double masked_fraction(const std::vector<std::vector<bool>>& flags, const Matrix& mask) {
  Matrix values = zeros_like(mask);
  for (std::size_t i = 0; i < mask.size(); ++i)
    for (std::size_t t = 0; t < mask[i].size(); ++t) values[i][t] = flags[i][t] ? 1.0 : 0.0;
  return masked_mean(values, mask);
}

using Flags = std::vector<std::vector<bool>>;
Flags flags_like(const Matrix& m) {
  return Flags(m.size(), std::vector<bool>(m[0].size()));
}

double weight_at(const PolicyInputs& in, std::size_t i, std::size_t t) {
  return in.rollout_is_weights ? (*in.rollout_is_weights)[i][t] : 1.0;
}

// agg_loss of the token losses (times the rollout weights), and its gradient.
void aggregate(const Matrix& loss_mat, const Matrix& dloss, const PolicyInputs& in, AggMode mode,
               const AggOptions& options, PolicyResult& out) {
  Matrix weighted = loss_mat;
  for (std::size_t i = 0; i < weighted.size(); ++i)
    for (std::size_t t = 0; t < weighted[i].size(); ++t) weighted[i][t] *= weight_at(in, i, t);
  const AggResult agg = agg_loss(weighted, in.mask, mode, options);
  out.loss = agg.loss;
  out.grad_logp = zeros_like(loss_mat);
  for (std::size_t i = 0; i < weighted.size(); ++i)
    for (std::size_t t = 0; t < weighted[i].size(); ++t)
      out.grad_logp[i][t] = agg.weight[i][t] * weight_at(in, i, t) * dloss[i][t];
}

// d = log_prob - old; clamped to [-20, 20] where verl clamps it.
struct LogRatio {
  double d, pass;  // pass: 1 where the clamp passes the gradient, else 0
};
LogRatio log_ratio(double logp, double old, bool clamped) {
  const double raw = logp - old;
  if (!clamped) return {raw, 1.0};
  return {clamp(raw, -20.0, 20.0), inside(raw, -20.0, 20.0) ? 1.0 : 0.0};
}

PolicyResult geo_mean(const PolicyInputs& in, double lo, double hi) {
  const Matrix& mask = in.mask;
  const std::size_t B = mask.size(), T = mask[0].size();
  PolicyResult out;
  out.grad_logp = zeros_like(mask);
  Matrix minus_d = zeros_like(mask);
  Flags high = flags_like(mask), low = flags_like(mask);
  double total = 0.0;
  for (std::size_t i = 0; i < B; ++i) {
    const double n = row_count(mask, i);
    double sum_d = 0.0, sum_a = 0.0, sum_log_w = 0.0;
    std::vector<double> dmin(T);
    for (std::size_t t = 0; t < T; ++t) {
      const double a = in.advantages[i][t];
      const double d = in.logp[i][t] - in.old_logp[i][t];  // not clamped
      minus_d[i][t] = -d;
      const double sgn = a > 0.0 ? 1.0 : (a < 0.0 ? -1.0 : 0.0);
      const double dc = clamp(d, -lo, hi);
      // sgn * min(sgn d, sgn clamp(d)): d/dd = sgn * (the selected branch's sgn or sgn * [pass])
      const Branch m = minimum({sgn * d, sgn}, {sgn * dc, inside(d, -lo, hi) ? sgn : 0.0});
      const double value = sgn * m.value;
      dmin[t] = sgn * m.grad;
      sum_d += value * mask[i][t];
      sum_a += a * mask[i][t];
      const bool clipped = d != dc;
      high[i][t] = clipped && a > 0.0;
      low[i][t] = clipped && a < 0.0;
      if (in.rollout_is_weights)
        sum_log_w += std::log((*in.rollout_is_weights)[i][t] + 1e-10) * mask[i][t];
    }
    const double ratio = std::exp(sum_d / (n + 1e-8));
    const double advantage = sum_a / (n + 1e-8);
    const double seq_w = in.rollout_is_weights ? std::exp(sum_log_w / (n + 1e-8)) : 1.0;
    total += -advantage * ratio * seq_w;
    // loss = mean over B rows: d/d logp_t = -A_bar rho seq_w / B * M_t / (n + 1e-8) * dmin_t
    const double row = -advantage * ratio * seq_w / static_cast<double>(B);
    for (std::size_t t = 0; t < T; ++t)
      out.grad_logp[i][t] = row * (mask[i][t] / (n + 1e-8)) * dmin[t];
  }
  out.loss = total / static_cast<double>(B);
  out.metrics = {{"actor/pg_clipfrac", masked_fraction(high, mask)},
                 {"actor/ppo_kl", masked_mean(minus_d, mask)},
                 {"actor/pg_clipfrac_lower", masked_fraction(low, mask)}};
  return out;
}

}  // namespace

const std::vector<std::string>& loss_mode_names() {
  static const std::vector<std::string> names = {
      "vanilla", "gspo", "sapo", "gpg", "clip_cov", "kl_cov", "geo_mean", "cispo", "reinforce"};
  return names;
}

LossMode parse_loss_mode(const std::string& text, const char* field) {
  return static_cast<LossMode>(require_one_of(field, text, loss_mode_names()));
}

void check_policy_config(const PolicyConfig& c, LossMode mode) {
  require_finite("clipRatio", c.clip_ratio);
  if (c.clip_ratio_low) require_finite("clipRatioLow", *c.clip_ratio_low);
  if (c.clip_ratio_high) require_finite("clipRatioHigh", *c.clip_ratio_high);
  if (mode == LossMode::Vanilla) require_at_least("clipRatioC", c.clip_ratio_c, 1.0, true);
  if (mode == LossMode::Sapo) {
    require_positive("tauPos", c.tau_pos);
    require_positive("tauNeg", c.tau_neg);
  }
  if (mode == LossMode::ClipCov) {
    if (c.clip_cov_ratio) require_at_least("clipCovRatio", *c.clip_cov_ratio, 0.0, true);
    if (c.clip_cov_lb) require_finite("clipCovLb", *c.clip_cov_lb);
    if (c.clip_cov_ub) require_finite("clipCovUb", *c.clip_cov_ub);
  }
  if (mode == LossMode::KlCov) {
    if (c.kl_cov_ratio) require_at_least("klCovRatio", *c.kl_cov_ratio, 0.0, true);
    if (c.ppo_kl_coef) require_finite("ppoKlCoef", *c.ppo_kl_coef);
  }
  check_agg_options(c.global_batch_info);
}

PolicyResult policy_loss(LossMode mode, const PolicyConfig& c, const PolicyInputs& in) {
  const double lo = c.clip_ratio_low.value_or(c.clip_ratio);
  const double hi = c.clip_ratio_high.value_or(c.clip_ratio);
  if (mode == LossMode::GeoMean) return geo_mean(in, lo, hi);

  const Matrix& mask = in.mask;
  const std::size_t B = mask.size(), T = mask[0].size();
  Matrix loss = zeros_like(mask), dloss = zeros_like(mask), minus_d = zeros_like(mask);
  Flags clipped = flags_like(mask), lower = flags_like(mask);
  PolicyResult out;
  AggMode agg_mode = in.agg_mode;

  // gspo: the detached sequence log-ratio mean_t d (masked, over max(n_i, 1)).
  std::vector<double> seq_log_ratio(B, 0.0);
  if (mode == LossMode::Gspo)
    for (std::size_t i = 0; i < B; ++i) {
      double sum = 0.0;
      for (std::size_t t = 0; t < T; ++t) sum += (in.logp[i][t] - in.old_logp[i][t]) * mask[i][t];
      seq_log_ratio[i] = sum / std::max(row_count(mask, i), 1.0);
    }

  for (std::size_t i = 0; i < B; ++i)
    for (std::size_t t = 0; t < T; ++t) {
      const double a = in.advantages[i][t], lp = in.logp[i][t];
      switch (mode) {
        case LossMode::Vanilla: {  // core_algos.py:906
          const LogRatio d = log_ratio(lp, in.old_logp[i][t], true);
          minus_d[i][t] = -d.d;
          const double r = std::exp(d.d);
          const ClipPair p = clip_pair(r, r * d.pass, a, 1.0 - lo, 1.0 + hi);
          const Branch c1 = maximum(p.l1, p.l2);
          clipped[i][t] = p.l2.value > p.l1.value;
          Branch token = c1;
          if (a < 0.0) {
            const Branch l3{-a * c.clip_ratio_c, 0.0};
            lower[i][t] = c1.value > l3.value;
            token = minimum(l3, c1);
          }
          loss[i][t] = token.value;
          dloss[i][t] = token.grad;
          break;
        }
        case LossMode::Gspo: {  // :1000, ratio s_i with d s / d logp_t = s_i (log clamped <= 10)
          minus_d[i][t] = -(lp - in.old_logp[i][t]);
          const double log_s = std::min(seq_log_ratio[i], 10.0);
          const double s = std::exp(log_s);
          const ClipPair p =
              clip_pair(s, seq_log_ratio[i] <= 10.0 ? s : 0.0, a, 1.0 - lo, 1.0 + hi);
          const Branch token = maximum(p.l1, p.l2);
          clipped[i][t] = p.l2.value > p.l1.value;
          loss[i][t] = token.value;
          dloss[i][t] = token.grad;
          break;
        }
        case LossMode::Sapo: {  // :1076, the gate of TRL's SAPO
          const LogRatio d = log_ratio(lp, in.old_logp[i][t], true);
          minus_d[i][t] = -d.d;
          const SapoTerm term = sapo_term(std::exp(d.d), a, c.tau_pos, c.tau_neg);
          loss[i][t] = term.loss;
          dloss[i][t] = term.dloss_dlogr * d.pass;
          break;
        }
        case LossMode::Gpg:  // :1161
          loss[i][t] = -lp * a;
          dloss[i][t] = -a;
          break;
        case LossMode::Reinforce:  // :1731
          minus_d[i][t] = -(lp - (*in.rollout_logp)[i][t]);
          loss[i][t] = -a * lp;
          dloss[i][t] = -a;
          break;
        case LossMode::Cispo: {  // :1468, -sg(clip(r, 1 - lo, 1 + hi)) A logp
          const LogRatio d = log_ratio(lp, in.old_logp[i][t], true);
          minus_d[i][t] = -d.d;
          const double r = std::exp(d.d);
          const double coefficient = cispo_coefficient(r, 1.0 + hi, 1.0 - lo);
          clipped[i][t] = r != coefficient;
          loss[i][t] = -coefficient * a * lp;
          dloss[i][t] = -coefficient * a;
          break;
        }
        case LossMode::ClipCov: {  // :1197, no clamp of d, no dual clip
          const LogRatio d = log_ratio(lp, in.old_logp[i][t], false);
          minus_d[i][t] = -d.d;
          const double r = std::exp(d.d);
          const ClipPair p = clip_pair(r, r, a, 1.0 - lo, 1.0 + hi);
          const Branch token = maximum(p.l1, p.l2);
          clipped[i][t] = p.l2.value > p.l1.value && mask[i][t] > 0.0;  // clip_by_origin
          loss[i][t] = token.value;
          dloss[i][t] = token.grad;
          break;
        }
        case LossMode::KlCov: {  // :1302, -A r (no clip); the selected tokens add coef |d|
          const double d = lp - in.old_logp[i][t];
          minus_d[i][t] = std::abs(d);  // ppo_kl is mm(|d|) here
          const double r = std::exp(d);
          loss[i][t] = -a * r;
          dloss[i][t] = -a * r;
          break;
        }
        case LossMode::GeoMean:
          break;
      }
    }

  switch (mode) {
    case LossMode::ClipCov: {
      const double ratio = c.clip_cov_ratio.value_or(2e-4);
      out.selected = clip_cov_selection(in.advantages, in.logp, mask, clipped, ratio,
                                        c.clip_cov_lb.value_or(1.0), c.clip_cov_ub.value_or(5.0),
                                        in.selected_tokens);
      Flags zeroed = flags_like(mask);
      for (const Token& token : out.selected) {
        loss[token.first][token.second] *= 0.0;  // corr = 0: value and gradient
        dloss[token.first][token.second] *= 0.0;
        zeroed[token.first][token.second] = true;
      }
      aggregate(loss, dloss, in, agg_mode, c.global_batch_info, out);
      out.metrics = {{"actor/pg_clipfrac", masked_fraction(zeroed, mask)},
                     {"actor/ppo_kl", masked_mean(minus_d, mask)}};
      return out;
    }
    case LossMode::KlCov: {
      const double coef = c.ppo_kl_coef.value_or(1.0);
      out.selected = kl_cov_selection(in.advantages, in.logp, mask, c.kl_cov_ratio.value_or(2e-4),
                                      in.selected_tokens);
      for (const Token& token : out.selected) {
        const std::size_t i = token.first, t = token.second;
        const double d = in.logp[i][t] - in.old_logp[i][t];
        loss[i][t] = -in.advantages[i][t] * std::exp(d) + coef * std::abs(d);
        dloss[i][t] += coef * (d > 0.0 ? 1.0 : (d < 0.0 ? -1.0 : 0.0));
      }
      aggregate(loss, dloss, in, agg_mode, c.global_batch_info, out);
      out.metrics = {{"actor/ppo_kl", masked_mean(minus_d, mask)}};
      return out;
    }
    case LossMode::Gspo:
    case LossMode::Sapo:
      agg_mode = AggMode::SeqMeanTokenMean;  // the argument is ignored
      break;
    default:
      break;
  }
  aggregate(loss, dloss, in, agg_mode, c.global_batch_info, out);
  switch (mode) {
    case LossMode::Gpg:
      break;  // verl returns no metrics
    case LossMode::Reinforce:
      out.metrics = {{"actor/ppo_kl", masked_mean(minus_d, mask)}};
      break;
    default: {
      const bool clip_metrics =
          mode == LossMode::Vanilla || mode == LossMode::Gspo || mode == LossMode::Cispo;
      out.metrics = {{"actor/pg_clipfrac", clip_metrics ? masked_fraction(clipped, mask) : 0.0},
                     {"actor/ppo_kl", masked_mean(minus_d, mask)},
                     {"actor/pg_clipfrac_lower",
                      mode == LossMode::Vanilla ? masked_fraction(lower, mask) : 0.0}};
    }
  }
  return out;
}

}  // namespace grpo::verl
