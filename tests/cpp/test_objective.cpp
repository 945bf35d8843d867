// Tests of the GRPO objective: finite-difference gradients and hand-computed TRL values.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "api/api.h"
#include "core/errors.h"
#include "core/reductions.h"
#include "rl/grpo_objective.h"
#include "rl/rng.h"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using grpo::ImportanceLevel;
using grpo::LossType;
using grpo::ObjectiveConfig;
using grpo::ObjectiveInputs;
using grpo::Ragged;
using grpo::ScaleRewards;

namespace {

// On-policy inputs (no old log-probs) for the given rewards and completion lengths.
ObjectiveInputs on_policy(const std::vector<double>& rewards, const std::vector<int>& lengths) {
  ObjectiveInputs in;
  in.rewards = rewards;
  for (int length : lengths) in.logp.push_back(std::vector<double>(length, -0.7));
  return in;
}

ObjectiveConfig config_for(int group_size, LossType loss, ScaleRewards scale, int max_length) {
  ObjectiveConfig c;
  c.group_size = group_size;
  c.loss_type = loss;
  c.scale_rewards = scale;
  c.max_completion_length = max_length;
  return c;
}

// A random off-policy batch: 3 groups of 4, lengths 0..6, per-completion ratio offsets of about
// +-0.5 so that whole sequences as well as single tokens fall outside the clip band, never within
// 0.02 of a clip boundary (token or sequence ratio), some truncated completions (2, 7 and 12 % 5).
ObjectiveInputs random_batch(std::uint64_t seed, double eps_low, double eps_high) {
  grpo::Rng rng(seed);
  const int groups = 3, g = 4, n = groups * g;
  const double low = 1.0 - eps_low, high = 1.0 + eps_high;
  auto near_boundary = [&](double log_ratio) {
    const double r = std::exp(log_ratio);
    return std::fabs(r - low) < 0.02 || std::fabs(r - high) < 0.02;
  };
  ObjectiveInputs in;
  const double levels[] = {0.0, 0.5, 1.0};
  for (int i = 0; i < n; ++i) in.rewards.push_back(levels[rng.below(3)]);
  in.rewards[0] = 1.0;  // every group informative
  in.rewards[1] = 0.0;
  in.rewards[4] = 0.0;
  in.rewards[5] = 1.0;
  in.rewards[8] = 0.5;
  in.rewards[9] = 1.0;
  in.old_logp = Ragged();
  in.ref_logp = Ragged();
  in.entropies = Ragged();
  for (int i = 0; i < n; ++i) {
    const int length = i == 7 ? 0 : 1 + static_cast<int>(rng.below(6));  // one empty completion
    std::vector<double> logp, old, ref, entropy;
    for (;;) {  // redraw the completion until no token and not the sequence sits at a boundary
      logp.clear();
      old.clear();
      ref.clear();
      entropy.clear();
      // Completion 0 (A > 0) far above the band, completion 1 (A < 0) far below: both clip.
      const double offset = i == 0 ? 0.5 : i == 1 ? -0.5 : rng.uniform(-0.55, 0.55);
      double sum = 0.0;
      bool ok = true;
      for (int t = 0; t < length; ++t) {
        const double lp = rng.uniform(-3.0, -0.05);
        const double lr = offset + rng.uniform(-0.25, 0.25);
        ok = ok && !near_boundary(lr);
        sum += lr;
        logp.push_back(lp);
        old.push_back(lp - lr);
        ref.push_back(lp + rng.uniform(-0.6, 0.6));
        entropy.push_back(rng.uniform(0.1, 2.0));
      }
      if (ok && (length == 0 || !near_boundary(sum / length))) break;
    }
    in.logp.push_back(logp);
    in.old_logp->push_back(old);
    in.ref_logp->push_back(ref);
    in.entropies->push_back(entropy);
    in.truncated.push_back(i % 5 == 2);
  }
  return in;
}

// Largest relative error between the analytic gradient and central differences of the loss
// (five-point stencil, h = 1e-3: truncation O(h^4), round-off ~1e-13, well inside the 0.02 margin
// that keeps every ratio away from a clip boundary).
double max_gradient_error(const ObjectiveConfig& config, ObjectiveInputs inputs) {
  const grpo::ObjectiveResult result = grpo::grpo_objective(config, inputs);
  const double h = 1e-3;
  double worst = 0.0;
  for (std::size_t i = 0; i < inputs.logp.size(); ++i) {
    for (std::size_t t = 0; t < inputs.logp[i].size(); ++t) {
      const double saved = inputs.logp[i][t];
      auto loss_at = [&](double step) {
        inputs.logp[i][t] = saved + step;
        const double value = grpo::grpo_objective(config, inputs).loss;
        inputs.logp[i][t] = saved;
        return value;
      };
      const double numeric =
          (8.0 * (loss_at(h) - loss_at(-h)) - (loss_at(2 * h) - loss_at(-2 * h))) / (12.0 * h);
      const double analytic = result.grad_logp[i][t];
      const double scale = std::max(std::fabs(numeric), std::fabs(analytic));
      if (scale > 1e-12) worst = std::max(worst, std::fabs(numeric - analytic) / scale);
    }
  }
  return worst;
}

double sample_std(const std::vector<double>& v) {
  double mean = 0.0;
  for (double x : v) mean += x;
  mean /= v.size();
  double s = 0.0;
  for (double x : v) s += (x - mean) * (x - mean);
  return std::sqrt(s / (v.size() - 1));
}

}  // namespace

