// The JSON API envelope: results, typed errors with codes, fields and parameters, unknown options.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "api/api.h"
#include "core/errors.h"

using grpo::api::Json;

TEST_CASE("api returns ok envelopes and typed errors", "[api]") {
  const Json ok =
      Json::parse(grpo::api::call("informativeGroupProbability", R"({"p":0.5,"groupSize":2})"));
  CHECK(ok["ok"].get<double>() == 0.5);

  const Json range =
      Json::parse(grpo::api::call("informativeGroupProbability", R"({"p":2,"groupSize":2})"));
  CHECK(range["error"]["type"] == "RangeError");
  CHECK(range["error"]["message"].get<std::string>().rfind("p:", 0) == 0);

  const Json type =
      Json::parse(grpo::api::call("informativeGroupProbability", R"({"p":"x","groupSize":2})"));
  CHECK(type["error"]["type"] == "TypeError");

  const Json missing = Json::parse(grpo::api::call("noSuchMethod", "{}"));
  CHECK(missing["error"]["message"] == "unknown method: noSuchMethod");

  const Json broken = Json::parse(grpo::api::call("informativeGroupProbability", "{not json"));
  CHECK(broken["error"]["type"] == "TypeError");
}

TEST_CASE("api encodes and decodes non-finite numbers", "[api]") {
  const Json draws = grpo::api::call_json("expectedDrawsForInformativeGroups",
                                          {{"n", 10}, {"p", 0.0}, {"groupSize", 4}});
  CHECK(draws["ok"] == Json{{"$number", "Infinity"}});
  const Json nan = grpo::api::call_json("informativeGroupProbability",
                                        {{"p", {{"$number", "NaN"}}}, {"groupSize", 4}});
  CHECK(nan["error"]["message"].get<std::string>().find("got NaN") != std::string::npos);
}

TEST_CASE("every registered method has a name", "[api]") {
  const auto names = grpo::api::method_names();
  CHECK(std::find(names.begin(), names.end(), "checkNumericAnswer") != names.end());
  CHECK(std::find(names.begin(), names.end(), "syntheticModeTraining") != names.end());
}

namespace {

// The params of an error envelope must be the ones message_codes() lists for its code.
void check_listed(const Json& error) {
  const std::string code = error["code"].get<std::string>();
  const auto& codes = grpo::message_codes();
  const auto entry = std::find_if(codes.begin(), codes.end(),
                                  [&](const grpo::MessageCode& c) { return c.code == code; });
  REQUIRE(entry != codes.end());
  for (const auto& item : error["params"].items()) {
    INFO(code << " has parameter " << item.key());
    CHECK(std::find_if(entry->params.begin(), entry->params.end(), [&](const char* name) {
            return item.key() == name;
          }) != entry->params.end());
  }
}

Json error_of(const std::string& method, const Json& args) {
  const Json envelope = grpo::api::call_json(method, args);
  REQUIRE(envelope.contains("error"));
  check_listed(envelope["error"]);
  return envelope["error"];
}

}  // namespace

