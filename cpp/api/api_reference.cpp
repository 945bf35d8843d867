// JSON API methods for notebook sections 1-5 (the reference math).
#include "api/api.h"
#include "core/advantages.h"
#include "core/coverage_metrics.h"
#include "core/errors.h"
#include "core/finite_policy.h"
#include "core/informative_groups.h"
#include "core/reductions.h"
#include "core/verifier.h"
#include "rl/grpo_objective.h"

namespace grpo::api {
namespace {

// Verifier text and reference: megabytes are fine (the verifier is linear), up to 32 MiB each
// (docs/limits.md); the whole argument text is bounded by kMaxArgumentBytes anyway.
constexpr std::size_t kMaxVerifierTextBytes = std::size_t{32} << 20;

Json check_numeric_answer_method(const Json& args) {
  const VerifierResult r = check_numeric_answer(string(args, "text", kMaxVerifierTextBytes),
                                                string(args, "reference", kMaxVerifierTextBytes));
  // reasonCode + reasonParams let a page say the reason in its own language; reason stays the
  // English sentence for Node users.
  Json params = Json::object();
  for (const auto& [name, value] : r.reason_params) params[name] = value;
  return Json{{"accuracy", r.accuracy},
              {"status", status_name(r.status)},
              {"candidate", r.candidate},
              {"value", r.has_value ? encode_number(r.value) : Json(nullptr)},
              {"rule", r.rule},
              {"reason", r.reason},
              {"reasonCode", r.reason_code},
              {"reasonParams", params}};
}

Json weights_json(const TokenWeights& weights) {
  Json rows = Json::array();
  for (const auto& row : weights) rows.push_back(encode_numbers(row));
  return rows;
}

Json synthetic_mode_training_method(const Json& args) {
  const FinitePolicyState s = synthetic_mode_training(
      number(args, "betaEntropy"), number(args, "learningRate"), integer(args, "steps"));
  Json modes = Json::array();
  for (const auto& mode : finite_modes())
    modes.push_back({{"label", mode.label},
                     {"successful", mode.successful},
                     {"initialProbability", mode.initial_probability}});
  return Json{{"probabilities", s.probabilities},
              {"expectedReward", s.expected_reward},
              {"successfulMass", s.successful_mass},
              {"entropy", s.entropy},
              {"modes", modes}};
}

// One column per quantity, one entry per step (a chart reads a column as it is).
Json finite_entropy_mechanism_method(const Json& args) {
  const auto rows = finite_entropy_mechanism(number(args, "betaEntropy"),
                                             number(args, "learningRate"), integer(args, "steps"));
  Json step = Json::array(), entropy = Json::array(), exact = Json::array(),
       predicted = Json::array(), difference = Json::array(), advantages = Json::array(),
       contributions = Json::array();
  for (const auto& row : rows) {
    step.push_back(row.step);
    entropy.push_back(encode_number(row.entropy));
    exact.push_back(encode_number(row.exact_change));
    predicted.push_back(encode_number(row.predicted_change));
    difference.push_back(encode_number(row.difference));
    advantages.push_back(encode_numbers(row.advantages));
    contributions.push_back(encode_numbers(row.contributions));
  }
  Json labels = Json::array();
  for (const auto& mode : finite_modes()) labels.push_back(mode.label);
  return Json{{"step", step},
              {"entropy", entropy},
              {"exactChange", exact},
              {"predictedChange", predicted},
              {"difference", difference},
              {"advantages", advantages},
              {"contributions", contributions},
              {"labels", labels}};
}

}  // namespace

void register_reference_methods(Registry& r) {
  r["verifyNumericAnswer"] = [](const Json& a) {
    return Json(verify_numeric_answer(string(a, "text", kMaxVerifierTextBytes),
                                      string(a, "reference", kMaxVerifierTextBytes)));
  };
  r["checkNumericAnswer"] = check_numeric_answer_method;
  r["informativeGroupProbability"] = [](const Json& a) {
    return Json(informative_group_probability(number(a, "p"), integer(a, "groupSize")));
  };
  // One call for a whole curve (a chart needs hundreds of points).
  r["informativeGroupCurve"] = [](const Json& a) {
    const long long group_size = integer(a, "groupSize");
    std::vector<double> values;
    for (double p : numbers(a, "ps"))
      values.push_back(informative_group_probability(p, group_size));
    return Json(values);
  };
  r["expectedDrawsForInformativeGroups"] = [](const Json& a) {
    return encode_number(expected_draws_for_informative_groups(number(a, "n"), number(a, "p"),
                                                               integer(a, "groupSize")));
  };
  r["groupRelativeAdvantages"] = [](const Json& a) {
    return Json(group_relative_advantages(numbers(a, "rewards"), boolean_or(a, "scale", true)));
  };
  // Every estimator of the update's advantageEstimator field, on rewards in groups.
  r["estimateAdvantages"] = [](const Json& a) {
    const long long group_size = integer(a, "groupSize");
    if (group_size < 2 || group_size > 1000000)
      throw InvalidArgument("groupSize: must be an integer in [2, 1000000], got " +
                            std::to_string(group_size));
    return Json(
        estimate_advantages(numbers(a, "rewards"), static_cast<int>(group_size),
                            parse_advantage_estimator(string(a, "advantageEstimator", 64))));
  };
  r["clippedSurrogateTerms"] = [](const Json& a) {
    return Json(clipped_surrogate_terms(numbers(a, "ratios"), numbers(a, "advantages"),
                                        number(a, "epsLow"), number(a, "epsHigh")));
  };
  r["clipActivity"] = [](const Json& a) {
    return Json(clip_activity(numbers(a, "ratios"), numbers(a, "advantages"), number(a, "epsLow"),
                              number(a, "epsHigh")));
  };
  r["originalGrpoTokenWeights"] = [](const Json& a) {
    return weights_json(original_grpo_token_weights(numbers(a, "rewards"), integers(a, "lengths")));
  };
  r["drGrpoTokenWeights"] = [](const Json& a) {
    return weights_json(dr_grpo_token_weights(numbers(a, "rewards"), integers(a, "lengths"),
                                              integer(a, "fixedLength")));
  };
  r["dapoTokenWeights"] = [](const Json& a) {
    return weights_json(dapo_token_weights(numbers(a, "rewards"), integers(a, "lengths")));
  };
  r["responseContributions"] = [](const Json& a) {
    return Json(response_contributions(number_rows(a, "tokenWeights")));
  };
  r["flattenTokenWeights"] = [](const Json& a) {
    return Json(flatten_token_weights(number_rows(a, "tokenWeights")));
  };
  r["syntheticModeTraining"] = synthetic_mode_training_method;
  r["finiteEntropyMechanism"] = finite_entropy_mechanism_method;
  r["categoricalEntropy"] = [](const Json& a) {
    return Json(categorical_entropy(numbers(a, "probabilities")));
  };
  r["passAtKIndependent"] = [](const Json& a) {
    return Json(pass_at_k_independent(number(a, "p"), integer(a, "k")));
  };
  r["passAtKUnbiased"] = [](const Json& a) {
    return Json(pass_at_k_unbiased(integer(a, "n"), integer(a, "c"), integer(a, "k")));
  };
  r["version"] = [](const Json&) {
    return Json{{"core", "0.1.0"}, {"scalar", "float32 policy, float64 reference math"}};
  };
}

}  // namespace grpo::api
