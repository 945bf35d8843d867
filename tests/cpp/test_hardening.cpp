// Hostile inputs through the JSON API (limits of docs/limits.md), regression tests for what the
// fuzzers found (fuzz/, docs/fuzzing.md), and a LeakSanitizer check over a whole smoke run.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <string>

#include "api/api.h"
#include "core/errors.h"
#include "core/verifier.h"
#include "rl/arithmetic_task.h"
#include "rl/checkpoint.h"
#include "rl/trainer.h"

#if defined(__SANITIZE_ADDRESS__)
#define GRPO_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GRPO_HAS_ASAN 1
#endif
#endif
#ifdef GRPO_HAS_ASAN
#include <sanitizer/lsan_interface.h>
#endif

using Catch::Matchers::Contains;
using grpo::api::Json;

namespace {

// The envelope of a call with raw JSON text, parsed (it must always parse).
Json call(const std::string& method, const std::string& args) {
  return Json::parse(grpo::api::call(method, args));
}

std::string error_of(const Json& envelope) {
  REQUIRE(envelope.contains("error"));
  return envelope["error"]["message"].get<std::string>();
}

// True when `text` survives a strict UTF-8 dump (what the API's envelope needs).
bool valid_utf8(const std::string& text) {
  try {
    (void)Json(text).dump();
    return true;
  } catch (const Json::exception&) {
    return false;
  }
}

Json small_checkpoint() {
  grpo::GruPolicy<float> policy({16, 2, 3});
  grpo::Rng rng(5);
  policy.reset_parameters(rng);
  return grpo::export_checkpoint(policy, grpo::arithmetic_vocab().tokens, Json{{"temperature", 1}});
}

std::string import_error(const Json& checkpoint) {
  try {
    (void)grpo::import_checkpoint<float>(checkpoint);
  } catch (const grpo::InvalidArgument& e) {
    return e.what();
  }
  FAIL("the checkpoint was accepted");
  return "";
}

}  // namespace

TEST_CASE("fuzz regression: a quoted candidate is never cut inside a UTF-8 character",
          "[hardening][verifier]") {
  // fuzz_verifier: the reason quoted the first 60 bytes of a long box content, splitting "é";
  // the API's dump() then threw (an uncaught exception out of api::call, a thrown pointer in JS).
  const std::string text = "x \\boxed{" + std::string(59, 'a') + "\xC3\xA9\xC3\xA9\xC3\xA9}";
  const grpo::VerifierResult r = grpo::check_numeric_answer(text, "1");
  CHECK(r.rule == "box_not_number");
  CHECK(valid_utf8(r.reason));
  CHECK_THAT(r.reason, Contains("(65 bytes)"));
  const Json envelope = Json::parse(
      grpo::api::call("checkNumericAnswer", Json{{"text", text}, {"reference", "1"}}.dump()));
  CHECK(envelope["ok"]["status"] == "invalid");
}

TEST_CASE("api: any method name or argument text gives a parseable envelope", "[hardening][api]") {
  // A JS string with a lone surrogate reaches C++ as invalid UTF-8.
  const Json unknown = Json::parse(grpo::api::call("\xED\xA0\x80" + std::string(100, 'm'), "{}"));
  CHECK_THAT(error_of(unknown), Contains("unknown method"));
  CHECK_THAT(error_of(unknown), Contains("(103 bytes)"));
  const Json invalid = call("checkNumericAnswer", "{\"text\": \"\xFF\"}");
  CHECK(invalid["error"]["type"] == "TypeError");
  CHECK_THAT(error_of(invalid), Contains("not valid JSON"));
  CHECK(call("checkNumericAnswer", R"({"text":"\boxed{2}","reference":"2"})")["ok"]["accuracy"] ==
        1);
}

