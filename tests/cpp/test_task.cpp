// Tests of the arithmetic task: vocabulary, seeded prompt split, and the decomposed reward.
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "core/verifier.h"
#include "rl/arithmetic_task.h"

using Catch::Matchers::Contains;
using grpo::PromptOptions;
using grpo::VerifierStatus;

namespace {

std::vector<std::string> texts(const std::vector<grpo::Prompt>& prompts, const std::string& split) {
  std::vector<std::string> out;
  for (const auto& p : prompts)
    if (p.split == split) out.push_back(p.text);
  return out;
}

// Response ids for a string of single-character tokens, plus <eos> when `eos`.
std::vector<int> response(const std::string& text, bool eos) {
  const grpo::Vocab vocab = grpo::arithmetic_vocab();
  std::vector<int> ids = vocab.encode(text);
  if (eos) ids.push_back(vocab.eos_id);
  return ids;
}

}  // namespace

TEST_CASE("arithmetic vocabulary: 16 tokens in a fixed order", "[task]") {
  const grpo::Vocab vocab = grpo::arithmetic_vocab();
  REQUIRE(vocab.size() == 16);
  CHECK(vocab.tokens == std::vector<std::string>{"0", "1", "2", "3", "4", "5", "6", "7", "8", "9",
                                                 "+", "-", "=", "/", "?", "<eos>"});
  CHECK(vocab.eos_id == 15);
  CHECK(vocab.id("=") == 12);
  CHECK(vocab.encode("3+4=") == std::vector<int>{3, 10, 4, 12});
  CHECK(vocab.decode({7, 15}) == "7<eos>");
  CHECK(vocab.response_text({3, 13, 0, 15, 9}) == "3/0");  // stops at the first <eos>
  CHECK_THROWS_WITH(vocab.encode("3*4"), Contains("text") && Contains("position 1"));
  CHECK_THROWS_AS(vocab.token(16), grpo::InvalidArgument);
  CHECK_THROWS_WITH(grpo::Vocab::from_tokens({"a", "a"}, "a"), Contains("duplicate"));
  CHECK_THROWS_WITH(grpo::Vocab::from_tokens({"a", "b"}, "<eos>"), Contains("end-of-sequence"));
}

TEST_CASE("arithmetic prompts: all distinct problems, correct answers, 4 tokens each", "[task]") {
  PromptOptions options;
  options.seed = 3;
  CHECK(grpo::arithmetic_problem_count(options) == 155);  // 100 sums + 55 non-negative differences
  options.train_size = 100;
  options.heldout_size = 55;
  const auto prompts = grpo::arithmetic_prompts(options);
  REQUIRE(prompts.size() == 155);
  std::set<std::string> seen;
  for (std::size_t i = 0; i < prompts.size(); ++i) {
    const auto& p = prompts[i];
    INFO(p.text);
    CHECK(p.id == static_cast<int>(i));
    CHECK(p.split == (i < 100 ? "train" : "heldout"));
    CHECK(seen.insert(p.text).second);
    REQUIRE(p.tokens.size() == 4);
    CHECK(p.text == std::to_string(p.a) + p.op + std::to_string(p.b) + "=");
    const int value = p.op == '+' ? p.a + p.b : p.a - p.b;
    CHECK(p.answer == std::to_string(value));
    CHECK(value >= 0);  // allow_negative is false by default
    CHECK(grpo::arithmetic_vocab().decode(p.tokens) == p.text);
  }
  // Subtraction with negative answers, additions only, smaller operands.
  options.allow_negative = true;
  CHECK(grpo::arithmetic_problem_count(options) == 200);
  options.operations = "+";
  options.max_operand = 4;
  CHECK(grpo::arithmetic_problem_count(options) == 25);
  options.operations = "-";
  options.train_size = 25;
  options.heldout_size = 0;
  const auto negative = grpo::arithmetic_prompts(options);
  CHECK(std::any_of(negative.begin(), negative.end(),
                    [](const auto& p) { return p.answer == "-4"; }));
}

TEST_CASE("arithmetic prompts: the split is determined by the seed", "[task]") {
  PromptOptions options;
  options.train_size = 40;
  options.heldout_size = 20;
  options.seed = 11;
  const auto first = grpo::arithmetic_prompts(options);
  const auto again = grpo::arithmetic_prompts(options);
  CHECK(texts(first, "train") == texts(again, "train"));
  CHECK(texts(first, "heldout") == texts(again, "heldout"));
  CHECK(texts(first, "train").size() == 40);
  CHECK(texts(first, "heldout").size() == 20);
  options.seed = 12;
  const auto other = grpo::arithmetic_prompts(options);
  const auto a = texts(first, "train"), b = texts(other, "train");
  CHECK(std::set<std::string>(a.begin(), a.end()) != std::set<std::string>(b.begin(), b.end()));
  // Train and held-out never share a problem.
  const auto held = texts(first, "heldout");
  for (const auto& t : held) CHECK(std::find(a.begin(), a.end(), t) == a.end());
  // A pinned prefix guards cross-platform determinism of Rng and the shuffle.
  options.seed = 0;
  options.train_size = 3;
  options.heldout_size = 0;
  const auto pinned = texts(grpo::arithmetic_prompts(options), "train");
  CHECK(pinned == std::vector<std::string>{"9-1=", "3+5=", "7+0="});
}

