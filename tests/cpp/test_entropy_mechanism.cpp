// Why entropy falls in the GRU (config entropyMechanism, docs/entropy-mechanism.md "The GRU"):
// the first-order prediction grad H . delta theta against the measured change on the probe set.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "rl/trainer.h"

namespace {

std::vector<grpo::HistoryRow> history_of(grpo::ExperimentConfig config) {
  grpo::Experiment experiment(config);
  while (!experiment.done()) experiment.step();
  return experiment.history();
}

grpo::ExperimentConfig smoke_with_mechanism() {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.entropy_mechanism = true;
  return config;
}

// The first-order prediction's error, measured - predicted.
double error_of(const grpo::HistoryRow& row) {
  return row.probe_entropy_change - row.probe_entropy_prediction;
}

}  // namespace

// Whole runs: natively only ([sweep], as test_trainer.cpp's); WASM runs the first in
// tests/node/entropy-mechanism.test.mjs.
TEST_CASE("entropyMechanism: the prediction has the measured change's sign on >= 80% of updates",
          "[entropy][trainer][sweep]") {
  const std::vector<grpo::HistoryRow> history = history_of(smoke_with_mechanism());
  int agree = 0, stepped = 0, cov_positive = 0;
  double measured = 0, predicted = 0;
  for (const grpo::HistoryRow& row : history) {
    REQUIRE(row.has_entropy_mechanism);
    REQUIRE(std::isfinite(row.probe_entropy_change));
    REQUIRE(std::isfinite(row.probe_entropy_prediction));
    if (row.step_norm == 0) continue;
    ++stepped;
    agree += row.probe_entropy_change * row.probe_entropy_prediction > 0 ? 1 : 0;
    cov_positive += row.logp_advantage_cov > 0 ? 1 : 0;
    measured += row.probe_entropy_change;
    predicted += row.probe_entropy_prediction;
  }
  const double share = static_cast<double>(agree) / stepped;
  WARN("sign agreement " << agree << " of " << stepped << " updates (" << 100 * share
                         << " %); summed change " << measured << ", predicted " << predicted
                         << "; Cov(log pi, A) > 0 on " << cov_positive);
  CHECK(stepped == static_cast<int>(history.size()));
  CHECK(share >= 0.8);
}

TEST_CASE("entropyMechanism: the prediction's error shrinks when the learning rate is halved",
          "[entropy][trainer][sweep]") {
  grpo::ExperimentConfig config = smoke_with_mechanism();
  config.updates = 20;
  const std::vector<grpo::HistoryRow> full = history_of(config);
  config.learning_rate /= 2;
  const std::vector<grpo::HistoryRow> half = history_of(config);
  // Update 1 starts from the same policy and samples the same batch at both rates: the error is
  // second order in the step (plus Adam's steps after the first, which depend on the rate).
  const double first = std::abs(error_of(full[0])) / std::abs(error_of(half[0]));
  // Over the run the policies part: the mean |error| relative to the mean |change|.
  double error_full = 0, error_half = 0, change_full = 0, change_half = 0;
  for (std::size_t u = 0; u < full.size(); ++u) {
    error_full += std::abs(error_of(full[u]));
    error_half += std::abs(error_of(half[u]));
    change_full += std::abs(full[u].probe_entropy_change);
    change_half += std::abs(half[u].probe_entropy_change);
  }
  WARN("update 1: error " << error_of(full[0]) << " at lr, " << error_of(half[0])
                          << " at lr/2, ratio " << first << "; step " << full[0].step_norm << " vs "
                          << half[0].step_norm << "; over " << full.size()
                          << " updates mean |error| ratio " << error_full / error_half
                          << ", relative error " << error_full / change_full << " vs "
                          << error_half / change_half);
  CHECK(first > 2.0);
  CHECK(error_full > error_half);
  CHECK(error_full / change_full > error_half / change_half);

  // One optimizer step per update: update 1 is Adam's first step, lr times the sign of the
  // gradient per parameter (m / sqrt(v) = g / |g|), so at lr/2 it is exactly half the step and
  // the error, second order in the step, about a quarter.
  config = smoke_with_mechanism();
  config.updates = 1;
  config.update_epochs = 1;
  const std::vector<grpo::HistoryRow> one = history_of(config);
  config.learning_rate /= 2;
  const std::vector<grpo::HistoryRow> one_half = history_of(config);
  const double single = std::abs(error_of(one[0])) / std::abs(error_of(one_half[0]));
  WARN("one optimizer step: error " << error_of(one[0]) << " at lr, " << error_of(one_half[0])
                                    << " at lr/2, ratio " << single << "; step " << one[0].step_norm
                                    << " vs " << one_half[0].step_norm);
  CHECK_THAT(one_half[0].step_norm, Catch::Matchers::WithinRel(one[0].step_norm / 2, 1e-3));
  CHECK(single > 3.0);
  CHECK(single < 5.0);
}

