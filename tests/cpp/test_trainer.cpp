// The RL loop end to end: the notebook's lesson with the default seed, determinism, bad configs.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.h"
#include "rl/trainer.h"

using Catch::Matchers::Contains;

namespace {

struct Run {
  grpo::GenerationMetrics before_train, after_train, before_heldout, after_heldout;
  std::vector<grpo::HistoryRow> history;
};

Run run(grpo::ExperimentConfig config) {
  grpo::Experiment experiment(config);
  while (!experiment.done()) experiment.step();
  experiment.finish();
  return {experiment.before_train(), experiment.after_train(), experiment.before_heldout(),
          experiment.after_heldout(), experiment.history()};
}

bool same_history(const std::vector<grpo::HistoryRow>& a, const std::vector<grpo::HistoryRow>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].eval_accuracy != b[i].eval_accuracy || a[i].loss != b[i].loss ||
        a[i].ratio_mean != b[i].ratio_mean || a[i].grad_norm != b[i].grad_norm)
      return false;
  }
  return true;
}

}  // namespace

TEST_CASE("full profile, dapo, default seed: the notebook's lesson", "[trainer][full][sweep]") {
  const grpo::ExperimentConfig config = grpo::profile_defaults("full");
  const Run r = run(config);
  INFO("train accuracy " << r.before_train.accuracy << " -> " << r.after_train.accuracy);
  INFO("held-out accuracy " << r.before_heldout.accuracy << " -> " << r.after_heldout.accuracy);
  REQUIRE(r.history.size() == static_cast<std::size_t>(config.updates));
  CHECK(r.before_train.accuracy >= 0.1);
  CHECK(r.before_train.accuracy <= 0.6);
  CHECK(r.after_train.accuracy >= r.before_train.accuracy + 0.15);
  CHECK(r.after_train.entropy < r.before_train.entropy);
  CHECK(r.before_train.teacher_forced_kl == 0.0);
  CHECK(r.after_train.teacher_forced_kl > 0.0);
  for (const auto& row : r.history) {
    INFO("update " << row.update);
    CHECK(row.ratio_mean >= 0.9);
    CHECK(row.ratio_mean <= 1.1);
    CHECK(row.informative_fraction > 0.0);
  }
  // Entropy of fresh generation falls over the run (first vs last tenth of the updates).
  double early = 0, late = 0;
  const std::size_t tenth = r.history.size() / 10;
  for (std::size_t i = 0; i < tenth; ++i) {
    early += r.history[i].eval_entropy;
    late += r.history[r.history.size() - 1 - i].eval_entropy;
  }
  CHECK(late < early);
}

// A whole smoke run: natively only ([sweep]); WASM runs the same lesson in tests/node/lessons.
TEST_CASE("smoke profile: base policy sometimes right, accuracy rises", "[trainer][sweep]") {
  const grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  const Run r = run(config);
  REQUIRE(r.history.size() == static_cast<std::size_t>(config.updates));
  CHECK(r.before_train.accuracy >= 0.1);
  CHECK(r.before_train.accuracy <= 0.6);
  CHECK(r.after_train.accuracy > r.before_train.accuracy);
  CHECK(std::isfinite(r.after_heldout.accuracy));  // reported, whatever it is
}

TEST_CASE("same seed, same numbers, another seed, other numbers", "[trainer][sweep]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 20;
  const Run a = run(config);
  const Run b = run(config);
  CHECK(same_history(a.history, b.history));
  CHECK(a.after_train.accuracy == b.after_train.accuracy);
  config.seed = 10;
  const Run c = run(config);
  CHECK_FALSE(same_history(a.history, c.history));
}

TEST_CASE("every loss type and importance level trains without NaN", "[trainer][sweep]") {
  for (const char* loss : {"grpo", "bnpo", "dr_grpo", "dapo"}) {
    for (const char* level : {"token", "sequence"}) {
      grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
      config.updates = 10;
      config.objective.loss_type = grpo::parse_loss_type(loss);
      config.objective.importance_level = grpo::parse_importance_level(level);
      config.objective.beta = 0.04;
      config.dynamic_sampling = true;
      const Run r = run(config);
      for (const auto& row : r.history) {
        INFO(loss << " " << level << " update " << row.update);
        CHECK(std::isfinite(row.loss));
        CHECK(std::isfinite(row.kl));
        CHECK(row.discarded_fraction == Approx(1.0 - row.informative_fraction));
      }
    }
  }
}

