// JSON API methods of the step inspector (docs/inspector.md): keep a live experiment's record of
// updates (rl/inspection.h), replay a run to an update without its evaluations, the view of one
// update (every token's term of every optimizer step, as the trainer applied it, through the
// grpoObjective method) and grpoCounterfactual (one step's batch under other settings).
#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "api/api.h"
#include "api/api_experiments.h"
#include "core/errors.h"
#include "rl/inspection.h"
#include "rl/verl_cov_select.h"

namespace grpo::api {
namespace {

// The record's default budget, and the largest a caller may ask for (docs/inspector.md,
// "Memory": the smoke run keeps ~1 MB, the full run ~3 MB, the scratch task's ~5 MB).
constexpr double kDefaultMaxBytes = 32.0 * 1024 * 1024;
constexpr double kLargestMaxBytes = 1024.0 * 1024 * 1024;

constexpr int kMaxLiveRecords = 8;

// The records kept (experimentKeepInspection), by id: each outlives its experiment until
// inspectionDispose.
std::map<int, std::shared_ptr<InspectionLog>>& records() {
  static std::map<int, std::shared_ptr<InspectionLog>> live;
  return live;
}

InspectionLog& record_of(const Json& a) {
  const long long id = integer(a, "record");
  require_integer_in_range("record", static_cast<double>(id), 1, 2147483647);
  auto found = records().find(static_cast<int>(id));
  require(found != records().end(), [&] {
    return "record: no live inspection record " + std::to_string(id) + " (disposed or never kept)";
  });
  return *found->second;
}

Json rows_json(const Ragged& rows) {
  Json out = Json::array();
  for (const auto& row : rows) out.push_back(encode_numbers(row));
  return out;
}

// The grpoObjective arguments of one step: its settings and inputs exactly as the trainer gave
// them to its objective. Engine verl: TRL's objective on verl's advantages (a counterfactual's
// base; the step itself was verl_objective's).
Json objective_args(const UpdateRecord& record, std::size_t step) {
  const InspectedStep& s = record.steps[step];
  const ObjectiveConfig& c = s.objective;
  const ObjectiveInputs in = step_inputs(record, step);
  Json a = objective_settings_json(c);
  if (in.advantages)
    a["advantages"] = *in.advantages;
  else if (record.verl)
    a["advantages"] = record.advantages;
  else
    a["rewards"] = in.rewards;
  a["logProbs"] = in.logp;
  if (in.old_logp) a["oldLogProbs"] = *in.old_logp;
  if (in.ref_logp) a["refLogProbs"] = *in.ref_logp;
  if (in.entropies) a["entropies"] = *in.entropies;
  if (in.sampling_logp) a["samplingLogProbs"] = *in.sampling_logp;
  if (!in.truncated.empty()) a["truncated"] = in.truncated;
  if (in.num_items_in_batch) a["numItemsInBatch"] = *in.num_items_in_batch;
  return a;
}

// A core method called from here: its result, or its error rethrown with its type, code and
// params, the field and message under `prefix` ("change." + "lossType: ...").
Json call_method(const char* method, const Json& args, const std::string& prefix = "") {
  Json envelope = call_json(method, args);
  if (envelope.contains("ok")) return std::move(envelope["ok"]);
  const Json& e = envelope["error"];
  MessageParams params;
  for (auto it = e["params"].begin(); it != e["params"].end(); ++it) {
    if (it.value().is_number())
      params.push_back({it.key(), it.value().get<double>()});
    else if (it.value().is_string())
      params.push_back({it.key(), it.value().get<std::string>()});
  }
  const std::string field = e["field"].get<std::string>();
  const std::string code = e["code"].get<std::string>();
  const std::string message = prefix + e["message"].get<std::string>();
  if (e["type"] == "Error") throw std::runtime_error(message);  // internal: stays internal
  if (e["type"] == "TypeError")
    throw ArgumentTypeError(code, field.empty() ? field : prefix + field, params, message);
  throw InvalidArgument(code, field.empty() ? field : prefix + field, params, message);
}

// A number of a result (non-finite ones travel as {"$number": ...}).
double value_of(const Json& value) {
  return as_number(value, "result");
}

double norm_of(const Json& rows) {
  double squared = 0;
  for (const Json& row : rows)
    for (const Json& value : row) squared += value_of(value) * value_of(value);
  return std::sqrt(squared);
}

// grpoObjective on `args` with the token decomposition: {loss, gradNorm, terms, metrics, config}.
// `prefix` names the argument `args` came in, in errors.
Json decomposed(Json args, const std::string& prefix = "") {
  args["tokenTerms"] = true;
  Json r = call_method("grpoObjective", args, prefix);
  const double grad_norm = norm_of(r["gradLogProbs"]);
  return Json{{"loss", r["loss"]},
              {"gradNorm", encode_number(grad_norm)},
              {"terms", std::move(r["tokenTerms"])},
              {"gradEntropies", std::move(r["gradEntropies"])},
              {"metrics", std::move(r["metrics"])},
              {"config", std::move(r["config"])}};
}

// Engine verl: the step as verl_objective computed it, in the same shape (its weight, the ratio,
// the loss mask and TRL's clip events; verl's own decomposition is not taken apart).
Json verl_decomposed(const ExperimentConfig& config, const UpdateRecord& record, std::size_t step) {
  const ObjectiveResult r = step_objective(config, record, step, false);
  const ObjectiveInputs in = step_inputs(record, step);
  const ObjectiveConfig& o = config.objective;
  const double lo = 1.0 - o.eps_low, hi = 1.0 + o.eps_high_value();
  Json terms = Json::array();
  double squared = 0;
  for (std::size_t i = 0; i < in.logp.size(); ++i) {
    const bool active = !(o.mask_truncated && !in.truncated.empty() && in.truncated[i]);
    const double a = r.advantages[i];
    Json ratio = Json::array(), weight = Json::array(), low = Json::array(), high = Json::array();
    for (std::size_t t = 0; t < in.logp[i].size(); ++t) {
      const double rho =
          std::exp(in.logp[i][t] - (in.old_logp ? (*in.old_logp)[i][t] : in.logp[i][t]));
      ratio.push_back(encode_number(rho));
      weight.push_back(encode_number(-r.grad_logp[i][t]));
      low.push_back(active && rho < lo && a < 0);
      high.push_back(active && rho > hi && a > 0);
      squared += r.grad_logp[i][t] * r.grad_logp[i][t];
    }
    terms.push_back(Json{{"ratio", ratio},
                         {"weight", weight},
                         {"clippedLow", low},
                         {"clippedHigh", high},
                         {"active", Json(std::vector<bool>(in.logp[i].size(), active))}});
  }
  Json verl_metrics = Json::object();
  for (const auto& [name, value] : r.metrics.verl) verl_metrics[name] = encode_number(value);
  return Json{{"loss", encode_number(r.loss)},
              {"gradNorm", encode_number(std::sqrt(squared))},
              {"terms", terms},
              {"metrics", verl_metrics}};
}

// The covariance terms of one step (docs/verl.md "Clip-Cov and KL-Cov selection"): per token
// (A - mean A)(log pi - mean log pi) over the loss-mask tokens, their mean Cov(log pi, A), and
// the tokens verl's KL-Cov (top k) and Clip-Cov (candidates lb < cov < ub, not clipped) select.
Json covariance_json(const ObjectiveInputs& in, const std::vector<double>& advantages,
                     const Json& terms, bool mask_truncated, double kl_ratio, double clip_ratio,
                     double lb, double ub) {
  std::size_t width = 1;
  for (const auto& row : in.logp) width = std::max(width, row.size());
  const std::size_t n = in.logp.size();
  verl::Matrix a(n, std::vector<double>(width, 0.0)), lp = a, mask = a;
  std::vector<std::vector<bool>> clipped(n, std::vector<bool>(width, false));
  for (std::size_t i = 0; i < n; ++i) {
    const bool out = mask_truncated && !in.truncated.empty() && in.truncated[i];
    for (std::size_t t = 0; t < in.logp[i].size(); ++t) {
      mask[i][t] = out ? 0.0 : 1.0;
      a[i][t] = advantages[i] * mask[i][t];
      lp[i][t] = in.logp[i][t];
      clipped[i][t] =
          terms[i]["clippedLow"][t].get<bool>() || terms[i]["clippedHigh"][t].get<bool>();
    }
  }
  double count = 0, sum_a = 0, sum_lp = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t t = 0; t < in.logp[i].size(); ++t)
      if (mask[i][t] > 0) {
        count += 1;
        sum_a += a[i][t];
        sum_lp += lp[i][t];
      }
  const double mean_a = count > 0 ? sum_a / count : 0, mean_lp = count > 0 ? sum_lp / count : 0;
  Json values = Json::array();
  double cov_sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    Json row = Json::array();
    for (std::size_t t = 0; t < in.logp[i].size(); ++t) {
      const double cov = mask[i][t] > 0 ? (a[i][t] - mean_a) * (lp[i][t] - mean_lp) : 0.0;
      cov_sum += cov;
      row.push_back(encode_number(cov));
    }
    values.push_back(row);
  }
  auto tokens_json = [](const std::vector<verl::Token>& tokens) {
    Json out = Json::array();
    for (const verl::Token& token : tokens) out.push_back(Json::array({token.first, token.second}));
    return out;
  };
  const bool any = count > 0;
  return Json{
      {"values", values},
      {"mean", encode_number(any ? cov_sum / count : 0.0)},
      {"klCovRatio", kl_ratio},
      {"clipCovRatio", clip_ratio},
      {"clipCovLb", lb},
      {"clipCovUb", ub},
      {"klCov", any ? tokens_json(verl::kl_cov_selection(a, lp, mask, kl_ratio, std::nullopt))
                    : Json::array()},
      {"clipCov", any ? tokens_json(verl::clip_cov_selection(a, lp, mask, clipped, clip_ratio, lb,
                                                             ub, std::nullopt))
                      : Json::array()}};
}

