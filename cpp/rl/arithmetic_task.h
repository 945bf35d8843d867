// Sections 6-8: the arithmetic task (prompts with a seeded train/held-out split), its character
// vocabulary, and the verifier-based reward split into correctness and format components.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/verifier.h"
#include "rl/rng.h"

namespace grpo {

// A token vocabulary: ids are positions in `tokens`. The arithmetic one is 16 character tokens,
//   id:    0..9        10   11   12   13   14   15
//   token: "0".."9"    "+"  "-"  "="  "/"  "?"  "<eos>"
// so a response can reach every verifier status: "7" <eos> correct, "8" <eos> incorrect,
// "?" <eos> or <eos> alone no_answer, "3/0" <eos> invalid (zero denominator), and no <eos>
// within the token budget truncated.
struct Vocab {
  std::vector<std::string> tokens;  // id -> token; distinct and non-empty (see from_tokens)
  int eos_id = 0;                   // id of the end-of-sequence token

  // Throws InvalidArgument naming `vocab` unless the tokens are non-empty, distinct, and include
  // eos_token.
  static Vocab from_tokens(std::vector<std::string> tokens, const std::string& eos_token);

  int size() const { return static_cast<int>(tokens.size()); }
  bool valid_id(int id) const { return id >= 0 && id < size(); }
  // Throws InvalidArgument ("token id: ...") when out of range.
  const std::string& token(int id) const;
  // Throws InvalidArgument ("token: ...") when unknown.
  int id(std::string_view token) const;

  // Prompt text to ids by longest match. Throws InvalidArgument naming `text` and the position of
  // the first character no token matches.
  std::vector<int> encode(std::string_view text) const;
  // Every token verbatim ("<eos>" included), e.g. for display of a whole sequence.
  std::string decode(const std::vector<int>& ids) const;
  // A response's text: its tokens before the first <eos>, which is not included.
  std::string response_text(const std::vector<int>& ids) const;
};

// The 16-token arithmetic vocabulary above.
Vocab arithmetic_vocab();

struct PromptOptions {
  std::uint64_t seed = 0;
  // In [1, 9]: operands are single digits, so every prompt ("a+b=") is exactly 4 tokens long and
  // the policy can batch prompts without padding.
  int max_operand = 9;
  std::string operations = "+-";  // distinct characters from "+-"
  bool allow_negative = false;    // false: a-b only with a >= b
  int train_size = 120;           // >= 1
  int heldout_size = 35;          // >= 0; train_size + heldout_size <= the number of problems
};

struct Prompt {
  int id = 0;               // 0..n-1 in output order: train first, then held-out
  std::string text;         // "3+4="
  std::vector<int> tokens;  // text encoded with the arithmetic vocabulary (4 tokens)
  std::string answer;       // "7" (a reference for check_numeric_answer)
  std::string split;        // "train" or "heldout"
  int a = 0, b = 0;         // operands
  char op = '+';            // '+' or '-'
};

// Number of distinct problems for the options (155 for the defaults: 100 sums, 55 differences).
// Throws InvalidArgument for max_operand / operations out of range.
int arithmetic_problem_count(const PromptOptions& options);

// Enumerates every distinct problem (operations in the given order, then a, then b ascending),
// shuffles them with grpo::Rng(seed) (Fisher-Yates), and returns the first train_size as "train"
// and the next heldout_size as "heldout". Same seed and options, same prompts on every platform.
// Throws InvalidArgument naming the field (maxOperand, operations, trainSize, heldoutSize).
// The problem "a<op>b=" with its answer (tokens, id and split are filled in by the caller).
Prompt make_problem(int a, char op, int b);

std::vector<Prompt> arithmetic_prompts(const PromptOptions& options);

// A caller-given problem "a+b=" or "a-b=" (single-digit operands, any sign of the answer) as a
// Prompt with id 0 and split "train"; throws InvalidArgument naming `text` otherwise.
Prompt prompt_from_text(const std::string& text, const Vocab& vocab);

struct Scored {
  std::string text;    // response tokens before the first <eos>
  std::string answer;  // the verifier's extracted answer (its candidate), may be empty
  VerifierStatus status = VerifierStatus::NoAnswer;  // Truncated whenever !terminated
  int accuracy = 0;          // 1 iff status is Correct (a truncated response never counts)
  double correctness = 0.0;  // 1 iff the verifier accepts the text and the response terminated
  double format = 0.0;       // 1 iff terminated and the text is exactly one number (sign, digits,
                             // optional /digits) that the verifier grades correct or incorrect
  double reward = 0.0;       // correctness + format_weight * format (the trainer reweighs it:
                             // rl/trainer.cpp task_reward)
  double overlong = 0.0;     // DAPO's soft overlong punishment, set by the trainer (<= 0)
};

// Refuses a negative formatWeight and a token id outside `vocab`, naming the field (both tasks).
void check_response(const std::vector<int>& response_tokens, const Vocab& vocab,
                    double format_weight);

// Scores a sampled response against the prompt's answer with check_numeric_answer.
// `terminated` says whether the response emitted <eos> within the token budget.
// Throws InvalidArgument for a token id outside the vocabulary ("responseTokens[i]") or a
// format_weight that is not finite and >= 0 ("formatWeight").
Scored score_response(const std::vector<int>& response_tokens, bool terminated,
                      const Prompt& prompt, const Vocab& vocab, double format_weight);

// True iff `text` is exactly one number: optional sign, digits, optional "/digits" (the format
// reward's test).
bool is_single_number(const std::string& text);

// The warm-up teacher's answer text to `prompt`: right with probability `accuracy`, otherwise a
// near miss, another number, no number at all, or a division by zero (every verifier status).
std::string arithmetic_teacher_answer(const Prompt& prompt, double accuracy, Rng& rng);

}  // namespace grpo