TEST_CASE("errors carry a code, the field and the parameters beside the message", "[api]") {
  const Json range =
      error_of("clippedSurrogateTerms",
               {{"ratios", {1.0}}, {"advantages", {1.0}}, {"epsLow", 0.2}, {"epsHigh", 50}});
  CHECK(range["type"] == "RangeError");
  CHECK(range["code"] == "range");
  CHECK(range["field"] == "epsHigh");
  CHECK(range["params"] == Json{{"min", 0}, {"max", 10}, {"interval", "[0, 10]"}, {"got", 50}});
  CHECK(range["message"] == "epsHigh: must be in [0, 10], got 50");

  const Json open = error_of(
      "clipActivity", {{"ratios", {1.0}}, {"advantages", {1.0}}, {"epsLow", 1}, {"epsHigh", 0.2}});
  CHECK(open["params"]["interval"] == "[0, 1)");
  CHECK(open["message"] == "epsLow: must be in [0, 1), got 1");

  const Json typed = error_of("groupRelativeAdvantages", {{"rewards", {1, "abc"}}});
  CHECK(typed["type"] == "TypeError");
  CHECK(typed["code"] == "not_a_number");
  CHECK(typed["field"] == "rewards[1]");
  CHECK(typed["params"] == Json{{"got", "abc"}});
  CHECK(typed["message"] == "rewards[1]: must be a number, got \"abc\"");

  const Json integral = error_of("informativeGroupProbability", {{"p", 0.5}, {"groupSize", 2.5}});
  CHECK(integral["code"] == "not_an_integer");
  CHECK(integral["field"] == "groupSize");

  const Json bounded = error_of("passAtKUnbiased", {{"n", 4}, {"c", 9}, {"k", 2}});
  CHECK(bounded["code"] == "integer_range");
  CHECK(bounded["params"] == Json{{"min", 0}, {"max", 4}, {"got", 9}});

  const Json lengths = error_of("dapoTokenWeights", {{"rewards", {1, 0}}, {"lengths", {3}}});
  CHECK(lengths["code"] == "same_length");
  CHECK(lengths["params"] == Json{{"other", "rewards"}, {"expected", 2}, {"got", 1}});

  const Json required = error_of("passAtKIndependent", {{"p", 0.5}});
  CHECK(required["code"] == "required");
  CHECK(required["field"] == "k");

  const Json unknown = error_of("nope", Json::object());
  CHECK(unknown["code"] == "unknown_method");
}

TEST_CASE("an option key a method does not read is refused, naming the nearest", "[api]") {
  const Json base{{"rewards", {1, 0}}, {"logProbs", {{-1.0}, {-2.0}}}, {"groupSize", 2}};
  REQUIRE(grpo::api::call_json("grpoObjective", base).contains("ok"));

  Json typo = base;
  typo["epsilonHigh"] = 5;
  const Json e = error_of("grpoObjective", typo);
  CHECK(e["type"] == "TypeError");
  CHECK(e["code"] == "unknown_option");
  CHECK(e["field"] == "epsilonHigh");
  CHECK(e["params"] == Json{{"option", "epsilonHigh"}, {"nearest", "epsHigh"}});
  CHECK(e["message"] == "epsilonHigh: unknown option (did you mean 'epsHigh'?)");

  Json betta = base;
  betta["betta"] = 3;
  CHECK(error_of("grpoObjective", betta)["params"]["nearest"] == "beta");

  const Json steps =
      error_of("syntheticModeTraining",
               {{"betaEntropy", 0.1}, {"learningRate", 0.5}, {"steps", 3}, {"stepz", 3}});
  CHECK(steps["params"]["nearest"] == "steps");

  CHECK(error_of("informativeGroupProbability", {{"p", 0.5}, {"groupSize", 2}, {"G", 2}})["code"] ==
        "unknown_option");
  CHECK(error_of("memoryStats", {{"x", 1}})["code"] == "no_options");
}

TEST_CASE("the legacy constructor takes the field from the message", "[api]") {
  const grpo::InvalidArgument legacy("learningRate: must be > 0, got -1");
  CHECK(legacy.code() == "invalid");
  CHECK(legacy.field() == "learningRate");
  CHECK(std::string(legacy.what()) == "learningRate: must be > 0, got -1");
  const grpo::InvalidArgument sentence("the run is over");
  CHECK(sentence.field().empty());
}

