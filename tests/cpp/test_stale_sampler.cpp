// A stale sampler: samplerLag k (the behaviour policy is the policy of k updates ago), derived
// by hand from parameter snapshots and teacher-forced log-probs.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "rl/trainer.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// The smoke profile with a short warm-up and the smallest final evaluation: these cases check
// which weights sampled, not what training reached (in ASan the defaults cost ~20 s a case).
grpo::ExperimentConfig smoke(const std::function<void(grpo::ExperimentConfig&)>& change) {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.warmup_steps = 20;
  config.final_eval_samples = 4;
  change(config);
  config.validate();
  return config;
}

// The update batch as the trainer lays it out: one prompt row per kept group, its G completions.
struct Batch {
  grpo::TokenRows prompts, completions;
  std::vector<bool> truncated;
  grpo::Ragged sampled_logp;  // the sampler's, recorded while sampling
};

Batch update_batch(const grpo::Experiment& experiment) {
  Batch batch;
  const grpo::RolloutBatch& rollouts = experiment.last_rollouts();
  for (std::size_t p = 0; p < rollouts.groups.size(); ++p) {
    if (!rollouts.kept[p]) continue;
    batch.prompts.push_back(experiment.prompts()[rollouts.groups[p][0].prompt_id].tokens);
    for (const grpo::RolloutRow& row : rollouts.groups[p]) {
      batch.completions.push_back(row.tokens);
      batch.truncated.push_back(!row.terminated);
      batch.sampled_logp.push_back(row.old_logp);
    }
  }
  return batch;
}

grpo::Ragged teacher_forced(grpo::Policy policy, const Batch& batch, double temperature) {
  grpo::PolicyOutput out;
  policy.forward(batch.prompts, batch.completions, temperature, out);
  return out.logp;
}

}  // namespace

TEST_CASE("samplerLag k: update u samples from the policy after update max(0, u - 1 - k)",
          "[trainer][sampler][sweep]") {
  for (int lag : {1, 3}) {
    INFO("samplerLag " << lag);
    grpo::Experiment experiment(smoke([&](grpo::ExperimentConfig& c) {
      c.updates = 7;
      c.sampler_lag = lag;
    }));
    std::vector<std::vector<float>> after = {experiment.policy().params()};  // [0] the warm-up
    while (!experiment.done()) {
      experiment.step();
      const int u = experiment.updates_done();
      INFO("update " << u);
      CHECK(experiment.last_sampler().params() == after[std::max(0, u - 1 - lag)]);
      CHECK(experiment.last_sampler().params() != experiment.policy().params());
      after.push_back(experiment.policy().params());
    }
  }
}

TEST_CASE("samplerLag 1 by hand: the sampler is the warm-up policy, then update 1's policy",
          "[trainer][sampler]") {
  // One epoch per update, so each update's only optimizer step is on-policy for the learner:
  // TRL recomputes the old log-probs with the learner (grpo_trainer.py 2561-2566), so the PPO
  // ratio is exactly 1 and the lag shows in the sampler-to-learner ratio, which the IS
  // correction and the off-policy mask act on.
  const grpo::ExperimentConfig config = smoke([](grpo::ExperimentConfig& c) {
    c.updates = 3;
    c.update_epochs = 1;
    c.sampler_lag = 1;
  });
  grpo::Experiment experiment(config);
  const grpo::Policy warm_up = experiment.policy();

  // Update 1: the sampler is the warm-up policy, which the learner still is.
  const grpo::HistoryRow first = experiment.step();
  CHECK(experiment.last_sampler().params() == warm_up.params());
  CHECK(first.has_sampler);
  CHECK(first.ratio_min == 1.0);
  CHECK(first.ratio_max == 1.0);
  CHECK(first.sampling_logp_difference_max < 1e-5);  // sampling vs teacher forcing, float
  const grpo::Policy update_1 = experiment.policy();

  // Update 2: sampled by the warm-up policy, the old log-probs are update 1's policy.
  const grpo::HistoryRow second = experiment.step();
  const Batch batch = update_batch(experiment);
  const grpo::Ragged by_warm_up = teacher_forced(warm_up, batch, config.temperature);
  const grpo::Ragged by_update_1 = teacher_forced(update_1, batch, config.temperature);
  double difference_sum = 0, difference_max = 0, tokens = 0;
  for (std::size_t j = 0; j < batch.completions.size(); ++j) {
    for (std::size_t t = 0; t < batch.completions[j].size(); ++t) {
      // What the sampler recorded is the warm-up policy's log-prob (sampling and teacher
      // forcing agree to float rounding), not update 1's.
      CHECK_THAT(batch.sampled_logp[j][t], WithinAbs(by_warm_up[j][t], 1e-5));
      if (config.objective.mask_truncated && batch.truncated[j]) continue;
      const double d = std::abs(by_update_1[j][t] - batch.sampled_logp[j][t]);
      difference_sum += d;
      difference_max = std::max(difference_max, d);
      tokens += 1;
    }
  }
  REQUIRE(tokens > 0);
  CHECK(second.ratio_min == 1.0);
  CHECK(second.ratio_max == 1.0);
  CHECK(difference_max > 1e-3);  // one update of staleness is visible
  CHECK_THAT(second.sampling_logp_difference_mean, WithinRel(difference_sum / tokens, 1e-9));
  CHECK_THAT(second.sampling_logp_difference_max, WithinRel(difference_max, 1e-9));

  // Update 3: sampled by update 1's policy.
  experiment.step();
  CHECK(experiment.last_sampler().params() == update_1.params());
}