TEST_CASE("arithmetic prompts: invalid options name the field", "[task]") {
  PromptOptions options;
  options.max_operand = 10;
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options),
                    Contains("maxOperand") && Contains("[1, 9]"));
  options = PromptOptions();
  options.max_operand = 0;
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options), Contains("maxOperand"));
  options = PromptOptions();
  options.operations = "*";
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options), Contains("operations"));
  options.operations = "++";
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options), Contains("operations"));
  options.operations = "";
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options), Contains("operations"));
  options = PromptOptions();
  options.train_size = 0;
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options), "trainSize: must be an integer >= 1, got 0");
  options = PromptOptions();
  options.heldout_size = -1;
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options), Contains("heldoutSize"));
  options = PromptOptions();
  options.train_size = 150;
  options.heldout_size = 6;
  CHECK_THROWS_WITH(grpo::arithmetic_prompts(options),
                    "trainSize + heldoutSize: must be at most 155 (the number of distinct problems "
                    "for these options), got 156");
}

TEST_CASE("score_response: every verifier status is reachable, rewards decompose", "[task]") {
  const grpo::Vocab vocab = grpo::arithmetic_vocab();
  grpo::Prompt prompt;
  prompt.text = "3+4=";
  prompt.answer = "7";
  const double w = 0.25;
  struct Case {
    std::string text;
    bool eos;
    VerifierStatus status;
    double correctness, format;
  };
  const Case cases[] = {
      {"7", true, VerifierStatus::Correct, 1, 1},
      {"07", true, VerifierStatus::Correct, 1, 1},
      {"14/2", true, VerifierStatus::Correct, 1, 1},
      {"8", true, VerifierStatus::Incorrect, 0, 1},
      {"-7", true, VerifierStatus::Incorrect, 0, 1},
      {"?", true, VerifierStatus::NoAnswer, 0, 0},
      {"", true, VerifierStatus::NoAnswer, 0, 0},
      {"3/0", true, VerifierStatus::Invalid, 0, 0},
      {"7777", false, VerifierStatus::Truncated, 0, 0},
      {"7", false, VerifierStatus::Truncated, 0, 0},  // right digits, never ended: no credit
      {"3+7", true, VerifierStatus::Correct, 1, 0},   // the verifier reads the last number
      {"7=", true, VerifierStatus::Correct, 1, 0},
  };
  for (const Case& c : cases) {
    INFO("response '" << c.text << "' eos " << c.eos);
    const grpo::Scored s = grpo::score_response(response(c.text, c.eos), c.eos, prompt, vocab, w);
    CHECK(s.text == c.text);
    CHECK(grpo::status_name(s.status) == std::string(grpo::status_name(c.status)));
    CHECK(s.accuracy == (c.status == VerifierStatus::Correct ? 1 : 0));
    CHECK(s.correctness == c.correctness);
    CHECK(s.format == c.format);
    CHECK(s.reward == c.correctness + w * c.format);
  }
  // Negative answers are reachable too.
  prompt.answer = "-3";
  CHECK(grpo::score_response(response("-3", true), true, prompt, vocab, w).reward == 1 + w);
  // Bad arguments.
  CHECK_THROWS_WITH(grpo::score_response({7, 16}, true, prompt, vocab, w),
                    Contains("responseTokens[1]"));
  CHECK_THROWS_WITH(grpo::score_response({7}, true, prompt, vocab, -1), Contains("formatWeight"));
}

TEST_CASE("prompt_from_text: caller-given problems", "[task]") {
  const grpo::Vocab vocab = grpo::arithmetic_vocab();
  const grpo::Prompt p = grpo::prompt_from_text("2-9=", vocab);
  CHECK(p.answer == "-7");
  CHECK(p.tokens == std::vector<int>{2, 11, 9, 12});
  CHECK(p.split == "train");
  CHECK(p.a == 2);
  CHECK(p.op == '-');
  CHECK(p.b == 9);
  CHECK(grpo::prompt_from_text("9+9=", vocab).answer == "18");
  for (const char* bad : {"12+3=", "3*4=", "3+4", "", "a+b=", "3+4=5"})
    CHECK_THROWS_WITH(grpo::prompt_from_text(bad, vocab), Contains("text"));
}