TEST_CASE("every rule helper throws a listed code with listed parameters", "[api]") {
  const auto listed = [](const grpo::ArgumentError& e) {
    Json params = Json::object();
    for (const auto& p : e.params()) params[p.name] = 0;
    check_listed(Json{{"code", e.code()}, {"params", params}});
  };
  const auto expect = [&](auto&& fn, const char* code, const char* message) {
    try {
      fn();
      FAIL("no error");
    } catch (const grpo::InvalidArgument& e) {
      CHECK(e.code() == code);
      CHECK(std::string(e.what()) == message);
      listed(e);
    }
  };
  expect([] { grpo::require_in_range("x", 2, 0, 1); }, "range", "x: must be in [0, 1], got 2");
  expect([] { grpo::require_in_range("x", 0, 0, 1, grpo::Ends::open); }, "range",
         "x: must be in (0, 1), got 0");
  expect(
      [] {
        grpo::require_probability({"p", 2}, -1);
      },
      "range", "p[2]: must be a probability in [0, 1], got -1");
  expect([] { grpo::require_integer_in_range("n", 1.5, 0, 9); }, "integer_range",
         "n: must be an integer in [0, 9], got 1.5");
  expect([] { grpo::require_at_least("n", -1, 0); }, "at_least",
         "n: must be a finite number >= 0, got -1");
  expect([] { grpo::require_at_least("r", 0, 0, true); }, "greater_than",
         "r: must be a finite number > 0, got 0");
  expect([] { grpo::require_finite("a", std::nan("")); }, "not_finite",
         "a: must be a finite number, got NaN");
  expect([] { grpo::require_not_empty("xs", 0); }, "empty", "xs: must be a non-empty array");
  expect([] { grpo::require_at_most_values("xs", 5, 4); }, "too_many",
         "xs: must hold at most 4 values, got 5");
  expect([] { grpo::require_same_length("b", 1, "a", 2); }, "same_length",
         "b: must have the same length as a (2), got 1");
  expect(
      [] {
        grpo::require_one_of("lossType", "dapoo", {"grpo", "dapo"});
      },
      "one_of", "lossType: must be one of 'grpo', 'dapo', got 'dapoo'");
  CHECK(grpo::require_one_of("lossType", "dapo", {"grpo", "dapo"}) == 1);
  CHECK(grpo::nearest_option("dapoo", {"grpo", "dapo"}) == "dapo");
}

TEST_CASE("finiteEntropyMechanism returns one column entry per step", "[api][entropy]") {
  const Json ok = grpo::api::call_json("finiteEntropyMechanism",
                                       {{"betaEntropy", 0}, {"learningRate", 0.18}, {"steps", 60}});
  REQUIRE(ok.contains("ok"));
  const Json& r = ok["ok"];
  for (const char* column : {"step", "entropy", "exactChange", "predictedChange", "difference",
                             "advantages", "contributions"}) {
    INFO(column);
    CHECK(r[column].size() == 60);
  }
  CHECK(r["labels"] == Json{"A", "B", "C", "D", "E", "F"});
  CHECK(r["step"][59] == 59);
  CHECK(r["contributions"][0].size() == 6);
  const double exact = r["exactChange"][0].get<double>();
  const double predicted = r["predictedChange"][0].get<double>();
  CHECK(exact < 0.0);
  CHECK(predicted < 0.0);
  CHECK(r["difference"][0].get<double>() == exact - predicted);

  const Json lr =
      error_of("finiteEntropyMechanism", {{"betaEntropy", 0}, {"learningRate", 20}, {"steps", 60}});
  CHECK(lr["type"] == "RangeError");
  CHECK(lr["code"] == "range");
  CHECK(lr["field"] == "learningRate");
  CHECK(lr["params"] == Json{{"min", 0}, {"max", 10}, {"interval", "[0, 10]"}, {"got", 20}});
  CHECK(lr["message"] == "learningRate: must be in [0, 10], got 20");
  const Json steps = error_of("finiteEntropyMechanism",
                              {{"betaEntropy", 0}, {"learningRate", 0.1}, {"steps", -1}});
  CHECK(steps["code"] == "integer_range");
  CHECK(steps["field"] == "steps");
  CHECK(error_of("finiteEntropyMechanism",
                 {{"betaEntropy", 0}, {"learningRate", 0.1}, {"steps", 3}, {"step", 1}})["code"] ==
        "unknown_option");
}
