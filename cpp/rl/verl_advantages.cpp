// verl v0.7.0's outcome advantage estimators: see verl_advantages.h.
#include "rl/verl_advantages.h"

#include <algorithm>
#include <limits>
#include <map>

#include "core/advantages.h"  // sample_std
#include "core/errors.h"

namespace grpo::verl {
namespace {

constexpr double kEpsilon = 1e-6;  // the estimators' epsilon (TRL's GRPO: 1e-4)

// The rows of each uid, groups in order of first appearance (verl's defaultdict).
std::vector<std::vector<std::size_t>> groups_of(const std::vector<std::string>& index) {
  std::map<std::string, std::size_t> id;
  std::vector<std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < index.size(); ++i) {
    const auto found = id.emplace(index[i], groups.size());
    if (found.second) groups.emplace_back();
    groups[found.first->second].push_back(i);
  }
  return groups;
}

// scores = token_level_rewards.sum(-1): over all T positions, not masked.
std::vector<double> scores_of(const Matrix& rewards) {
  std::vector<double> s(rewards.size(), 0.0);
  for (std::size_t i = 0; i < rewards.size(); ++i)
    for (double r : rewards[i]) s[i] += r;
  return s;
}

struct GroupStats {
  std::vector<double> values;  // the group's scores
  double mean = 0.0, std = 0.0;
};

// torch.mean and torch.std (unbiased) of the group's scores; equal scores give their value and
// std 0 exactly.
GroupStats stats_of(const std::vector<double>& scores, const std::vector<std::size_t>& rows) {
  GroupStats g;
  for (std::size_t i : rows) g.values.push_back(scores[i]);
  const bool equal =
      std::all_of(g.values.begin(), g.values.end(), [&](double v) { return v == g.values[0]; });
  if (equal) {
    g.mean = g.values[0];
  } else {
    double sum = 0.0;
    for (double v : g.values) sum += v;
    g.mean = sum / static_cast<double>(g.values.size());
  }
  g.std = sample_std(g.values, 0, g.values.size());
  return g;
}

// scores.unsqueeze(-1) * response_mask
Matrix broadcast(const std::vector<double>& per_row, const Matrix& mask) {
  Matrix out = zeros_like(mask);
  for (std::size_t i = 0; i < mask.size(); ++i)
    for (std::size_t t = 0; t < mask[i].size(); ++t) out[i][t] = per_row[i] * mask[i][t];
  return out;
}

Matrix times_mask(Matrix m, const Matrix& mask) {
  for (std::size_t i = 0; i < m.size(); ++i)
    for (std::size_t t = 0; t < m[i].size(); ++t) m[i][t] *= mask[i][t];
  return m;
}

std::string group_label(const std::string& key) {
  return key.size() > 2 ? key.substr(2) : key;  // the API's "n:" / "s:" prefix dropped
}

}  // namespace

double singleton_grpo_denominator() {
  const float sum = 1.0f + static_cast<float>(kEpsilon);  // float32 arithmetic, as torch's
  return static_cast<double>(sum);
}

const std::vector<std::string>& estimator_names() {
  static const std::vector<std::string> names = {
      "grpo", "grpo_passk", "rloo", "reinforce_plus_plus", "reinforce_plus_plus_baseline", "remax",
      "opo",  "gpg",        "gae"};
  return names;
}

Estimator parse_estimator(const std::string& text, const char* field) {
  return static_cast<Estimator>(require_one_of(field, text, estimator_names()));
}

