// The step inspector (rl/inspection.h, api_inspect.cpp): its per-token weights are the gradient
// the trainer applied, its decomposition adds up to them, for every loss type and option; the
// record stays within its budget; a replay gives the live run's record; a counterfactual under
// the run's own settings is the original.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "api/api.h"
#include "api/api_config.h"
#include "rl/inspection.h"
#include "rl/trainer.h"

using grpo::api::Json;

namespace {

// The inspector's log beside an independent capture of what the trainer's backward took.
class Capture : public grpo::UpdateObserver {
 public:
  Capture(const grpo::Experiment& e, std::size_t max_bytes) : log(e, max_bytes, false) {}
  void begin_update(const grpo::Experiment& e) override {
    log.begin_update(e);
    applied.emplace_back();
  }
  void optimizer_step(const grpo::Experiment& e, const grpo::ObservedStep& step) override {
    log.optimizer_step(e, step);
    applied.back().push_back(step.result.grad_logp);
  }
  grpo::InspectionLog log;
  std::vector<std::vector<grpo::Ragged>> applied;  // [update][step]
};

grpo::ExperimentConfig small(const std::function<void(grpo::ExperimentConfig&)>& change) {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = 3;
  config.warmup_steps = 30;
  config.eval_samples = 1;
  change(config);
  config.validate();
  return config;
}

// Runs `config` with a Capture and checks every step of every update.
void check_run(const grpo::ExperimentConfig& config) {
  grpo::Experiment experiment(config);
  auto capture = std::make_shared<Capture>(experiment, std::size_t{1} << 30);
  experiment.set_observer(capture);
  while (!experiment.done()) experiment.step();
  long long tokens = 0;
  for (int u = 1; u <= config.updates; ++u) {
    const grpo::UpdateRecord* record = capture->log.find(u);
    REQUIRE(record != nullptr);
    REQUIRE(record->steps.size() == capture->applied[u - 1].size());
    for (std::size_t s = 0; s < record->steps.size(); ++s) {
      const grpo::ObjectiveResult r = grpo::step_objective(config, *record, s, !record->verl);
      const grpo::Ragged& applied = capture->applied[u - 1][s];
      REQUIRE(r.grad_logp.size() == applied.size());
      for (std::size_t i = 0; i < applied.size(); ++i)
        for (std::size_t t = 0; t < applied[i].size(); ++t) {
          INFO("update " << u << " step " << s << " row " << i << " token " << t);
          CHECK(r.grad_logp[i][t] == applied[i][t]);  // bit for bit
          ++tokens;
          if (record->verl) continue;
          const grpo::TokenTerm& x = r.token_terms[i][t];
          CHECK(x.weight == -applied[i][t]);
          // The decomposition adds up (grpo_objective.h TokenTerm).
          const double policy = x.shared ? x.policy * x.share * (x.off_policy_kept ? 1 : 0)
                                         : x.policy * (x.off_policy_kept ? 1 : 0) *
                                               (x.entropy_kept ? 1 : 0) * x.sampler;
          const double rebuilt = x.active ? (policy - x.kl_grad) / x.normalizer : 0.0;
          CHECK(rebuilt == Approx(x.weight).margin(1e-12).epsilon(1e-12));
        }
    }
  }
  CHECK(tokens > 0);
}

}  // namespace

// Whole runs of every loss type and option: natively only ([sweep], as test_trainer.cpp's); the
// sanitizer and WASM builds run the cases below, and tests/node/inspector.test.mjs the smoke run.
TEST_CASE("inspector: every token's weight is the gradient the trainer applied, every loss type",
          "[inspector][trainer][sweep]") {
  for (const char* loss : {"grpo", "bnpo", "dr_grpo", "dapo", "cispo", "sapo", "luspo", "vespo"})
    for (const char* level : {"token", "sequence"}) {
      if (std::string(loss) == "vespo" && std::string(level) == "sequence") continue;
      INFO(loss << " " << level);
      check_run(small([&](grpo::ExperimentConfig& c) {
        c.objective.loss_type = grpo::parse_loss_type(loss);
        c.objective.importance_level = grpo::parse_importance_level(level);
      }));
    }
}

