// The scratch task: prompts, verifier on the final answer, and a teacher of varied length.
#include "rl/scratch_task.h"

#include <algorithm>
#include <utility>

#include "core/errors.h"
#include "core/verifier.h"

namespace grpo {
namespace {

// Whether the ones column carries (addition) or borrows (subtraction).
bool carries(const Prompt& p) {
  return p.op == '+' ? p.a % 10 + p.b % 10 >= 10 : p.a % 10 < p.b % 10;
}

// The inverse operation as a check step: "85-38=47;" for 47+38, "14+38=52;" for 52-38.
std::string check_step(const Prompt& p, int answer) {
  const std::string b = std::to_string(p.b);
  if (p.op == '+') {
    if (answer < p.b) return "";
    return std::to_string(answer) + "-" + b + "=" + std::to_string(answer - p.b) + ";";
  }
  return std::to_string(answer) + "+" + b + "=" + std::to_string(answer + p.b) + ";";
}

class ScratchTask final : public Task {
 public:
  const Vocab& vocab() const override { return vocab_; }
  std::vector<Prompt> prompts(std::uint64_t seed, int, int train_size,
                              int heldout_size) const override {
    return scratch_prompts(seed, train_size, heldout_size);
  }
  Scored score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
               double format_weight) const override {
    return scratch_score(response_tokens, terminated, prompt, format_weight);
  }
  Prompt parse_prompt(const std::string& text) const override {
    return scratch_prompt_from_text(text);
  }
  std::vector<int> demonstration(const Prompt& prompt, double accuracy, Rng& rng) const override {
    std::vector<int> demo = vocab_.encode(scratch_teacher_text(prompt, accuracy, rng));
    demo.push_back(vocab_.eos_id);
    return demo;
  }

 private:
  Vocab vocab_ = scratch_vocab();
};

}  // namespace

Vocab scratch_vocab() {
  return Vocab::from_tokens({"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "=", "/",
                             "?", "<eos>", ";", ">"},
                            "<eos>");
}

int scratch_problem_count() {
  return 90 * 90 + 90 * 91 / 2;
}

std::vector<Prompt> scratch_prompts(std::uint64_t seed, int train_size, int heldout_size) {
  const int available = scratch_problem_count();
  require(train_size >= 1,
          [&] { return "trainSize: must be an integer >= 1, got " + std::to_string(train_size); });
  require(heldout_size >= 0, [&] {
    return "heldoutSize: must be an integer >= 0, got " + std::to_string(heldout_size);
  });
  require(static_cast<long long>(train_size) + heldout_size <= available, [&] {
    return "trainSize + heldoutSize: must be at most " + std::to_string(available) +
           " (the scratch task's distinct problems), got " +
           std::to_string(static_cast<long long>(train_size) + heldout_size);
  });
  std::vector<Prompt> problems;
  problems.reserve(static_cast<std::size_t>(available));
  for (char op : std::string("+-"))
    for (int a = 10; a <= 99; ++a)
      for (int b = 10; b <= 99; ++b)
        if (op == '+' || a >= b) problems.push_back(make_problem(a, op, b));
  Rng rng(seed);
  for (std::size_t i = problems.size() - 1; i > 0; --i)  // Fisher-Yates
    std::swap(problems[i], problems[static_cast<std::size_t>(rng.below(i + 1))]);
  const Vocab vocab = scratch_vocab();
  const std::size_t n = static_cast<std::size_t>(train_size + heldout_size);
  problems.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    problems[i].id = static_cast<int>(i);
    problems[i].split = i < static_cast<std::size_t>(train_size) ? "train" : "heldout";
    problems[i].tokens = vocab.encode(problems[i].text);
  }
  return problems;
}

Prompt scratch_prompt_from_text(const std::string& text) {
  auto two_digits = [&](std::size_t i) {
    return text[i] >= '1' && text[i] <= '9' && text[i + 1] >= '0' && text[i + 1] <= '9';
  };
  const bool shape = text.size() == 6 && two_digits(0) && (text[2] == '+' || text[2] == '-') &&
                     two_digits(3) && text[5] == '=';
  const int a = shape ? std::stoi(text.substr(0, 2)) : 0;
  const int b = shape ? std::stoi(text.substr(3, 2)) : 0;
  require(shape && (text[2] == '+' || a >= b), [&] {
    return "text: must be a problem 'ab+cd=' or 'ab-cd=' with operands in [10, 99] (ab >= cd for "
           "a difference), got '" +
           text + "'";
  });
  Prompt p = make_problem(a, text[2], b);
  p.tokens = scratch_vocab().encode(p.text);
  p.split = "train";
  return p;
}

