// The rewrite task: several right answers per prompt, graded by the value of the expression.
#include "rl/rewrite_task.h"

#include "core/verifier.h"

namespace grpo {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Whether `text` is "c+d" or "c-d" of single digits.
bool is_expression(const std::string& text) {
  return text.size() == 3 && is_digit(text[0]) && (text[1] == '+' || text[1] == '-') &&
         is_digit(text[2]);
}

int expression_value(const std::string& text) {
  const int c = text[0] - '0', d = text[2] - '0';
  return text[1] == '+' ? c + d : c - d;
}

std::string expression(int c, char op, int d) {
  return std::to_string(c) + op + std::to_string(d);
}

// The arithmetic task's vocabulary, the one object both the task and its verifier read.
const Vocab& arithmetic_task_vocab() {
  return task_of(TaskKind::Arithmetic).vocab();
}

class RewriteTask final : public Task {
 public:
  const Vocab& vocab() const override { return arithmetic_task_vocab(); }
  // The arithmetic task's problems and split, as they are.
  std::vector<Prompt> prompts(std::uint64_t seed, int max_operand, int train_size,
                              int heldout_size) const override {
    return task_of(TaskKind::Arithmetic).prompts(seed, max_operand, train_size, heldout_size);
  }
  Scored score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
               double format_weight) const override {
    return rewrite_score(response_tokens, terminated, prompt, format_weight);
  }
  Prompt parse_prompt(const std::string& text) const override {
    return task_of(TaskKind::Arithmetic).parse_prompt(text);
  }
  std::vector<int> demonstration(const Prompt& prompt, double accuracy, Rng& rng) const override {
    std::vector<int> demo = vocab().encode(rewrite_teacher_text(prompt, accuracy, rng));
    demo.push_back(vocab().eos_id);
    return demo;
  }
};

}  // namespace

std::vector<std::string> rewrite_answers(const Prompt& prompt) {
  const int value = std::stoi(prompt.answer);
  std::vector<std::string> answers;
  for (int c = 0; c <= 9; ++c)
    if (value - c >= 0 && value - c <= 9) answers.push_back(expression(c, '+', value - c));
  for (int c = 0; c <= 9; ++c)
    if (c - value >= 0 && c - value <= 9) answers.push_back(expression(c, '-', c - value));
  return answers;
}

Scored rewrite_score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
                     double format_weight) {
  const Vocab& vocab = arithmetic_task_vocab();
  check_response(response_tokens, vocab, format_weight);
  Scored score;
  score.text = vocab.response_text(response_tokens);
  VerifierStatus status;
  if (is_expression(score.text)) {
    score.answer = score.text;
    status = std::to_string(expression_value(score.text)) == prompt.answer
                 ? VerifierStatus::Correct
                 : VerifierStatus::Incorrect;
  } else {
    const VerifierResult verdict = check_numeric_answer(score.text, prompt.answer);
    score.answer = verdict.candidate;
    status = verdict.status == VerifierStatus::Correct ? VerifierStatus::Incorrect : verdict.status;
  }
  score.status = terminated ? status : VerifierStatus::Truncated;
  score.accuracy = score.status == VerifierStatus::Correct ? 1 : 0;
  score.correctness = score.accuracy;
  score.format = (terminated && is_expression(score.text)) ? 1.0 : 0.0;
  score.reward = score.correctness + format_weight * score.format;
  return score;
}

std::string rewrite_teacher_text(const Prompt& prompt, double accuracy, Rng& rng) {
  const std::vector<std::string> right = rewrite_answers(prompt);
  const std::string pick = rng.uniform() < kRewriteTeacherEcho
                               ? prompt.text.substr(0, 3)
                               : right[static_cast<std::size_t>(rng.below(right.size()))];
  if (rng.uniform() < accuracy) return pick;
  const double kind = rng.uniform();
  if (kind < 0.6) {  // the right answer's second digit off by one (within 0..9)
    const int d = pick[2] - '0';
    const int off = d == 0 ? 1 : d == 9 ? -1 : (rng.uniform() < 0.5 ? 1 : -1);
    return expression(pick[0] - '0', pick[1], d + off);
  }
  return kind < 0.8 ? prompt.answer : "?";
}

const Task& rewrite_task() {
  static const RewriteTask task;
  return task;
}

}  // namespace grpo