TEST_CASE("samplerLag and samplerMismatch compose: the lagged weights, rounded",
          "[trainer][sampler]") {
  const double step = 0.05;
  grpo::Experiment experiment(smoke([&](grpo::ExperimentConfig& c) {
    c.updates = 3;
    c.sampler_lag = 1;
    c.sampler_mismatch = step;
  }));
  experiment.step();
  const std::vector<float> update_1 = experiment.policy().params();
  experiment.step();
  experiment.step();
  const std::vector<float>& sampler = experiment.last_sampler().params();
  REQUIRE(sampler.size() == update_1.size());
  for (std::size_t k = 0; k < sampler.size(); ++k)
    REQUIRE(sampler[k] ==
            static_cast<float>(step * std::nearbyint(static_cast<double>(update_1[k]) / step)));
}

TEST_CASE("samplerLag 0 is the policy itself, no separate sampler", "[trainer][sampler]") {
  grpo::Experiment experiment(smoke([](grpo::ExperimentConfig& c) { c.updates = 2; }));
  const grpo::HistoryRow row = experiment.step();
  CHECK_FALSE(row.has_sampler);
  CHECK(&experiment.last_sampler() == &experiment.policy());
}

TEST_CASE("stepsPerGeneration S: S mini-batches of one generation, old log-probs the generator's",
          "[trainer][sampler]") {
  const grpo::ExperimentConfig config = smoke([](grpo::ExperimentConfig& c) {
    c.updates = 2;
    c.update_epochs = 2;
    c.steps_per_generation = 4;
  });
  grpo::Experiment experiment(config);
  const grpo::HistoryRow row = experiment.step();
  const std::vector<grpo::StepRecord>& steps = experiment.last_steps();
  REQUIRE(steps.size() == 8);  // epoch-major: parts 0..3, then 0..3 again (TRL's _step % S)
  const Batch batch = update_batch(experiment);
  const std::size_t n = batch.completions.size();
  // The four parts partition the generation's rows, n / 4 each, in a shuffled order.
  std::vector<int> seen;
  for (int m = 0; m < 4; ++m) {
    CHECK(steps[m].rows.size() == n / 4);
    CHECK(steps[m + 4].rows == steps[m].rows);
    seen.insert(seen.end(), steps[m].rows.begin(), steps[m].rows.end());
  }
  std::vector<int> sorted = seen;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t j = 0; j < n; ++j) REQUIRE(sorted[j] == static_cast<int>(j));
  CHECK(seen != sorted);

  // Step 1 trains the generator on its own samples: ratio exactly 1, and (ratio 1, beta 0, dapo)
  // the loss is -sum A_i n_i over the part / the WHOLE generation's loss-mask tokens (TRL's
  // num_items_in_batch), not the part's.
  REQUIRE(config.objective.loss_type == grpo::LossType::Dapo);
  REQUIRE(config.objective.beta == 0.0);
  const grpo::RolloutBatch& rollouts = experiment.last_rollouts();
  std::vector<double> advantage;
  for (std::size_t p = 0; p < rollouts.groups.size(); ++p)
    if (rollouts.kept[p])
      for (const grpo::RolloutRow& r : rollouts.groups[p]) advantage.push_back(r.advantage);
  double items = 0, weighted = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (!(config.objective.mask_truncated && batch.truncated[j]))
      items += static_cast<double>(batch.completions[j].size());
  for (int j : steps[0].rows)
    if (!(config.objective.mask_truncated && batch.truncated[j]))
      weighted += advantage[j] * static_cast<double>(batch.completions[j].size());
  CHECK(steps[0].metrics.ratio_min == 1.0);
  CHECK(steps[0].metrics.ratio_max == 1.0);
  CHECK_THAT(steps[0].loss, WithinAbs(-weighted / items, 1e-12));
  // Every later step sees the policy moved since the generation: ratios != 1.
  for (std::size_t s = 1; s < steps.size(); ++s) {
    INFO("step " << s);
    CHECK(steps[s].metrics.ratio_max - steps[s].metrics.ratio_min > 1e-4);
  }
  CHECK(row.ratio_min < 1.0);
  CHECK(row.ratio_max > 1.0);
}

TEST_CASE("stepsPerGeneration 1 is one step per epoch on the whole generation",
          "[trainer][sampler]") {
  grpo::Experiment experiment(smoke([](grpo::ExperimentConfig& c) { c.updates = 1; }));
  experiment.step();
  REQUIRE(experiment.last_steps().size() == 2);
  CHECK(experiment.last_steps()[0].rows.empty());
  CHECK(experiment.last_steps()[0].metrics.ratio_min == 1.0);
  CHECK(experiment.last_steps()[0].metrics.ratio_max == 1.0);
}
