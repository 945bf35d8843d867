// JSON API methods for how success spreads over prompts (section 8; core/prompt_coverage.h).
#include "api/api_coverage.h"

#include <cmath>

namespace grpo::api {

Json coverage_json(const CoverageConcentration& c) {
  return Json{{"prompts", c.prompts},
              {"samples", c.samples},
              {"solved", c.solved},
              {"topCount", c.top_count},
              {"topQuarterShare", c.top_quarter_share},
              {"meanAccuracy", c.mean_accuracy},
              {"detectionFloor", c.detection_floor}};
}

Json pass_at_k_json(const std::vector<long long>& successes, long long samples) {
  const std::vector<long long> ks = pass_at_k_ks(samples);
  return Json{{"ks", ks}, {"values", pass_at_k_curve(successes, samples, ks)}};
}

std::vector<long long> logged_pass_at_ks(long long samples) {
  std::vector<long long> ks;
  for (long long k = 1; k <= samples; k *= 2) ks.push_back(k);
  return ks;
}

std::string pass_at_k_column(const std::string& split, long long k) {
  return split + "PassAt" + std::to_string(k);
}

void add_pass_at_k_columns(Json& row, const std::string& split,
                           const std::vector<long long>& successes, long long samples) {
  if (successes.empty()) return;
  const std::vector<long long> ks = logged_pass_at_ks(samples);
  const std::vector<double> values = pass_at_k_curve(successes, samples, ks);
  for (std::size_t i = 0; i < ks.size(); ++i) row[pass_at_k_column(split, ks[i])] = values[i];
}

namespace {

// Successes per prompt from a by-prompt list ([{accuracy}, ...]); empty when there is none.
std::vector<long long> successes_of(const Json& by_prompt, long long samples) {
  std::vector<long long> out;
  if (!by_prompt.is_array()) return out;
  for (const Json& row : by_prompt)
    out.push_back(std::llround(row.at("accuracy").get<double>() * static_cast<double>(samples)));
  return out;
}

Json coverage_of(const std::vector<long long>& successes, long long samples) {
  if (successes.empty()) return Json(nullptr);
  Json out = coverage_json(coverage_concentration(successes, samples));
  out["passAtK"] = pass_at_k_json(successes, samples);
  return out;
}

}  // namespace

Json run_coverage_json(const Json& run, long long samples) {
  Json out = Json::object();
  for (const char* split : {"Train", "Heldout"}) {
    const std::string before_key = std::string("before") + split;
    const std::string after_key = std::string("after") + split;
    const auto before = successes_of(run.value(before_key + "ByPrompt", Json()), samples);
    const auto after = successes_of(run.value(after_key + "ByPrompt", Json()), samples);
    out[before_key] = coverage_of(before, samples);
    out[after_key] = coverage_of(after, samples);
    Json crossing(nullptr);
    if (!before.empty() && after.size() == before.size()) {
      const std::vector<long long> ks = pass_at_k_ks(samples);
      const long long k = pass_at_k_crossing(ks, pass_at_k_curve(before, samples, ks),
                                             pass_at_k_curve(after, samples, ks));
      if (k > 0) crossing = k;
    }
    out[std::string("crossing") + split] = crossing;
  }
  out["samples"] = samples;
  out["detectionFloor"] = detection_floor(samples);
  return out;
}

void register_coverage_methods(Registry& r) {
  r["coverageConcentration"] = [](const Json& a) {
    return coverage_json(coverage_concentration(integers(a, "successes"), integer(a, "samples")));
  };
  r["passAtKCurve"] = [](const Json& a) {
    const std::vector<long long> successes = integers(a, "successes");
    const long long samples = integer(a, "samples");
    if (!has(a, "ks")) return pass_at_k_json(successes, samples);
    const std::vector<long long> ks = integers(a, "ks");
    return Json{{"ks", ks}, {"values", pass_at_k_curve(successes, samples, ks)}};
  };
}

}  // namespace grpo::api
