// The config table (rl/config_fields.h): every field round-trips through the API's reader and
// writer, the defaults are valid, every range check names the field, the schema is the table.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "api/api_config.h"
#include "core/errors.h"
#include "rl/config_fields.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using grpo::FieldKind;
using grpo::FieldSpec;
using grpo::api::Json;

namespace {

// In-range values other than the smoke default, to show the reader sets the member.
std::vector<Json> values_for(const FieldSpec& f) {
  switch (f.kind) {
    case FieldKind::Int:
      return {static_cast<long long>(f.min), static_cast<long long>(f.max)};
    case FieldKind::Number: {
      std::vector<Json> values = {f.min_open ? f.min + (f.max - f.min) / 4 : f.min,
                                  f.max_open ? f.min + (f.max - f.min) / 2 : f.max};
      if (f.nullable) values.push_back(nullptr);  // None
      return values;
    }
    case FieldKind::Bool:
      return {true, false};
    case FieldKind::Enum:
      return Json(f.options);
  }
  return {};
}

// Arguments setting `name` to `value`, with what the cross-field rules need to hold.
Json args_with(const FieldSpec& f, const Json& value) {
  Json args{{f.name, value}};
  const std::string name = f.name;
  // The splits hold distinct problems: at most 155 with maxOperand 9, 7 with maxOperand 1.
  if (name == "promptBatch") args["trainPrompts"] = 64, args["heldoutPrompts"] = 0;
  if (name == "trainPrompts") args["promptBatch"] = 1, args["heldoutPrompts"] = 0;
  if (name == "heldoutPrompts") args["trainPrompts"] = 1, args["promptBatch"] = 1;
  if (name == "maxOperand")
    args["trainPrompts"] = 1, args["heldoutPrompts"] = 0, args["promptBatch"] = 1;
  // clipMin < clipMax: with clipMax None any clipMin holds.
  if (name == "vllmImportanceSamplingClipMin") args["vllmImportanceSamplingClipMax"] = nullptr;
  if (name == "syncRefModel") args["beta"] = 0.1;
  return args;
}

}  // namespace

TEST_CASE("config table: every profile's defaults are valid and are what the writer writes",
          "[config]") {
  for (const std::string& profile : grpo::profile_names()) {
    const grpo::ExperimentConfig config = grpo::profile_defaults(profile);
    CHECK_NOTHROW(config.validate());
    const Json written = grpo::api::config_json(config);
    const Json schema = grpo::api::config_schema_json();
    REQUIRE(schema["fields"].size() == grpo::config_fields().size());
    for (const Json& f : schema["fields"]) {
      INFO(profile << " " << f["name"]);
      CHECK(written.at(f["name"].get<std::string>()) == f["defaults"][profile]);
    }
    CHECK(written.size() == grpo::config_fields().size());
  }
}

TEST_CASE("config table: every field round-trips through read and write", "[config]") {
  for (const FieldSpec& f : grpo::config_fields()) {
    for (const Json& value : values_for(f)) {
      INFO(f.name << " = " << value.dump());
      const grpo::ExperimentConfig config = grpo::api::read_config(args_with(f, value));
      const Json written = grpo::api::config_json(config);
      CHECK(written.at(f.name) == value);
      // Reading what was written gives the same config again.
      CHECK(grpo::api::config_json(grpo::api::read_config(written)) == written);
    }
  }
}

TEST_CASE("config: the two splits hold at most the task's distinct problems", "[config]") {
  // A link's config is refused when it is read, not after training has started (issue 29).
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"trainPrompts", 150}, {"heldoutPrompts", 150}}),
                    "heldoutPrompts: trainPrompts + heldoutPrompts must be at most 155 (the "
                    "distinct problems with maxOperand 9), got 300");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"maxOperand", 2}}),
                    Contains("must be at most 15 (the distinct problems with maxOperand 2)"));
  CHECK_NOTHROW(grpo::api::read_config(Json{{"trainPrompts", 120}, {"heldoutPrompts", 35}}));
}

TEST_CASE("config table: out-of-range values fail naming the field and its range", "[config]") {
  for (const FieldSpec& f : grpo::config_fields()) {
    INFO(f.name);
    if (f.kind == FieldKind::Int || f.kind == FieldKind::Number) {
      const double below = f.min_open ? f.min : f.min - 1;
      const double above = f.max_open ? f.max : f.max + 1;
      for (double bad : {below, above}) {
        CHECK_THROWS_WITH(grpo::api::read_config(Json{{f.name, bad}}),
                          StartsWith(std::string(f.name) + ": must be ") &&
                              Contains(grpo::format_number(f.max)) &&
                              Contains("got " + grpo::format_number(bad)));
        grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
        f.set(config, bad);
        CHECK_THROWS_WITH(config.validate(), StartsWith(std::string(f.name) + ": must be "));
      }
    }
    if (f.kind == FieldKind::Enum)
      CHECK_THROWS_WITH(grpo::api::read_config(Json{{f.name, "nope"}}),
                        StartsWith(std::string(f.name) + ": must be one of ") &&
                            Contains(f.options.front()) && Contains("got 'nope'"));
    if (f.kind == FieldKind::Bool)
      CHECK_THROWS_WITH(grpo::api::read_config(Json{{f.name, 1}}),
                        StartsWith(std::string(f.name) + ": must be true or false"));
  }
  // Today's words, kept for the fields the pages show errors of.
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"epsHigh", 12}}),
                    "epsHigh: must be in [0, 10], got 12");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"epsLow", 1}}),
                    "epsLow: must be in [0, 1), got 1");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"seed", 4294967296.0}}),
                    "seed: must be an integer in [0, 4294967295], got 4294967296");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"updates", 50001}}),
                    "updates: must be an integer in [1, 50000], got 50001");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"learningRate", 0}}),
                    "learningRate: must be in (0, 1], got 0");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"trainPrompts", 16}, {"promptBatch", 20}}),
                    "promptBatch: must be at most trainPrompts (16), got 20");
  CHECK_THROWS_WITH(grpo::api::read_config(Json{{"epsHihg", 0.3}}), Contains("unknown option"));
}

TEST_CASE("config schema: names, kinds, ranges, TRL names and description keys", "[config]") {
  const Json schema = grpo::api::config_schema_json();
  CHECK(schema["profiles"] == Json({"smoke", "full"}));
  // Found by name: new fields (advantageEstimator) move the positions.
  Json eps_high;
  for (const Json& f : schema["fields"])
    if (f["name"] == "epsHigh") eps_high = f;
  CHECK(eps_high["name"] == "epsHigh");
  CHECK(eps_high["member"] == "objective.eps_high");
  CHECK(eps_high["kind"] == "number");
  CHECK(eps_high["min"] == 0.0);
  CHECK(eps_high["max"] == 10.0);
  CHECK(eps_high["maxOpen"] == false);
  CHECK(eps_high["trl"] == "epsilon_high");
  CHECK(eps_high["description"] == "train.field.epsHigh");
  CHECK(eps_high["defaults"] == Json({{"smoke", 0.28}, {"full", 0.28}}));
  for (const Json& f : schema["fields"]) {
    INFO(f["name"]);
    CHECK(f["description"] == "train.field." + f["name"].get<std::string>());
    CHECK((f["trl"].is_null() || f["trl"].is_string()));
  }
}