TEST_CASE("api: nesting deeper than 64 levels is refused before parsing", "[hardening][api]") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const Json refused = call("experimentConfig", deep);
  CHECK(refused["error"]["type"] == "RangeError");
  CHECK_THAT(error_of(refused), Contains("at most 64 levels deep") && Contains("at byte 64"));

  const auto nested = [](int levels) {
    return "{\"seed\": " + std::string(levels - 1, '[') + std::string(levels - 1, ']') + "}";
  };
  CHECK_THAT(error_of(call("experimentConfig", nested(64))), Contains("seed: must be a number"));
  CHECK_THAT(error_of(call("experimentConfig", nested(65))), Contains("64 levels"));
  // Brackets inside strings are text, not nesting.
  const std::string in_string = "{\"profile\": \"" + std::string(1000, '[') + "\\\"\"}";
  CHECK_THAT(error_of(call("experimentConfig", in_string)),
             Contains("profile: must be a string of at most 256 bytes"));
  CHECK(call("experimentConfig", "{}")["ok"]["profile"] == "smoke");
}

TEST_CASE("api: arguments over 64 MiB or 4 Mi values are refused", "[hardening][api]") {
  const std::string big = "{\"text\": \"" + std::string(grpo::api::kMaxArgumentBytes, 'x') + "\"}";
  CHECK_THAT(error_of(call("checkNumericAnswer", big)),
             Contains("arguments: must be at most 67108864 bytes of JSON (64 MiB)"));
  std::string many = "[";
  for (std::size_t i = 0; i < grpo::api::kMaxJsonValues + 1; ++i) many += "0,";
  many += "0]";
  CHECK_THAT(error_of(call("groupRelativeAdvantages", "{\"rewards\": " + many + "}")),
             Contains("at most 4194304 JSON values"));
}

TEST_CASE("api: strings are bounded where they are read", "[hardening][api]") {
  CHECK_THAT(error_of(call("experimentConfig", "{\"profile\": \"" + std::string(300, 'x') + "\"}")),
             Contains("profile: must be a string of at most 256 bytes, got 300"));
  const std::string long_key(100000, 'k');
  const std::string message = error_of(call("experimentConfig", "{\"" + long_key + "\": 1}"));
  CHECK_THAT(message, Contains("unknown option"));
  CHECK(message.size() < 200);
  // Verifier text: megabytes are fine (SPEC), up to the 32 MiB limit.
  const std::string text(3 << 20, '7');
  CHECK(grpo::api::call_json("checkNumericAnswer",
                             {{"text", text}, {"reference", "7"}})["ok"]["status"] == "invalid");
  CHECK_THAT(
      error_of(grpo::api::call_json(
          "checkNumericAnswer", {{"text", std::string((32 << 20) + 1, '7')}, {"reference", "7"}})),
      Contains("text: must be a string of at most 33554432 bytes"));
}

TEST_CASE("checkpoint: hostile shapes, values, names and sizes", "[hardening][checkpoint]") {
  const Json good = small_checkpoint();
  REQUIRE_NOTHROW(grpo::import_checkpoint<float>(good));

  Json dims = good;  // tiny data, huge claimed dims: refused before any buffer is allocated
  dims["config"]["hidden"] = 1024;
  dims["config"]["embed"] = 1024;
  dims["vocab"] = Json::array();
  for (int i = 0; i < 4096; ++i) dims["vocab"].push_back(std::to_string(i));
  CHECK_THAT(import_error(dims),
             Contains("checkpoint.tensors.embedding.weight.shape: must be [4096, 1024]"));

  Json shape = good;
  shape["tensors"]["head.weight"]["shape"] = {1000000000, 1000000000};
  CHECK_THAT(import_error(shape),
             Contains("head.weight.shape: must be [16, 3], got [1000000000, 1000000000]"));

  Json nan = good;
  nan["tensors"]["head.bias"]["data"][2] = Json{{"$number", "NaN"}};
  CHECK_THAT(import_error(nan),
             Contains("head.bias.data[2]: must be a finite number in float range, got NaN"));
  Json beyond_float = good;
  beyond_float["tensors"]["head.bias"]["data"][0] = 1e39;
  CHECK_THAT(import_error(beyond_float),
             Contains("head.bias.data[0]: must be a finite number in float range"));

  Json extra = good;
  extra["tensors"][std::string(1000, 'e') + "\xC3\xA9"] = Json{{"shape", {1}}, {"data", {0}}};
  const std::string extra_error = import_error(extra);
  CHECK_THAT(extra_error, Contains("unknown tensor") && Contains("(1002 bytes)"));
  CHECK(valid_utf8(extra_error));
  CHECK(extra_error.size() < 400);

  Json token = good;
  token["vocab"][3] = std::string(50 << 20, 't');
  CHECK_THAT(import_error(token),
             Contains("checkpoint.vocab[3]: must be a string of at most 256 bytes, got 52428800"));

  Json deep_config = good;
  Json nested = 1;
  for (int i = 0; i < 20; ++i) nested = Json::array({nested});
  deep_config["config"]["note"] = nested;
  CHECK_THAT(import_error(deep_config),
             Contains("checkpoint.config: must nest at most 8 levels deep"));
  Json wide_config = good;
  for (int i = 0; i < 2000; ++i) wide_config["config"]["k" + std::to_string(i)] = i;
  CHECK_THAT(import_error(wide_config),
             Contains("checkpoint.config: must hold at most 1024 values"));
}

