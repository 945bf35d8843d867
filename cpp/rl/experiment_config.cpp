// Profiles and validation of the toy GRPO experiment's settings.
#include "rl/experiment_config.h"

#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo {
namespace {

void check_int(int value, int low, int high, const char* name) {
  require(value >= low && value <= high, [&] {
    return std::string(name) + ": must be an integer in [" + std::to_string(low) + ", " +
           std::to_string(high) + "], got " + std::to_string(value);
  });
}

void check_real(double value, double low, double high, bool low_open, const char* name) {
  const bool ok = std::isfinite(value) && (low_open ? value > low : value >= low) && value <= high;
  require(ok, [&] {
    return std::string(name) + ": must be in " + (low_open ? "(" : "[") + format_number(low) +
           ", " + format_number(high) + "], got " + format_number(value);
  });
}

}  // namespace

ExperimentConfig profile_defaults(const std::string& profile) {
  ExperimentConfig config;
  if (profile == "smoke") return config;
  require(profile == "full",
          [&] { return "profile: must be one of smoke, full, got '" + profile + "'"; });
  config.profile = "full";
  config.train_prompts = 112;
  config.heldout_prompts = 40;
  config.warmup_steps = 200;
  config.updates = 160;
  return config;
}

void ExperimentConfig::validate() const {
  require(profile == "smoke" || profile == "full",
          [&] { return "profile: must be one of smoke, full, got '" + profile + "'"; });
  require(seed <= (1ull << 53), [&] { return "seed: must be an integer in [0, 2^53]"; });
  check_int(max_operand, 1, 9, "maxOperand");
  check_int(train_prompts, 1, 200, "trainPrompts");
  check_int(heldout_prompts, 0, 200, "heldoutPrompts");
  check_real(format_weight, 0.0, 10.0, false, "formatWeight");
  check_int(embed, 1, 256, "embed");
  check_int(hidden, 1, 512, "hidden");
  check_int(warmup_steps, 0, 100000, "warmupSteps");
  check_real(warmup_learning_rate, 0.0, 1.0, true, "warmupLearningRate");
  check_real(teacher_accuracy, 0.0, 1.0, false, "teacherAccuracy");
  check_int(group_size, 2, 64, "groupSize");
  check_int(prompt_batch, 1, 64, "promptBatch");
  require(prompt_batch <= train_prompts, [&] {
    return "promptBatch: must be at most trainPrompts (" + std::to_string(train_prompts) +
           "), got " + std::to_string(prompt_batch);
  });
  check_int(updates, 1, 1000000, "updates");
  check_int(update_epochs, 1, 16, "updateEpochs");
  check_real(eps_low, 0.0, 0.999, false, "epsLow");
  check_real(eps_high, 0.0, 10.0, false, "epsHigh");
  check_real(beta, 0.0, 10.0, false, "beta");
  check_real(temperature, 0.05, 10.0, false, "temperature");
  check_real(learning_rate, 0.0, 1.0, true, "learningRate");
  check_real(max_grad_norm, 0.0, 1e6, true, "maxGradNorm");
  check_int(max_new_tokens, 1, 16, "maxNewTokens");
  check_int(eval_samples, 1, 64, "evalSamples");
  check_int(final_eval_samples, 4, 256, "finalEvalSamples");
}

}  // namespace grpo
