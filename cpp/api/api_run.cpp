// JSON API method importRun: validates a run exported by runToyGrpoExperiment / experimentFinish
// (format "grpo-lab-run", version 1) so a page can show it again without retraining, and returns
// it normalized: only known fields, every string from a closed set, re-derived (prompt texts are
// re-parsed) or a short plain label (source, status), every number checked, the config re-read
// with the experiment's own reader and the checkpoint (optional) re-imported and re-exported.
// Time and memory are linear in the input (docs/limits.md).
//
// The field list follows result_json in api_training.cpp; the round-trip test in
// tests/node/run-import.test.mjs fails when the exporter gains a field this file does not know.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "api/api.h"
#include "api/api_config.h"
#include "api/api_coverage.h"
#include "core/errors.h"
#include "rl/arithmetic_task.h"
#include "rl/checkpoint.h"
#include "rl/config_fields.h"
#include "rl/task.h"

namespace grpo::api {
namespace {

constexpr const char* kRunFormat = "grpo-lab-run";
constexpr int kRunVersion = 1;
constexpr std::size_t kMaxHistoryRows = 100000;
constexpr std::size_t kMaxRunPrompts = 1000;
constexpr std::size_t kMaxLabelBytes = 32;  // run.source, run.status

// The member `key` of `object`; `path` names the object ("run.history[3]").
const Json& member(const Json& object, const std::string& path, const char* key) {
  return api::member(object, path, key);
}

// Like member(), but a null value is kept: fields that may be NaN or infinite (read as NaN, since
// JSON.stringify writes them as null), still required to be present.
const Json& special_member(const Json& object, const std::string& path, const char* key) {
  return api::member(object, path, key, /*allow_null=*/true);
}

// How a number field may look: finite within [low, high], or (special) also NaN / +-Infinity
// in the API's {"$number": ...} encoding, as the exporter writes ratios, kl, loss and gradNorm.
struct Range {
  double low, high;
  bool special = false;
};
constexpr double kHuge = 1.0e300;
constexpr Range kFraction{0.0, 1.0};
constexpr Range kNonNegative{0.0, kHuge};
constexpr Range kAny{-kHuge, kHuge};
constexpr Range kSpecial{-kHuge, kHuge, true};

// "path.key" (or "path" when key is null), built only when an error needs it.
std::string join(const std::string& path, const char* key) {
  return key ? path + "." + key : path;
}

double number_at(const Json& value, const std::string& path, const char* key, const Range& range) {
  if (range.special && value.is_null()) return std::nan("");  // JSON.stringify(NaN) is null
  const std::string what = join(path, key);
  const double x = as_number(value, what);
  if (range.special && !std::isfinite(x)) return x;
  if (range.low == -kHuge && range.high == kHuge)
    require_finite(what, x);
  else if (range.high == kHuge)
    require_at_least(what, x, range.low);
  else
    require_in_range(what, x, range.low, range.high, Ends::closed, "a number");
  return x;
}

long long integer_at(const Json& value, const std::string& path, const char* key, long long low,
                     long long high) {
  const std::string what = join(path, key);
  const double x = as_number(value, what);
  require_integer_in_range(what, x, static_cast<double>(low), static_cast<double>(high));
  return static_cast<long long>(x);
}

const std::string& string_at(const Json& value, const std::string& path, const char* key,
                             std::size_t max_bytes = kMaxStringBytes) {
  return as_string(value, join(path, key), max_bytes);
}

// "what: must be <expected>, got <got>" (code "must_equal"); `why` (English, may be empty) says
// why in the message only.
[[noreturn]] void throw_must_equal(const std::string& what, const std::string& expected,
                                   const std::string& got, const std::string& why = "") {
  throw InvalidArgument(
      "must_equal", what, {{"expected", expected}, {"got", got}},
      what + ": must be " + expected + (why.empty() ? "" : " (" + why + ")") + ", got " + got);
}

// Re-throws an error of a nested reader (config, checkpoint) with `prefix` before its field name
// (in the field and the message; the code and parameters stay).
template <typename Fn>
auto prefixed(const std::string& prefix, Fn&& fn) -> decltype(fn()) {
  try {
    return fn();
  } catch (const ArgumentTypeError& e) {
    throw ArgumentTypeError(e.code(), prefix + e.field(), e.params(), prefix + e.what());
  } catch (const InvalidArgument& e) {
    throw InvalidArgument(e.code(), prefix + e.field(), e.params(), prefix + e.what());
  }
}

// --- the parts of a run ------------------------------------------------------------------

struct RunContext;
double max_reward(const RunContext& context);
double min_reward(const RunContext& context);

struct RunContext {
  Json config;  // normalized (experimentConfig's output)
  int max_new_tokens = 0;
  int max_operand = 0;
  TaskKind task = TaskKind::Arithmetic;  // the config's
  std::vector<Prompt> prompts;           // in run order
};

// Rewards are correctness + formatWeight * format, so means lie in [0, 1 + formatWeight] (with
// room for the rounding of a mean).
double max_reward(const RunContext& context) {
  const Json& c = context.config;
  return (c["correctnessWeight"].get<double>() + c["formatWeight"].get<double>()) * (1.0 + 1e-9);
}

// The soft overlong punishment is <= 0: the lowest mean reward is -overlongWeight.
double min_reward(const RunContext& context) {
  return -context.config["overlongWeight"].get<double>() * (1.0 + 1e-9);
}

Json read_run_config(const Json& run, RunContext& context) {
  const Json& config = as_object(member(run, "run", "config"), "run.config");
  // The experiment's own reader (profile defaults, known keys, ranges), its errors under
  // "run.config." with their code and parameters.
  context.config = prefixed("run.config.", [&] { return config_json(read_config(config)); });
  context.max_new_tokens = context.config["maxNewTokens"].get<int>();
  context.max_operand = context.config["maxOperand"].get<int>();
  context.task = static_cast<TaskKind>(
      option_index(field("task"), context.config["task"].get_ref<const std::string&>()));
  return context.config;
}

// The tokens of the task's vocabulary, as the messages name them.
std::string vocab_text(TaskKind task) {
  return task == TaskKind::Scratch ? "0-9 + - = / ? <eos> ; >" : "0-9 + - = / ? <eos>";
}

Json read_vocab(const Json& run, const RunContext& context) {
  const Json& vocab = as_array(member(run, "run", "vocab"), "run.vocab", kMaxRunPrompts);
  const std::vector<std::string>& expected = task_of(context.task).vocab().tokens;
  bool same = vocab.size() == expected.size();
  for (std::size_t i = 0; same && i < vocab.size(); ++i)
    same = vocab[i].is_string() && vocab[i].get_ref<const std::string&>() == expected[i];
  if (!same)
    throw InvalidArgument("must_equal", "run.vocab",
                          {{"expected", vocab_text(context.task)}, {"got", typed_text(vocab)}},
                          "run.vocab: must be the " + task_names()[static_cast<int>(context.task)] +
                              " task's " + std::to_string(expected.size()) + " tokens (" +
                              vocab_text(context.task) + ")");
  return Json(expected);
}

Json read_prompts(const Json& run, RunContext& context) {
  const Json& list = as_array(member(run, "run", "prompts"), "run.prompts", kMaxRunPrompts);
  const Task& task = task_of(context.task);
  const int train_expected = context.config["trainPrompts"].get<int>();
  const int heldout_expected = context.config["heldoutPrompts"].get<int>();
  if (list.size() != static_cast<std::size_t>(train_expected + heldout_expected))
    throw InvalidArgument("same_length", "run.prompts",
                          {{"other", "trainPrompts + heldoutPrompts"},
                           {"expected", static_cast<double>(train_expected + heldout_expected)},
                           {"got", static_cast<double>(list.size())}},
                          "run.prompts: must hold trainPrompts + heldoutPrompts = " +
                              std::to_string(train_expected + heldout_expected) +
                              " prompts (run.config), got " + std::to_string(list.size()));
  Json out = Json::array();
  std::set<std::string> seen;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "run.prompts[" + std::to_string(i) + "]";
    const Json& item = as_object(list[i], path);
    const long long id = integer_at(member(item, path, "id"), path, "id", 0,
                                    static_cast<long long>(list.size()) - 1);
    if (id != static_cast<long long>(i))
      throw_must_equal(path + ".id", std::to_string(i), std::to_string(id),
                       "prompt ids are their positions");
    const std::string& text = string_at(member(item, path, "text"), path, "text");
    Prompt p = prefixed(path + ".", [&] { return task.parse_prompt(text); });
    if (context.task != TaskKind::Scratch &&
        (p.a > context.max_operand || p.b > context.max_operand))
      throw InvalidArgument("integer_range", path + ".text",
                            {{"min", 0.0},
                             {"max", static_cast<double>(context.max_operand)},
                             {"got", static_cast<double>(std::max(p.a, p.b))}},
                            path + ".text: operands must be at most maxOperand (" +
                                std::to_string(context.max_operand) + "), got '" + p.text + "'");
    if (!seen.insert(p.text).second)
      throw InvalidArgument("duplicate", path + ".text", {{"got", p.text}},
                            path + ".text: '" + p.text + "' appears twice (problems are distinct)");
    if (string_at(member(item, path, "answer"), path, "answer") != p.answer)
      throw_must_equal(path + ".answer", "'" + p.answer + "'",
                       "'" + short_text(item["answer"].get<std::string>()) + "'",
                       "the answer to '" + p.text + "'");
    const std::string& split = string_at(member(item, path, "split"), path, "split");
    require_one_of(path + ".split", split, {"train", "heldout"});
    if (item.contains("tokens") && item["tokens"] != Json(p.tokens))
      throw_must_equal(
          path + ".tokens",
          "the " + task_names()[static_cast<int>(context.task)] + " encoding of '" + p.text + "'",
          typed_text(item["tokens"]));
    p.id = static_cast<int>(id);
    p.split = split;
    out.push_back(Json{{"id", p.id},
                       {"text", p.text},
                       {"answer", p.answer},
                       {"split", p.split},
                       {"tokens", p.tokens}});
    context.prompts.push_back(std::move(p));
  }
  int train = 0;
  for (const Prompt& p : context.prompts) train += p.split == "train" ? 1 : 0;
  if (train != train_expected)
    throw InvalidArgument(
        "must_equal", "run.prompts",
        {{"expected", static_cast<double>(train_expected)}, {"got", static_cast<double>(train)}},
        "run.prompts: must hold trainPrompts = " + std::to_string(train_expected) +
            " prompts with split 'train' (run.config), got " + std::to_string(train));
  return out;
}

Json read_metrics(const Json& run, const char* key, const RunContext& context) {
  const std::string path = std::string("run.") + key;
  const Json& m = as_object(member(run, "run", key), path);
  const Range length{0.0, static_cast<double>(context.max_new_tokens)};
  const Range reward{min_reward(context), max_reward(context)};
  Json out;
  out["accuracy"] = number_at(member(m, path, "accuracy"), path, "accuracy", kFraction);
  out["meanReward"] = number_at(member(m, path, "meanReward"), path, "meanReward", reward);
  out["meanLength"] = number_at(member(m, path, "meanLength"), path, "meanLength", length);
  out["entropy"] = number_at(member(m, path, "entropy"), path, "entropy", kNonNegative);
  out["teacherForcedKl"] =
      number_at(member(m, path, "teacherForcedKl"), path, "teacherForcedKl", kAny);
  const Json& pass = special_member(m, path, "passAt4");
  const double pass_at_4 = number_at(pass, path, "passAt4", Range{0.0, 1.0, true});
  if (!std::isfinite(pass_at_4) && !std::isnan(pass_at_4))
    throw InvalidArgument(
        "range", path + ".passAt4",
        {{"min", 0.0}, {"max", 1.0}, {"interval", "[0, 1]"}, {"got", pass_at_4}},
        path + ".passAt4: must be a number in [0, 1] or NaN, got " + format_number(pass_at_4));
  out["passAt4"] = encode_number(pass_at_4);
  return out;
}

constexpr std::size_t kMaxAnswerBins = 16;  // a row's answers (the core writes at most 6)

// A by-prompt row's optional answer histogram (api_training.cpp answer_bins_json): bins of a
// verifier status or "other", the correct bin first with the row's successes, counts summing to
// the samples per prompt.
Json read_answers(const Json& row, const std::string& row_path, const Prompt& p,
                  long long successes, const RunContext& context) {
  const std::string path = row_path + ".answers";
  const long long samples = context.config["finalEvalSamples"].get<long long>();
  const Json& list = as_array(row["answers"], path, kMaxAnswerBins);
  Json out = Json::array();
  long long total = 0;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = path + "[" + std::to_string(i) + "]";
    const Json& bin = as_object(list[i], at);
    const std::string& kind = string_at(member(bin, at, "kind"), at, "kind", 16);
    const bool first = i == 0;
    if (first != (kind == "correct"))
      throw_must_equal(at + ".kind", first ? "'correct'" : "not 'correct'", "'" + kind + "'",
                       "the correct answer's bin comes first, once");
    static const char* const kinds[] = {"correct", "incorrect", "no_answer",
                                        "invalid", "truncated", "other"};
    if (std::find(std::begin(kinds), std::end(kinds), kind) == std::end(kinds))
      throw_must_equal(at + ".kind",
                       "one of correct, incorrect, no_answer, invalid, truncated, other",
                       "'" + short_text(kind) + "'");
    const long long count = integer_at(member(bin, at, "count"), at, "count", 0, samples);
    if (first && count != successes)
      throw_must_equal(at + ".count", std::to_string(successes), std::to_string(count),
                       "the row's accuracy times " + std::to_string(samples) + " samples");
    total += count;
    Json kept{{"kind", kind}, {"count", count}};
    if (kind == "correct") {
      if (string_at(member(bin, at, "answer"), at, "answer") != p.answer)
        throw_must_equal(at + ".answer", "'" + p.answer + "'",
                         "'" + short_text(bin["answer"].get<std::string>()) + "'",
                         "the prompt's answer");
      kept["answer"] = p.answer;
    } else if (kind == "incorrect") {
      kept["answer"] = string_at(member(bin, at, "answer"), at, "answer");
    }
    out.push_back(kept);
  }
  if (list.empty() || total != samples)
    throw_must_equal(path, "bins whose counts sum to " + std::to_string(samples),
                     std::to_string(total), "finalEvalSamples");
  return out;
}