TEST_CASE("inspector: the trainer's options (masks, KL, sampler correction, mini-batches, verl)",
          "[inspector][trainer][sweep]") {
  using C = grpo::ExperimentConfig;
  const std::vector<std::pair<const char*, std::function<void(C&)>>> options = {
      {"beta, bias-corrected KL, sync",
       [](C& c) {
         c.objective.beta = 0.1;
         c.objective.use_bias_correction_kl = true;
       }},
      {"topEntropyQuantile, entropyCoef",
       [](C& c) {
         c.objective.top_entropy_quantile = 0.5;
         c.objective.entropy_coef = 0.05;
       }},
      {"sequence level with the entropy mask and a sampler",
       [](C& c) {
         c.objective.importance_level = grpo::ImportanceLevel::Sequence;
         c.objective.top_entropy_quantile = 0.5;
         c.sampler_mismatch = 0.05;
       }},
      {"delta, offPolicyMaskThreshold",
       [](C& c) {
         c.objective.delta = 1.1;
         c.objective.off_policy_mask_threshold = 0.0;
         c.sampler_lag = 1;
       }},
      {"token_truncate",
       [](C& c) {
         c.sampler_mismatch = 0.05;
         c.objective.vllm_importance_sampling_mode = grpo::SamplerCorrection::TokenTruncate;
       }},
      {"token_mask",
       [](C& c) {
         c.sampler_mismatch = 0.05;
         c.objective.vllm_importance_sampling_mode = grpo::SamplerCorrection::TokenMask;
         c.objective.vllm_importance_sampling_clip_min = 0.9;
       }},
      {"vespo with a sampler",
       [](C& c) {
         c.objective.loss_type = grpo::LossType::Vespo;
         c.sampler_mismatch = 0.05;
         c.objective.vllm_importance_sampling_mode = grpo::SamplerCorrection::TokenMask;
       }},
      {"stepsPerGeneration 2, dynamic sampling, maskTruncated",
       [](C& c) {
         c.steps_per_generation = 2;
         c.dynamic_sampling = true;
         c.objective.max_completion_length = 2;
       }},
      {"normalize_then_sum, overlong reward",
       [](C& c) {
         c.normalize_then_sum = true;
         c.overlong_weight = 1.0;
       }},
      {"the scratch task",
       [](C& c) {
         c.task = grpo::TaskKind::Scratch;
         c.objective.max_completion_length = 32;
       }},
      {"engine verl", [](C& c) { c.engine = grpo::Engine::Verl; }},
  };
  for (const auto& [name, change] : options) {
    INFO(name);
    check_run(small(change));
  }
}

TEST_CASE("inspector: the record stays within its budget, newest kept", "[inspector][trainer]") {
  const grpo::ExperimentConfig config = small([](grpo::ExperimentConfig& c) { c.updates = 4; });
  grpo::Experiment experiment(config);
  auto whole = std::make_shared<grpo::InspectionLog>(experiment, std::size_t{1} << 30, false);
  experiment.set_observer(whole);
  experiment.step();
  const std::size_t one = whole->bytes();
  CHECK(one > 1000);
  // A budget of two and a half updates keeps the last two.
  auto log = std::make_shared<grpo::InspectionLog>(experiment, one * 5 / 2, false);
  experiment.set_observer(log);
  while (!experiment.done()) experiment.step();
  CHECK(log->bytes() <= log->max_bytes());
  CHECK(log->last_kept() == 4);
  CHECK(log->first_kept() == 3);
  CHECK(log->dropped() == 1);  // update 2 (update 1 went to the other log)
  CHECK(log->find(2) == nullptr);
  CHECK(log->find(3) != nullptr);
}