TEST_CASE("bad configs built in C++ fail validate() naming the field", "[trainer]") {
  auto with = [](auto change) {
    grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
    change(config);
    return config;
  };
  using C = grpo::ExperimentConfig&;
  CHECK_THROWS_WITH(with([](C c) { c.objective.group_size = 1; }).validate(),
                    Contains("groupSize:"));
  CHECK_THROWS_WITH(with([](C c) { c.learning_rate = -1e-3; }).validate(),
                    Contains("learningRate:"));
  CHECK_THROWS_WITH(with([](C c) { c.objective.eps_low = 1.0; }).validate(), Contains("epsLow:"));
  CHECK_THROWS_WITH(with([](C c) { c.updates = 0; }).validate(), Contains("updates:"));
  CHECK_THROWS_WITH(with([](C c) { c.prompt_batch = 99; }).validate(), Contains("promptBatch:"));
  CHECK_THROWS_WITH(grpo::profile_defaults("huge"), Contains("profile:"));
  CHECK_THROWS_WITH(grpo::parse_loss_type("ppo"), Contains("lossType:"));
}

TEST_CASE("answer histograms: counts sum to the samples, the correct bin is the successes",
          "[trainer][coverage]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 2;
  grpo::Experiment experiment(config);
  while (!experiment.done()) experiment.step();
  experiment.finish();
  for (const grpo::GenerationMetrics* m :
       {&experiment.before_train(), &experiment.after_train(), &experiment.before_heldout(),
        &experiment.after_heldout()}) {
    REQUIRE(m->by_prompt_answers.size() == m->by_prompt_successes.size());
    for (std::size_t j = 0; j < m->by_prompt_answers.size(); ++j) {
      const auto& bins = m->by_prompt_answers[j];
      INFO("prompt " << j);
      REQUIRE(!bins.empty());
      CHECK(bins.size() <= grpo::kAnswerBinsKept + 2);
      CHECK(bins[0].kind == "correct");
      CHECK(bins[0].count == m->by_prompt_successes[j]);
      long long total = 0;
      for (const auto& b : bins) total += b.count;
      CHECK(total == m->samples);
    }
  }
  // The train prompts' reference answers name the correct bins.
  const auto& train = experiment.train();
  for (std::size_t j = 0; j < train.size(); ++j)
    CHECK(experiment.after_train().by_prompt_answers[j][0].answer == train[j].answer);
}

TEST_CASE("step after the last update is an error, finish is repeatable", "[trainer]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 2;
  config.warmup_steps = 10;
  config.final_eval_samples = 4;  // what finish() evaluates, not how well
  grpo::Experiment experiment(config);
  experiment.step();
  experiment.step();
  CHECK(experiment.done());
  CHECK_THROWS_AS(experiment.step(), grpo::InvalidArgument);
  experiment.finish();
  const double first = experiment.after_train().accuracy;
  experiment.finish();
  CHECK(experiment.after_train().accuracy == first);
}

TEST_CASE("informative groups: those whose correctness differs, the rest format alone",
          "[trainer][sweep]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 3;
  const Run with_format = run(config);
  config.format_weight = 0.0;
  const Run without_format = run(config);
  for (const auto& row : with_format.history) {
    INFO("update " << row.update);
    CHECK(row.correctness_informative_fraction >= 0.0);
    CHECK(row.correctness_informative_fraction <= row.informative_fraction);
  }
  // With the format reward off, every informative group mixes right and wrong answers.
  for (const auto& row : without_format.history)
    CHECK(row.correctness_informative_fraction == row.informative_fraction);
  // Update 1 samples the same responses from the same warmed-up policy in both runs: the groups
  // informative by correctness are those the run without the format reward finds informative.
  CHECK(with_format.history[0].correctness_informative_fraction ==
        without_format.history[0].informative_fraction);
  CHECK(with_format.history[0].informative_fraction >
        with_format.history[0].correctness_informative_fraction);
}
