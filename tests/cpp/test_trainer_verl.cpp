// The trainer with engine verl: a short run for every verl loss mode and estimator (finite
// numbers, verl's metric names), the refusals of check_verl_relations, and a pin of one preset.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.h"
#include "rl/trainer.h"

namespace {

// A few updates of the smoke profile, with a shorter warm-up and evaluation (a smoke test).
grpo::ExperimentConfig short_verl_run() {
  grpo::ExperimentConfig c = grpo::profile_defaults("smoke");
  c.engine = grpo::Engine::Verl;
  c.updates = 3;
  c.warmup_steps = 30;
  c.train_prompts = 16;
  c.heldout_prompts = 4;
  c.prompt_batch = 4;
  c.final_eval_samples = 4;
  c.eval_samples = 1;
  return c;
}

void check_finite_run(const grpo::ExperimentConfig& config) {
  config.validate();
  grpo::Experiment e(config);
  while (!e.done()) e.step();
  e.finish();
  REQUIRE(e.history().size() == 3u);
  for (const grpo::HistoryRow& row : e.history()) {
    INFO("update " << row.update);
    CHECK(std::isfinite(row.loss));
    CHECK(std::isfinite(row.grad_norm));
    CHECK(std::isfinite(row.ratio_mean));
    REQUIRE(!row.verl.empty());
    CHECK(row.verl.front().first == "actor/pg_loss");
    for (const auto& [name, value] : row.verl) {
      INFO(name);
      CHECK(std::isfinite(value));
    }
  }
  CHECK(std::isfinite(e.after_train().accuracy));
}

std::string hex(double x) {
  char text[64];
  std::snprintf(text, sizeof text, "%a", x);
  return text;
}

}  // namespace

TEST_CASE("engine verl: every loss mode trains without NaN", "[verl][trainer]") {
  for (std::size_t m = 0; m < grpo::verl::loss_mode_names().size(); ++m) {
    grpo::ExperimentConfig c = short_verl_run();
    c.verl_options.loss_mode = static_cast<grpo::verl::LossMode>(m);
    c.verl_options.clip_cov_ratio = 0.05;  // select a few tokens in the toy's small batches
    c.verl_options.clip_cov_lb = 0;
    c.verl_options.kl_cov_ratio = 0.05;
    c.objective.beta = m % 2 == 0 ? 0.01 : 0.0;  // the KL loss on every other mode
    c.verl_options.kl_loss_type = static_cast<grpo::verl::KlPenalty>(m % 7);
    c.objective.entropy_coef = m == 0 ? 0.01 : 0.0;
    c.verl_options.agg_mode = static_cast<grpo::verl::AggMode>(m % 4);
    INFO("loss mode " << grpo::verl::loss_mode_names()[m]);
    check_finite_run(c);
  }
}

TEST_CASE("engine verl: every estimator but remax trains without NaN", "[verl][trainer]") {
  for (std::size_t k = 0; k < grpo::verl_train_estimator_names().size(); ++k) {
    const auto estimator = static_cast<grpo::verl::Estimator>(k);
    if (estimator == grpo::verl::Estimator::Remax) continue;
    for (const grpo::ScaleRewards scale : {grpo::ScaleRewards::Group, grpo::ScaleRewards::None}) {
      grpo::ExperimentConfig c = short_verl_run();
      c.verl_options.estimator = estimator;
      c.objective.scale_rewards = scale;
      c.steps_per_generation = k % 2 == 0 ? 1 : 2;  // mini-batches take the generation's advantages
      INFO("estimator " << grpo::verl_train_estimator_names()[k]);
      check_finite_run(c);
    }
  }
}

TEST_CASE("engine verl: refusals name the field and engine", "[verl][trainer][config]") {
  using Catch::Matchers::Contains;
  grpo::ExperimentConfig c = short_verl_run();
  c.verl_options.estimator = grpo::verl::Estimator::Remax;
  REQUIRE_THROWS_WITH(c.validate(), Contains("verlAdvEstimator") && Contains("engine verl"));
  c = short_verl_run();
  c.objective.importance_level = grpo::ImportanceLevel::Sequence;
  REQUIRE_THROWS_WITH(c.validate(), Contains("importanceSamplingLevel") && Contains("engine"));
  c = short_verl_run();
  c.objective.scale_rewards = grpo::ScaleRewards::Batch;
  REQUIRE_THROWS_WITH(c.validate(), Contains("scaleRewards") && Contains("engine"));
  c = short_verl_run();
  c.verl_options.clip_cov_lb = 5;
  REQUIRE_THROWS_WITH(c.validate(), Contains("clipCovLb") && Contains("clipCovUb"));
  // With engine trl the same options are accepted (and verl's ignored).
  c = short_verl_run();
  c.engine = grpo::Engine::Trl;
  c.verl_options.estimator = grpo::verl::Estimator::Remax;
  c.objective.importance_level = grpo::ImportanceLevel::Sequence;
  REQUIRE_NOTHROW(c.validate());
}

TEST_CASE("engine verl: the verl GRPO preset is pinned (native; the same values in WASM)",
          "[verl][trainer][pin]") {
  // Section 6's "verl GRPO" (web/js/training/presets.js) on the smoke profile at seed 9, 15
  // updates: native's own bits. WASM's differ from native's (its libm's exp and log are not
  // glibc's; the difference grows over the updates, as for every run): tests/node/pin.test.mjs
  // pins the same run in WASM Node, and tests/browser/engines.test.mjs checks that each browser's
  // history hashes as Node's.
  grpo::ExperimentConfig c = grpo::profile_defaults("smoke");
  c.engine = grpo::Engine::Verl;
  c.updates = 15;
  c.objective.eps_high = 0.2;
  c.objective.beta = 0.001;
  c.validate();
  grpo::Experiment e(c);
  while (!e.done()) e.step();
  e.finish();
  const grpo::HistoryRow& last = e.history().back();
  CHECK(hex(last.loss) == "0x1.6be09e6e5fc2p-6");
  CHECK(hex(last.grad_norm) == "0x1.98ca91c253951p-2");
  CHECK(hex(e.after_train().accuracy) == "0x1.03p-2");
}
