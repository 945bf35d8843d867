// Coverage and concentration of success over prompts; pass@k curves (docs/coverage.md).
#include "core/prompt_coverage.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>

#include "core/coverage_metrics.h"
#include "core/errors.h"

namespace grpo {
namespace {

constexpr long long kMaxSamples = 100000;

void check_successes(const std::vector<long long>& successes, long long samples) {
  require(samples >= 1 && samples <= kMaxSamples, [&] {
    return "samples: must be an integer in [1, " + std::to_string(kMaxSamples) + "], got " +
           std::to_string(samples);
  });
  require(!successes.empty(), "successes: must hold at least one prompt's count");
  for (std::size_t j = 0; j < successes.size(); ++j)
    require(successes[j] >= 0 && successes[j] <= samples, [&] {
      return "successes[" + std::to_string(j) +
             "]: must be an integer in [0, samples=" + std::to_string(samples) + "], got " +
             std::to_string(successes[j]);
    });
}

}  // namespace

double detection_floor(long long samples) {
  require(samples >= 1 && samples <= kMaxSamples, [&] {
    return "samples: must be an integer in [1, " + std::to_string(kMaxSamples) + "], got " +
           std::to_string(samples);
  });
  return -std::expm1(std::log(0.05) / static_cast<double>(samples));
}

CoverageConcentration coverage_concentration(const std::vector<long long>& successes,
                                             long long samples) {
  check_successes(successes, samples);
  CoverageConcentration out;
  out.prompts = static_cast<long long>(successes.size());
  out.samples = samples;
  out.top_count = (out.prompts + 3) / 4;
  std::vector<long long> sorted = successes;
  std::sort(sorted.begin(), sorted.end(), std::greater<>());
  long long total = 0, top = 0;
  for (std::size_t j = 0; j < sorted.size(); ++j) {
    total += sorted[j];
    if (static_cast<long long>(j) < out.top_count) top += sorted[j];
    out.solved += sorted[j] > 0 ? 1 : 0;
  }
  out.top_quarter_share = total > 0 ? static_cast<double>(top) / static_cast<double>(total) : 0.0;
  out.mean_accuracy = static_cast<double>(total) /
                      (static_cast<double>(out.prompts) * static_cast<double>(samples));
  out.detection_floor = detection_floor(samples);
  return out;
}

std::vector<long long> pass_at_k_ks(long long samples) {
  require(samples >= 1 && samples <= kMaxSamples, [&] {
    return "samples: must be an integer in [1, " + std::to_string(kMaxSamples) + "], got " +
           std::to_string(samples);
  });
  std::vector<long long> ks;
  for (long long k = 1; k <= samples; k *= 2) ks.push_back(k);
  if (ks.back() != samples) ks.push_back(samples);
  return ks;
}

std::vector<double> pass_at_k_curve(const std::vector<long long>& successes, long long samples,
                                    const std::vector<long long>& ks) {
  check_successes(successes, samples);
  require(!ks.empty(), "ks: must hold at least one k");
  std::vector<double> curve;
  curve.reserve(ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    require(ks[i] >= 1 && ks[i] <= samples, [&] {
      return "ks[" + std::to_string(i) +
             "]: must be an integer in [1, samples=" + std::to_string(samples) + "], got " +
             std::to_string(ks[i]);
    });
    double sum = 0.0;
    for (long long c : successes) sum += pass_at_k_unbiased(samples, c, ks[i]);
    curve.push_back(sum / static_cast<double>(successes.size()));
  }
  return curve;
}

long long pass_at_k_crossing(const std::vector<long long>& ks, const std::vector<double>& base,
                             const std::vector<double>& trained) {
  require(base.size() == ks.size() && trained.size() == ks.size(), [&] {
    return "base, trained: must have one value per k (" + std::to_string(ks.size()) + ")";
  });
  for (std::size_t i = 0; i < ks.size(); ++i)
    if (base[i] > trained[i]) return ks[i];
  return -1;
}

std::vector<AnswerBin> answer_histogram(
    const std::vector<std::pair<std::string, std::string>>& answers, const std::string& reference,
    std::size_t keep) {
  long long correct = 0;
  std::map<std::pair<std::string, std::string>, long long> tally;  // {kind, answer} -> count
  for (const auto& a : answers) {
    if (a.first == "correct")
      ++correct;
    else
      ++tally[a];
  }
  std::vector<AnswerBin> rest;
  for (const auto& [key, count] : tally) rest.push_back(AnswerBin{key.first, key.second, count});
  // The map is ordered by kind, then answer: a stable sort by count keeps that order in ties.
  std::stable_sort(rest.begin(), rest.end(),
                   [](const AnswerBin& a, const AnswerBin& b) { return a.count > b.count; });
  std::vector<AnswerBin> out{AnswerBin{"correct", reference, correct}};
  long long other = 0;
  for (std::size_t i = 0; i < rest.size(); ++i) {
    if (i < keep)
      out.push_back(rest[i]);
    else
      other += rest[i].count;
  }
  if (other > 0) out.push_back(AnswerBin{"other", "", other});
  return out;
}

}  // namespace grpo
