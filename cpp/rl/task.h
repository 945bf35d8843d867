// The interface a training task gives the trainer: its vocabulary, its prompts, the verifier's
// score of a response and the warm-up teacher's demonstrations (rl/arithmetic_task.h, the
// notebook's default, rl/scratch_task.h, whose responses vary in length, and rl/rewrite_task.h,
// whose prompts have several right answers).
#pragma once

#include <string>
#include <vector>

#include "rl/arithmetic_task.h"
#include "rl/rng.h"

namespace grpo {

// The config field `task` (rl/config_fields.cpp), in the order of task_names().
enum class TaskKind { Arithmetic = 0, Scratch = 1, Rewrite = 2 };

// "arithmetic", "scratch", "rewrite".
const std::vector<std::string>& task_names();

class Task {
 public:
  virtual ~Task() = default;
  virtual const Vocab& vocab() const = 0;
  // The seeded train/held-out split (same seed and sizes, same prompts on every platform).
  virtual std::vector<Prompt> prompts(std::uint64_t seed, int max_operand, int train_size,
                                      int heldout_size) const = 0;
  // The verifier's score of a sampled response (status, correctness, format; reward =
  // correctness + format_weight * format, which the trainer reweighs).
  virtual Scored score(const std::vector<int>& response_tokens, bool terminated,
                       const Prompt& prompt, double format_weight) const = 0;
  // A caller-given problem text as a Prompt (id 0, split "train"); throws InvalidArgument naming
  // `text` when it is not one of the task's problems.
  virtual Prompt parse_prompt(const std::string& text) const = 0;
  // One demonstration of the noisy warm-up teacher, <eos> included: right with probability
  // `accuracy`. Draws from `rng` only.
  virtual std::vector<int> demonstration(const Prompt& prompt, double accuracy, Rng& rng) const = 0;
};

// The task of a kind (stateless, lives for the program).
const Task& task_of(TaskKind kind);

// Distinct problems a task of `kind` has (the two splits together hold at most as many);
// `max_operand` is the config's (the scratch task's operands are always two digits and ignore
// it). A function of the kind, not of the Task object: the config check (experimentConfig, the
// page's reference build) then links no task's vtable, prompts or verifier.
int problem_count(TaskKind kind, int max_operand);

}  // namespace grpo
