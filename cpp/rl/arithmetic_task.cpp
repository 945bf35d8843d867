// The arithmetic task, its vocabulary and the decomposed reward (see arithmetic_task.h).
#include "rl/arithmetic_task.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/errors.h"
#include "rl/rng.h"

namespace grpo {

// The problem "a<op>b=" with its answer (tokens, id and split are filled in by the caller).
Prompt make_problem(int a, char op, int b) {
  Prompt p;
  p.a = a;
  p.b = b;
  p.op = op;
  p.text = std::to_string(a) + op + std::to_string(b) + "=";
  p.answer = std::to_string(op == '+' ? a + b : a - b);
  return p;
}

namespace {

void check_task_options(const PromptOptions& options) {
  require(options.max_operand >= 1 && options.max_operand <= 9, [&] {
    return "maxOperand: must be an integer in [1, 9] (single-digit operands keep every prompt 4 "
           "tokens long), got " +
           std::to_string(options.max_operand);
  });
  const std::string& ops = options.operations;
  bool valid = !ops.empty() && ops.size() <= 2;
  for (std::size_t i = 0; valid && i < ops.size(); ++i)
    valid = (ops[i] == '+' || ops[i] == '-') && ops.find(ops[i]) == i;
  require(valid, [&] {
    return "operations: must be a non-empty string of distinct characters from '+-', got '" + ops +
           "'";
  });
}

}  // namespace

bool is_single_number(const std::string& text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
  auto digits = [&] {
    const std::size_t start = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    return i > start;
  };
  if (!digits()) return false;
  if (i < text.size() && text[i] == '/') {
    ++i;
    if (!digits()) return false;
  }
  return i == text.size();
}

Vocab Vocab::from_tokens(std::vector<std::string> tokens, const std::string& eos_token) {
  require(!tokens.empty(), [&] { return "vocab: must hold at least one token"; });
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    require(!tokens[i].empty(),
            [&] { return "vocab[" + std::to_string(i) + "]: must be a non-empty string"; });
    for (std::size_t j = 0; j < i; ++j)
      require(tokens[j] != tokens[i], [&] {
        return "vocab[" + std::to_string(i) + "]: duplicate token '" + tokens[i] +
               "' (also vocab[" + std::to_string(j) + "])";
      });
  }
  const auto found = std::find(tokens.begin(), tokens.end(), eos_token);
  require(found != tokens.end(),
          [&] { return "vocab: must contain the end-of-sequence token '" + eos_token + "'"; });
  Vocab vocab;
  vocab.eos_id = static_cast<int>(found - tokens.begin());
  vocab.tokens = std::move(tokens);
  return vocab;
}

const std::string& Vocab::token(int id) const {
  require(valid_id(id), [&] {
    return "token id: must be in [0, " + std::to_string(size()) + "), got " + std::to_string(id);
  });
  return tokens[static_cast<std::size_t>(id)];
}

int Vocab::id(std::string_view token) const {
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (tokens[i] == token) return static_cast<int>(i);
  throw InvalidArgument("token: '" + std::string(token) + "' is not in the vocabulary");
}

std::vector<int> Vocab::encode(std::string_view text) const {
  std::vector<int> ids;
  std::size_t pos = 0;
  while (pos < text.size()) {
    int best = -1;
    std::size_t best_length = 0;
    for (std::size_t i = 0; i < tokens.size(); ++i) {
      const std::string& t = tokens[i];
      if (t.size() > best_length && text.compare(pos, t.size(), t) == 0) {
        best = static_cast<int>(i);
        best_length = t.size();
      }
    }
    if (best < 0)
      throw InvalidArgument("text: character '" + std::string(1, text[pos]) + "' at position " +
                            std::to_string(pos) + " is not in the vocabulary");
    ids.push_back(best);
    pos += best_length;
  }
  return ids;
}

std::string Vocab::decode(const std::vector<int>& ids) const {
  std::string text;
  for (int id : ids) text += token(id);
  return text;
}

std::string Vocab::response_text(const std::vector<int>& ids) const {
  std::string text;
  for (int id : ids) {
    if (id == eos_id) break;
    text += token(id);
  }
  return text;
}