TEST_CASE("objective gradient matches central differences in every configuration", "[objective]") {
  const LossType loss = GENERATE(LossType::Grpo, LossType::Bnpo, LossType::DrGrpo, LossType::Dapo);
  const ImportanceLevel level = GENERATE(ImportanceLevel::Token, ImportanceLevel::Sequence);
  const bool mask = GENERATE(false, true);
  const double beta = GENERATE(0.0, 0.07);
  const ScaleRewards scale = GENERATE(ScaleRewards::Group, ScaleRewards::Batch, ScaleRewards::None);

  ObjectiveConfig config = config_for(4, loss, scale, 8);
  config.importance_level = level;
  config.mask_truncated = mask;
  config.beta = beta;
  config.eps_low = 0.2;
  config.eps_high = 0.28;
  const ObjectiveInputs inputs = random_batch(42, config.eps_low, config.eps_high_value());
  INFO("loss " << grpo::loss_type_name(loss) << ", level " << grpo::importance_level_name(level)
               << ", mask " << mask << ", beta " << beta << ", scale "
               << grpo::scale_rewards_name(scale));

  const grpo::ObjectiveResult result = grpo::grpo_objective(config, inputs);
  // The batch really exercises both clip directions.
  CHECK(result.metrics.clip_ratio_low_mean > 0.0);
  CHECK(result.metrics.clip_ratio_high_mean > 0.0);
  CHECK(std::isfinite(result.loss));
  CHECK(max_gradient_error(config, inputs) < 1e-6);
  if (mask) {
    for (std::size_t i = 0; i < inputs.logp.size(); ++i)
      if (inputs.truncated[i])
        for (double gr : result.grad_logp[i]) CHECK(gr == 0.0);
  }
}

TEST_CASE("on-policy grpo loss is zero while its gradient is not", "[objective]") {
  const ObjectiveConfig config = config_for(3, LossType::Grpo, ScaleRewards::Group, 8);
  const grpo::ObjectiveResult r = grpo::grpo_objective(config, on_policy({1, 0, 1}, {2, 5, 8}));
  CHECK_THAT(r.loss, WithinAbs(0.0, 1e-12));
  CHECK(std::fabs(r.grad_logp[0][0]) > 0.05);
  CHECK(r.metrics.ratio_min == 1.0);
  CHECK(r.metrics.ratio_max == 1.0);
  CHECK(r.metrics.clip_ratio_region_mean == 0.0);
  CHECK(r.metrics.num_tokens == 15);
}