std::string scratch_final_answer(const std::string& text) {
  const std::size_t marker = text.rfind('>');
  return marker == std::string::npos ? text : text.substr(marker + 1);
}

Scored scratch_score(const std::vector<int>& response_tokens, bool terminated, const Prompt& prompt,
                     double format_weight) {
  static const Vocab vocab = scratch_vocab();
  check_response(response_tokens, vocab, format_weight);
  Scored score;
  score.text = vocab.response_text(response_tokens);
  const std::string final_answer = scratch_final_answer(score.text);
  const VerifierResult verdict = check_numeric_answer(final_answer, prompt.answer);
  score.answer = verdict.candidate;
  score.status = terminated ? verdict.status : VerifierStatus::Truncated;
  score.accuracy = score.status == VerifierStatus::Correct ? 1 : 0;
  score.correctness = score.accuracy;
  const bool graded =
      verdict.status == VerifierStatus::Correct || verdict.status == VerifierStatus::Incorrect;
  score.format = (terminated && graded && is_single_number(final_answer)) ? 1.0 : 0.0;
  score.reward = score.correctness + format_weight * score.format;
  return score;
}

std::string scratch_columns(const Prompt& p, bool forget_carry) {
  const int a1 = p.a / 10, a0 = p.a % 10, b1 = p.b / 10, b0 = p.b % 10;
  const bool carry = carries(p) && !forget_carry;
  auto s = [](int v) { return std::to_string(v); };
  if (p.op == '+') {
    const std::string ones = s(a0) + "+" + s(b0) + "=" + s(a0 + b0) + ";";
    return ones + s(a1) + "+" + s(b1) + (carry ? "+1" : "") + "=" + s(a1 + b1 + (carry ? 1 : 0)) +
           ";";
  }
  const bool borrow = carries(p);
  const std::string ones =
      (borrow ? "1" : "") + s(a0) + "-" + s(b0) + "=" + s(a0 + (borrow ? 10 : 0) - b0) + ";";
  return ones + s(a1) + (carry ? "-1" : "") + "-" + s(b1) + "=" + s(a1 - b1 - (carry ? 1 : 0)) +
         ";";
}

namespace {

// The teacher's checked style: the columns, the inverse operation, then the answer.
std::string checked_text(const Prompt& p, bool forget_carry, int answer) {
  return scratch_columns(p, forget_carry) + check_step(p, answer) + ">" + std::to_string(answer);
}

}  // namespace

std::string scratch_teacher_text(const Prompt& prompt, double accuracy, Rng& rng) {
  const int right = std::stoi(prompt.answer);
  int answer = right;
  bool forget = false, unknown = false;
  if (rng.uniform() >= accuracy) {
    const double kind = rng.uniform();
    if (kind < 0.5 && carries(prompt)) {
      forget = true;
      answer = prompt.op == '+' ? right - 10 : right + 10;
    } else if (kind < 0.9) {
      answer = rng.uniform() < 0.5 || right == 0 ? right + 1 : right - 1;
    } else {
      unknown = true;
    }
  }
  const std::string final_answer = unknown ? "?" : std::to_string(answer);
  switch (rng.below(3)) {
    case 0:
      return final_answer;
    case 1:
      return scratch_columns(prompt, forget) + ">" + final_answer;
    default:
      return unknown ? scratch_columns(prompt, forget) + ">?"
                     : checked_text(prompt, forget, answer);
  }
}

int scratch_longest_demonstration() {
  // The checked style (the longest) of every problem at every answer the teacher writes.
  static const int longest = [] {
    std::size_t most = 0;
    for (int a = 10; a <= 99; ++a)
      for (int b = 10; b <= 99; ++b)
        for (const char op : {'+', '-'}) {
          if (op == '-' && a < b) continue;
          const Prompt p = make_problem(a, op, b);
          // scratch_teacher_text's answers: right, off by one, or the forgotten carry's.
          const int right = std::stoi(p.answer);
          std::vector<std::pair<bool, int>> written = {{false, right}, {false, right + 1}};
          if (right > 0) written.push_back({false, right - 1});
          if (carries(p)) written.push_back({true, p.op == '+' ? right - 10 : right + 10});
          for (const auto& [forget, answer] : written)
            most = std::max(most, checked_text(p, forget, answer).size());  // a token a character
        }
    return static_cast<int>(most) + 1;  // <eos>
  }();
  return longest;
}

const Task& scratch_task() {
  static const ScratchTask task;
  return task;
}

}  // namespace grpo
