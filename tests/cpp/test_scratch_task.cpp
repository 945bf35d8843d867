// Tests of the scratch task: vocabulary round trip, prompts, the verifier on the final answer,
// the teacher's spread of lengths, and a short run of the trainer on it.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "rl/experiment_config.h"
#include "rl/scratch_task.h"
#include "rl/trainer.h"

using grpo::VerifierStatus;

namespace {

std::vector<int> response(const std::string& text, bool eos) {
  const grpo::Vocab vocab = grpo::scratch_vocab();
  std::vector<int> ids = vocab.encode(text);
  if (eos) ids.push_back(vocab.eos_id);
  return ids;
}

grpo::Prompt problem(const std::string& text) {
  for (const grpo::Prompt& p : grpo::scratch_prompts(0, 12195, 0))
    if (p.text == text) return p;
  FAIL("no problem " << text);
  return {};
}

}  // namespace

TEST_CASE("scratch vocabulary: the arithmetic ids, then the separator and >, and a round trip",
          "[task]") {
  const grpo::Vocab vocab = grpo::scratch_vocab();
  const grpo::Vocab arithmetic = grpo::arithmetic_vocab();
  REQUIRE(vocab.size() == 18);
  for (int id = 0; id < arithmetic.size(); ++id) CHECK(vocab.token(id) == arithmetic.token(id));
  CHECK(vocab.eos_id == arithmetic.eos_id);
  CHECK(vocab.id(";") == 16);
  CHECK(vocab.id(">") == 17);
  for (const std::string text : {"47+38=", "7+8=15;4+3+1=8;85-38=47;>85", ">?", "12-8=4;3/0"}) {
    const std::vector<int> ids = vocab.encode(text);
    CHECK(vocab.decode(ids) == text);
    std::vector<int> with_eos = ids;
    with_eos.push_back(vocab.eos_id);
    with_eos.push_back(vocab.id("9"));  // after <eos>: not part of the response
    CHECK(vocab.response_text(with_eos) == text);
  }
  CHECK_THROWS_AS(vocab.encode("4*3"), grpo::InvalidArgument);
}

TEST_CASE("scratch prompts: two-digit operands, 6 tokens, a seeded split", "[task]") {
  CHECK(grpo::scratch_problem_count() == 12195);
  const auto prompts = grpo::scratch_prompts(9, 64, 32);
  REQUIRE(prompts.size() == 96);
  std::set<std::string> seen;
  for (const grpo::Prompt& p : prompts) {
    CHECK(p.tokens.size() == 6);
    CHECK(p.a >= 10);
    CHECK(p.a <= 99);
    CHECK(p.b >= 10);
    CHECK(p.b <= 99);
    if (p.op == '-') CHECK(p.a >= p.b);
    CHECK(p.answer == std::to_string(p.op == '+' ? p.a + p.b : p.a - p.b));
    CHECK(seen.insert(p.text).second);
  }
  CHECK(prompts[63].split == "train");
  CHECK(prompts[64].split == "heldout");
  const auto again = grpo::scratch_prompts(9, 64, 32);
  CHECK(again[17].text == prompts[17].text);
  CHECK(grpo::scratch_prompts(10, 64, 32)[0].text != prompts[0].text);
  CHECK_THROWS_AS(grpo::scratch_prompts(9, 12195, 1), grpo::InvalidArgument);
}

TEST_CASE("scratch verifier: scores the final answer, format scores the rest", "[task]") {
  const grpo::Prompt p = problem("47+38=");
  auto score = [&](const std::string& text, bool eos = true) {
    return grpo::scratch_score(response(text, eos), eos, p, 0.1);
  };
  CHECK(grpo::scratch_final_answer("7+8=15;4+3+1=8;>85") == "85");
  CHECK(grpo::scratch_final_answer("85") == "85");
  // Concise and verbose, both correct with format.
  for (const std::string text : {"85", "7+8=15;4+3+1=8;>85", "7+8=15;4+3+1=8;85-38=47;>85"}) {
    const grpo::Scored s = score(text);
    CHECK(s.status == VerifierStatus::Correct);
    CHECK(s.format == 1.0);
    CHECK(s.reward == Approx(1.1));
  }
  // Scratch work whose numbers are not the answer: only the final answer is graded.
  CHECK(score("7+8=15;4+3=7;>75").status == VerifierStatus::Incorrect);
  CHECK(score("7+8=15;4+3=7;>75").format == 1.0);
  CHECK(score("99;>85").status == VerifierStatus::Correct);
  // A wrong number in the scratch work does not make a right final answer wrong, nor the reverse.
  CHECK(score("7+8=85;>84").status == VerifierStatus::Incorrect);
  // No ">" before the answer: the whole text is graded (section 1 takes its last number), no
  // format.
  CHECK(score("7+8=15;85").format == 0.0);
  CHECK(score(">?").status == VerifierStatus::NoAnswer);
  CHECK(score(">").status == VerifierStatus::NoAnswer);
  CHECK(score(">3/0").status == VerifierStatus::Invalid);
  CHECK(score("7+8=15;>85", false).status == VerifierStatus::Truncated);
  CHECK(score("7+8=15;>85", false).accuracy == 0);
  CHECK_THROWS_AS(grpo::scratch_score({18}, true, p, 0.1), grpo::InvalidArgument);
}

