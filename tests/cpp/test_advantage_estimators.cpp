// Tests of the update's advantage estimators (core/advantages.h) with hand-computed advantages.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "core/advantages.h"
#include "core/errors.h"
#include "rl/grpo_objective.h"

using Catch::Matchers::Contains;
using grpo::AdvantageEstimator;
using grpo::estimate_advantages;

namespace {

// Two groups of G = 3: A = {2, 0, 1} (sum 3, mean 1, sample std sqrt((1 + 1 + 0) / 2) = 1) and
// B = {3, 3, 3} (equal rewards). Batch mean (3 + 9) / 6 = 2.
const std::vector<double> kRewards = {2, 0, 1, 3, 3, 3};

void require_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("index " << i);
    REQUIRE(got[i] == Approx(want[i]).margin(1e-12));
  }
}

}  // namespace

TEST_CASE("grpo: group mean and sample std, plus 1e-4, as TRL") {
  // A: (r - 1) / (1 + 1e-4); B: equal rewards give exact zeros.
  const double s = 1.0 / 1.0001;
  require_close(estimate_advantages(kRewards, 3, AdvantageEstimator::Grpo), {s, -s, 0, 0, 0, 0});
}

TEST_CASE("dr_grpo: group mean, no std") {
  // A: 2 - 1, 0 - 1, 1 - 1; B: 3 - 3.
  require_close(estimate_advantages(kRewards, 3, AdvantageEstimator::DrGrpo), {1, -1, 0, 0, 0, 0});
}

TEST_CASE("rloo: leave-one-out mean of the group, as TRL's RLOOTrainer") {
  // A: 2 - (0 + 1) / 2 = 1.5, 0 - (2 + 1) / 2 = -1.5, 1 - (2 + 0) / 2 = 0; B: 3 - 3 = 0.
  // The same as G / (G - 1) = 3/2 times the dr_grpo advantages.
  require_close(estimate_advantages(kRewards, 3, AdvantageEstimator::Rloo),
                {1.5, -1.5, 0, 0, 0, 0});
  // G = 4, {1, 0, 0, 0}: 1 - 0 = 1, 0 - 1/3 three times.
  require_close(estimate_advantages({1, 0, 0, 0}, 4, AdvantageEstimator::Rloo),
                {1, -1.0 / 3, -1.0 / 3, -1.0 / 3});
}

TEST_CASE("reinforce_baseline: one baseline, the batch mean") {
  // r - 2: B's equal rewards still get +1 each (no group baseline: an uninformative group pushes).
  require_close(estimate_advantages(kRewards, 3, AdvantageEstimator::ReinforceBaseline),
                {0, -2, -1, 1, 1, 1});
}

TEST_CASE("reinforce: no baseline, the raw reward") {
  require_close(estimate_advantages(kRewards, 3, AdvantageEstimator::Reinforce),
                {2, 0, 1, 3, 3, 3});
}

TEST_CASE("estimators: bad input gets an error naming the parameter") {
  REQUIRE_THROWS_WITH(estimate_advantages({}, 2, AdvantageEstimator::Rloo),
                      Contains("rewards: must be a non-empty"));
  REQUIRE_THROWS_WITH(estimate_advantages({1, 0}, 1, AdvantageEstimator::Rloo),
                      Contains("groupSize: must be an integer >= 2"));
  REQUIRE_THROWS_WITH(estimate_advantages({1, 0, 1}, 2, AdvantageEstimator::DrGrpo),
                      Contains("rewards: length must be a positive multiple of groupSize (2)"));
  REQUIRE_THROWS_WITH(estimate_advantages({1, NAN}, 2, AdvantageEstimator::Reinforce),
                      Contains("rewards[1]: must be a finite number"));
  REQUIRE_THROWS_WITH(grpo::parse_advantage_estimator("ppo"),
                      Contains("advantageEstimator: must be one of 'grpo', 'dr_grpo', 'rloo', "
                               "'reinforce_baseline', 'reinforce', got 'ppo'"));
}

TEST_CASE("the objective and the trainer's advantages use the configured estimator") {
  grpo::ObjectiveConfig config;
  config.group_size = 3;
  config.max_completion_length = 2;
  grpo::ObjectiveInputs in;
  in.rewards = kRewards;
  for (std::size_t i = 0; i < kRewards.size(); ++i) in.logp.push_back({-0.5, -0.7});
  for (AdvantageEstimator e :
       {AdvantageEstimator::DrGrpo, AdvantageEstimator::Rloo, AdvantageEstimator::ReinforceBaseline,
        AdvantageEstimator::Reinforce}) {
    INFO(grpo::advantage_estimator_name(e));
    config.advantage_estimator = e;
    const std::vector<double> want = estimate_advantages(kRewards, 3, e);
    require_close(grpo::grpo_objective(config, in).advantages, want);
    // scaleRewards applies to grpo only.
    require_close(grpo::grpo_advantages(kRewards, 3, grpo::ScaleRewards::Batch, e), want);
  }
  // grpo stays the objective's own path: group, batch or no scaling.
  config.advantage_estimator = AdvantageEstimator::Grpo;
  require_close(grpo::grpo_objective(config, in).advantages,
                estimate_advantages(kRewards, 3, AdvantageEstimator::Grpo));
  require_close(grpo::grpo_advantages(kRewards, 3, grpo::ScaleRewards::None), {1, -1, 0, 0, 0, 0});
}