// Section 8's optional length histogram (api_training.cpp length_histogram_json; runs saved
// before issue 23 have none): per evaluation of the train prompts (before, after), the samples
// of each length 0 .. maxNewTokens, correct and incorrect apart, summing to the prompts x
// finalEvalSamples of the evaluation, and the correct ones to its accuracy's count.
Json read_length_histogram(const Json& run, const RunContext& context, const Json& metrics) {
  const std::string path = "run.lengthHistogram";
  const Json& block = as_object(run["lengthHistogram"], path);
  const long long samples = context.config["finalEvalSamples"].get<long long>();
  const long long rows = samples * context.config["trainPrompts"].get<long long>();
  const std::size_t lengths = static_cast<std::size_t>(context.max_new_tokens) + 1;
  Json out = Json::object();
  for (const char* phase : {"before", "after"}) {
    if (!block.contains(phase)) continue;
    const std::string at = path + "." + phase;
    const Json& part = as_object(block[phase], at);
    long long total = 0, correct = 0;
    Json kept = Json::object();
    for (const char* kind : {"correct", "incorrect"}) {
      const std::string list_path = at + "." + kind;
      const Json& list = as_array(member(part, at, kind), list_path, lengths);
      if (list.size() != lengths)
        throw InvalidArgument(
            "size", list_path,
            {{"expected", static_cast<double>(lengths)}, {"got", static_cast<double>(list.size())}},
            list_path + ": must have maxNewTokens + 1 = " + std::to_string(lengths) +
                " entries, got " + std::to_string(list.size()));
      Json counts = Json::array();
      for (std::size_t i = 0; i < list.size(); ++i) {
        const long long n =
            integer_at(list[i], list_path + "[" + std::to_string(i) + "]", nullptr, 0, rows);
        total += n;
        if (std::string(kind) == "correct") correct += n;
        counts.push_back(n);
      }
      kept[kind] = counts;
    }
    if (total != rows)
      throw_must_equal(
          at, "counts summing to trainPrompts x finalEvalSamples = " + std::to_string(rows),
          std::to_string(total));
    const double accuracy = metrics[std::string(phase) + "Train"]["accuracy"].get<double>();
    if (correct != std::llround(accuracy * static_cast<double>(rows)))
      throw_must_equal(at + ".correct",
                       "counts summing to the " + std::string(phase) + "Train accuracy's " +
                           std::to_string(std::llround(accuracy * static_cast<double>(rows))),
                       std::to_string(correct));
    out[phase] = kept;
  }
  return out;
}