TEST_CASE("entropyMechanism: Cov(log pi, A) over the loss-mask tokens of the update's batch",
          "[entropy][trainer]") {
  // Without a separate sampler the learner's log-probs before the update are the sampler's (to
  // GEMM rounding), so the rollouts' oldLogProbs and advantages give the same covariance.
  grpo::ExperimentConfig config = smoke_with_mechanism();
  config.updates = 3;
  grpo::Experiment experiment(config);
  for (int u = 0; u < config.updates; ++u) {
    const grpo::HistoryRow row = experiment.step();
    std::vector<std::pair<double, double>> tokens;  // (log pi, A)
    const grpo::RolloutBatch& batch = experiment.last_rollouts();
    for (std::size_t p = 0; p < batch.groups.size(); ++p) {
      if (!batch.kept[p]) continue;
      for (const grpo::RolloutRow& r : batch.groups[p]) {
        if (config.objective.mask_truncated && !r.terminated) continue;
        for (double lp : r.old_logp) tokens.emplace_back(lp, r.advantage);
      }
    }
    double mean_lp = 0, mean_a = 0, cov = 0;
    for (const auto& [lp, a] : tokens) {
      mean_lp += lp / tokens.size();
      mean_a += a / tokens.size();
    }
    for (const auto& [lp, a] : tokens) cov += (lp - mean_lp) * (a - mean_a) / tokens.size();
    CHECK_THAT(row.logp_advantage_cov, Catch::Matchers::WithinAbs(cov, 1e-6));
    CHECK(row.probe_entropy > 0);
  }
}

TEST_CASE("entropyMechanism on changes none of the run's other numbers", "[entropy][trainer]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 6;
  // The same numbers with and without it, not a trained policy.
  config.warmup_steps = 20;
  config.final_eval_samples = 8;
  for (int steps : {1, 2}) {
    config.steps_per_generation = steps;
    const std::vector<grpo::HistoryRow> off = history_of(config);
    grpo::ExperimentConfig on_config = config;
    on_config.entropy_mechanism = true;
    const std::vector<grpo::HistoryRow> on = history_of(on_config);
    REQUIRE(on.size() == off.size());
    for (std::size_t u = 0; u < on.size(); ++u) {
      INFO("stepsPerGeneration " << steps << ", update " << u + 1);
      CHECK_FALSE(off[u].has_entropy_mechanism);
      CHECK(on[u].eval_accuracy == off[u].eval_accuracy);
      CHECK(on[u].eval_entropy == off[u].eval_entropy);
      CHECK(on[u].loss == off[u].loss);
      CHECK(on[u].grad_norm == off[u].grad_norm);
      CHECK(on[u].entropy == off[u].entropy);
      CHECK(on[u].ratio_mean == off[u].ratio_mean);
      CHECK(on[u].mean_reward == off[u].mean_reward);
    }
  }
}