TEST_CASE("a group of equal rewards contributes nothing", "[objective]") {
  ObjectiveConfig config = config_for(3, LossType::Dapo, ScaleRewards::Group, 4);
  // Group 0: equal rewards whose float mean is not exact (0.1*3/3 != 0.1); group 1 informative.
  ObjectiveInputs in = on_policy({0.1, 0.1, 0.1, 1, 0, 0}, {2, 3, 1, 2, 2, 4});
  in.old_logp = Ragged();
  for (const auto& row : in.logp) {
    std::vector<double> old;
    for (double lp : row) old.push_back(lp - 0.4);  // ratio e^0.4 ~ 1.49: off-policy, clipped
    in.old_logp->push_back(old);
  }
  const grpo::ObjectiveResult r = grpo::grpo_objective(config, in);
  for (int i = 0; i < 3; ++i) {
    CHECK(r.advantages[i] == 0.0);
    for (double gr : r.grad_logp[i]) CHECK(gr == 0.0);
  }
  CHECK(r.advantages[3] > 0.0);
  CHECK(r.metrics.frac_reward_zero_std == 0.5);
  // The same holds for every scaling (batch keeps the group mean as the centre).
  for (ScaleRewards scale : {ScaleRewards::Batch, ScaleRewards::None}) {
    config.scale_rewards = scale;
    const grpo::ObjectiveResult s = grpo::grpo_objective(config, in);
    for (int i = 0; i < 3; ++i) CHECK(s.advantages[i] == 0.0);
  }
}

TEST_CASE("bnpo and dapo agree on one batch, with and without masking", "[objective]") {
  ObjectiveConfig config = config_for(4, LossType::Bnpo, ScaleRewards::Group, 8);
  config.beta = 0.05;
  const ObjectiveInputs in = random_batch(7, config.eps_low, config.eps_high_value());
  for (bool mask : {false, true}) {
    config.mask_truncated = mask;
    config.loss_type = LossType::Bnpo;
    const grpo::ObjectiveResult bnpo = grpo::grpo_objective(config, in);
    config.loss_type = LossType::Dapo;
    const grpo::ObjectiveResult dapo = grpo::grpo_objective(config, in);
    CHECK(bnpo.loss == dapo.loss);
    CHECK(bnpo.grad_logp == dapo.grad_logp);
    // And they differ from grpo (sequence mean first), which weights short completions more.
    config.loss_type = LossType::Grpo;
    CHECK(grpo::grpo_objective(config, in).loss != dapo.loss);
  }
}

TEST_CASE("dr_grpo divides by completions times maxCompletionLength", "[objective]") {
  // rewards [1, 0] -> centred A = [0.5, -0.5]; lengths [3, 1]; N = 2.
  ObjectiveInputs in = on_policy({1, 0}, {3, 1});
  in.old_logp = Ragged{{-0.8, -0.6, -0.7}, {-0.6}};  // ratios e^0.1, e^-0.1, 1, e^-0.1: in band
  ObjectiveConfig config = config_for(2, LossType::DrGrpo, ScaleRewards::None, 10);
  const grpo::ObjectiveResult r = grpo::grpo_objective(config, in);
  REQUIRE_THAT(r.advantages[0], WithinAbs(0.5, 1e-15));
  // loss = -(0.5 * (e^0.1 + e^-0.1 + 1) - 0.5 * e^-0.1) / (2 * 10)
  const double expected =
      -(0.5 * (std::exp(0.1) + std::exp(-0.1) + 1.0) - 0.5 * std::exp(-0.1)) / 20.0;
  CHECK_THAT(r.loss, WithinRel(expected, 1e-13));
  CHECK_THAT(r.grad_logp[0][0], WithinRel(-0.5 * std::exp(0.1) / 20.0, 1e-13));
  CHECK_THAT(r.grad_logp[1][0], WithinRel(0.5 * std::exp(-0.1) / 20.0, 1e-13));
  config.max_completion_length = 20;  // twice the fixed length, half the loss
  CHECK_THAT(grpo::grpo_objective(config, in).loss, WithinRel(expected / 2.0, 1e-13));
}

