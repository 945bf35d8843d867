// The task interface's registry and the arithmetic task behind it (rl/task.h).
#include "rl/task.h"

#include "rl/rewrite_task.h"
#include "rl/scratch_task.h"

namespace grpo {
namespace {

class ArithmeticTask final : public Task {
 public:
  const Vocab& vocab() const override { return vocab_; }
  std::vector<Prompt> prompts(std::uint64_t seed, int max_operand, int train_size,
                              int heldout_size) const override {
    PromptOptions options;
    options.seed = seed;
    options.max_operand = max_operand;
    options.train_size = train_size;
    options.heldout_size = heldout_size;
    return arithmetic_prompts(options);
  }
  Scored score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
               double format_weight) const override {
    return score_response(response_tokens, terminated, prompt, vocab_, format_weight);
  }
  Prompt parse_prompt(const std::string& text) const override {
    return prompt_from_text(text, vocab_);
  }
  std::vector<int> demonstration(const Prompt& prompt, double accuracy, Rng& rng) const override {
    std::vector<int> demo = vocab_.encode(arithmetic_teacher_answer(prompt, accuracy, rng));
    demo.push_back(vocab_.eos_id);
    return demo;
  }

 private:
  Vocab vocab_ = arithmetic_vocab();
};

}  // namespace

const std::vector<std::string>& task_names() {
  static const std::vector<std::string> names = {"arithmetic", "scratch", "rewrite"};
  return names;
}

const Task& task_of(TaskKind kind) {
  static const ArithmeticTask arithmetic;
  if (kind == TaskKind::Rewrite) return rewrite_task();
  return kind == TaskKind::Scratch ? scratch_task() : arithmetic;
}

int problem_count(TaskKind kind, int max_operand) {
  if (kind == TaskKind::Scratch) return scratch_problem_count();
  // The rewrite task asks the arithmetic task's problems.
  PromptOptions options;
  options.max_operand = max_operand;
  return arithmetic_problem_count(options);
}

}  // namespace grpo