Json read_by_prompt(const Json& run, const char* key, const char* split,
                    const RunContext& context) {
  const std::string path = std::string("run.") + key;
  std::vector<const Prompt*> expected;
  for (const Prompt& p : context.prompts)
    if (p.split == split) expected.push_back(&p);
  const Json& list = as_array(member(run, "run", key), path, kMaxRunPrompts);
  if (list.size() != expected.size())
    throw InvalidArgument("must_equal", path,
                          {{"expected", static_cast<double>(expected.size())},
                           {"got", static_cast<double>(list.size())}},
                          path + ": must hold one row per " + split + " prompt (" +
                              std::to_string(expected.size()) + "), got " +
                              std::to_string(list.size()));
  Json out = Json::array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string row_path = path + "[" + std::to_string(i) + "]";
    const Json& row = as_object(list[i], row_path);
    const Prompt& p = *expected[i];
    const long long id = integer_at(member(row, row_path, "promptId"), row_path, "promptId", 0,
                                    static_cast<long long>(kMaxRunPrompts));
    if (id != p.id)
      throw InvalidArgument(
          "must_equal", row_path + ".promptId",
          {{"expected", static_cast<double>(p.id)}, {"got", static_cast<double>(id)}},
          row_path + ".promptId: must be " + std::to_string(p.id) + " (" + split + " prompt #" +
              std::to_string(i) + "), got " + std::to_string(id));
    if (string_at(member(row, row_path, "prompt"), row_path, "prompt") != p.text)
      throw InvalidArgument(
          "must_equal", row_path + ".prompt",
          {{"expected", p.text}, {"got", short_text(row["prompt"].get<std::string>())}},
          row_path + ".prompt: must be '" + p.text + "' (prompt " + std::to_string(p.id) + ")");
    const double accuracy =
        number_at(member(row, row_path, "accuracy"), row_path, "accuracy", kFraction);
    Json kept{{"promptId", p.id}, {"prompt", p.text}, {"accuracy", accuracy}};
    // Optional: runs saved before section 8's answer histograms have none.
    if (row.contains("answers") && !row["answers"].is_null()) {
      const double samples = context.config["finalEvalSamples"].get<double>();
      kept["answers"] = read_answers(row, row_path, p, std::llround(accuracy * samples), context);
    }
    out.push_back(kept);
  }
  return out;
}