TEST_CASE("section 4 token weights are minus the on-policy gradient of TRL's loss types",
          "[objective]") {
  // The notebook example: rewards [1, 0, 1], lengths [2, 5, 8], fixed length 8, G = 3.
  const std::vector<double> rewards{1, 0, 1};
  const std::vector<int> lengths{2, 5, 8};
  const double g = 3.0;
  const std::vector<double> centred{1.0 / 3, -2.0 / 3, 1.0 / 3};
  const double std_dev = std::sqrt(1.0 / 3);  // sample std of [1, 0, 1]
  REQUIRE_THAT(sample_std(rewards), WithinRel(std_dev, 1e-15));
  std::vector<double> standardized;
  for (double c : centred) standardized.push_back(c / (std_dev + 1e-4));
  const ObjectiveInputs in = on_policy(rewards, lengths);

  auto check = [&](LossType loss, ScaleRewards scale, auto weight) {
    const grpo::ObjectiveResult r = grpo::grpo_objective(config_for(3, loss, scale, 8), in);
    for (int i = 0; i < 3; ++i) {
      REQUIRE(r.grad_logp[i].size() == static_cast<std::size_t>(lengths[i]));
      for (double gr : r.grad_logp[i]) CHECK_THAT(-gr, WithinRel(weight(i), 1e-12));
    }
  };
  INFO("original GRPO: A_i / (G L_i), standardized A");
  check(LossType::Grpo, ScaleRewards::Group,
        [&](int i) { return standardized[i] / (g * lengths[i]); });
  INFO("Dr. GRPO: A_i / (G * 8), centred A");
  check(LossType::DrGrpo, ScaleRewards::None, [&](int i) { return centred[i] / (g * 8.0); });
  INFO("DAPO: A_i / sum_j L_j, standardized A");
  check(LossType::Dapo, ScaleRewards::Group, [&](int i) { return standardized[i] / 15.0; });

  // The same through the section-4 functions of the core (core/reductions.h).
  const std::vector<long long> lengths_ll{2, 5, 8};
  const grpo::TokenWeights original = grpo::original_grpo_token_weights(rewards, lengths_ll);
  const grpo::TokenWeights dr = grpo::dr_grpo_token_weights(rewards, lengths_ll, 8);
  const grpo::TokenWeights dapo = grpo::dapo_token_weights(rewards, lengths_ll);
  check(LossType::Grpo, ScaleRewards::Group, [&](int i) { return original[i][0]; });
  check(LossType::DrGrpo, ScaleRewards::None, [&](int i) { return dr[i][0]; });
  check(LossType::Dapo, ScaleRewards::Group, [&](int i) { return dapo[i][0]; });
}

TEST_CASE("advantages: group, batch and none scaling as TRL", "[objective]") {
  const std::vector<double> rewards{1, 0, 0, 0};
  const auto group = grpo::grpo_advantages(rewards, 2, ScaleRewards::Group);
  const double group_std = std::sqrt(0.5);
  CHECK_THAT(group[0], WithinRel(0.5 / (group_std + 1e-4), 1e-15));
  CHECK_THAT(group[1], WithinRel(-0.5 / (group_std + 1e-4), 1e-15));
  CHECK(group[2] == 0.0);
  CHECK(group[3] == 0.0);
  // batch: centred on the GROUP mean, divided by the sample std of the whole batch (0.5).
  const auto batch = grpo::grpo_advantages(rewards, 2, ScaleRewards::Batch);
  CHECK_THAT(batch[0], WithinRel(0.5 / (0.5 + 1e-4), 1e-15));
  CHECK_THAT(batch[1], WithinRel(-0.5 / (0.5 + 1e-4), 1e-15));
  CHECK(batch[2] == 0.0);
  const auto none = grpo::grpo_advantages(rewards, 2, ScaleRewards::None);
  CHECK(none == std::vector<double>{0.5, -0.5, 0.0, 0.0});
  // The notebook's section 3 group sums to zero.
  const auto section3 = grpo::grpo_advantages({1, 1, 0, 0}, 4, ScaleRewards::Group);
  CHECK_THAT(section3[0] + section3[1] + section3[2] + section3[3], WithinAbs(0.0, 1e-10));
}