double ratio_option(const Json& a, const char* name, double fallback) {
  const double value = number_or(a, name, fallback);
  require_in_range(name, value, 0, 1, Ends::open_low);
  return value;
}

Json keep_inspection(const Json& a) {
  static int next_id = 1;
  reject_unknown_options(a, {"handle", "maxBytes", "applied"});
  Experiment& e = experiment_of(a);
  const double max_bytes = number_or(a, "maxBytes", kDefaultMaxBytes);
  require_integer_in_range("maxBytes", max_bytes, 1, kLargestMaxBytes);
  const bool applied = boolean_or(a, "applied", false);
  require(records().size() < kMaxLiveRecords, [&] {
    return "records: at most " + std::to_string(kMaxLiveRecords) +
           " inspection records may be live at once; dispose() the ones no longer needed";
  });
  auto log = std::make_shared<InspectionLog>(e, static_cast<std::size_t>(max_bytes), applied);
  e.set_observer(log);
  const int id = next_id++;
  records()[id] = std::move(log);
  return Json{{"record", id},
              {"maxBytes", max_bytes},
              {"applied", applied},
              {"from", e.updates_done() + 1}};
}

Json inspection_stats(const InspectionLog& log) {
  return Json{{"bytes", log.bytes()},
              {"maxBytes", log.max_bytes()},
              {"firstKept", log.first_kept()},
              {"lastKept", log.last_kept()},
              {"dropped", log.dropped()}};
}

