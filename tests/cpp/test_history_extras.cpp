// Issue 23's history columns (rl/history_extras.h): the lengths of correct and incorrect
// completions of a generation by hand, and passAtKEvery logging pass@k from a stream of its own.
#include <catch2/catch.hpp>
#include <cmath>

#include "rl/history_extras.h"

namespace {

grpo::RolloutRow row(int length, int accuracy) {
  grpo::RolloutRow r;
  r.tokens.assign(static_cast<std::size_t>(length), 0);
  r.score.accuracy = accuracy;
  return r;
}

grpo::ExperimentConfig smoke(int pass_at_k_every) {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.warmup_steps = 20;
  config.final_eval_samples = 8;
  config.updates = 6;
  config.pass_at_k_every = pass_at_k_every;
  config.validate();
  return config;
}

}  // namespace

TEST_CASE("add_correctness_lengths: the mean lengths of correct and incorrect rows, NaN for none",
          "[trainer][task]") {
  grpo::RolloutBatch batch;
  // Two groups, kept or not alike: correct lengths 3 and 5, incorrect 2, 4 and 9.
  batch.groups = {{row(3, 1), row(2, 0), row(4, 0)}, {row(5, 1), row(9, 0)}};
  grpo::HistoryRow history;
  grpo::add_correctness_lengths(batch, history);
  CHECK(history.mean_length_correct == 4.0);
  CHECK(history.mean_length_incorrect == 5.0);
  batch.groups = {{row(2, 0), row(3, 0)}};
  grpo::add_correctness_lengths(batch, history);
  CHECK(std::isnan(history.mean_length_correct));
  CHECK(history.mean_length_incorrect == 2.5);
}

TEST_CASE("passAtKEvery logs each prompt's successes on its updates and changes nothing else",
          "[trainer]") {
  CHECK(!grpo::logs_pass_at_k(smoke(0), 6));
  CHECK(grpo::logs_pass_at_k(smoke(3), 3));
  CHECK(!grpo::logs_pass_at_k(smoke(3), 4));
  grpo::Experiment off(smoke(0)), on(smoke(3));
  while (!off.done()) off.step();
  while (!on.done()) on.step();
  for (std::size_t u = 0; u < on.history().size(); ++u) {
    const grpo::HistoryRow& a = off.history()[u];
    const grpo::HistoryRow& b = on.history()[u];
    CHECK(a.pass_at_k_train.empty());
    const bool logged = (u + 1) % 3 == 0;
    CHECK(b.pass_at_k_train.size() == (logged ? on.train().size() : 0));
    CHECK(b.pass_at_k_heldout.size() == (logged ? on.heldout().size() : 0));
    for (long long c : b.pass_at_k_train) CHECK((c >= 0 && c <= 8));
    // The run's own numbers, bit for bit.
    CHECK(a.loss == b.loss);
    CHECK(a.eval_accuracy == b.eval_accuracy);
    CHECK(a.entropy == b.entropy);
  }
  CHECK(off.policy().params() == on.policy().params());
}