TEST_CASE("masking truncated completions keeps their rewards in the group statistics",
          "[objective]") {
  ObjectiveInputs in = on_policy({1, 0, 0, 1}, {2, 3, 4, 1});
  in.truncated = {false, true, false, false};
  ObjectiveConfig config = config_for(4, LossType::Dapo, ScaleRewards::Group, 4);
  const grpo::ObjectiveResult unmasked = grpo::grpo_objective(config, in);
  config.mask_truncated = true;
  const grpo::ObjectiveResult masked = grpo::grpo_objective(config, in);
  CHECK(masked.advantages == unmasked.advantages);
  CHECK(masked.advantages == grpo::grpo_advantages({1, 0, 0, 1}, 4, ScaleRewards::Group));
  CHECK(masked.metrics.num_tokens == 7);
  CHECK(unmasked.metrics.num_tokens == 10);
  CHECK(masked.metrics.num_truncated == 1);
  for (double gr : masked.grad_logp[1]) CHECK(gr == 0.0);
  // dapo's denominator counts the tokens left after masking: on-policy loss = -sum A_i L_i / 7.
  const auto& a = masked.advantages;
  CHECK_THAT(masked.loss, WithinRel(-(a[0] * 2 + a[2] * 4 + a[3] * 1) / 7.0, 1e-13));
  CHECK_THAT(masked.grad_logp[0][0], WithinRel(-a[0] / 7.0, 1e-13));
  // grpo still averages over all N completions: a masked one adds 0 to the numerator.
  config.loss_type = LossType::Grpo;
  const grpo::ObjectiveResult g = grpo::grpo_objective(config, in);
  CHECK_THAT(g.loss, WithinRel(-(a[0] + a[2] + a[3]) / 4.0, 1e-13));
}

TEST_CASE("clip metrics count only the direction that matters for the advantage's sign",
          "[objective]") {
  // Two groups of two; A = [+, -, +, -]. Token ratios chosen around the band [0.8, 1.2].
  ObjectiveInputs in;
  in.rewards = {1, 0, 1, 0};
  in.logp = {{0, 0}, {0, 0}, {0}, {0}};
  const double l = std::log(1.5), s = std::log(0.5);
  in.old_logp = Ragged{{-l, -s}, {-l, -s}, {0}, {0}};  // ratios {1.5, 0.5}, {1.5, 0.5}, 1, 1
  in.ref_logp = Ragged{{0.5, 0}, {0, 0}, {0}, {0}};
  in.entropies = Ragged{{1, 2}, {3, 4}, {5}, {6}};
  ObjectiveConfig config = config_for(2, LossType::Bnpo, ScaleRewards::Group, 2);
  const grpo::ObjectiveResult r = grpo::grpo_objective(config, in);
  // A>0 ratio 1.5: high-clipped; A>0 ratio 0.5: not; A<0 ratio 1.5: not; A<0 ratio 0.5: low.
  CHECK(r.metrics.clip_ratio_high_mean == 1.0 / 6);
  CHECK(r.metrics.clip_ratio_low_mean == 1.0 / 6);
  CHECK(r.metrics.clip_ratio_region_mean == 2.0 / 6);
  CHECK(r.grad_logp[0][0] == 0.0);                                              // clipped: flat
  CHECK(r.grad_logp[1][1] == 0.0);                                              // clipped: flat
  CHECK_THAT(r.grad_logp[0][1], WithinRel(-r.advantages[0] * 0.5 / 6, 1e-12));  // unclipped
  CHECK_THAT(r.grad_logp[1][0], WithinRel(-r.advantages[1] * 1.5 / 6, 1e-12));
  CHECK_THAT(r.metrics.ratio_min, WithinRel(0.5, 1e-15));
  CHECK_THAT(r.metrics.ratio_max, WithinRel(1.5, 1e-15));
  CHECK_THAT(r.metrics.ratio_mean, WithinRel((1.5 + 0.5 + 1.5 + 0.5 + 1 + 1) / 6, 1e-15));
  CHECK_FALSE(r.metrics.has_kl);  // beta 0: TRL logs no kl (grpo_trainer.py 3237)
  ObjectiveConfig beta = config;  // any beta > 0: the k3 mean of the reference it holds
  beta.beta = 1e-9;
  const grpo::ObjectiveResult with_beta = grpo::grpo_objective(beta, in);
  REQUIRE(with_beta.metrics.has_kl);
  CHECK_THAT(with_beta.metrics.kl, WithinRel((std::exp(0.5) - 0.5 - 1) / 6, 1e-13));
  REQUIRE(r.metrics.has_entropy);
  CHECK(r.metrics.entropy == 21.0 / 6);

  // Sequence level (GSPO): one ratio per completion, exp(mean log-ratio) = exp((l+s)/2) = 0.866.
  config.importance_level = ImportanceLevel::Sequence;
  const grpo::ObjectiveResult q = grpo::grpo_objective(config, in);
  const double seq_ratio = std::exp((l + s) / 2);
  CHECK_THAT(q.metrics.ratio_min, WithinRel(seq_ratio, 1e-15));
  CHECK(q.metrics.ratio_max == 1.0);
  CHECK(q.metrics.clip_ratio_region_mean == 0.0);  // 0.866 is inside [0.8, 1.2]
  // Unclipped: d loss / d logp_it = -A_i * r_i / 6 for each token (bnpo over 6 tokens).
  CHECK_THAT(q.grad_logp[0][0], WithinRel(-q.advantages[0] * seq_ratio / 6, 1e-12));
  CHECK_THAT(q.grad_logp[0][1], WithinRel(-q.advantages[0] * seq_ratio / 6, 1e-12));
  // Sequence-level clip ratios are a mean over completions: epsLow 0.1 puts 0.866 below 0.9.
  config.eps_low = 0.1;
  const grpo::ObjectiveResult q2 = grpo::grpo_objective(config, in);
  CHECK(q2.metrics.clip_ratio_low_mean == 1.0 / 4);  // completion 1 (A<0) of 4
  CHECK(q2.metrics.clip_ratio_high_mean == 0.0);
  CHECK(q2.grad_logp[1][0] == 0.0);
}

