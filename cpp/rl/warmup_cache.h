// The warmed-up base policies of the last few runs, by what the warm-up reads. Runs that differ
// only in what comes after the warm-up (a lesson's two arms, a matrix of presets on the same seeds,
// a seed batch run again with another knob) warm up once: the warm-up is most of a short run
// (smoke ~60 %, the scratch task ~85 %). The bytes do not change: a hit copies the parameters the
// same warm-up wrote (tests/cpp/test_warmup_cache.cpp checks every config field against the key).
#pragma once

#include <string>
#include <vector>

#include "rl/experiment_config.h"

namespace grpo {

// Everything Experiment's warm-up reads: the task and its prompts (seed, maxOperand, the split),
// the policy's shape and initialisation (vocabulary, embed, hidden, seed), and the supervised
// steps (warmupSteps, warmupLearningRate, teacherAccuracy, maxGradNorm).
std::string warmup_key(const ExperimentConfig& config, int vocab_size);

// The parameters stored under `key` into `params` (true), or false when there are none.
bool warmup_cache_find(const std::string& key, std::vector<float>& params);
// Keeps `params` under `key`, the oldest entries leaving beyond the capacity or 16 MB.
void warmup_cache_store(const std::string& key, const std::vector<float>& params);

// How many warm-ups are kept (8 by default; 0 keeps none). Tests that must see a warm-up run (an
// interruption inside it) set 0 for their scope.
int warmup_cache_capacity();
void set_warmup_cache_capacity(int entries);

}  // namespace grpo
