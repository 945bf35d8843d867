// A smoke run made cheap for a test that checks bytes, finiteness or what a config reaches, not a
// trained policy: 3 updates of 4 prompts, a short warm-up, a small evaluation over a small split.
#pragma once

#include "rl/experiment_config.h"

inline grpo::ExperimentConfig short_run(int warmup_steps, int train_prompts, int heldout_prompts) {
  grpo::ExperimentConfig c = grpo::profile_defaults("smoke");
  c.updates = 3;
  c.warmup_steps = warmup_steps;
  c.train_prompts = train_prompts;
  c.heldout_prompts = heldout_prompts;
  c.prompt_batch = 4;
  c.final_eval_samples = 4;
  return c;
}