TEST_CASE("kl penalty: beta times k3 per token", "[objective]") {
  ObjectiveInputs in = on_policy({1, 1}, {1, 2});  // equal rewards: only the KL term remains
  in.ref_logp = Ragged{{-0.2}, {-1.0, -0.7}};
  ObjectiveConfig config = config_for(2, LossType::Grpo, ScaleRewards::Group, 2);
  config.beta = 0.5;
  const grpo::ObjectiveResult r = grpo::grpo_objective(config, in);
  auto k3 = [](double d) { return std::exp(d) - d - 1; };
  const double d0 = -0.2 + 0.7, d1 = -1.0 + 0.7;  // ref - logp
  // grpo: mean over completions of the per-completion token mean.
  CHECK_THAT(r.loss, WithinRel(0.5 * (k3(d0) / 1 + (k3(d1) + k3(0.0)) / 2) / 2, 1e-13));
  CHECK_THAT(r.grad_logp[0][0], WithinRel(0.5 * (1 - std::exp(d0)) / 2, 1e-13));
  CHECK_THAT(r.metrics.kl, WithinRel((k3(d0) + k3(d1)) / 3, 1e-13));
}

TEST_CASE("zero-length and fully masked completions contribute nothing", "[objective]") {
  ObjectiveInputs in = on_policy({1, 0, 0, 1}, {0, 2, 0, 3});
  for (LossType loss : {LossType::Grpo, LossType::Bnpo, LossType::DrGrpo, LossType::Dapo}) {
    const grpo::ObjectiveResult r =
        grpo::grpo_objective(config_for(2, loss, ScaleRewards::Group, 3), in);
    CHECK(std::isfinite(r.loss));
    CHECK(r.grad_logp[0].empty());
    CHECK(r.grad_logp[2].empty());
  }
  // Everything masked: loss 0 (denominators clamped at 1), ratio statistics undefined (NaN).
  in.truncated = {true, true, true, true};
  ObjectiveConfig config = config_for(2, LossType::Dapo, ScaleRewards::Group, 3);
  config.mask_truncated = true;
  const grpo::ObjectiveResult r = grpo::grpo_objective(config, in);
  CHECK(r.loss == 0.0);
  CHECK(r.metrics.num_tokens == 0);
  CHECK(std::isnan(r.metrics.ratio_mean));
  CHECK(r.metrics.clip_ratio_region_mean == 0.0);
}