TEST_CASE("teacherForcedLogProbs: the token budget follows the checkpoint's size",
          "[hardening][api]") {
  const Json checkpoint = small_checkpoint();
  // 16 x 32 + 3 x 40 + 64 = 696 bytes per token -> 385 683 tokens in 256 MiB.
  Json sequences = Json::array();
  for (int i = 0; i < 100000; ++i) sequences.push_back({0, 1, 2, 3});
  const Json refused = grpo::api::call_json("teacherForcedLogProbs",
                                            {{"checkpoint", checkpoint}, {"sequences", sequences}});
  CHECK_THAT(error_of(refused), Contains("sequences: must hold at most 385683 tokens in all for a "
                                         "checkpoint with vocab 16 and hidden 3"));
  const Json ok = grpo::api::call_json("teacherForcedLogProbs",
                                       {{"checkpoint", checkpoint}, {"sequences", {{0, 1, 2}}}});
  CHECK(ok["ok"]["logProbs"][0].size() == 2);
}

TEST_CASE("experiments: a handle beyond int names no experiment", "[hardening][api]") {
  const Json disposed = grpo::api::call_json("experimentDispose", {{"handle", 4294967297.0}});
  CHECK(disposed["ok"]["disposed"] == false);
  CHECK_THAT(error_of(grpo::api::call_json("experimentStep", {{"handle", 4294967297.0}})),
             Contains("handle: must be an integer in [1, 2147483647]"));
}

// LeakSanitizer over one (short) smoke experiment through the API, start to finish (create, every
// step, finish, dispose). In the asan preset ctest sets ASAN_OPTIONS=detect_leaks=1; the
// explicit check here fails this test (not just the process exit) when anything leaked.
TEST_CASE("a whole smoke experiment through the API leaks nothing", "[hardening][lsan][trainer]") {
  const Json created = grpo::api::call_json(
      "experimentCreate", {{"profile", "smoke"}, {"seed", 9}, {"updates", 6}, {"warmupSteps", 20}});
  REQUIRE(created.contains("ok"));
  const Json handle{{"handle", created["ok"]["handle"]}, {"count", 1000}};
  const Json steps = grpo::api::call_json("experimentStep", handle);
  REQUIRE(steps["ok"]["done"] == true);
  const Json result = grpo::api::call_json("experimentFinish", handle);
  REQUIRE(result["ok"]["format"] == "grpo-lab-run");
  const Json imported = grpo::api::call_json("importRun", {{"run", result["ok"]}});
  CHECK(imported["ok"] == result["ok"]);
  CHECK(grpo::api::call_json("experimentDispose", handle)["ok"]["disposed"] == true);
  CHECK(grpo::api::call_json("liveExperiments", Json::object())["ok"] == 0);
#ifdef GRPO_HAS_ASAN
  const char* options = std::getenv("ASAN_OPTIONS");
  INFO("ASAN_OPTIONS=" << (options ? options : ""));
  REQUIRE((options == nullptr || std::string(options).find("detect_leaks=0") == std::string::npos));
  CHECK(__lsan_do_recoverable_leak_check() == 0);
#endif
}