Json replay(const Json& a) {
  reject_unknown_options(a, {"handle", "to"});
  Experiment& e = experiment_of(a);
  const double to = static_cast<double>(integer(a, "to"));
  require_integer_in_range("to", to, e.updates_done(), e.config().updates);
  Json rows = Json::array();
  while (e.updates_done() < static_cast<int>(to))
    rows.push_back(history_json(e.step(false), e.config().final_eval_samples));
  return Json{{"rows", rows}, {"updatesDone", e.updates_done()}};
}

Json inspection(const Json& a) {
  reject_unknown_options(a, {"record", "update", "klCovRatio", "clipCovRatio"});
  const InspectionLog& log = record_of(a);
  const long long update = integer(a, "update");
  const UpdateRecord* record =
      log.find(static_cast<int>(std::clamp<long long>(update, 0, 1 << 30)));
  require(record != nullptr, [&] {
    return "update: " + std::to_string(update) + " is not kept (kept: " +
           (log.first_kept() > 0
                ? std::to_string(log.first_kept()) + " to " + std::to_string(log.last_kept())
                : std::string("none")) +
           "; an update before them is seen by replaying the run)";
  });
  const ExperimentConfig& config = log.config();
  const VerlTrainOptions& v = config.verl_options;
  const double kl_ratio = ratio_option(a, "klCovRatio", v.kl_cov_ratio);
  const double clip_ratio = ratio_option(a, "clipCovRatio", v.clip_cov_ratio);
  const std::vector<std::string>& vocab = log.vocab();

  // The groups, each row with the index of its kept row (the steps' rows index those).
  Json groups = Json::array();
  int kept_row = 0;
  const std::size_t group = static_cast<std::size_t>(record->group);
  for (std::size_t p = 0; p * group < record->rows.size(); ++p) {
    Json rows = Json::array();
    for (std::size_t g = 0; g < group; ++g) {
      const InspectedRow& r = record->rows[p * group + g];
      Json tokens = Json::array();
      for (int id : r.tokens) tokens.push_back(vocab[static_cast<std::size_t>(id)]);
      rows.push_back(Json{{"tokens", tokens},
                          {"tokenIds", r.tokens},
                          {"text", r.score.text},
                          {"status", status_name(r.score.status)},
                          {"accuracy", r.score.accuracy},
                          {"reward", r.score.reward},
                          {"objectiveReward", r.objective_reward},
                          {"advantage", r.advantage},
                          {"terminated", r.terminated},
                          {"keptRow", record->kept[p] ? kept_row++ : -1}});
    }
    const int prompt_id = record->rows[p * group].prompt_id;
    groups.push_back(Json{{"promptId", prompt_id},
                          {"prompt", log.prompt_text(prompt_id)},
                          {"kept", static_cast<bool>(record->kept[p])},
                          {"rows", rows}});
  }

  Json steps = Json::array();
  double largest = 0;
  for (std::size_t s = 0; s < record->steps.size(); ++s) {
    const InspectedStep& step = record->steps[s];
    const InspectedPart& part = record->parts[static_cast<std::size_t>(step.part)];
    const ObjectiveInputs in = step_inputs(*record, s);
    Json rows = Json::array();
    for (std::size_t j = 0; j < in.logp.size(); ++j)
      rows.push_back(part.rows.empty() ? static_cast<int>(j) : part.rows[j]);
    Json args = objective_args(*record, s);
    Json view = record->verl ? verl_decomposed(config, *record, s) : decomposed(args);
    std::vector<double> advantages(in.logp.size());
    for (std::size_t j = 0; j < advantages.size(); ++j)
      advantages[j] = record->advantages[static_cast<std::size_t>(rows[j].get<int>())];
    view["covariance"] =
        covariance_json(in, advantages, view["terms"], step.objective.mask_truncated, kl_ratio,
                        clip_ratio, v.clip_cov_lb, v.clip_cov_ub);
    for (const Json& row : view["terms"])
      for (const Json& w : row["weight"])
        if (std::isfinite(value_of(w))) largest = std::max(largest, std::abs(value_of(w)));
    view["epoch"] = step.epoch;
    view["part"] = step.part;
    view["rows"] = rows;
    view["advantages"] = advantages;
    view["logProbs"] = rows_json(in.logp);
    view["oldLogProbs"] = in.old_logp ? rows_json(*in.old_logp) : Json(nullptr);
    view["entropies"] = in.entropies ? rows_json(*in.entropies) : Json(nullptr);
    view["objective"] = std::move(args);
    if (!step.applied.empty()) view["applied"] = rows_json(step.applied);
    steps.push_back(std::move(view));
  }
  return Json{{"update", record->update},
              {"engine", record->verl ? "verl" : "trl"},
              {"groupSize", record->group},
              {"groups", groups},
              {"steps", steps},
              {"largestWeight", largest},
              {"bytes", record->bytes},
              {"stats", inspection_stats(log)}};
}