TEST_CASE("invalid configs and inputs throw naming the field", "[objective]") {
  CHECK_THROWS_WITH(
      grpo::parse_loss_type("x"),
      "lossType: must be one of 'grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', "
      "'vespo', got 'x'");
  CHECK_THROWS_AS(grpo::parse_loss_type("GRPO"), grpo::InvalidArgument);
  CHECK_THROWS_WITH(grpo::parse_scale_rewards("std"),
                    Contains("scaleRewards") && Contains("'group', 'batch', 'none'"));
  CHECK_THROWS_WITH(grpo::parse_importance_level("seq"),
                    Contains("importanceSamplingLevel") && Contains("'token', 'sequence'"));
  CHECK(grpo::parse_loss_type("dr_grpo") == LossType::DrGrpo);
  CHECK(grpo::parse_scale_rewards("none") == ScaleRewards::None);
  CHECK(grpo::parse_importance_level("sequence") == ImportanceLevel::Sequence);

  const ObjectiveInputs in = on_policy({1, 0, 1, 0}, {1, 2, 2, 1});
  auto with = [&](auto edit) {
    ObjectiveConfig c = config_for(2, LossType::Grpo, ScaleRewards::Group, 4);
    edit(c);
    return c;
  };
  const double nan = std::nan("");
  CHECK_THROWS_WITH(with([](auto& c) { c.group_size = 1; }).validate(),
                    "groupSize: must be an integer >= 2, got 1");
  CHECK_THROWS_WITH(with([](auto& c) { c.eps_low = 1.0; }).validate(),
                    "epsLow: must be in [0, 1), got 1");
  CHECK_THROWS_WITH(with([](auto& c) { c.eps_low = -0.1; }).validate(), Contains("epsLow"));
  CHECK_THROWS_WITH(with([&](auto& c) { c.eps_low = nan; }).validate(),
                    Contains("epsLow") && Contains("NaN"));
  CHECK_THROWS_WITH(with([](auto& c) { c.eps_high = 11; }).validate(),
                    "epsHigh: must be in [0, 10], got 11");
  CHECK_THROWS_WITH(with([](auto& c) { c.beta = -1; }).validate(),
                    "beta: must be a finite number >= 0, got -1");
  CHECK_THROWS_WITH(with([](auto& c) { c.beta = HUGE_VAL; }).validate(), Contains("beta"));
  CHECK_THROWS_WITH(with([](auto& c) { c.max_completion_length = 0; }).validate(),
                    "maxCompletionLength: must be an integer >= 1, got 0");
  CHECK_THROWS_WITH(grpo::grpo_objective(with([](auto& c) { c.max_completion_length = 1; }), in),
                    Contains("logProbs[1]") && Contains("maxCompletionLength (1)"));
  CHECK_THROWS_WITH(grpo::grpo_objective(with([](auto& c) { c.group_size = 3; }), in),
                    "rewards: length must be a positive multiple of groupSize (3), got 4");
  CHECK_THROWS_WITH(grpo::grpo_objective(with([](auto& c) { c.beta = 0.1; }), in),
                    Contains("refLogProbs") && Contains("beta"));

  const ObjectiveConfig ok = with([](auto&) {});
  auto bad = [&](auto edit) {
    ObjectiveInputs copy = in;
    edit(copy);
    return copy;
  };
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) { x.rewards[2] = NAN; })),
                    "rewards[2]: must be a finite number, got NaN");
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) { x.logp.pop_back(); })),
                    "logProbs: must have one row per reward (4), got 3");
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) { x.logp[3][0] = INFINITY; })),
                    "logProbs[3][0]: must be a finite number, got Infinity");
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) {
                                           x.old_logp = Ragged{{0}, {0}, {0}, {0}};
                                         })),
                    "oldLogProbs[1]: length must equal logProbs[1] (2), got 1");
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) { x.ref_logp = Ragged{{0}}; })),
                    Contains("refLogProbs: must have one row per reward"));
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) { x.truncated = {true}; })),
                    "truncated: must have one flag per reward (4), got 1");
  CHECK_THROWS_WITH(grpo::grpo_objective(ok, bad([](auto& x) {
                                           x.entropies = Ragged{{0}, {0, 0}, {0, 0}, {}};
                                         })),
                    Contains("entropies[3]"));
}

