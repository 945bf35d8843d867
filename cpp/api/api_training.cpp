// JSON API methods for notebook sections 6-8: prompts, the stepwise experiment, rollouts,
// teacher-forced log-probs and checkpoints.
#include <cmath>
#include <map>
#include <memory>
#include <set>

#include "api/api.h"
#include "api/api_config.h"
#include "api/api_coverage.h"
#include "api/api_experiments.h"
#include "core/errors.h"
#include "core/interrupt.h"
#include "rl/checkpoint.h"
#include "rl/task.h"
#include "rl/trainer.h"

namespace grpo::api {
namespace {

constexpr int kMaxLiveExperiments = 8;  // each holds a policy, a reference and Adam moments

// Integer arguments of arithmeticPrompts, clamped to fit int; arithmetic_prompts names the range.
int small_int(const Json& a, const char* name, int fallback) {
  const long long value = integer_or(a, name, fallback);
  return value > 1000000000LL    ? 1000000001
         : value < -1000000000LL ? -1000000001
                                 : static_cast<int>(value);
}

// --- results -----------------------------------------------------------------------------

Json prompt_json(const Prompt& p) {
  return Json{{"id", p.id},
              {"text", p.text},
              {"answer", p.answer},
              {"split", p.split},
              {"tokens", p.tokens}};
}

Json prompts_json(const std::vector<Prompt>& prompts) {
  Json out = Json::array();
  for (const Prompt& p : prompts) out.push_back(prompt_json(p));
  return out;
}

Json metrics_json(const GenerationMetrics& m) {
  return Json{{"accuracy", m.accuracy},
              {"meanReward", m.mean_reward},
              {"meanLength", m.mean_length},
              {"entropy", m.entropy},
              {"teacherForcedKl", m.teacher_forced_kl},
              {"passAt4", encode_number(m.pass_at_4)}};
}

Json answer_bins_json(const std::vector<AnswerBin>& bins) {
  Json out = Json::array();
  for (const AnswerBin& b : bins) {
    Json bin{{"kind", b.kind}, {"count", b.count}};
    if (!b.answer.empty()) bin["answer"] = b.answer;
    out.push_back(bin);
  }
  return out;
}

Json by_prompt_json(const std::vector<Prompt>& prompts, const GenerationMetrics& m) {
  Json out = Json::array();
  for (std::size_t i = 0; i < prompts.size() && i < m.by_prompt.size(); ++i) {
    Json row{
        {"promptId", prompts[i].id}, {"prompt", prompts[i].text}, {"accuracy", m.by_prompt[i]}};
    // The answers' histogram (section 8's panel): outside the metrics the pins hash.
    if (i < m.by_prompt_answers.size()) row["answers"] = answer_bins_json(m.by_prompt_answers[i]);
    out.push_back(row);
  }
  return out;
}

// Section 8's length histogram of one evaluation (issue 23): per length 0 .. maxNewTokens, the
// samples of that length that were correct and incorrect. Outside the metrics the pins hash.
Json length_histogram_json(const GenerationMetrics& m) {
  return Json{{"correct", m.length_correct}, {"incorrect", m.length_incorrect}};
}

}  // namespace

// One history row; `samples`: the run's finalEvalSamples (passAtKEvery's pass@k columns).
Json history_json(const HistoryRow& r, long long samples) {
  Json out{{"update", r.update},
           {"evalAccuracy", r.eval_accuracy},
           {"evalEntropy", r.eval_entropy},
           {"informativeFraction", r.informative_fraction},
           {"discardedFraction", r.discarded_fraction},
           {"ratioMin", encode_number(r.ratio_min)},
           {"ratioMean", encode_number(r.ratio_mean)},
           {"ratioMax", encode_number(r.ratio_max)},
           {"clipFractionLow", r.clip_fraction_low},
           {"clipFractionHigh", r.clip_fraction_high},
           {"clipFractionRegion", r.clip_fraction_region},
           {"kl", encode_number(r.kl)},
           {"loss", encode_number(r.loss)},
           {"gradNorm", encode_number(r.grad_norm)},
           {"meanReward", r.mean_reward},
           {"accuracy", r.accuracy},
           {"meanLength", r.mean_length},
           {"truncatedFraction", r.truncated_fraction},
           {"entropy", r.entropy},
           {"samplerEntropy", r.sampler_entropy},
           {"clipRatioLowMin", r.clip_ratio_low_min},
           {"clipRatioHighMax", r.clip_ratio_high_max},
           {"fracRewardZeroStd", r.frac_reward_zero_std},
           {"minLength", r.min_length},
           {"maxLength", r.max_length},
           {"cispoClipRatio", r.cispo_clip_ratio},
           {"entropyCoef", r.entropy_coef},
           {"correctnessInformativeFraction", r.correctness_informative_fraction}};
  for (const auto& [name, value] : r.verl) out[name] = encode_number(value);  // engine verl
  if (r.has_sampler) {  // TRL's sampling/* exist only with a separate sampler
    out["samplingRatioMin"] = encode_number(r.sampling_ratio_min);
    out["samplingRatioMean"] = encode_number(r.sampling_ratio_mean);
    out["samplingRatioMax"] = encode_number(r.sampling_ratio_max);
    out["samplingLogpDifferenceMean"] = encode_number(r.sampling_logp_difference_mean);
    out["samplingLogpDifferenceMax"] = encode_number(r.sampling_logp_difference_max);
  }
  // Issue 23: absent when the generation has no such completion, or the update logs no pass@k.
  if (std::isfinite(r.mean_length_correct)) out["meanLengthCorrect"] = r.mean_length_correct;
  if (std::isfinite(r.mean_length_incorrect)) out["meanLengthIncorrect"] = r.mean_length_incorrect;
  add_pass_at_k_columns(out, "train", r.pass_at_k_train, samples);
  add_pass_at_k_columns(out, "heldout", r.pass_at_k_heldout, samples);
  if (r.has_entropy_mechanism) {  // entropyMechanism on (trainer.h); absent otherwise
    out["probeEntropy"] = encode_number(r.probe_entropy);
    out["probeEntropyChange"] = encode_number(r.probe_entropy_change);
    out["probeEntropyPrediction"] = encode_number(r.probe_entropy_prediction);
    out["stepNorm"] = encode_number(r.step_norm);
    out["logpAdvantageCov"] = encode_number(r.logp_advantage_cov);
  }
  return out;
}

namespace {

Json checkpoint_json(Experiment& e) {
  return export_checkpoint(
      e.policy(), e.vocab().tokens,
      Json{{"temperature", e.config().temperature}, {"experiment", config_json(e.config())}});
}

Json result_json(Experiment& e) {
  Json history = Json::array();
  for (const HistoryRow& row : e.history())
    history.push_back(history_json(row, e.config().final_eval_samples));
  // format and version: what importRun (api_run.cpp) checks when a page loads a saved run.
  Json out{{"format", "grpo-lab-run"},
           {"version", 1},
           {"config", config_json(e.config())},
           {"vocab", e.vocab().tokens},
           {"prompts", prompts_json(e.prompts())},
           {"beforeTrain", metrics_json(e.before_train())},
           {"beforeHeldout", metrics_json(e.before_heldout())},
           {"afterTrain", metrics_json(e.after_train())},
           {"afterHeldout", metrics_json(e.after_heldout())},
           {"history", history},
           {"updatesDone", e.updates_done()},
           {"beforeTrainByPrompt", by_prompt_json(e.train(), e.before_train())},
           {"afterTrainByPrompt", by_prompt_json(e.train(), e.after_train())},
           {"beforeHeldoutByPrompt", by_prompt_json(e.heldout(), e.before_heldout())},
           {"afterHeldoutByPrompt", by_prompt_json(e.heldout(), e.after_heldout())},
           {"checkpoint", checkpoint_json(e)}};
  out["coverage"] = run_coverage_json(out, e.config().final_eval_samples);
  out["lengthHistogram"] = Json{{"before", length_histogram_json(e.before_train())},
                                {"after", length_histogram_json(e.after_train())}};
  out["warnings"] = warnings_json(e.config());  // from the config alone, as importRun's
  return out;
}

Json rollout_row_json(const RolloutRow& row, const Vocab& vocab, const std::string& version) {
  Json tokens = Json::array();
  for (int id : row.tokens) tokens.push_back(vocab.tokens[id]);
  return Json{{"promptId", row.prompt_id},
              {"responseTokens", tokens},
              {"responseTokenIds", row.tokens},
              {"responseText", row.score.text},
              {"reward", row.score.reward},
              {"rewardComponents",
               {{"correctness", row.score.correctness},
                {"format", row.score.format},
                {"overlong", row.score.overlong}}},
              {"accuracy", row.score.accuracy},
              {"status", status_name(row.score.status)},
              {"length", row.tokens.size()},
              {"terminated", row.terminated},
              {"oldLogProbs", row.old_logp},
              {"entropies", row.entropy},
              {"advantage", row.advantage},
              {"generatorVersion", version}};
}

// --- live experiments --------------------------------------------------------------------

std::map<int, std::unique_ptr<Experiment>>& experiments() {
  static std::map<int, std::unique_ptr<Experiment>> live;
  return live;
}

// Experiments a step or finish of which was interrupted (core/interrupt.h): left mid-update, they
// answer nothing but dispose.
std::set<int>& interrupted() {
  static std::set<int> handles;
  return handles;
}

// Runs a long call on the experiment `handle`; an interruption marks it before it goes on.
template <typename Fn>
Json marked_if_interrupted(const Json& a, Fn fn) {
  try {
    return fn(experiment_of(a));
  } catch (const Interrupted&) {
    interrupted().insert(static_cast<int>(integer(a, "handle")));
    throw;
  }
}

}  // namespace

Experiment& experiment_of(const Json& a) {
  const long long handle = integer(a, "handle");
  require(handle >= 1 && handle <= 2147483647, [&] {
    return "handle: must be an integer in [1, 2147483647], got " + std::to_string(handle);
  });
  auto found = experiments().find(static_cast<int>(handle));
  require(found != experiments().end(), [&] {
    return "handle: no live experiment " + std::to_string(handle) + " (disposed or never created)";
  });
  require(!interrupted().count(static_cast<int>(handle)), [&] {
    return "handle: experiment " + std::to_string(handle) +
           " was interrupted inside an update; dispose it";
  });
  return *found->second;
}

namespace {

Json experiment_create(const Json& a) {
  static int next_handle = 1;
  require(experiments().size() < kMaxLiveExperiments, [&] {
    return "experiments: at most " + std::to_string(kMaxLiveExperiments) +
           " may be live at once; dispose() finished ones";
  });
  auto experiment = std::make_unique<Experiment>(read_config(a));
  const int handle = next_handle++;
  Experiment& e = *experiment;
  experiments()[handle] = std::move(experiment);
  return Json{{"handle", handle},
              {"config", config_json(e.config())},
              {"vocab", e.vocab().tokens},
              {"prompts", prompts_json(e.prompts())},
              {"beforeTrain", metrics_json(e.before_train())},
              {"beforeHeldout", metrics_json(e.before_heldout())},
              {"beforeTrainByPrompt", by_prompt_json(e.train(), e.before_train())},
              {"beforeHeldoutByPrompt", by_prompt_json(e.heldout(), e.before_heldout())},
              {"lengthHistogram", {{"before", length_histogram_json(e.before_train())}}}};
}

Json experiment_step(const Json& a) {
  return marked_if_interrupted(a, [&](Experiment& e) {
    const long long count = integer_or(a, "count", 1);
    require(count >= 1 && count <= 100000, [&] {
      return "count: must be an integer in [1, 100000], got " + std::to_string(count);
    });
    Json rows = Json::array();
    for (long long i = 0; i < count && !e.done(); ++i)
      rows.push_back(history_json(e.step(), e.config().final_eval_samples));
    return Json{{"rows", rows}, {"done", e.done()}, {"updatesDone", e.updates_done()}};
  });
}

Json experiment_finish(const Json& a) {
  return marked_if_interrupted(a, [&](Experiment& e) {
    if (!e.finished()) e.finish();
    return result_json(e);
  });
}

Json experiment_dispose(const Json& a) {
  const long long handle = integer(a, "handle");
  // A handle beyond int would wrap onto another experiment's number: it names none.
  const bool in_range = handle >= 1 && handle <= 2147483647;
  if (in_range) interrupted().erase(static_cast<int>(handle));
  return Json{{"disposed", in_range && experiments().erase(static_cast<int>(handle)) == 1}};
}

// --- stateless methods -------------------------------------------------------------------

Json arithmetic_prompts_method(const Json& a) {
  PromptOptions options;
  const long long seed = integer_or(a, "seed", 9);
  require(seed >= 0,
          [&] { return "seed: must be an integer in [0, 2^53], got " + std::to_string(seed); });
  options.seed = static_cast<std::uint64_t>(seed);
  options.max_operand = small_int(a, "maxOperand", options.max_operand);
  options.train_size = small_int(a, "trainSize", options.train_size);
  options.heldout_size = small_int(a, "heldoutSize", options.heldout_size);
  options.operations = string_or(a, "operations", options.operations);
  options.allow_negative = boolean_or(a, "allowNegative", options.allow_negative);
  return prompts_json(arithmetic_prompts(options));
}

// Prompts given by the caller: objects with text (and id, answer); validated through the vocab.
std::vector<Prompt> read_prompts(const Json& a, const Task& task) {
  const Json& list = a.contains("prompts") ? a["prompts"] : Json();
  if (!list.is_array() || list.empty())
    throw ArgumentTypeError("prompts: must be a non-empty array of prompt objects");
  require(list.size() <= 1000, [&] {
    return "prompts: must hold at most 1000 prompts, got " + std::to_string(list.size());
  });
  std::vector<Prompt> prompts;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = "prompts[" + std::to_string(i) + "]";
    if (!list[i].is_object()) throw ArgumentTypeError(name + ": must be an object");
    Prompt p = task.parse_prompt(string(list[i], "text"));
    p.id = static_cast<int>(integer_or(list[i], "id", static_cast<long long>(i)));
    p.split = string_or(list[i], "split", "train");
    prompts.push_back(std::move(p));
  }
  return prompts;
}

Json collect_rollouts_method(const Json& a) {
  Checkpoint<float> checkpoint = import_checkpoint<float>(object(a, "checkpoint"));
  ExperimentConfig config = read_config(has(a, "config") ? object(a, "config") : Json::object());
  const Task& task = task_of(config.task);
  const Vocab& vocab = task.vocab();
  require(checkpoint.vocab == vocab.tokens, [&] {
    return "checkpoint.vocab: must be the " + task_names()[static_cast<int>(config.task)] +
           " task's vocabulary";
  });
  std::vector<Prompt> all = read_prompts(a, task);
  std::vector<Prompt> train;
  for (const Prompt& p : all)
    if (p.split == "train") train.push_back(p);
  if (train.empty()) train = all;
  const long long seed = integer_or(a, "seed", static_cast<long long>(config.seed));
  require(seed >= 0,
          [&] { return "seed: must be an integer in [0, 2^53], got " + std::to_string(seed); });
  Rng rng(static_cast<std::uint64_t>(seed));
  // The prompt batch: promptBatch distinct prompts drawn with the generator, as the notebook does.
  std::vector<Prompt> chosen;
  std::vector<std::size_t> order(train.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  const std::size_t count = std::min<std::size_t>(config.prompt_batch, order.size());
  for (std::size_t i = 0; i < count; ++i) {
    std::swap(order[i], order[i + rng.below(order.size() - i)]);
    chosen.push_back(train[order[i]]);
  }
  config.temperature = checkpoint.temperature;
  const RolloutBatch batch = collect_rollouts(checkpoint.policy, vocab, chosen, config, rng);
  const std::string version = string_or(a, "generatorVersion", "");
  Json groups = Json::array();
  for (const auto& group : batch.groups) {
    Json rows = Json::array();
    for (const RolloutRow& row : group) rows.push_back(rollout_row_json(row, vocab, version));
    groups.push_back(rows);
  }
  return Json{{"groups", groups},
              {"discardedFraction", batch.discarded_fraction},
              {"informativeFraction", batch.informative_fraction},
              {"correctnessInformativeFraction", batch.correctness_informative_fraction},
              {"generatorVersion", version},
              {"prompts", prompts_json(chosen)}};
}

Json teacher_forced_method(const Json& a) {
  Checkpoint<float> checkpoint = import_checkpoint<float>(object(a, "checkpoint"));
  const Json& list = a.contains("sequences") ? a["sequences"] : Json();
  if (!list.is_array()) throw ArgumentTypeError("sequences: must be an array of token-id arrays");
  TokenRows sequences;
  const int vocab_size = static_cast<int>(checkpoint.vocab.size());
  // Work memory grows with tokens x (vocab, hidden): logits, log-probs and gradients per token
  // in double and float, GRU states and gates. Bounded (docs/limits.md) before anything is read.
  const GruDims& dims = checkpoint.policy.dims();
  const std::size_t bytes_per_token =
      32 * static_cast<std::size_t>(dims.vocab) + 40 * static_cast<std::size_t>(dims.hidden) + 64;
  const std::size_t max_tokens = (std::size_t{256} << 20) / bytes_per_token;
  std::size_t total_tokens = 0;
  for (const Json& row : list) total_tokens += row.is_array() ? row.size() : 0;
  require(total_tokens <= max_tokens, [&] {
    return "sequences: must hold at most " + std::to_string(max_tokens) +
           " tokens in all for a checkpoint with vocab " + std::to_string(dims.vocab) +
           " and hidden " + std::to_string(dims.hidden) + " (256 MiB of work memory), got " +
           std::to_string(total_tokens);
  });
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = "sequences[" + std::to_string(i) + "]";
    Json wrapper{{name, list[i]}};
    std::vector<int> ids;
    for (long long id : integers(wrapper, name.c_str())) {
      require(id >= 0 && id < vocab_size, [&] {
        return name + ": token ids must be in [0, " + std::to_string(vocab_size - 1) + "], got " +
               std::to_string(id);
      });
      ids.push_back(static_cast<int>(id));
    }
    require(!ids.empty(), [&] { return name + ": must hold at least one token"; });
    sequences.push_back(std::move(ids));
  }
  const bool gradients = boolean_or(a, "gradients", false);
  checkpoint.policy.zero_grad();
  const auto log_probs =
      checkpoint.policy.teacher_forced_log_probs(sequences, checkpoint.temperature, gradients);
  Json out{{"logProbs", log_probs}};
  out["gradients"] =
      gradients ? tensors_to_json(checkpoint.policy, checkpoint.policy.grads()) : Json(nullptr);
  return out;
}

}  // namespace

void register_training_methods(Registry& r) {
  r["arithmeticPrompts"] = arithmetic_prompts_method;
  r["experimentCreate"] = experiment_create;
  r["experimentStep"] = experiment_step;
  r["experimentFinish"] = experiment_finish;
  r["experimentDispose"] = experiment_dispose;
  r["liveExperiments"] = [](const Json&) { return Json(experiments().size()); };
  r["collectRollouts"] = collect_rollouts_method;
  r["teacherForcedLogProbs"] = teacher_forced_method;
}

}  // namespace grpo::api