Json read_history(const Json& run, const RunContext& context) {
  const Json& list = as_array(member(run, "run", "history"), "run.history", kMaxHistoryRows);
  const long long updates = context.config["updates"].get<long long>();
  if (static_cast<long long>(list.size()) > updates)
    throw InvalidArgument(
        "too_many", "run.history",
        {{"max", static_cast<double>(updates)}, {"got", static_cast<double>(list.size())}},
        "run.history: must hold at most updates = " + std::to_string(updates) +
            " rows (run.config), got " + std::to_string(list.size()));
  const Range length{0.0, static_cast<double>(context.max_new_tokens)};
  const Range reward{min_reward(context), max_reward(context)};
  struct Field {
    const char* key;
    Range range;
    bool optional = false;  // added after version 1's first files: absent in older runs
  };
  constexpr bool kAdded = true;
  const Field fields[] = {{"evalAccuracy", kFraction},
                          {"evalEntropy", kNonNegative},
                          {"informativeFraction", kFraction},
                          {"discardedFraction", kFraction},
                          {"ratioMin", kSpecial},
                          {"ratioMean", kSpecial},
                          {"ratioMax", kSpecial},
                          {"clipFractionLow", kFraction},
                          {"clipFractionHigh", kFraction},
                          {"clipFractionRegion", kFraction},
                          {"kl", kSpecial},
                          {"loss", kSpecial},
                          {"gradNorm", kSpecial},
                          {"meanReward", reward},
                          {"accuracy", kFraction},
                          {"meanLength", length},
                          {"truncatedFraction", kFraction},
                          {"entropy", kNonNegative, kAdded},
                          {"samplerEntropy", kNonNegative, kAdded},
                          {"clipRatioLowMin", kFraction, kAdded},
                          {"clipRatioHighMax", kFraction, kAdded},
                          {"fracRewardZeroStd", kFraction, kAdded},
                          {"minLength", length, kAdded},
                          {"maxLength", length, kAdded},
                          {"cispoClipRatio", kFraction, kAdded},
                          {"samplingRatioMin", kSpecial, kAdded},
                          {"samplingRatioMean", kSpecial, kAdded},
                          {"samplingRatioMax", kSpecial, kAdded},
                          {"samplingLogpDifferenceMean", kSpecial, kAdded},
                          {"samplingLogpDifferenceMax", kSpecial, kAdded},
                          {"entropyCoef", kNonNegative, kAdded},
                          {"correctnessInformativeFraction", kFraction, kAdded},
                          // issue 23: absent when an update had no such completion
                          {"meanLengthCorrect", length, kAdded},
                          {"meanLengthIncorrect", length, kAdded},
                          // entropyMechanism's columns (only in a run with it on)
                          {"probeEntropy", kSpecial, kAdded},
                          {"probeEntropyChange", kSpecial, kAdded},
                          {"probeEntropyPrediction", kSpecial, kAdded},
                          {"stepNorm", kSpecial, kAdded},
                          {"logpAdvantageCov", kSpecial, kAdded},
                          // engine verl: verl's own metric names (those its loss mode logs)
                          {"actor/pg_loss", kSpecial, kAdded},
                          {"actor/pg_clipfrac", kSpecial, kAdded},
                          {"actor/ppo_kl", kSpecial, kAdded},
                          {"actor/pg_clipfrac_lower", kSpecial, kAdded},
                          {"actor/kl_loss", kSpecial, kAdded}};
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(list.size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = "run.history[" + std::to_string(i) + "]";
    const Json& row = as_object(list[i], path);
    const long long update = integer_at(member(row, path, "update"), path, "update", 1, updates);
    if (update != static_cast<long long>(i) + 1)
      throw InvalidArgument(
          "must_equal", path + ".update",
          {{"expected", static_cast<double>(i + 1)}, {"got", static_cast<double>(update)}},
          path + ".update: must be " + std::to_string(i + 1) +
              " (rows are updates 1, 2, ... in order), got " + std::to_string(update));
    Json normalized{{"update", update}};
    for (const Field& field : fields) {
      if (field.optional && !(row.contains(field.key))) continue;
      const double x = number_at(
          field.range.special ? special_member(row, path, field.key) : member(row, path, field.key),
          path, field.key, field.range);
      normalized[field.key] = field.range.special ? encode_number(x) : Json(x);
    }
    // passAtKEvery's columns (issue 23), on the updates that log them.
    for (const char* split : {"train", "heldout"})
      for (long long k : logged_pass_at_ks(context.config["finalEvalSamples"].get<long long>())) {
        const std::string key = pass_at_k_column(split, k);
        if (row.contains(key))
          normalized[key] = number_at(member(row, path, key.c_str()), path, key.c_str(), kFraction);
      }
    // A row from before the learner's entropy was recorded (no samplerEntropy): its entropy was
    // the sampler's, so it becomes samplerEntropy and the row has no learner entropy. Such a row
    // (samplerEntropy, no entropy) imports again as itself; a row with neither is refused.
    if (!row.contains("samplerEntropy")) {
      member(row, path, "entropy");
      normalized["samplerEntropy"] = normalized["entropy"];
      normalized.erase("entropy");
    }
    out.push_back(std::move(normalized));
  }
  return out;
}

