// Section 8's coverage measures: solved prompts, the best quarter's share, pass@k curves.
#include <catch2/catch.hpp>
#include <cmath>

#include "core/errors.h"
#include "core/prompt_coverage.h"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

TEST_CASE("coverage: solved prompts and the best quarter's share, by hand", "[coverage]") {
  // 5 prompts, 4 samples each: counts 4, 0, 1, 2, 0. Solved: 3. ceil(5/4) = 2 best prompts hold
  // 4 + 2 = 6 of the 7 successes. Mean accuracy 7 / 20.
  const grpo::CoverageConcentration c = grpo::coverage_concentration({4, 0, 1, 2, 0}, 4);
  CHECK(c.prompts == 5);
  CHECK(c.solved == 3);
  CHECK(c.top_count == 2);
  CHECK_THAT(c.top_quarter_share, WithinAbs(6.0 / 7.0, 1e-15));
  CHECK_THAT(c.mean_accuracy, WithinAbs(7.0 / 20.0, 1e-15));
  // 1 - 0.05^(1/4): a prompt solved with probability 0.527 still shows 0 of 4 with chance 5%.
  CHECK_THAT(c.detection_floor, WithinAbs(1.0 - std::pow(0.05, 0.25), 1e-15));
}

TEST_CASE("coverage: uniform success gives the quarter its quarter, none gives 0", "[coverage]") {
  CHECK_THAT(grpo::coverage_concentration({3, 3, 3, 3, 3, 3, 3, 3}, 8).top_quarter_share,
             WithinAbs(0.25, 1e-15));
  const grpo::CoverageConcentration none = grpo::coverage_concentration({0, 0, 0}, 16);
  CHECK(none.solved == 0);
  CHECK(none.top_quarter_share == 0.0);
}

TEST_CASE("pass@k curve: ks, the mean unbiased estimate, and the crossing", "[coverage]") {
  CHECK(grpo::pass_at_k_ks(64) == std::vector<long long>{1, 2, 4, 8, 16, 32, 64});
  CHECK(grpo::pass_at_k_ks(48) == std::vector<long long>{1, 2, 4, 8, 16, 32, 48});
  // Prompt A: 2 of 4 -> pass@1 = 0.5, pass@2 = 1 - C(2,2)/C(4,2) = 5/6, pass@4 = 1.
  // Prompt B: 0 of 4 -> 0 at every k. Means: 0.25, 5/12, 0.5.
  const std::vector<double> curve = grpo::pass_at_k_curve({2, 0}, 4, {1, 2, 4});
  CHECK_THAT(curve[0], WithinAbs(0.25, 1e-15));
  CHECK_THAT(curve[1], WithinAbs(5.0 / 12.0, 1e-15));
  CHECK_THAT(curve[2], WithinAbs(0.5, 1e-15));
  // A sharpened policy (one prompt always, one never) against a spread one (both sometimes):
  // sharper at k = 1, overtaken from k = 2 on.
  const std::vector<long long> ks = {1, 2, 4};
  const std::vector<double> trained = grpo::pass_at_k_curve({4, 0}, 4, ks);  // 0.5, 0.5, 0.5
  const std::vector<double> base = grpo::pass_at_k_curve({1, 1}, 4, ks);     // 0.25, 0.5, 1
  CHECK(grpo::pass_at_k_crossing(ks, base, trained) == 4);
  CHECK(grpo::pass_at_k_crossing(ks, trained, trained) == -1);
}

TEST_CASE("coverage measures reject bad counts naming the argument", "[coverage]") {
  CHECK_THROWS_WITH(grpo::coverage_concentration({1, 5}, 4),
                    Contains("successes[1]: must be an integer in [0, samples=4], got 5"));
  CHECK_THROWS_WITH(grpo::coverage_concentration({}, 4), Contains("successes"));
  CHECK_THROWS_WITH(grpo::coverage_concentration({1}, 0), Contains("samples"));
  CHECK_THROWS_WITH(grpo::pass_at_k_curve({1}, 4, {5}), Contains("ks[0]"));
}

TEST_CASE("answer histogram: correct first, the largest wrong bins, the rest as other",
          "[coverage]") {
  using A = std::pair<std::string, std::string>;
  std::vector<A> answers;
  for (int i = 0; i < 5; ++i) answers.push_back({"incorrect", "12"});
  for (int i = 0; i < 2; ++i) answers.push_back({"correct", ""});
  for (int i = 0; i < 3; ++i) answers.push_back({"truncated", ""});
  for (const char* wrong : {"1", "2", "3", "4"}) answers.push_back({"incorrect", wrong});
  const auto bins = grpo::answer_histogram(answers, "13", 3);
  REQUIRE(bins.size() == 5);
  CHECK((bins[0].kind == "correct" && bins[0].answer == "13" && bins[0].count == 2));
  CHECK((bins[1].kind == "incorrect" && bins[1].answer == "12" && bins[1].count == 5));
  CHECK((bins[2].kind == "truncated" && bins[2].answer.empty() && bins[2].count == 3));
  // Ties of one answer each: kind, then answer ("1" before "2"); "3" and "4" go to other.
  CHECK((bins[3].kind == "incorrect" && bins[3].answer == "1" && bins[3].count == 1));
  CHECK((bins[4].kind == "other" && bins[4].count == 3));
  long long total = 0;
  for (const auto& b : bins) total += b.count;
  CHECK(total == static_cast<long long>(answers.size()));
  // No answer right: the correct bin is still there, at 0; no other when nothing is left over.
  const auto none = grpo::answer_histogram({{"no_answer", ""}}, "7");
  REQUIRE(none.size() == 2);
  CHECK((none[0].kind == "correct" && none[0].count == 0 && none[1].kind == "no_answer"));
}