TEST_CASE("inspector: a replay without evaluations gives the live run's record, bit for bit",
          "[inspector][trainer]") {
  const grpo::ExperimentConfig config = small([](grpo::ExperimentConfig&) {});
  Json create = grpo::api::config_json(config);
  auto call = [](const char* method, const Json& args) {
    Json envelope = grpo::api::call_json(method, args);
    INFO(envelope.dump());
    REQUIRE(envelope.contains("ok"));
    return envelope["ok"];
  };
  const int live = call("experimentCreate", create)["handle"];
  const int replayed = call("experimentCreate", create)["handle"];
  const int live_record =
      call("experimentKeepInspection", {{"handle", live}, {"applied", true}})["record"];
  const int replayed_record = call("experimentKeepInspection", {{"handle", replayed}})["record"];
  const Json rows = call("experimentStep", {{"handle", live}, {"count", 3}})["rows"];
  const Json again = call("experimentReplay", {{"handle", replayed}, {"to", 3}})["rows"];
  REQUIRE(again.size() == 3);
  for (std::size_t k = 0; k < 3; ++k)
    for (const char* key : {"loss", "gradNorm", "clipFractionLow", "ratioMax", "kl", "entropy"})
      CHECK(again[k][key] == rows[k][key]);
  CHECK(std::isnan(again[0]["evalAccuracy"].get<double>()));  // not evaluated
  for (int update = 1; update <= 3; ++update) {
    const Json a = call("inspectionView", {{"record", live_record}, {"update", update}});
    const Json b = call("inspectionView", {{"record", replayed_record}, {"update", update}});
    REQUIRE(a["steps"].size() == b["steps"].size());
    for (std::size_t s = 0; s < a["steps"].size(); ++s) {
      const Json& step = a["steps"][s];
      CHECK(step["objective"] == b["steps"][s]["objective"]);
      CHECK(step["terms"] == b["steps"][s]["terms"]);
      // Through the API's JSON: the weights are the applied gradient, negated, bit for bit.
      for (std::size_t i = 0; i < step["applied"].size(); ++i)
        for (std::size_t t = 0; t < step["applied"][i].size(); ++t)
          CHECK(step["terms"][i]["weight"][t].get<double>() ==
                -step["applied"][i][t].get<double>());
    }
  }
  // The run's own settings as a change: the counterfactual is the original, bit for bit.
  const Json view = call("inspectionView", {{"record", live_record}, {"update", 2}});
  const Json& batch = view["steps"][1]["objective"];
  const Json same = call("grpoCounterfactual",
                         {{"batch", batch},
                          {"change",
                           {{"lossType", batch["lossType"]},
                            {"epsHigh", batch["epsHigh"]},
                            {"importanceSamplingLevel", batch["importanceSamplingLevel"]},
                            {"vllmImportanceSamplingMode", batch["vllmImportanceSamplingMode"]}}}});
  CHECK(same["counterfactual"]["terms"] == view["steps"][1]["terms"]);
  CHECK(same["original"]["terms"] == view["steps"][1]["terms"]);
  CHECK(same["tokensChanged"] == 0);
  CHECK(same["lossChange"] == 0.0);
  // dapo -> cispo moves the weights; a change the method does not know is named.
  const Json cispo =
      call("grpoCounterfactual", {{"batch", batch}, {"change", {{"lossType", "cispo"}}}});
  CHECK(cispo["tokensChanged"].get<long long>() > 0);
  const Json bad = grpo::api::call_json("grpoCounterfactual",
                                        {{"batch", batch}, {"change", {{"lossType", "ppo"}}}});
  CHECK(bad["error"]["field"] == "change.lossType");
  const Json unknown =
      grpo::api::call_json("grpoCounterfactual", {{"batch", batch}, {"change", {{"beta", 1}}}});
  CHECK(unknown["error"]["field"] == "change.beta");
  const Json missing =
      grpo::api::call_json("inspectionView", {{"record", live_record}, {"update", 9}});
  CHECK(missing["error"]["field"] == "update");
  call("experimentDispose", {{"handle", live}});
  call("experimentDispose", {{"handle", replayed}});
  // The record outlives its experiment, until disposed.
  CHECK(call("inspectionView", {{"record", live_record}, {"update", 3}})["update"] == 3);
  CHECK(call("inspectionDispose", {{"record", live_record}})["disposed"] == true);
  CHECK(call("inspectionDispose", {{"record", replayed_record}})["disposed"] == true);
  CHECK(call("liveInspections", Json::object()) == 0);
}
