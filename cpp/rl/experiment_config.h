// The toy GRPO experiment's settings: profiles ("smoke", "full"), their defaults and limits.
#pragma once

#include <cstdint>
#include <string>

#include "rl/grpo_objective.h"

namespace grpo {

// Field names in comments are the JS API's (camelCase) and, where one exists, TRL's.
struct ExperimentConfig {
  std::string profile = "smoke";  // profile: "smoke" (seconds) or "full" (larger budget)
  std::uint64_t seed = 9;         // seed: every random draw of the run derives from it

  // Task (arithmetic prompts, lib: rl/arithmetic_task.h).
  int train_prompts = 64;      // trainPrompts
  int heldout_prompts = 32;    // heldoutPrompts
  int max_operand = 9;         // maxOperand: operands 0..maxOperand
  double format_weight = 0.1;  // formatWeight: reward = correctness + formatWeight * format

  // Policy (rl/gru_policy.h).
  int embed = 16;   // embed: E
  int hidden = 64;  // hidden: H

  // Supervised warm-up on a noisy teacher, so the base policy is right only sometimes.
  int warmup_steps = 120;              // warmupSteps
  double warmup_learning_rate = 1e-2;  // warmupLearningRate
  double teacher_accuracy = 0.15;      // teacherAccuracy: share of correct demonstrations

  // GRPO (TRL GRPOConfig names in brackets).
  int group_size = 8;                                // groupSize [num_generations]
  int prompt_batch = 8;                              // promptBatch (prompts per update)
  int updates = 60;                                  // updates [max_steps]
  int update_epochs = 2;                             // updateEpochs [num_iterations]
  LossType loss_type = LossType::Dapo;               // lossType [loss_type]
  ScaleRewards scale_rewards = ScaleRewards::Group;  // scaleRewards [scale_rewards]
  double eps_low = 0.2;                              // epsLow [epsilon]
  double eps_high = 0.28;                            // epsHigh [epsilon_high]
  double beta = 0.0;                                 // beta [beta]
  double temperature = 1.0;                          // temperature [temperature]
  double learning_rate = 2e-3;                       // learningRate [learning_rate]
  double max_grad_norm = 1.0;                        // maxGradNorm [max_grad_norm]
  int max_new_tokens = 4;                            // maxNewTokens [max_completion_length]
  bool dynamic_sampling = false;  // dynamicSampling: drop groups whose rewards are all equal
  bool mask_truncated = true;     // maskTruncated [mask_truncated_completions]
  ImportanceLevel importance_level = ImportanceLevel::Token;  // importanceSamplingLevel

  // Evaluation by fresh generation.
  int eval_samples = 4;         // evalSamples: per train prompt, after every update
  int final_eval_samples = 64;  // finalEvalSamples: per prompt, before/after RL (docs/coverage.md)

  // Throws InvalidArgument naming the field (camelCase) and its allowed range.
  void validate() const;
};

// The defaults of a profile; throws InvalidArgument for an unknown name.
ExperimentConfig profile_defaults(const std::string& profile);

}  // namespace grpo
