// The history columns of issue 23 (history_extras.h).
#include "rl/history_extras.h"

namespace grpo {

void add_correctness_lengths(const RolloutBatch& rollouts, HistoryRow& row) {
  double length[2] = {0, 0}, count[2] = {0, 0};  // [incorrect, correct]
  for (const auto& group : rollouts.groups)
    for (const RolloutRow& r : group) {
      const int correct = r.score.accuracy > 0 ? 1 : 0;
      length[correct] += static_cast<double>(r.tokens.size());
      count[correct] += 1;
    }
  const double none = std::numeric_limits<double>::quiet_NaN();
  row.mean_length_correct = count[1] > 0 ? length[1] / count[1] : none;
  row.mean_length_incorrect = count[0] > 0 ? length[0] / count[0] : none;
}

bool logs_pass_at_k(const ExperimentConfig& config, int update) {
  return config.pass_at_k_every > 0 && update % config.pass_at_k_every == 0;
}

std::vector<long long> prompt_successes(Policy& policy, Policy& reference, const Vocab& vocab,
                                        const std::vector<Prompt>& prompts,
                                        const ExperimentConfig& config, Rng& rng) {
  return evaluate_generation(policy, reference, vocab, prompts, config.final_eval_samples, config,
                             rng, false)
      .by_prompt_successes;
}

}  // namespace grpo