TEST_CASE("grpoObjective JSON method: defaults, output shape and errors", "[objective][api]") {
  using grpo::api::Json;
  const Json args{{"rewards", {1, 0, 1}},
                  {"groupSize", 3},
                  {"logProbs", {{-0.5, -0.5}, {-1, -1, -1, -1, -1}, Json::array()}}};
  const Json out = grpo::api::call_json("grpoObjective", args);
  REQUIRE(out.contains("ok"));
  const Json& ok = out["ok"];
  CHECK(ok["config"]["lossType"] == "dapo");  // TRL's defaults (grpo_config.py 791, 488)
  CHECK(ok["config"]["scaleRewards"] == "group");
  CHECK(ok["config"]["importanceSamplingLevel"] == "token");
  CHECK(ok["config"]["maxCompletionLength"] == 256);
  CHECK(ok["config"]["epsHigh"] == 0.2);
  CHECK(ok["advantages"].size() == 3);
  CHECK(ok["gradLogProbs"][1].size() == 5);
  CHECK(ok["gradLogProbs"][2].empty());
  CHECK(ok["metrics"]["kl"].is_null());
  CHECK(ok["metrics"]["entropy"].is_null());
  CHECK(ok["metrics"]["numTokens"] == 7);
  CHECK(ok["metrics"]["ratioMean"] == 1.0);

  Json more = args;
  more["epsLow"] = 0.1;  // epsHigh defaults to epsLow, as TRL's epsilon_high
  more["truncated"] = {true, true, true};
  more["maskTruncated"] = true;
  more["refLogProbs"] = {{-0.5, -0.5}, {-1, -1, -1, -1, -1}, Json::array()};
  more["beta"] = 0.1;
  const Json masked = grpo::api::call_json("grpoObjective", more)["ok"];
  CHECK(masked["config"]["epsHigh"] == 0.1);
  CHECK(masked["metrics"]["numTokens"] == 0);
  CHECK(masked["metrics"]["ratioMean"] == Json{{"$number", "NaN"}});
  CHECK(masked["metrics"]["kl"] == 0.0);

  auto error_of = [&](const char* key, const Json& value) {
    Json bad = args;
    bad[key] = value;
    return grpo::api::call_json("grpoObjective", bad)["error"];
  };
  const Json loss_error = error_of("lossType", "x");
  CHECK(loss_error["type"] == "RangeError");
  CHECK(loss_error["message"] ==
        "lossType: must be one of 'grpo', 'bnpo', 'dr_grpo', 'dapo', 'cispo', 'sapo', 'luspo', "
        "'vespo', got 'x'");
  CHECK(error_of("groupSize", 1)["type"] == "RangeError");
  CHECK_THAT(error_of("groupSize", 1)["message"].get<std::string>(), Contains("groupSize"));
  CHECK(error_of("logProbs", "x")["type"] == "TypeError");
  CHECK(error_of("truncated", {1, 0, 0})["type"] == "TypeError");
  CHECK_THAT(error_of("truncated", {1, 0, 0})["message"].get<std::string>(),
             Contains("truncated[0]"));
  CHECK_THAT(error_of("beta", 0.5)["message"].get<std::string>(), Contains("refLogProbs"));
  CHECK_THAT(error_of("maxCompletionLength", 3)["message"].get<std::string>(),
             Contains("maxCompletionLength"));
  CHECK(error_of("importanceSamplingLevel", "seq")["type"] == "RangeError");
}
