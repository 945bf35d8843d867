// How success spreads over prompts (notebook section 8): prompts solved at least once in n fresh
// samples, the share of successes held by the best quarter of prompts, and pass@k across k.
// The measures are defined in docs/coverage.md; the page, the bench and the tests read them here.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace grpo {

// Measures of one policy on one prompt set, from c_j successes in n samples per prompt j.
struct CoverageConcentration {
  long long prompts = 0;         // P
  long long samples = 0;         // n, per prompt
  long long solved = 0;          // prompts with c_j > 0 ("solved at least once in n")
  long long top_count = 0;       // ceil(P / 4): the prompts of the best quarter
  double top_quarter_share = 0;  // sum of the top_count largest c_j / sum c_j (0 when no success)
  double mean_accuracy = 0;      // sum c_j / (P n)
  double detection_floor = 0;    // success probability a prompt may have and still show c_j = 0
                                 // with chance >= 5%: 1 - 0.05^(1/n)
};

// The success probability a prompt may have and still show 0 successes in `samples` tries with
// chance >= 5%: 1 - 0.05^(1/samples) (4.6% for 64 samples).
double detection_floor(long long samples);

// successes[j] = c_j in [0, samples]; samples in [1, 100000]; at least one prompt.
CoverageConcentration coverage_concentration(const std::vector<long long>& successes,
                                             long long samples);

// The k of the pass@k curve: 1, 2, 4, ... up to samples (and samples itself when it is no
// power of two).
std::vector<long long> pass_at_k_ks(long long samples);

// Mean over prompts of the unbiased pass@k (Chen et al. 2021) at each k of `ks` (each in
// [1, samples]).
std::vector<double> pass_at_k_curve(const std::vector<long long>& successes, long long samples,
                                    const std::vector<long long>& ks);

// The first k of `ks` at which curve `base` lies above `trained` (Yue et al. 2025: the base model
// overtakes the RL model at large k); -1 when it never does. Equal lengths required.
long long pass_at_k_crossing(const std::vector<long long>& ks, const std::vector<double>& base,
                             const std::vector<double>& trained);

// One bar of a prompt's answer histogram (docs/coverage.md, "Answer histograms").
struct AnswerBin {
  std::string kind;    // a verifier status ("correct", "incorrect", "no_answer", "invalid",
                       // "truncated") or "other" (the wrong answers beyond the kept bins)
  std::string answer;  // correct: the reference; incorrect: the verifier's extracted answer
  long long count = 0;
};

// How many bins besides the correct one and "other" a prompt's histogram keeps.
constexpr std::size_t kAnswerBinsKept = 4;

// The histogram of one prompt's answers, each given as {kind, answer} (answer only for
// "incorrect"; every "correct" answer falls in one bin named `reference`): the correct bin first
// (always, its count may be 0), then the `keep` largest other bins (count descending, then kind,
// then answer), then one "other" bin holding the rest when there is any. Counts sum to
// answers.size().
std::vector<AnswerBin> answer_histogram(
    const std::vector<std::pair<std::string, std::string>>& answers, const std::string& reference,
    std::size_t keep = kAnswerBinsKept);

}  // namespace grpo
