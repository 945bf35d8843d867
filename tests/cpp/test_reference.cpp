// Sections 2-5 of the notebook: informative groups, advantages, clipping, reductions, finite
// policy.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "core/advantages.h"
#include "core/coverage_metrics.h"
#include "core/errors.h"
#include "core/finite_policy.h"
#include "core/informative_groups.h"
#include "core/reductions.h"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

TEST_CASE("informative-group probability matches 1 - p^G - (1-p)^G", "[reference][groups]") {
  const auto [p, g] = GENERATE(table<double, long long>(
      {{0.01, 8}, {0.1, 8}, {0.5, 8}, {0.9, 8}, {0.99, 8}, {0.3, 2}, {0.7, 16}, {0.5, 1}}));
  const double expected = 1.0 - std::pow(p, g) - std::pow(1.0 - p, g);
  CHECK_THAT(grpo::informative_group_probability(p, g), WithinAbs(expected, 1e-12));
}

TEST_CASE("informative groups: edges and the notebook's examples", "[reference][groups]") {
  CHECK(grpo::informative_group_probability(0.0, 8) == 0.0);
  CHECK(grpo::informative_group_probability(1.0, 8) == 0.0);
  CHECK(grpo::informative_group_probability(0.5, 1) == 0.0);
  CHECK_THAT(grpo::informative_group_probability(0.5, 8), WithinAbs(1.0 - 2.0 / 256.0, 1e-15));
  // Draws for 100 informative prompts at p = 0.5, G = 8.
  CHECK_THAT(grpo::expected_draws_for_informative_groups(100, 0.5, 8),
             WithinRel(100.0 / (1.0 - 2.0 / 256.0), 1e-12));
  CHECK(std::isinf(grpo::expected_draws_for_informative_groups(100, 0.0, 8)));
  CHECK(std::isinf(grpo::expected_draws_for_informative_groups(100, 0.4, 1)));
  // Near p = 0 the signal is rare: about 1 / (G p) draws per informative group.
  CHECK(grpo::expected_draws_for_informative_groups(100, 0.01, 8) > 1200);
}

TEST_CASE("informative groups reject bad arguments with the parameter named",
          "[reference][groups]") {
  CHECK_THROWS_WITH(grpo::informative_group_probability(2.0, 8),
                    Contains("p:") && Contains("[0, 1]"));
  CHECK_THROWS_WITH(grpo::informative_group_probability(NAN, 8), Contains("p:"));
  CHECK_THROWS_WITH(grpo::informative_group_probability(0.5, 0), Contains("groupSize:"));
  CHECK_THROWS_WITH(grpo::expected_draws_for_informative_groups(-1, 0.5, 4), Contains("n:"));
  CHECK_THROWS_AS(grpo::informative_group_probability(-0.1, 4), grpo::InvalidArgument);
}

TEST_CASE("group-relative advantages: the notebook's [1, 1, 0, 0]", "[reference][advantages]") {
  const std::vector<double> rewards{1, 1, 0, 0};
  const auto centered = grpo::group_relative_advantages(rewards, false);
  const auto standardized = grpo::group_relative_advantages(rewards, true);
  const double std_dev = std::sqrt(1.0 / 3.0);  // sample std of {.5,.5,-.5,-.5}
  double sum = 0.0;
  for (std::size_t i = 0; i < rewards.size(); ++i) {
    CHECK_THAT(centered[i], WithinAbs(rewards[i] - 0.5, 1e-15));
    CHECK_THAT(standardized[i], WithinAbs((rewards[i] - 0.5) / (std_dev + 1e-4), 1e-12));
    sum += standardized[i];
  }
  CHECK(std::fabs(sum) < 1e-10);
}

TEST_CASE("equal rewards give exactly zero advantages", "[reference][advantages]") {
  for (bool scale : {true, false}) {
    for (double a : grpo::group_relative_advantages({0.3, 0.3, 0.3}, scale)) CHECK(a == 0.0);
    for (double a : grpo::group_relative_advantages({7.0}, scale)) CHECK(a == 0.0);
  }
  CHECK_THROWS_WITH(grpo::group_relative_advantages({}, true), Contains("rewards:"));
  CHECK_THROWS_WITH(grpo::group_relative_advantages({1, INFINITY}, true), Contains("rewards[1]"));
}

TEST_CASE("the notebook's clip table", "[reference][clipping]") {
  const std::vector<double> ratios{1.35, 0.85, 1.10, 0.70};
  const auto a = grpo::group_relative_advantages({1, 1, 0, 0}, true);
  const auto terms = grpo::clipped_surrogate_terms(ratios, a, 0.2, 0.2);
  const auto active = grpo::clip_activity(ratios, a, 0.2, 0.2);
  CHECK(active == std::vector<bool>{true, false, false, true});
  CHECK_THAT(terms[0], WithinAbs(1.2 * a[0], 1e-12));   // clipped at 1 + eps_high
  CHECK_THAT(terms[1], WithinAbs(0.85 * a[1], 1e-12));  // A > 0, ratio < 1: unclipped (pessimistic)
  CHECK_THAT(terms[2], WithinAbs(1.10 * a[2], 1e-12));  // A < 0, ratio > 1: unclipped
  CHECK_THAT(terms[3], WithinAbs(0.8 * a[3], 1e-12));   // clipped at 1 - eps_low
}