Json read_checkpoint(const Json& run, const RunContext& context) {
  const Json& checkpoint = member(run, "run", "checkpoint");
  Checkpoint<float> imported =
      prefixed("run.", [&] { return import_checkpoint<float>(checkpoint); });
  if (imported.vocab != task_of(context.task).vocab().tokens)
    throw InvalidArgument(
        "must_equal", "run.checkpoint.vocab",
        {{"expected", vocab_text(context.task)}, {"got", typed_text(Json(imported.vocab))}},
        "run.checkpoint.vocab: must be the " + task_names()[static_cast<int>(context.task)] +
            " task's vocabulary");
  const GruDims& dims = imported.policy.dims();
  const int embed = context.config["embed"].get<int>();
  const int hidden = context.config["hidden"].get<int>();
  if (dims.embed != embed || dims.hidden != hidden)
    throw InvalidArgument(
        "must_equal", "run.checkpoint.config",
        {{"expected", std::to_string(embed) + ", " + std::to_string(hidden)},
         {"got", std::to_string(dims.embed) + ", " + std::to_string(dims.hidden)}},
        "run.checkpoint.config: embed and hidden must be the run's (" + std::to_string(embed) +
            ", " + std::to_string(hidden) + "), got (" + std::to_string(dims.embed) + ", " +
            std::to_string(dims.hidden) + ")");
  const double temperature = context.config["temperature"].get<double>();
  if (imported.temperature != temperature)
    throw InvalidArgument("must_equal", "run.checkpoint.config.temperature",
                          {{"expected", temperature}, {"got", imported.temperature}},
                          "run.checkpoint.config.temperature: must be the run's temperature " +
                              format_number(temperature) + ", got " +
                              format_number(imported.temperature));
  return export_checkpoint(imported.policy, imported.vocab,
                           Json{{"temperature", temperature}, {"experiment", context.config}});
}

