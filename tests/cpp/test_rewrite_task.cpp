// Tests of the rewrite task: its right answers, the verifier on every right and wrong answer, the
// teacher's spread over the right answers, and a short deterministic run of the trainer on it.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/errors.h"
#include "rl/experiment_config.h"
#include "rl/rewrite_task.h"
#include "rl/trainer.h"

using grpo::VerifierStatus;

namespace {

std::vector<int> response(const std::string& text, bool eos) {
  const grpo::Vocab vocab = grpo::arithmetic_vocab();
  std::vector<int> ids = vocab.encode(text);
  if (eos) ids.push_back(vocab.eos_id);
  return ids;
}

grpo::Prompt problem(const std::string& text) {
  return grpo::rewrite_task().parse_prompt(text);
}

}  // namespace

TEST_CASE("rewrite answers: every c+d and c-d of the prompt's value", "[task]") {
  CHECK(grpo::rewrite_answers(problem("3+4=")) ==
        std::vector<std::string>{"0+7", "1+6", "2+5", "3+4", "4+3", "5+2", "6+1", "7+0", "7-0",
                                 "8-1", "9-2"});
  CHECK(grpo::rewrite_answers(problem("9+9=")) == std::vector<std::string>{"9+9"});
  CHECK(grpo::rewrite_answers(problem("9-9=")).size() == 11);  // 0+0 and ten c-c
  for (const grpo::Prompt& p : grpo::rewrite_task().prompts(0, 9, 155, 0)) {
    const int value = std::stoi(p.answer);
    const auto answers = grpo::rewrite_answers(p);
    CHECK(static_cast<int>(answers.size()) == (value <= 9 ? 11 : 19 - value));
    CHECK(std::set<std::string>(answers.begin(), answers.end()).count(p.text.substr(0, 3)) == 1);
  }
}

TEST_CASE("rewrite prompts and vocabulary: the arithmetic task's", "[task]") {
  const auto rewrite = grpo::rewrite_task().prompts(9, 9, 64, 32);
  const auto arithmetic = grpo::task_of(grpo::TaskKind::Arithmetic).prompts(9, 9, 64, 32);
  REQUIRE(rewrite.size() == arithmetic.size());
  for (std::size_t i = 0; i < rewrite.size(); ++i) {
    CHECK(rewrite[i].text == arithmetic[i].text);
    CHECK(rewrite[i].tokens == arithmetic[i].tokens);
    CHECK(rewrite[i].split == arithmetic[i].split);
  }
  CHECK(grpo::rewrite_task().vocab().tokens == grpo::arithmetic_vocab().tokens);
  CHECK(grpo::problem_count(grpo::TaskKind::Rewrite, 5) ==
        grpo::problem_count(grpo::TaskKind::Arithmetic, 5));
  CHECK(grpo::task_names()[static_cast<int>(grpo::TaskKind::Rewrite)] == "rewrite");
}

TEST_CASE("rewrite verifier: accepts every right answer, rejects the rest", "[task]") {
  for (const std::string text : {"3+4=", "9-2=", "9+9=", "0-0="}) {
    const grpo::Prompt p = problem(text);
    const auto answers = grpo::rewrite_answers(p);
    const std::set<std::string> right(answers.begin(), answers.end());
    for (int c = 0; c <= 9; ++c)
      for (const char op : {'+', '-'})
        for (int d = 0; d <= 9; ++d) {
          const std::string e = std::to_string(c) + op + std::to_string(d);
          const grpo::Scored s = grpo::rewrite_score(response(e, true), true, p, 0.1);
          INFO(text << " " << e);
          CHECK((s.status == VerifierStatus::Correct) == (right.count(e) == 1));
          CHECK(s.status == (right.count(e) ? VerifierStatus::Correct : VerifierStatus::Incorrect));
          CHECK(s.answer == e);
          CHECK(s.format == 1.0);
          CHECK(s.reward == Approx(right.count(e) ? 1.1 : 0.1));
        }
  }
  const grpo::Prompt p = problem("3+4=");
  auto score = [&](const std::string& text, bool eos = true) {
    return grpo::rewrite_score(response(text, eos), eos, p, 0.1);
  };
  // A bare number is not a rewrite, even the right value; no format.
  CHECK(score("7").status == VerifierStatus::Incorrect);
  CHECK(score("7").format == 0.0);
  CHECK(score("8").status == VerifierStatus::Incorrect);
  CHECK(score("?").status == VerifierStatus::NoAnswer);
  CHECK(score("").status == VerifierStatus::NoAnswer);
  CHECK(score("3/0").status == VerifierStatus::Invalid);
  CHECK(score("5+2", false).status == VerifierStatus::Truncated);
  CHECK(score("5+2", false).accuracy == 0);
  CHECK(score("5+2", false).format == 0.0);
  CHECK(score("5+2+0").accuracy == 0);  // not "c+d": graded as the arithmetic verifier reads it
  CHECK_THROWS_AS(grpo::rewrite_score({16}, true, p, 0.1), grpo::InvalidArgument);
}

TEST_CASE("rewrite teacher: right at the accuracy, spread over the right answers", "[task]") {
  const grpo::Vocab vocab = grpo::arithmetic_vocab();
  const grpo::Prompt p = problem("3+4=");
  grpo::Rng rng(1);
  std::map<std::string, int> right;
  int total = 0, correct = 0, echo = 0;
  for (int i = 0; i < 20000; ++i) {
    const std::vector<int> demo = grpo::rewrite_task().demonstration(p, 0.7, rng);
    REQUIRE(demo.back() == vocab.eos_id);
    const grpo::Scored s = grpo::rewrite_score(demo, true, p, 0.1);
    ++total;
    if (s.accuracy) {
      ++correct;
      ++right[s.text];
      echo += s.text == "3+4";
    }
  }
  CHECK(static_cast<double>(correct) / total == Approx(0.7).margin(0.02));
  CHECK(right.size() == 11);  // every right answer demonstrated
  const double others = (1 - grpo::kRewriteTeacherEcho) / 11;
  CHECK(static_cast<double>(echo) / correct ==
        Approx(grpo::kRewriteTeacherEcho + others).margin(0.02));
  for (const auto& [text, count] : right)
    if (text != "3+4") CHECK(static_cast<double>(count) / correct == Approx(others).margin(0.02));
}

TEST_CASE("rewrite task: a short run without NaN, deterministic", "[task][trainer]") {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.task = grpo::TaskKind::Rewrite;
  config.updates = 3;
  config.warmup_steps = 20;
  config.final_eval_samples = 4;
  config.train_prompts = 16;
  config.heldout_prompts = 8;
  config.validate();
  grpo::Experiment a(config), b(config);
  CHECK(a.vocab().size() == 16);
  CHECK(a.prompts()[0].tokens.size() == 4);
  while (!a.done()) a.step();
  while (!b.done()) b.step();
  for (std::size_t i = 0; i < a.history().size(); ++i) {
    CHECK(std::isfinite(a.history()[i].loss));
    CHECK(a.history()[i].loss == b.history()[i].loss);
  }
}