TEST_CASE("clipping is asymmetric with eps_low != eps_high", "[reference][clipping]") {
  const auto active = grpo::clip_activity({1.25, 1.25, 0.75, 0.75}, {1, -1, 1, -1}, 0.2, 0.28);
  CHECK(active == std::vector<bool>{false, false, false, true});
  CHECK_THROWS_WITH(grpo::clip_activity({1.0}, {1.0, 2.0}, 0.2, 0.2), Contains("advantages:"));
  CHECK_THROWS_WITH(grpo::clip_activity({0.0}, {1.0}, 0.2, 0.2), Contains("ratios[0]"));
  CHECK_THROWS_WITH(grpo::clip_activity({1.0}, {1.0}, 1.0, 0.2), Contains("epsLow:"));
  CHECK_THROWS_WITH(grpo::clip_activity({1.0}, {1.0}, 0.2, -0.1), Contains("epsHigh:"));
}

TEST_CASE("the notebook's reduction table", "[reference][reductions]") {
  const std::vector<double> r{1, 0, 1};
  const std::vector<long long> lengths{2, 5, 8};
  const auto a = grpo::group_relative_advantages(r, true);
  const auto c = grpo::group_relative_advantages(r, false);
  const auto original = grpo::original_grpo_token_weights(r, lengths);
  const auto dr = grpo::dr_grpo_token_weights(r, lengths, 8);
  const auto dapo = grpo::dapo_token_weights(r, lengths);
  const auto co = grpo::response_contributions(original);
  const auto cd = grpo::response_contributions(dr);
  const auto ca = grpo::response_contributions(dapo);
  for (std::size_t i = 0; i < 3; ++i) {
    REQUIRE(original[i].size() == static_cast<std::size_t>(lengths[i]));
    // Original GRPO: every response counts A_i / G whatever its length.
    CHECK_THAT(co[i], WithinAbs(a[i] / 3.0, 1e-12));
    CHECK_THAT(cd[i], WithinAbs(c[i] * lengths[i] / (3.0 * 8.0), 1e-12));
    CHECK_THAT(ca[i], WithinAbs(a[i] * lengths[i] / 15.0, 1e-12));
  }
  // Length bias: under DAPO the long correct answer outweighs the short one; not under GRPO.
  CHECK(ca[2] > ca[0]);
  CHECK_THAT(co[2], WithinAbs(co[0], 1e-12));
  const auto flat = grpo::flatten_token_weights(dapo);
  REQUIRE(flat.size() == 15);
  CHECK_THAT(flat[14], WithinAbs(a[2] / 15.0, 1e-12));
}

TEST_CASE("reductions reject bad lengths", "[reference][reductions]") {
  CHECK_THROWS_WITH(grpo::dapo_token_weights({1, 0}, {2}), Contains("lengths:"));
  CHECK_THROWS_WITH(grpo::dapo_token_weights({1, 0}, {2, 0}), Contains("lengths[1]"));
  CHECK_THROWS_WITH(grpo::dr_grpo_token_weights({1, 0}, {2, 9}, 8), Contains("fixedLength:"));
}

TEST_CASE("entropy and pass@k", "[reference][metrics]") {
  CHECK_THAT(grpo::categorical_entropy({0.5, 0.5}), WithinAbs(std::log(2.0), 1e-15));
  CHECK(grpo::categorical_entropy({1.0, 0.0}) == 0.0);
  CHECK_THROWS_WITH(grpo::categorical_entropy({0.5, 0.6}), Contains("sum to 1"));
  CHECK_THROWS_WITH(grpo::categorical_entropy({1.5, -0.5}), Contains("probabilities[0]"));
  CHECK_THAT(grpo::pass_at_k_independent(0.25, 4), WithinAbs(1.0 - std::pow(0.75, 4), 1e-15));
  CHECK_THROWS_WITH(grpo::pass_at_k_independent(0.5, 0), Contains("k:"));
  // Unbiased estimator equals 1 - C(n-c,k)/C(n,k): n=10, c=3, k=4 -> 1 - 35/210.
  CHECK_THAT(grpo::pass_at_k_unbiased(10, 3, 4), WithinAbs(1.0 - 35.0 / 210.0, 1e-12));
  CHECK(grpo::pass_at_k_unbiased(10, 7, 4) == 1.0);
  CHECK(grpo::pass_at_k_unbiased(10, 0, 4) == 0.0);
  CHECK_THROWS_WITH(grpo::pass_at_k_unbiased(4, 5, 2), Contains("c:"));
}