// One step's batch (an inspection's steps[k].objective) under other settings.
Json counterfactual(const Json& a) {
  reject_unknown_options(a, {"batch", "change"});
  const Json& batch = object(a, "batch");
  const Json& change = has(a, "change") ? object(a, "change") : Json::object();
  const std::vector<std::string> changeable = {
      "lossType", "epsHigh", "delta", "importanceSamplingLevel", "vllmImportanceSamplingMode"};
  for (auto it = change.begin(); it != change.end(); ++it)
    if (std::find(changeable.begin(), changeable.end(), it.key()) == changeable.end())
      throw ArgumentTypeError("unknown_option", "change." + it.key(),
                              {{"option", "change." + it.key()}, {"nearest", changeable[0]}},
                              "change." + it.key() +
                                  ": not a setting a counterfactual changes (lossType, epsHigh, "
                                  "delta, importanceSamplingLevel, vllmImportanceSamplingMode)");
  Json changed = batch;
  for (auto it = change.begin(); it != change.end(); ++it) {
    if (it.value().is_null() && it.key() == "delta")
      changed.erase("delta");  // None
    else
      changed[it.key()] = it.value();
  }
  Json original = decomposed(batch, "batch.");
  // The batch was fine, so a fault now is the change's: named there.
  Json other = decomposed(changed, "change.");
  // Which tokens' weights differ, and by how much at most.
  long long differ = 0, tokens = 0;
  double largest = 0;
  const Json& w0 = original["terms"];
  const Json& w1 = other["terms"];
  for (std::size_t i = 0; i < w0.size(); ++i)
    for (std::size_t t = 0; t < w0[i]["weight"].size(); ++t) {
      const double x = value_of(w0[i]["weight"][t]), y = value_of(w1[i]["weight"][t]);
      ++tokens;
      const bool same = x == y || (std::isnan(x) && std::isnan(y));
      differ += same ? 0 : 1;
      if (!same) largest = std::max(largest, std::abs(y - x));
    }
  const double loss_change = value_of(other["loss"]) - value_of(original["loss"]);
  const double norm_change = value_of(other["gradNorm"]) - value_of(original["gradNorm"]);
  return Json{{"original", std::move(original)},
              {"counterfactual", std::move(other)},
              {"lossChange", encode_number(loss_change)},
              {"gradNormChange", encode_number(norm_change)},
              {"tokens", tokens},
              {"tokensChanged", differ},
              {"largestChange", encode_number(largest)}};
}

}  // namespace

void register_inspection_methods(Registry& r) {
  r["experimentKeepInspection"] = keep_inspection;
  r["experimentReplay"] = replay;
  r["inspectionView"] = inspection;
  r["inspectionStats"] = [](const Json& a) {
    reject_unknown_options(a, {"record"});
    return inspection_stats(record_of(a));
  };
  r["inspectionDispose"] = [](const Json& a) {
    reject_unknown_options(a, {"record"});
    const long long id = integer(a, "record");
    auto found = records().find(static_cast<int>(std::clamp<long long>(id, 0, 1LL << 31)));
    if (found == records().end() || id < 1 || id > 2147483647) return Json{{"disposed", false}};
    found->second->close();  // an experiment still running stops recording into it
    records().erase(found);
    return Json{{"disposed", true}};
  };
  r["liveInspections"] = [](const Json&) { return Json(records().size()); };
  r["grpoCounterfactual"] = counterfactual;
}

}  // namespace grpo::api