Json import_run(const Json& args) {
  const Json& run = object(args, "run");
  // Format and version first: a file from elsewhere gets one clear sentence, not a field error.
  const auto format = run.find("format");
  if (format == run.end() || !format->is_string() ||
      format->get_ref<const std::string&>() != kRunFormat) {
    const std::string got = format == run.end() ? std::string("nothing")
                            : format->is_string()
                                ? "'" + short_text(format->get_ref<const std::string&>()) + "'"
                                : std::string(kind_of(*format));
    throw InvalidArgument("run_format", "run.format", {{"expected", kRunFormat}, {"got", got}},
                          std::string("run.format: must be '") + kRunFormat +
                              "' (a run exported by GRPO Lab), got " + got);
  }
  const Json& version = member(run, "run", "version");
  if (!(version.is_number() && version.get<double>() == kRunVersion))
    throw InvalidArgument(
        "run_version", "run.version",
        {{"expected", static_cast<double>(kRunVersion)}, {"got", typed_text(version)}},
        "run.version: this GRPO Lab reads run format version " + std::to_string(kRunVersion) +
            ", got " +
            (version.is_number()   ? format_number(version.get<double>())
             : version.is_string() ? "\"" + typed_text(version) + "\""
                                   : typed_text(version)) +
            " (open the file with the GRPO Lab that exported it, or run the experiment again)");

  RunContext context;
  Json out{{"format", kRunFormat}, {"version", kRunVersion}};
  out["config"] = read_run_config(run, context);
  out["vocab"] = read_vocab(run, context);
  out["prompts"] = read_prompts(run, context);
  for (const char* key : {"beforeTrain", "beforeHeldout", "afterTrain", "afterHeldout"})
    out[key] = read_metrics(run, key, context);
  out["history"] = read_history(run, context);
  const long long done = integer_at(member(run, "run", "updatesDone"), "run", "updatesDone", 0,
                                    static_cast<long long>(kMaxHistoryRows));
  if (done != static_cast<long long>(out["history"].size()))
    throw InvalidArgument("must_equal", "run.updatesDone",
                          {{"expected", static_cast<double>(out["history"].size())},
                           {"got", static_cast<double>(done)}},
                          "run.updatesDone: must equal the number of history rows (" +
                              std::to_string(out["history"].size()) + "), got " +
                              std::to_string(done));
  out["updatesDone"] = done;
  out["beforeTrainByPrompt"] = read_by_prompt(run, "beforeTrainByPrompt", "train", context);
  out["afterTrainByPrompt"] = read_by_prompt(run, "afterTrainByPrompt", "train", context);
  out["beforeHeldoutByPrompt"] = read_by_prompt(run, "beforeHeldoutByPrompt", "heldout", context);
  out["afterHeldoutByPrompt"] = read_by_prompt(run, "afterHeldoutByPrompt", "heldout", context);
  // Section 8's measures, recomputed from the accuracies just read (never taken from the file).
  out["coverage"] = run_coverage_json(out, out["config"]["finalEvalSamples"].get<long long>());
  out["warnings"] = warnings_json(read_config(out["config"]));  // recomputed, as coverage
  if (run.contains("lengthHistogram") && !run["lengthHistogram"].is_null())
    out["lengthHistogram"] = read_length_histogram(run, context, out);
  // Optional: a page may save a run without its checkpoint (smaller file, charts only).
  if (run.contains("checkpoint") && !run["checkpoint"].is_null())
    out["checkpoint"] = read_checkpoint(run, context);
  // Where the file came from, as the page labels it: kept when short and plain.
  for (const char* key : {"source", "status"}) {
    if (!run.contains(key) || run[key].is_null()) continue;
    const std::string& text = string_at(run[key], "run", key, kMaxLabelBytes);
    for (char c : text)
      if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'))
        throw InvalidArgument("label", std::string("run.") + key, {{"got", short_text(text)}},
                              std::string("run.") + key +
                                  ": must be a short label of a-z, 0-9, '-', '_', got '" +
                                  short_text(text) + "'");
    out[key] = text;
  }
  return out;
}

}  // namespace

void register_run_methods(Registry& r) {
  r["importRun"] = import_run;
}

}  // namespace grpo::api
