// verl v0.7.0's outcome advantage estimators (verl/trainer/ppo/core_algos.py:264-716), called
// as ray_trainer.compute_advantage calls them: token-level rewards and the response mask [B][T],
// the uid of each row's prompt (its group). Formulas, file:line and TRL's namesakes: docs/verl.md.
#pragma once

#include <string>
#include <vector>

#include "rl/verl_tensor.h"

namespace grpo::verl {

enum class Estimator {
  Grpo,
  GrpoPassk,
  Rloo,
  ReinforcePlusPlus,
  ReinforcePlusPlusBaseline,
  Remax,
  Opo,
  Gpg,
  Gae
};

// grpo, grpo_passk, rloo, reinforce_plus_plus, reinforce_plus_plus_baseline, remax, opo, gpg,
// gae (core_algos.py:212, with a critic's values: algorithm.adv_estimator's default).
const std::vector<std::string>& estimator_names();
Estimator parse_estimator(const std::string& text, const char* field = "estimator");

struct AdvantageInputs {
  Matrix token_level_rewards;  // [B][T]
  Matrix response_mask;        // [B][T] 0/1
  // [B] the row's uid: rows with equal keys form a group (the API encodes numbers and strings
  // apart, as numpy's object arrays keep 1 and "1" apart).
  std::vector<std::string> index;
  bool norm_adv_by_std_in_grpo = true;   // algorithm.norm_adv_by_std_in_grpo (grpo, grpo_passk)
  double gamma = 1.0;                    // algorithm.gamma (reinforce_plus_plus, gae)
  double lam = 1.0;                      // algorithm.lam (gae)
  Matrix values;                         // [B][T] the critic's values (gae)
  std::vector<double> reward_baselines;  // [B] remax's b_i (the greedy rollout's reward)
};

struct AdvantageResult {
  Matrix advantages, returns;  // [B][T]
};

// Shapes are the caller's to check (api_verl.cpp). Throws InvalidArgument where verl raises or
// divides by zero: grpo_passk with a group of one row ("index"), reinforce_plus_plus(_baseline)
// or gae with fewer than 2 valid tokens in the batch ("responseMask", masked_whiten's ValueError),
// opo with a group of two or more rows and no valid token ("responseMask": verl's 0/0).
AdvantageResult compute_advantages(Estimator estimator, const AdvantageInputs& in);

// verl's singleton groups use id2std = torch.tensor(1.0), a float32 tensor: std + 1e-6 is
// computed in float32 (1.00000095367431640625) before the float64 score is divided by it.
double singleton_grpo_denominator();

}  // namespace grpo::verl
