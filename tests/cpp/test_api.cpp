// The JSON API envelope: results, typed errors, and special numbers.
#include <catch2/catch.hpp>

#include "api/api.h"

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
