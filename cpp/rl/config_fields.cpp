// The toy experiment's config table (config_fields.h) and the one range check of its fields.
//
// Ranges that had drifted between the core and the page, settled here:
// - seed in [0, 2^32 - 1]: the TRL translation passes it to GRPOConfig(seed=...), and
//   transformers' set_seed hands it to numpy.random.seed, which rejects 2^32 and above.
// - updates in [1, 50000]: the history is kept whole (about 250 bytes a row in the core and
//   ~730 in the run file's JSON, with TRL's metrics): 50 000 rows are a ~37 MB run file, within
//   the 64 MiB a run file (and an argument text) may be; 100 000 rows (73 MB) no longer fit.
//   entropyMechanism's five columns add ~190 bytes a row of JSON: ~47 MB, still within; the
//   lengths of correct and incorrect completions ~80 more: ~51 MB. passAtKEvery logs at most
//   kMaxPassAtKLogs rows of pass@k (~500 bytes each), well within.
// - epsLow in [0, 1): the lower clip bound 1 - epsLow must stay > 0 (ratios are > 0); this is
//   also what section 3 (core/advantages.cpp) and the grpoObjective method accept.
#include "rl/config_fields.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "core/errors.h"

namespace grpo {
namespace {

// get/set of a member stored as an integer type (int, uint64, bool, an enum) or as a double.
#define GRPO_WHOLE(m) \
#m, [](const ExperimentConfig& c) { return static_cast<double>(c.m); },              \
      [](ExperimentConfig& c, double v) {                                              \
        c.m = static_cast<decltype(c.m)>(static_cast<long long>(v));                   \
      }
#define GRPO_OPTIONAL(m) \
#m, [](const ExperimentConfig& c) { return c.m.value_or(std::nan("")); },            \
      [](ExperimentConfig& c, double v) {                                              \
        c.m = std::isnan(v) ? std::nullopt : std::optional<double>(v);                 \
      }
#define GRPO_REAL(m) \
#m, [](const ExperimentConfig& c) { return c.m; }, [](ExperimentConfig & c, double v) { c.m = v; }

FieldSpec int_field(const char* name, double min, double max, double smoke, double full,
                    const char* trl, const char* member, double (*get)(const ExperimentConfig&),
                    void (*set)(ExperimentConfig&, double)) {
  FieldSpec f;
  f.name = name;
  f.member = member;
  f.kind = FieldKind::Int;
  f.min = min;
  f.max = max;
  f.smoke = smoke;
  f.full = full;
  f.trl = trl;
  f.get = get;
  f.set = set;
  return f;
}

FieldSpec number_field(const char* name, double min, double max, bool min_open, bool max_open,
                       double smoke_and_full, const char* trl, const char* member,
                       double (*get)(const ExperimentConfig&),
                       void (*set)(ExperimentConfig&, double)) {
  FieldSpec f = int_field(name, min, max, smoke_and_full, smoke_and_full, trl, member, get, set);
  f.kind = FieldKind::Number;
  f.min_open = min_open;
  f.max_open = max_open;
  return f;
}

// A Number that may be None (NaN here): an std::optional<double> member, None by default unless
// `smoke_and_full` says otherwise.
FieldSpec nullable_field(const char* name, double min, double max, bool min_open, const char* trl,
                         const char* member, double (*get)(const ExperimentConfig&),
                         void (*set)(ExperimentConfig&, double),
                         double smoke_and_full = std::nan("")) {
  FieldSpec f =
      number_field(name, min, max, min_open, false, smoke_and_full, trl, member, get, set);
  f.nullable = true;
  return f;
}

FieldSpec bool_field(const char* name, bool smoke_and_full, const char* trl, const char* member,
                     double (*get)(const ExperimentConfig&),
                     void (*set)(ExperimentConfig&, double)) {
  FieldSpec f = int_field(name, 0, 1, smoke_and_full, smoke_and_full, trl, member, get, set);
  f.kind = FieldKind::Bool;
  return f;
}

FieldSpec enum_field(const char* name, const std::vector<std::string>& options,
                     double smoke_and_full, const char* trl, const char* member,
                     double (*get)(const ExperimentConfig&),
                     void (*set)(ExperimentConfig&, double)) {
  FieldSpec f = int_field(name, 0, 0, smoke_and_full, smoke_and_full, trl, member, get, set);
  f.kind = FieldKind::Enum;
  f.options = options;
  return f;
}

std::vector<FieldSpec> build_table() {
  constexpr bool kOpen = true, kClosed = false;
  // A field the notebook sets: `run_toy_grpo_experiment(profile=PROFILE, seed=SEED, ...)`, its
  // toy `GRPOConfig(group_size, prompt_batch, updates, update_epochs, loss_type)` and the
  // arguments of its TRL GRPOConfig cell (section 9), by their toy names.
  constexpr bool kNotebook = true;
  std::vector<FieldSpec> t;
  // The form's group of the rows that follow (folded on the page; i18n key train.group.<group>).
  const char* group = "setup";
  auto add = [&](FieldSpec f, bool notebook = false) {
    f.group = group;
    f.notebook = notebook;
    t.push_back(std::move(f));
  };
  // The row just added keeps the notebook's default where TRL's (grpo_config.py line) differs.
  auto trl_default = [&](const char* python) { t.back().trl_default = python; };
  // The profile picks the column of defaults: its own "default" is the column's index.
  FieldSpec profile = enum_field(
      "profile", profile_names(), 0, nullptr, "profile",
      [](const ExperimentConfig& c) {
        const int i = option_index(field("profile"), c.profile);
        return static_cast<double>(i);
      },
      [](ExperimentConfig& c, double v) { c.profile = profile_names()[static_cast<int>(v)]; });
  profile.full = 1;
  add(profile, kNotebook);
  add(int_field("seed", 0, 4294967295.0, 9, 9, "seed", GRPO_WHOLE(seed)), kNotebook);
  // Task. The profiles' numbers are chosen so the runs show the notebook's lessons on most seeds
  // (docs/training-page.md "Why the task is built as it is").
  group = "task";
  // The arithmetic task (the notebook's, responses of 1-3 tokens), the scratch task (two-digit
  // operands, 18 tokens: the 16 and ";" ">"; responses of 2 to ~31 tokens, the teacher's styles
  // concise, columns and checked; run it with maxNewTokens 32: rl/scratch_task.h) or the rewrite
  // task (the arithmetic prompts, any "c+d" or "c-d" of their value right: rl/rewrite_task.h).
  add(enum_field("task", task_names(), 0, nullptr, GRPO_WHOLE(task)));
  // At most the task's 155 distinct problems (maxOperand 9) in the two splits together
  // (check_field_relations); each split's own range stops there too.
  add(int_field("trainPrompts", 1, 155, 64, 112, nullptr, GRPO_WHOLE(train_prompts)));
  add(int_field("heldoutPrompts", 0, 154, 32, 40, nullptr, GRPO_WHOLE(heldout_prompts)));
  add(int_field("maxOperand", 1, 9, 9, 9, nullptr, GRPO_WHOLE(max_operand)));
  // Rewards (TRL reward_weights over the task's reward functions, multi_objective_aggregation,
  // and DAPO's soft overlong punishment as a third function, off while its weight is 0).
  group = "rewards";
  add(number_field("correctnessWeight", 0, 10, kClosed, kClosed, 1.0, "reward_weights[0]",
                   GRPO_REAL(correctness_weight)));
  trl_default("None");  // 760: every function weighted 1.0
  add(number_field("formatWeight", 0, 10, kClosed, kClosed, 0.1, "reward_weights[1]",
                   GRPO_REAL(format_weight)));
  add(number_field("overlongWeight", 0, 10, kClosed, kClosed, 0.0, "reward_weights[2]",
                   GRPO_REAL(overlong_weight)));
  add(int_field("overlongMaxCompletionLen", 1, 64, 4, 4, nullptr,
                GRPO_WHOLE(overlong_max_completion_len)));
  add(int_field("softPunishCache", 0, 64, 2, 2, nullptr, GRPO_WHOLE(soft_punish_cache)));
  add(enum_field("multiObjectiveAggregation", reward_aggregation_names(), 0,
                 "multi_objective_aggregation", GRPO_WHOLE(normalize_then_sum)));
  // Policy.
  group = "policy";
  add(int_field("embed", 1, 256, 16, 16, nullptr, GRPO_WHOLE(embed)));
  add(int_field("hidden", 1, 512, 64, 64, nullptr, GRPO_WHOLE(hidden)));
  // Supervised warm-up.
  group = "warmup";
  add(int_field("warmupSteps", 0, 100000, 120, 200, nullptr, GRPO_WHOLE(warmup_steps)));
  add(number_field("warmupLearningRate", 0, 1, kOpen, kClosed, 1e-2, nullptr,
                   GRPO_REAL(warmup_learning_rate)));
  add(number_field("teacherAccuracy", 0, 1, kClosed, kClosed, 0.15, nullptr,
                   GRPO_REAL(teacher_accuracy)));
  // GRPO.
  group = "grpo";
  add(int_field("groupSize", 2, 64, 8, 8, "num_generations", GRPO_WHOLE(objective.group_size)),
      kNotebook);
  add(int_field("promptBatch", 1, 64, 8, 8, nullptr, GRPO_WHOLE(prompt_batch)), kNotebook);
  add(int_field("updates", 1, 50000, 60, 160, "max_steps", GRPO_WHOLE(updates)), kNotebook);
  add(int_field("updateEpochs", 1, 16, 2, 2, "num_iterations", GRPO_WHOLE(update_epochs)),
      kNotebook);
  trl_default("1");  // 679
  // One generation (promptBatch x groupSize completions), S optimizer steps per epoch on its
  // mini-batches; S divides the generation (check_field_relations), at most 16 steps.
  add(int_field("stepsPerGeneration", 1, 16, 1, 1, "steps_per_generation",
                GRPO_WHOLE(steps_per_generation)));
  trl_default("None");  // 518: None is gradient_accumulation_steps (1 by default), so 1 in effect
  add(enum_field("lossType", loss_type_names(), static_cast<double>(LossType::Dapo), "loss_type",
                 GRPO_WHOLE(objective.loss_type)),
      kNotebook);
  add(enum_field("scaleRewards", scale_rewards_names(), static_cast<double>(ScaleRewards::Group),
                 "scale_rewards", GRPO_WHOLE(objective.scale_rewards)),
      kNotebook);
  add(enum_field("advantageEstimator", advantage_estimator_names(),
                 static_cast<double>(AdvantageEstimator::Grpo), nullptr,
                 GRPO_WHOLE(objective.advantage_estimator)));
  add(number_field("epsLow", 0, 1, kClosed, kOpen, 0.2, "epsilon", GRPO_REAL(objective.eps_low)),
      kNotebook);
  add(nullable_field("epsHigh", 0, 10, kClosed, "epsilon_high", GRPO_OPTIONAL(objective.eps_high),
                     0.28),
      kNotebook);
  trl_default("None");  // 695: epsilon's value
  add(number_field("beta", 0, 10, kClosed, kClosed, 0.0, "beta", GRPO_REAL(objective.beta)),
      kNotebook);
  add(number_field("temperature", 0.05, 10, kClosed, kClosed, 1.0, "temperature",
                   GRPO_REAL(temperature)));
  add(number_field("learningRate", 0, 1, kOpen, kClosed, 2e-3, "learning_rate",
                   GRPO_REAL(learning_rate)),
      kNotebook);
  trl_default("1e-06");  // 418
  add(number_field("maxGradNorm", 0, 1e6, kOpen, kClosed, 1.0, "max_grad_norm",
                   GRPO_REAL(max_grad_norm)));
  // At most 64: the scratch task's responses run to ~31 tokens.
  add(int_field("maxNewTokens", 1, 64, 4, 4, "max_completion_length",
                GRPO_WHOLE(objective.max_completion_length)),
      kNotebook);
  trl_default("256");  // 488
  add(bool_field("dynamicSampling", false, nullptr, GRPO_WHOLE(dynamic_sampling)));
  add(bool_field("maskTruncated", true, "mask_truncated_completions",
                 GRPO_WHOLE(objective.mask_truncated)),
      kNotebook);
  trl_default("False");  // 826
  add(enum_field("importanceSamplingLevel", importance_level_names(),
                 static_cast<double>(ImportanceLevel::Token), "importance_sampling_level",
                 GRPO_WHOLE(objective.importance_level)),
      kNotebook);
  // TRL 1.9's loss options, TRL's defaults (every one leaves the default loss unchanged).
  group = "trlLoss";
  add(number_field("sapoTemperaturePos", 0, 100, kOpen, kClosed, 1.0, "sapo_temperature_pos",
                   GRPO_REAL(objective.sapo_temperature_pos)));
  add(number_field("sapoTemperatureNeg", 0, 100, kOpen, kClosed, 1.05, "sapo_temperature_neg",
                   GRPO_REAL(objective.sapo_temperature_neg)));
  add(number_field("vespoKPos", 0, 100, kClosed, kClosed, 2.0, "vespo_k_pos",
                   GRPO_REAL(objective.vespo_k_pos)));
  add(number_field("vespoLambdaPos", 0, 100, kClosed, kClosed, 3.0, "vespo_lambda_pos",
                   GRPO_REAL(objective.vespo_lambda_pos)));
  add(number_field("vespoKNeg", 0, 100, kClosed, kClosed, 3.0, "vespo_k_neg",
                   GRPO_REAL(objective.vespo_k_neg)));
  add(number_field("vespoLambdaNeg", 0, 100, kClosed, kClosed, 2.0, "vespo_lambda_neg",
                   GRPO_REAL(objective.vespo_lambda_neg)));
  add(number_field("topEntropyQuantile", 0, 1, kClosed, kClosed, 1.0, "top_entropy_quantile",
                   GRPO_REAL(objective.top_entropy_quantile)));
  add(bool_field("useBiasCorrectionKl", false, "use_bias_correction_kl",
                 GRPO_WHOLE(objective.use_bias_correction_kl)));
  add(nullable_field("delta", 0, 1e6, kOpen, "delta", GRPO_OPTIONAL(objective.delta)));
  add(nullable_field("offPolicyMaskThreshold", -1e6, 1e6, kClosed, "off_policy_mask_threshold",
                     GRPO_OPTIONAL(objective.off_policy_mask_threshold)));
  // The entropy bonus and TRL's adaptive control of its coefficient.
  group = "entropy";
  add(number_field("entropyCoef", 0, 10, kClosed, kClosed, 0.0, "entropy_coef",
                   GRPO_REAL(objective.entropy_coef)));
  add(bool_field("useAdaptiveEntropy", false, "use_adaptive_entropy",
                 GRPO_WHOLE(use_adaptive_entropy)));
  add(number_field("entropyTarget", 0, 10, kClosed, kClosed, 0.2, "entropy_target",
                   GRPO_REAL(entropy_target)));
  add(number_field("entropyCoefDelta", 0, 1, kClosed, kClosed, 0.005, "entropy_coef_delta",
                   GRPO_REAL(entropy_coef_delta)));
  add(number_field("entropyCoefMin", 0, 10, kClosed, kClosed, 0.0, "entropy_coef_min",
                   GRPO_REAL(entropy_coef_min)));
  add(number_field("entropyCoefMax", 0, 10, kClosed, kClosed, 1.0, "entropy_coef_max",
                   GRPO_REAL(entropy_coef_max)));
  // The reference model's sync (TR-DPO).
  group = "reference";
  add(bool_field("syncRefModel", false, "sync_ref_model", GRPO_WHOLE(sync_ref_model)));
  add(number_field("refModelMixupAlpha", 0, 1, kClosed, kClosed, 0.6, "ref_model_mixup_alpha",
                   GRPO_REAL(ref_model_mixup_alpha)));
  add(int_field("refModelSyncSteps", 1, 100000, 512, 512, "ref_model_sync_steps",
                GRPO_WHOLE(ref_model_sync_steps)));
  // The sampler and the sampler-to-learner correction (TRL: vLLM's, on by default).
  group = "sampler";
  add(number_field("samplerMismatch", 0, 1, kClosed, kClosed, 0.0, nullptr,
                   GRPO_REAL(sampler_mismatch)));
  // At most 8: the trainer keeps k snapshots of the parameters (k x 4 bytes per parameter).
  add(int_field("samplerLag", 0, 8, 0, 0, nullptr, GRPO_WHOLE(sampler_lag)));
  add(bool_field("vllmImportanceSamplingCorrection", true, "vllm_importance_sampling_correction",
                 GRPO_WHOLE(objective.vllm_importance_sampling_correction)));
  add(enum_field("vllmImportanceSamplingMode", sampler_correction_names(),
                 static_cast<double>(SamplerCorrection::SequenceMask),
                 "vllm_importance_sampling_mode",
                 GRPO_WHOLE(objective.vllm_importance_sampling_mode)));
  add(nullable_field("vllmImportanceSamplingClipMin", 0, 1e6, kClosed,
                     "vllm_importance_sampling_clip_min",
                     GRPO_OPTIONAL(objective.vllm_importance_sampling_clip_min)));
  // TRL's default 3.0; None is no upper bound (grpo_config.py 937).
  add(nullable_field("vllmImportanceSamplingClipMax", 0, 1e6, kClosed,
                     "vllm_importance_sampling_clip_max",
                     GRPO_OPTIONAL(objective.vllm_importance_sampling_clip_max), 3.0));
  // verl v0.7.0's actor (engine verl): its own options; the ones it shares with TRL are the
  // fields above (docs/verl.md "The trainer with engine verl"). verl's defaults (actor.yaml).
  group = "verl";
  add(enum_field("engine", engine_names(), 0, nullptr, GRPO_WHOLE(engine)));
  add(enum_field("verlLossMode", verl::loss_mode_names(), 0, nullptr,
                 GRPO_WHOLE(verl_options.loss_mode)));
  add(enum_field("verlLossAggMode", verl::agg_mode_names(), 0, nullptr,
                 GRPO_WHOLE(verl_options.agg_mode)));
  add(enum_field("verlAdvEstimator", verl_train_estimator_names(), 0, nullptr,
                 GRPO_WHOLE(verl_options.estimator)));
  add(number_field("clipRatioC", 1, 1e6, kOpen, kClosed, 3.0, nullptr,
                   GRPO_REAL(verl_options.clip_ratio_c)));
  add(number_field("clipCovRatio", 0, 1, kOpen, kClosed, 2e-4, nullptr,
                   GRPO_REAL(verl_options.clip_cov_ratio)));
  add(number_field("clipCovLb", -1e6, 1e6, kClosed, kClosed, 1.0, nullptr,
                   GRPO_REAL(verl_options.clip_cov_lb)));
  add(number_field("clipCovUb", -1e6, 1e6, kClosed, kClosed, 5.0, nullptr,
                   GRPO_REAL(verl_options.clip_cov_ub)));
  add(number_field("klCovRatio", 0, 1, kOpen, kClosed, 2e-4, nullptr,
                   GRPO_REAL(verl_options.kl_cov_ratio)));
  add(number_field("ppoKlCoef", 0, 1e6, kClosed, kClosed, 0.1, nullptr,
                   GRPO_REAL(verl_options.ppo_kl_coef)));
  add(enum_field("klLossType", verl::kl_penalty_names(),
                 static_cast<double>(verl::KlPenalty::LowVarKl), nullptr,
                 GRPO_WHOLE(verl_options.kl_loss_type)));
  // Evaluation.
  group = "evaluation";
  add(int_field("evalSamples", 1, 64, 4, 4, nullptr, GRPO_WHOLE(eval_samples)));
  add(int_field("finalEvalSamples", 4, 256, 64, 64, nullptr, GRPO_WHOLE(final_eval_samples)));
  // Lab-only (TRL has none): the entropy-mechanism columns of the history (trainer.h).
  add(bool_field("entropyMechanism", false, nullptr, GRPO_WHOLE(entropy_mechanism)));
  // Lab-only (TRL has none): pass@k on train and held-out prompts every N updates (0: never).
  add(int_field("passAtKEvery", 0, 50000, 0, 0, nullptr, GRPO_WHOLE(pass_at_k_every)));
  return t;
}

#undef GRPO_WHOLE
#undef GRPO_OPTIONAL
#undef GRPO_REAL

}  // namespace

const std::vector<FieldSpec>& config_fields() {
  static const std::vector<FieldSpec> table = [] {
    std::vector<FieldSpec> t = build_table();
    for (FieldSpec& f : t) f.description = std::string("train.field.") + f.name;
    return t;
  }();
  return table;
}

const FieldSpec* find_field(std::string_view name) {
  for (const FieldSpec& spec : config_fields())
    if (name == spec.name) return &spec;
  return nullptr;
}

const FieldSpec& field(std::string_view name) {
  const FieldSpec* spec = find_field(name);
  if (spec == nullptr) throw std::logic_error("no config field " + std::string(name));
  return *spec;
}

int option_index(const FieldSpec& spec, std::string_view text) {
  for (std::size_t i = 0; i < spec.options.size(); ++i)
    if (text == spec.options[i]) return static_cast<int>(i);
  return -1;
}

void check_field(const FieldSpec& spec, double value, std::string_view typed) {
  // Coded errors (core/errors.h): the page renders them in the reader's language.
  switch (spec.kind) {
    case FieldKind::Enum:
      if (!(value >= 0 && value < static_cast<double>(spec.options.size())))
        require_one_of(spec.name, typed, spec.options);
      return;
    case FieldKind::Bool:
      return;  // the reader accepts only true and false
    case FieldKind::Int:
      require_integer_in_range(spec.name, value, spec.min, spec.max);
      return;
    case FieldKind::Number: {
      if (spec.nullable && std::isnan(value)) return;  // None
      const Ends ends = spec.min_open ? (spec.max_open ? Ends::open : Ends::open_low)
                                      : (spec.max_open ? Ends::open_high : Ends::closed);
      require_in_range(spec.name, value, spec.min, spec.max, ends);
      return;
    }
  }
}

}  // namespace grpo
