// The trainer with engine verl: a short run for every verl loss mode and estimator (finite
// numbers, verl's metric names reduced as verl logs them), remax's greedy baseline, the refusals
// of check_verl_relations, and a pin of one preset.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <string>

#include "core/errors.h"
#include "rl/gru_policy.h"
#include "rl/task.h"
#include "rl/trainer.h"
#include "rl/trainer_verl.h"
#include "rl/verl_agg_loss.h"
#include "rl/verl_kl_penalty.h"
#include "rl/verl_policy_loss.h"
#include "short_run.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

// A few updates of the smoke profile, with a shorter warm-up and evaluation (a smoke test).
grpo::ExperimentConfig short_verl_run() {
  grpo::ExperimentConfig c = short_run(30, 16, 4);
  c.engine = grpo::Engine::Verl;
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

TEST_CASE("engine verl: every estimator trains without NaN", "[verl][trainer]") {
  for (std::size_t k = 0; k < grpo::verl_train_estimator_names().size(); ++k) {
    const auto estimator = static_cast<grpo::verl::Estimator>(k);
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

TEST_CASE("policy: greedy decoding takes the most probable token at every step", "[verl][policy]") {
  // verl's REMAX baseline is a greedy completion (vLLM do_sample=False). Each greedy token is
  // checked against the teacher-forced log-probs of every token of the vocabulary after the same
  // prefix: it is the largest, and no earlier token equals it (torch.argmax's first maximum).
  const grpo::GruDims dims{7, 4, 5};
  grpo::GruPolicy<double> policy(dims);
  grpo::Rng init(3);
  policy.reset_parameters(init);
  const grpo::TokenRows prompts = {{1, 2}, {3, 4}, {5, 5}};
  grpo::SampleOutput greedy, cooler;
  policy.greedy(prompts, 6, 1.0, 0, greedy);
  policy.greedy(prompts, 6, 0.25, 0, cooler);
  CHECK(cooler.tokens == greedy.tokens);  // argmax of logits / T: the same at any temperature
  REQUIRE(greedy.tokens.size() == prompts.size());
  for (std::size_t p = 0; p < prompts.size(); ++p) {
    const std::vector<int>& tokens = greedy.tokens[p];
    CHECK(greedy.terminated[p] == (tokens.back() == 0));
    CHECK((tokens.back() == 0 || tokens.size() == 6u));
    for (std::size_t t = 0; t < tokens.size(); ++t) {
      grpo::TokenRows completions(dims.vocab, std::vector<int>(tokens.begin(), tokens.begin() + t));
      for (int v = 0; v < dims.vocab; ++v) completions[v].push_back(v);
      grpo::PolicyOutput out;
      policy.forward({prompts[p]}, completions, 1.0, out);
      const double chosen = out.logp[tokens[t]].back();
      INFO("prompt " << p << " position " << t);
      CHECK_THAT(greedy.logp[p][t], WithinAbs(chosen, 1e-12));
      for (int v = 0; v < dims.vocab; ++v) {
        if (v < tokens[t]) CHECK(out.logp[v].back() < chosen);
        if (v > tokens[t]) CHECK(out.logp[v].back() <= chosen);
      }
    }
  }
}

TEST_CASE("engine verl: remax's baseline is each prompt's greedy completion's reward",
          "[verl][trainer]") {
  // ray_trainer.py:1368-1400: one greedy completion per prompt from the rollout policy, scored
  // by the reward function, is reward_baselines; remax's advantage with an outcome reward on the
  // last token is then (reward - baseline) on every token (verl_advantages' hand tests).
  grpo::ExperimentConfig c = short_verl_run();
  c.verl_options.estimator = grpo::verl::Estimator::Remax;
  c.validate();
  grpo::Experiment e(c);
  const grpo::Policy before = e.policy();
  e.step();
  const grpo::RolloutBatch& batch = e.last_rollouts();
  REQUIRE(batch.greedy_rewards.size() == batch.groups.size());
  grpo::TokenRows prompt_rows;
  std::vector<grpo::Prompt> prompts;
  for (const auto& group : batch.groups)
    for (const grpo::Prompt& prompt : e.prompts())
      if (prompt.id == group.front().prompt_id) {
        prompts.push_back(prompt);
        prompt_rows.push_back(prompt.tokens);
      }
  grpo::Policy sampler = before;
  grpo::SampleOutput greedy;
  sampler.greedy(prompt_rows, c.objective.max_completion_length, c.temperature, e.vocab().eos_id,
                 greedy);
  int differ = 0;
  for (std::size_t p = 0; p < batch.groups.size(); ++p) {
    grpo::Scored score = grpo::task_of(c.task).score(greedy.tokens[p], greedy.terminated[p],
                                                     prompts[p], c.format_weight);
    grpo::task_reward(score, static_cast<int>(greedy.tokens[p].size()), c);
    CHECK(batch.greedy_rewards[p] == score.reward);
    for (const grpo::RolloutRow& row : batch.groups[p]) {
      CHECK(row.advantage == row.objective_reward - batch.greedy_rewards[p]);
      differ += row.objective_reward != batch.greedy_rewards[p] ? 1 : 0;
    }
  }
  CHECK(differ > 0);  // some advantage is not 0: the baseline reached the update
  CHECK(std::isfinite(e.history().back().loss));
}

TEST_CASE("engine verl: actor/pg_loss and actor/kl_loss are summed over the update, as verl logs",
          "[verl][trainer]") {
  // dp_actor.py:434-436,536,549: `metrics["actor/pg_loss"] += pg_loss * loss_scale_factor` per
  // micro-batch (one per step here), over every mini-batch and epoch; the loss mode's metrics
  // are lists that reduce_metrics averages. actor/kl_loss starts at 0 (logged without KL loss).
  for (const double beta : {0.0, 0.01}) {
    grpo::ExperimentConfig c = short_verl_run();
    c.update_epochs = 2;
    c.steps_per_generation = 2;
    c.objective.beta = beta;
    c.validate();
    grpo::Experiment e(c);
    e.step();
    const std::vector<grpo::StepRecord>& steps = e.last_steps();
    REQUIRE(steps.size() == 4u);
    const grpo::HistoryRow& row = e.history().back();
    for (const auto& [name, value] : row.verl) {
      double sum = 0;
      for (const grpo::StepRecord& step : steps)
        for (const auto& [step_name, step_value] : step.metrics.verl)
          if (step_name == name) sum += step_value;
      INFO(name << " beta " << beta);
      const bool summed = name == "actor/pg_loss" || name == "actor/kl_loss";
      CHECK_THAT(value, WithinRel(summed ? sum : sum / 4, 1e-12) || WithinAbs(0.0, 0.0));
      if (name == "actor/kl_loss" && beta == 0) CHECK(value == 0.0);
      if (name == "actor/kl_loss" && beta > 0) CHECK(value > 0.0);
    }
    CHECK(row.verl.size() == 5u);  // pg_loss, vanilla's three, kl_loss
  }
}

TEST_CASE(
    "engine verl: a step's gradient (policy loss + KL loss - entropy bonus) by central differences",
    "[verl][trainer]") {
  // verl_objective on ragged rows (padded to T = 4 inside), the middle row truncated and masked
  // out (maskTruncated): d loss / d log_prob and d loss / d entropy against central differences of
  // the step's loss, for the loss modes without detached factors or selections that a nudge could
  // move, every KL type and every agg mode. Log-ratios sit away from every clip edge and kink.
  const grpo::Ragged old = {{-1.0, -0.5, -2.0}, {-0.3, -1.1}, {-1.5, -0.9, -0.4, -3.0}};
  const grpo::Ragged logp = {{-0.9, -0.8, -1.95}, {-0.28, -0.6}, {-1.6, -0.65, -0.4, -2.88}};
  const grpo::Ragged ref = {{-1.2, -0.6, -1.7}, {-0.5, -1.0}, {-1.3, -0.9, -0.7, -2.5}};
  const grpo::Ragged entropy = {{0.8, 1.1, 0.3}, {0.9, 0.2}, {1.4, 0.6, 0.5, 0.7}};
  const std::vector<double> advantages = {0.7, -1.2, -0.4};
  for (const char* mode : {"vanilla", "sapo", "gpg", "geo_mean", "reinforce"}) {
    for (std::size_t kl = 0; kl < grpo::verl::kl_penalty_names().size(); ++kl) {
      grpo::ExperimentConfig c = grpo::profile_defaults("smoke");
      c.engine = grpo::Engine::Verl;
      c.objective.beta = 0.05;
      c.objective.mask_truncated = true;
      c.verl_options.loss_mode = grpo::verl::parse_loss_mode(mode);
      c.verl_options.kl_loss_type = static_cast<grpo::verl::KlPenalty>(kl);
      c.verl_options.agg_mode = static_cast<grpo::verl::AggMode>(kl % 4);
      grpo::ObjectiveInputs in;
      in.logp = logp;
      in.old_logp = old;
      in.ref_logp = ref;
      in.entropies = entropy;
      in.truncated = {false, true, false};
      const grpo::ObjectiveResult r = grpo::verl_objective(c, 0.01, in, advantages);
      INFO(mode << " " << grpo::verl::kl_penalty_names()[kl] << " "
                << grpo::verl::agg_mode_names()[kl % 4]);
      REQUIRE(std::isfinite(r.loss));
      const double h = 1e-6;
      for (const bool of_entropy : {false, true}) {
        grpo::Ragged& x = of_entropy ? *in.entropies : in.logp;
        const grpo::Ragged& grad = of_entropy ? r.grad_entropy : r.grad_logp;
        for (std::size_t i = 0; i < x.size(); ++i)
          for (std::size_t t = 0; t < x[i].size(); ++t) {
            const double keep = x[i][t];
            x[i][t] = keep + h;
            const double up = grpo::verl_objective(c, 0.01, in, advantages).loss;
            x[i][t] = keep - h;
            const double down = grpo::verl_objective(c, 0.01, in, advantages).loss;
            x[i][t] = keep;
            INFO((of_entropy ? "entropy" : "log_prob") << " [" << i << "][" << t << "]");
            CHECK_THAT(grad[i][t], WithinAbs((up - down) / (2 * h), 2e-7));
            if (i == 1) CHECK(grad[i][t] == 0.0);  // the masked, truncated row
          }
      }
    }
  }
}

TEST_CASE("engine verl: refusals name the field and engine", "[verl][trainer][config]") {
  using Catch::Matchers::Contains;
  grpo::ExperimentConfig c = short_verl_run();
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

// [native]: the WASM test build leaves it out (CMakeLists.txt); pin.test.mjs pins WASM's bits.
TEST_CASE("engine verl: the verl GRPO preset is pinned natively", "[verl][trainer][pin][native]") {
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
