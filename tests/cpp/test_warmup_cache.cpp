// Catch2 [warmup]: the warm-up cache (rl/warmup_cache.h) gives the bytes of a run that warmed up
// itself, and its key holds every config field the warm-up reads: a field left out of the key
// leaves the warmed-up parameters as they are, whatever its value.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "api/api.h"
#include "api/api_experiments.h"
#include "rl/config_fields.h"
#include "rl/trainer.h"
#include "rl/warmup_cache.h"
#include "scopes.h"
#include "short_run.h"

namespace {

using grpo::FieldKind;
using grpo::FieldSpec;

// A small run: a few warm-up steps, a small evaluation (what the key must hold, not a lesson).
grpo::ExperimentConfig small(grpo::TaskKind task = grpo::TaskKind::Arithmetic) {
  grpo::ExperimentConfig config = short_run(4, 4, 2);
  config.task = task;
  if (task == grpo::TaskKind::Scratch) config.objective.max_completion_length = 24;
  return config;
}

std::vector<float> warmed_up(const grpo::ExperimentConfig& config) {
  CacheCapacity off(0);
  return grpo::Experiment(config).policy().params();
}

struct Run {
  std::vector<std::string> history;
  std::vector<float> params;
};

Run run(const grpo::ExperimentConfig& config) {
  grpo::Experiment experiment(config);
  Run out;
  while (!experiment.done())
    out.history.push_back(grpo::api::history_json(experiment.step(), 0).dump());
  experiment.finish();
  out.params = experiment.policy().params();
  return out;
}

// In-range values of a field (its ends, an inner point, every option), as the table's numbers.
std::vector<double> values_of(const FieldSpec& f) {
  switch (f.kind) {
    case FieldKind::Int:
      return {f.min, f.max, std::floor((f.min + f.max) / 2)};
    case FieldKind::Number: {
      std::vector<double> values = {f.min + (f.max - f.min) / 4, f.min + (f.max - f.min) / 2};
      if (!f.min_open) values.push_back(f.min);
      if (!f.max_open) values.push_back(f.max);
      // Near the default too (a gradient clip at 1e6 and at 1 may clip alike: never).
      for (const double scale : {0.01, 0.5, 2.0}) {
        const double near = f.smoke * scale;
        if (near > f.min && near < f.max) values.push_back(near);
      }
      if (f.nullable) values.push_back(std::nan(""));
      return values;
    }
    case FieldKind::Bool:
      return {0, 1};
    case FieldKind::Enum: {
      std::vector<double> values;
      for (std::size_t i = 0; i < f.options.size(); ++i) values.push_back(static_cast<double>(i));
      return values;
    }
  }
  return {};
}

int vocab_size(const grpo::ExperimentConfig& config) {
  return static_cast<int>(grpo::task_of(config.task).vocab().tokens.size());
}

}  // namespace

TEST_CASE("a field outside the warm-up's key leaves the warmed-up parameters as they are",
          "[warmup]") {
  const grpo::ExperimentConfig base = small();
  const std::string key = grpo::warmup_key(base, vocab_size(base));
  const std::vector<float> expected = warmed_up(base);
  int compared = 0;
  for (const FieldSpec& f : grpo::config_fields()) {
    if (std::string(f.name) == "profile") continue;
    for (const double value : values_of(f)) {
      grpo::ExperimentConfig changed = base;
      f.set(changed, value);
      if (grpo::warmup_key(changed, vocab_size(changed)) != key) continue;
      try {
        changed.validate();
      } catch (const std::exception&) {
        continue;  // a combination the trainer refuses never warms up
      }
      INFO(f.name << " = " << value);
      CHECK(warmed_up(changed) == expected);
      ++compared;
    }
  }
  CHECK(compared > 100);  // most fields are the update's, not the warm-up's
}

TEST_CASE("a run whose warm-up came from the cache has the bytes of one that warmed up itself",
          "[warmup]") {
  for (const grpo::TaskKind task : {grpo::TaskKind::Arithmetic, grpo::TaskKind::Scratch}) {
    grpo::ExperimentConfig config = small(task);
    config.objective.loss_type = grpo::parse_loss_type("dr_grpo");
    config.sampler_lag = 1;
    Run alone;
    {
      CacheCapacity off(0);
      alone = run(config);
    }
    CacheCapacity on(8);
    grpo::ExperimentConfig other = small(task);  // the same warm-up, another update
    other.learning_rate *= 2;
    other.engine = grpo::Engine::Verl;
    run(other);
    std::vector<float> cached;
    REQUIRE(grpo::warmup_cache_find(grpo::warmup_key(config, vocab_size(config)), cached));
    const Run reused = run(config);
    CHECK(reused.history == alone.history);
    CHECK(reused.params == alone.params);
  }
}

TEST_CASE("the cache keeps its capacity's newest warm-ups", "[warmup]") {
  CacheCapacity two(2);
  std::vector<float> out;
  grpo::warmup_cache_store("a", {1});
  grpo::warmup_cache_store("b", {2});
  grpo::warmup_cache_store("c", {3});
  CHECK_FALSE(grpo::warmup_cache_find("a", out));
  REQUIRE(grpo::warmup_cache_find("c", out));
  CHECK(out == std::vector<float>{3});
  grpo::set_warmup_cache_capacity(0);
  CHECK_FALSE(grpo::warmup_cache_find("c", out));
  // And at most 16 MB: a policy of 20 MB is not kept, nor are older ones beside a 10 MB one.
  grpo::set_warmup_cache_capacity(8);
  grpo::warmup_cache_store("small", {1});
  grpo::warmup_cache_store("huge", std::vector<float>(5 << 20));
  CHECK_FALSE(grpo::warmup_cache_find("huge", out));
  grpo::warmup_cache_store("big", std::vector<float>((5 << 20) / 2));
  grpo::warmup_cache_store("big2", std::vector<float>((5 << 20) / 2));
  CHECK_FALSE(grpo::warmup_cache_find("big", out));
  CHECK(grpo::warmup_cache_find("big2", out));
}
