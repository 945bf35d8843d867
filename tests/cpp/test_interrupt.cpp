// Catch2 [interrupt]: a long call stopped from outside (core/interrupt.h, issue 29): the warm-up
// and an update stop at the next time step once the check says so, a check that never fires
// leaves the run's bytes as they are, a section on several threads asks only on its caller's
// thread and ends the call when it ends, and through the API an interrupted experiment answers
// nothing but dispose.
#include <atomic>
#include <catch2/catch.hpp>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "api/api.h"
#include "api/api_experiments.h"
#include "core/interrupt.h"
#include "rl/compute_pool.h"
#include "rl/gru_policy.h"
#include "rl/rng.h"
#include "rl/trainer.h"
#include "rl/warmup_cache.h"
#include "scopes.h"

namespace {

using Json = nlohmann::json;

// The check's state: it says stop on its `fire_at`-th call (0: never) and notes its threads.
std::atomic<long> g_calls{0};
std::atomic<long> g_fire_at{0};
std::mutex g_threads_mutex;
std::set<std::thread::id> g_threads;

bool counting_check() {
  {
    std::lock_guard<std::mutex> lock(g_threads_mutex);
    g_threads.insert(std::this_thread::get_id());
  }
  const long call = ++g_calls;
  return g_fire_at != 0 && call >= g_fire_at;
}

// Installs the counting check for its lifetime, firing at call `fire_at` (0: never). No warm-up
// comes from the cache meanwhile: the check counts (and stops) the warm-up's own questions.
struct CheckScope {
  explicit CheckScope(long fire_at) {
    g_calls = 0;
    g_fire_at = fire_at;
    g_threads.clear();
    grpo::set_interrupt_check(&counting_check);
  }
  ~CheckScope() { grpo::set_interrupt_check(nullptr); }
  CacheCapacity no_cache{0};
};

grpo::ExperimentConfig small_config() {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 2;
  // Enough questions to stop inside; the bytes, not a trained policy.
  config.warmup_steps = 20;
  config.final_eval_samples = 8;
  return config;
}

std::vector<std::string> run_history(const grpo::ExperimentConfig& config) {
  grpo::Experiment experiment(config);
  std::vector<std::string> history;
  while (!experiment.done())
    history.push_back(grpo::api::history_json(experiment.step(), 0).dump());
  return history;
}

}  // namespace

TEST_CASE("a check that never fires leaves the run's bytes as they are", "[interrupt]") {
  const std::vector<std::string> plain = run_history(small_config());
  std::vector<std::string> checked;
  long calls = 0;
  {
    CheckScope scope(0);
    checked = run_history(small_config());
    calls = g_calls;
  }
  CHECK(checked == plain);
  // Asked at every warm-up step and every time step of every pass: many times per update.
  CHECK(calls > small_config().warmup_steps);
}

TEST_CASE("the warm-up and an update stop at the check's next question", "[interrupt]") {
  {
    CheckScope scope(3);  // inside the warm-up
    CHECK_THROWS_AS(grpo::Experiment(small_config()), grpo::Interrupted);
    CHECK(g_calls == 3);
  }
  grpo::Experiment experiment(small_config());
  CheckScope scope(1);  // the first question of the update
  CHECK_THROWS_WITH(experiment.step(), Catch::Contains("interrupted"));
  CHECK(g_calls == 1);
}

// Several threads: natively and in a -pthread build (a WebAssembly build without it has one).
#if !defined(__EMSCRIPTEN__) || defined(__EMSCRIPTEN_PTHREADS__)
TEST_CASE("on several threads only the caller's thread is asked", "[interrupt]") {
  Threads threads(2);
  CheckScope scope(0);
  run_history(small_config());
  CHECK(g_calls > 0);
  CHECK(g_threads == std::set<std::thread::id>{std::this_thread::get_id()});
}

TEST_CASE("a stop inside a section on several threads ends the call, and the pool works on",
          "[interrupt]") {
  const std::vector<std::string> plain = run_history(small_config());
  Threads threads(2);
  {
    // A forward pass on 2 threads asks only inside its sections (its tasks' time steps).
    grpo::GruPolicy<float> policy(grpo::GruDims{18, 16, 64});
    grpo::Rng init(5);
    policy.reset_parameters(init);
    const grpo::TokenRows prompts(8, std::vector<int>{1, 2, 3, 4});
    const grpo::TokenRows completions(16, std::vector<int>{5, 6, 7, 8, 9, 10});
    grpo::PolicyOutput out;
    CheckScope scope(1);
    CHECK_THROWS_AS(policy.forward(prompts, completions, 1.0, out), grpo::Interrupted);
    CHECK(g_threads == std::set<std::thread::id>{std::this_thread::get_id()});
  }
  CHECK(run_history(small_config()) == plain);  // no stop left over, the same bytes
}
#endif

TEST_CASE("an interrupted experiment answers nothing but dispose", "[interrupt]") {
  const Json created = Json::parse(grpo::api::call(
      "experimentCreate", R"({"profile":"smoke","updates":3,"warmupSteps":5})"))["ok"];
  const int handle = created["handle"];
  const std::string args = "{\"handle\":" + std::to_string(handle) + "}";
  {
    CheckScope scope(1);
    const Json stopped = Json::parse(grpo::api::call("experimentStep", args));
    CHECK(stopped["error"]["code"] == "interrupted");
    CHECK(stopped["error"]["type"] == "Error");
  }
  const Json after = Json::parse(grpo::api::call("experimentStep", args));
  CHECK(after["error"]["field"] == "handle");
  CHECK_THAT(after["error"]["message"].get<std::string>(),
             Catch::Contains("interrupted inside an update; dispose it"));
  CHECK(Json::parse(grpo::api::call("experimentDispose", args))["ok"]["disposed"] == true);
}
