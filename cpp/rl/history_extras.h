// The history columns issue 23 adds, computed beside the trainer's own: the mean length of the
// correct and of the incorrect completions of a generation (Dr. GRPO's length bias), and pass@k
// on train and held-out prompts every passAtKEvery updates (the crossing point as it moves).
#pragma once

#include "rl/trainer.h"

namespace grpo {

// Sets row.mean_length_correct and row.mean_length_incorrect from every completion of the
// generation (kept groups or not; correct: the verifier's accuracy 1). NaN when there is none.
void add_correctness_lengths(const RolloutBatch& rollouts, HistoryRow& row);

// Whether update `update` (1-based) logs pass@k: passAtKEvery > 0 and a multiple of it.
bool logs_pass_at_k(const ExperimentConfig& config, int update);

// Each prompt's correct answers of final_eval_samples fresh ones from `policy` (its successes).
std::vector<long long> prompt_successes(Policy& policy, Policy& reference, const Vocab& vocab,
                                        const std::vector<Prompt>& prompts,
                                        const ExperimentConfig& config, Rng& rng);

}  // namespace grpo