Vocab arithmetic_vocab() {
  return Vocab::from_tokens(
      {"0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "+", "-", "=", "/", "?", "<eos>"},
      "<eos>");
}

int arithmetic_problem_count(const PromptOptions& options) {
  check_task_options(options);
  const int values = options.max_operand + 1;
  int count = 0;
  for (char op : options.operations)
    count += (op == '+' || options.allow_negative) ? values * values : values * (values + 1) / 2;
  return count;
}

std::vector<Prompt> arithmetic_prompts(const PromptOptions& options) {
  const int available = arithmetic_problem_count(options);
  require(options.train_size >= 1, [&] {
    return "trainSize: must be an integer >= 1, got " + std::to_string(options.train_size);
  });
  require(options.heldout_size >= 0, [&] {
    return "heldoutSize: must be an integer >= 0, got " + std::to_string(options.heldout_size);
  });
  require(static_cast<long long>(options.train_size) + options.heldout_size <= available, [&] {
    return "trainSize + heldoutSize: must be at most " + std::to_string(available) +
           " (the number of distinct problems for these options), got " +
           std::to_string(static_cast<long long>(options.train_size) + options.heldout_size);
  });

  std::vector<Prompt> problems;
  problems.reserve(static_cast<std::size_t>(available));
  for (char op : options.operations)
    for (int a = 0; a <= options.max_operand; ++a)
      for (int b = 0; b <= options.max_operand; ++b) {
        if (op == '-' && !options.allow_negative && a < b) continue;
        problems.push_back(make_problem(a, op, b));
      }

  Rng rng(options.seed);
  for (std::size_t i = problems.size() - 1; i > 0; --i)  // Fisher-Yates
    std::swap(problems[i], problems[static_cast<std::size_t>(rng.below(i + 1))]);

  const Vocab vocab = arithmetic_vocab();
  const std::size_t n = static_cast<std::size_t>(options.train_size + options.heldout_size);
  problems.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    problems[i].id = static_cast<int>(i);
    problems[i].split = i < static_cast<std::size_t>(options.train_size) ? "train" : "heldout";
    problems[i].tokens = vocab.encode(problems[i].text);
  }
  return problems;
}

Prompt prompt_from_text(const std::string& text, const Vocab& vocab) {
  auto digit = [&](std::size_t i) { return text[i] >= '0' && text[i] <= '9'; };
  require(text.size() == 4 && digit(0) && (text[1] == '+' || text[1] == '-') && digit(2) &&
              text[3] == '=',
          [&] {
            return "text: must be a problem 'a+b=' or 'a-b=' with single-digit operands, got '" +
                   text + "'";
          });
  Prompt p = make_problem(text[0] - '0', text[1], text[2] - '0');
  p.tokens = vocab.encode(p.text);
  p.split = "train";
  return p;
}

void check_response(const std::vector<int>& response_tokens, const Vocab& vocab,
                    double format_weight) {
  require_at_least("formatWeight", format_weight, 0.0);
  for (std::size_t i = 0; i < response_tokens.size(); ++i)
    if (!vocab.valid_id(response_tokens[i]))
      throw InvalidArgument("responseTokens[" + std::to_string(i) +
                            "]: must be a token id in [0, " + std::to_string(vocab.size()) +
                            "), got " + std::to_string(response_tokens[i]));
}

Scored score_response(const std::vector<int>& response_tokens, bool terminated,
                      const Prompt& prompt, const Vocab& vocab, double format_weight) {
  check_response(response_tokens, vocab, format_weight);

  Scored score;
  score.text = vocab.response_text(response_tokens);
  const VerifierResult verdict = check_numeric_answer(score.text, prompt.answer);
  score.answer = verdict.candidate;
  score.status = terminated ? verdict.status : VerifierStatus::Truncated;
  score.accuracy = score.status == VerifierStatus::Correct ? 1 : 0;
  score.correctness = score.accuracy;
  const bool graded =
      verdict.status == VerifierStatus::Correct || verdict.status == VerifierStatus::Incorrect;
  score.format = (terminated && graded && is_single_number(score.text)) ? 1.0 : 0.0;
  score.reward = score.correctness + format_weight * score.format;
  return score;
}

std::string arithmetic_teacher_answer(const Prompt& prompt, double accuracy, Rng& rng) {
  const int answer = std::stoi(prompt.answer);
  if (rng.uniform() < accuracy) return prompt.answer;
  const double kind = rng.uniform();
  if (kind < 0.6) {
    const int offset = static_cast<int>(rng.below(2)) + 1;
    const int wrong = rng.uniform() < 0.5 ? answer + offset : answer - offset;
    return std::to_string(wrong < 0 ? answer + offset : wrong);
  }
  if (kind < 0.85) {
    int wrong = static_cast<int>(rng.below(19));
    if (wrong == answer) wrong = (wrong + 1) % 19;
    return std::to_string(wrong);
  }
  if (kind < 0.93) return "?";
  return std::to_string(rng.below(10)) + "/0";
}

}  // namespace grpo