TEST_CASE("scratch columns: carries and borrows, and the forgotten one", "[task]") {
  CHECK(grpo::scratch_columns(problem("47+38="), false) == "7+8=15;4+3+1=8;");
  CHECK(grpo::scratch_columns(problem("47+38="), true) == "7+8=15;4+3=7;");
  CHECK(grpo::scratch_columns(problem("23+45="), false) == "3+5=8;2+4=6;");
  CHECK(grpo::scratch_columns(problem("52-38="), false) == "12-8=4;5-1-3=1;");
  CHECK(grpo::scratch_columns(problem("52-38="), true) == "12-8=4;5-3=2;");
  CHECK(grpo::scratch_columns(problem("58-32="), false) == "8-2=6;5-3=2;");
}

TEST_CASE("scratch teacher: concise and verbose, right and wrong, a spread of lengths", "[task]") {
  const grpo::Vocab vocab = grpo::scratch_vocab();
  const auto prompts = grpo::scratch_prompts(9, 64, 32);
  grpo::Rng rng(1);
  std::vector<int> lengths;
  int right = 0, right_short = 0, right_long = 0, wrong_short = 0, wrong_long = 0;
  for (int round = 0; round < 20; ++round)
    for (const grpo::Prompt& p : prompts) {
      const std::vector<int> demo = grpo::scratch_task().demonstration(p, 0.5, rng);
      REQUIRE(demo.back() == vocab.eos_id);
      const grpo::Scored s = grpo::scratch_score(demo, true, p, 0.1);
      const int n = static_cast<int>(demo.size());
      lengths.push_back(n);
      CHECK(n <= 32);
      right += s.accuracy;
      (s.accuracy ? (n <= 4 ? right_short : right_long) : (n <= 4 ? wrong_short : wrong_long))++;
    }
  std::sort(lengths.begin(), lengths.end());
  const int p10 = lengths[lengths.size() / 10], p90 = lengths[lengths.size() * 9 / 10];
  INFO("p10 " << p10 << " p90 " << p90 << " min " << lengths.front() << " max " << lengths.back());
  CHECK(p90 - p10 >= 8);  // issue 23: a spread of at least 8 tokens between p10 and p90
  CHECK(lengths.front() >= 2);
  const double share = static_cast<double>(right) / static_cast<double>(lengths.size());
  CHECK(share == Approx(0.5).margin(0.05));
  CHECK(right_short > 0);
  CHECK(right_long > 0);
  CHECK(wrong_short > 0);
  CHECK(wrong_long > 0);
}

TEST_CASE("scratch task: the config field, a short run without NaN, deterministic",
          "[task][trainer]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.task = grpo::TaskKind::Scratch;
  config.objective.max_completion_length = 32;
  config.updates = 3;
  config.warmup_steps = 20;
  config.final_eval_samples = 4;
  config.train_prompts = 16;  // evaluated before and after: fewer prompts, the same checks
  config.heldout_prompts = 8;
  config.validate();
  grpo::Experiment a(config), b(config);
  CHECK(a.vocab().size() == 18);
  CHECK(a.prompts()[0].tokens.size() == 6);
  while (!a.done()) a.step();
  while (!b.done()) b.step();
  for (std::size_t i = 0; i < a.history().size(); ++i) {
    CHECK(std::isfinite(a.history()[i].loss));
    CHECK(a.history()[i].loss == b.history()[i].loss);
    CHECK(a.history()[i].mean_length == b.history()[i].mean_length);
  }
  CHECK(a.history().back().max_length > a.history().back().min_length);
  // heldoutPrompts is checked against the task's problems, not maxOperand's 155.
  config.train_prompts = 64;
  config.heldout_prompts = 154;
  CHECK_NOTHROW(config.validate());
}