AdvantageResult compute_advantages(Estimator estimator, const AdvantageInputs& in) {
  const Matrix& mask = in.response_mask;
  const std::size_t B = mask.size(), T = mask[0].size();
  const std::vector<double> scores = scores_of(in.token_level_rewards);
  const auto groups = groups_of(in.index);
  std::vector<double> a(B, 0.0);
  AdvantageResult out;

  switch (estimator) {
    case Estimator::Grpo:  // core_algos.py:264
      for (const auto& rows : groups) {
        if (rows.size() == 1) {  // id2mean = tensor(0.0), id2std = tensor(1.0)
          const std::size_t i = rows[0];
          a[i] = in.norm_adv_by_std_in_grpo ? (scores[i] - 0.0) / singleton_grpo_denominator()
                                            : scores[i] - 0.0;
          continue;
        }
        const GroupStats g = stats_of(scores, rows);
        for (std::size_t i : rows)
          a[i] = in.norm_adv_by_std_in_grpo ? (scores[i] - g.mean) / (g.std + kEpsilon)
                                            : scores[i] - g.mean;
      }
      out.advantages = broadcast(a, mask);
      break;
    case Estimator::GrpoPassk:  // :358
      for (const auto& rows : groups) {
        require_coded(rows.size() >= 2, "at_least", "index", [&] {
          return std::pair<MessageParams, std::string>{
              {{"min", 2.0}, {"got", static_cast<double>(rows.size())}},
              "index: grpo_passk needs at least 2 rows per group (verl raises ValueError), "
              "group '" +
                  group_label(in.index[rows[0]]) + "' has 1"};
        });
        // torch.topk(rewards, 2): the largest and the second largest (equal to it on a tie).
        std::size_t best = 0;
        for (std::size_t k = 1; k < rows.size(); ++k)
          if (scores[rows[k]] > scores[rows[best]]) best = k;
        double second = -std::numeric_limits<double>::infinity();
        for (std::size_t k = 0; k < rows.size(); ++k)
          if (k != best) second = std::max(second, scores[rows[k]]);
        double advantage = scores[rows[best]] - second;
        if (in.norm_adv_by_std_in_grpo)
          advantage = advantage / (stats_of(scores, rows).std + kEpsilon);
        a[rows[best]] = advantage;  // a tie at the maximum gives 0 to every row
      }
      out.advantages = broadcast(a, mask);
      break;
    case Estimator::Rloo:  // :474
      a = scores;
      for (const auto& rows : groups) {
        if (rows.size() == 1) continue;  // a singleton keeps its score
        const double n = static_cast<double>(rows.size());
        const double mean = stats_of(scores, rows).mean;
        for (std::size_t i : rows) a[i] = scores[i] * n / (n - 1.0) - mean * n / (n - 1.0);
      }
      out.advantages = broadcast(a, mask);
      break;
    case Estimator::ReinforcePlusPlusBaseline: {  // :420
      for (const auto& rows : groups) {
        const double mean = rows.size() == 1 ? 0.0 : stats_of(scores, rows).mean;
        for (std::size_t i : rows) a[i] = scores[i] - mean;
      }
      out.advantages = times_mask(masked_whiten(broadcast(a, mask), mask, "responseMask"), mask);
      break;
    }
    case Estimator::ReinforcePlusPlus: {  // :580, G_t = r_t + gamma G_{t+1}, reset by the mask
      Matrix returns = zeros_like(mask);
      for (std::size_t i = 0; i < B; ++i) {
        double running = 0.0;
        for (std::size_t t = T; t-- > 0;) {
          running = in.token_level_rewards[i][t] + in.gamma * running;
          returns[i][t] = running;
          running = running * mask[i][t];
        }
      }
      out.advantages = times_mask(masked_whiten(returns, mask, "responseMask"), mask);
      out.returns = std::move(returns);
      return out;
    }
    case Estimator::Remax: {  // :619, reverse cumsum of r * M (gamma not used)
      Matrix returns = zeros_like(mask);
      out.advantages = zeros_like(mask);
      for (std::size_t i = 0; i < B; ++i) {
        double running = 0.0;
        for (std::size_t t = T; t-- > 0;) {
          running += in.token_level_rewards[i][t] * mask[i][t];
          returns[i][t] = running;
        }
        for (std::size_t t = 0; t < T; ++t)
          out.advantages[i][t] = returns[i][t] - in.reward_baselines[i] * mask[i][t];
      }
      out.returns = std::move(returns);
      return out;
    }
    case Estimator::Opo:  // :526, the length-weighted group mean as the baseline
      for (const auto& rows : groups) {
        double baseline = 0.0;
        if (rows.size() > 1) {
          double weighted = 0.0, lengths = 0.0;
          for (std::size_t i : rows) {
            weighted += row_count(mask, i) * scores[i];
            lengths += row_count(mask, i);
          }
          require_coded(lengths > 0.0, "at_least", "responseMask", [&] {
            return std::pair<MessageParams, std::string>{
                {{"min", 1.0}, {"got", 0.0}},
                "responseMask: opo needs a valid token in group '" +
                    group_label(in.index[rows[0]]) + "' (verl divides 0 by 0)"};
          });
          baseline = weighted / lengths;
        }
        for (std::size_t i : rows) a[i] = scores[i] - baseline;
      }
      out.advantages = broadcast(a, mask);
      break;
    case Estimator::Gpg: {  // :655
      std::size_t nonzero = 0;
      for (double s : scores) nonzero += s != 0.0 ? 1 : 0;
      // alpha = bsz / m.clamp(min=1): true division of an int64 tensor, float32 (torch's
      // default dtype), then widened against the float64 scores.
      const float alpha_f =
          static_cast<float>(B) / static_cast<float>(std::max<std::size_t>(nonzero, 1));
      const double alpha = static_cast<double>(alpha_f);
      for (const auto& rows : groups) {
        const double mean = rows.size() == 1 ? 0.0 : stats_of(scores, rows).mean;
        for (std::size_t i : rows) a[i] = alpha * (scores[i] - mean) / 1.0;  // f_norm = 1
      }
      out.advantages = broadcast(a, mask);
      break;
    }
    case Estimator::Gae: {  // :212, masked positions carry nextvalues and lastgaelam through
      Matrix raw = zeros_like(mask);
      for (std::size_t i = 0; i < B; ++i) {
        double next_value = 0.0, last = 0.0;
        for (std::size_t t = T; t-- > 0;) {
          const double m = mask[i][t], v = in.values[i][t];
          const double delta = in.token_level_rewards[i][t] + in.gamma * next_value - v;
          const double current = delta + in.gamma * in.lam * last;
          next_value = v * m + (1.0 - m) * next_value;
          last = current * m + (1.0 - m) * last;
          raw[i][t] = last;
        }
      }
      out.returns = zeros_like(mask);
      for (std::size_t i = 0; i < B; ++i)
        for (std::size_t t = 0; t < T; ++t) out.returns[i][t] = raw[i][t] + in.values[i][t];
      out.advantages = masked_whiten(raw, mask, "responseMask");  // not re-masked
      return out;
    }
  }
  out.returns = out.advantages;
  return out;
}

}  // namespace grpo::verl