TEST_CASE("finite policy: reward rises, entropy falls, success concentrates",
          "[reference][finite]") {
  double last_reward = -1.0, last_entropy = 1e9, last_pass = -1.0, last_top_share = 0.0;
  for (long long step = 0; step <= 60; ++step) {
    const auto s = grpo::synthetic_mode_training(0.0, 0.18, step);
    double sum = 0.0;
    for (double p : s.probabilities) sum += p;
    CHECK_THAT(sum, WithinAbs(1.0, 1e-12));
    CHECK_THAT(s.entropy, WithinAbs(grpo::categorical_entropy(s.probabilities), 1e-12));
    const double pass4 = grpo::pass_at_k_independent(s.successful_mass, 4);
    const double top_share = s.probabilities[0] / s.successful_mass;
    if (step > 0) {
      CHECK(s.expected_reward > last_reward);
      CHECK(s.entropy < last_entropy);
      CHECK(pass4 > last_pass);
      CHECK(top_share > last_top_share);
    }
    last_reward = s.expected_reward;
    last_entropy = s.entropy;
    last_pass = pass4;
    last_top_share = top_share;
  }
  CHECK(last_reward > 0.85);
  CHECK(last_top_share > 0.8);
}

TEST_CASE("finite policy: an entropy bonus keeps entropy visibly higher", "[reference][finite]") {
  const auto plain = grpo::synthetic_mode_training(0.0, 0.18, 60);
  const auto bonus = grpo::synthetic_mode_training(0.3, 0.18, 60);
  CHECK(bonus.entropy > plain.entropy + 0.3);
  CHECK_THROWS_WITH(grpo::synthetic_mode_training(-1, 0.18, 5), Contains("betaEntropy:"));
  CHECK_THROWS_WITH(grpo::synthetic_mode_training(0, NAN, 5), Contains("learningRate:"));
  CHECK_THROWS_WITH(grpo::synthetic_mode_training(0, 0.18, -1), Contains("steps:"));
}

namespace {

double largest_difference(const std::vector<grpo::FiniteEntropyStep>& rows) {
  double largest = 0.0;
  for (const auto& row : rows) largest = std::max(largest, std::fabs(row.difference));
  return largest;
}

}  // namespace

TEST_CASE("finite policy: -lr Cov(log p, p A) predicts each step's entropy change",
          "[reference][finite][entropy]") {
  const double beta = GENERATE(0.0, 0.3);
  INFO("betaEntropy " << beta);
  const auto rows = grpo::finite_entropy_mechanism(beta, 0.18, 60);
  REQUIRE(rows.size() == 60);
  for (const auto& row : rows) {
    INFO("step " << row.step);
    // The rows walk the very trajectory synthetic_mode_training returns.
    const auto before = grpo::synthetic_mode_training(beta, 0.18, row.step);
    const auto after = grpo::synthetic_mode_training(beta, 0.18, row.step + 1);
    CHECK_THAT(row.entropy, WithinAbs(before.entropy, 1e-15));
    CHECK_THAT(row.exact_change, WithinAbs(after.entropy - before.entropy, 1e-15));
    CHECK(row.exact_change < 0.0);
    CHECK(row.predicted_change < 0.0);  // the sign matches on every step
    CHECK(std::fabs(row.difference) < 0.05 * std::fabs(row.exact_change));
    double sum = 0.0;
    for (double c : row.contributions) sum += c;
    CHECK_THAT(sum, WithinAbs(row.predicted_change, 1e-15));
    CHECK(row.advantages.size() == 6);
  }
}

TEST_CASE("finite policy: the entropy prediction is right to second order in the learning rate",
          "[reference][finite][entropy]") {
  const double beta = GENERATE(0.0, 0.3);
  INFO("betaEntropy " << beta);
  // The same 60 steps at lr, and the same horizon (120 steps) at lr / 2.
  const auto full = grpo::finite_entropy_mechanism(beta, 0.18, 60);
  const auto half = grpo::finite_entropy_mechanism(beta, 0.09, 120);
  const double first = full[0].difference / half[0].difference;  // the same starting policy
  const double largest = largest_difference(full) / largest_difference(half);
  INFO("step-0 ratio " << first << ", largest-difference ratio " << largest);
  CHECK(first > 3.0);
  CHECK(first < 5.5);
  CHECK(largest > 3.0);
  CHECK(largest < 5.5);
  CHECK(grpo::finite_entropy_mechanism(beta, 0.0, 3)[2].exact_change == 0.0);
  CHECK(grpo::finite_entropy_mechanism(beta, 0.18, 0).empty());
}

TEST_CASE("finite policy: entropy mechanism errors name the option", "[reference][entropy]") {
  CHECK_THROWS_WITH(grpo::finite_entropy_mechanism(11, 0.18, 5), Contains("betaEntropy:"));
  CHECK_THROWS_WITH(grpo::finite_entropy_mechanism(0, -0.1, 5), Contains("learningRate:"));
  CHECK_THROWS_WITH(grpo::finite_entropy_mechanism(0, 0.18, 100001), Contains("steps:"));
}
