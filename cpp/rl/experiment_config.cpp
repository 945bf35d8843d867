// Profiles and validation of the toy GRPO experiment's settings, both from the field table.
#include "rl/experiment_config.h"

#include <string>

#include "core/errors.h"
#include "rl/arithmetic_task.h"
#include "rl/config_fields.h"

namespace grpo {

const std::vector<std::string>& profile_names() {
  static const std::vector<std::string> names = {"smoke", "full"};
  return names;
}

const std::vector<std::string>& engine_names() {
  static const std::vector<std::string> names = {"trl", "verl"};
  return names;
}

const std::vector<std::string>& verl_train_estimator_names() {
  // verl's outcome estimators, in verl::Estimator's order, without gae (a critic's values).
  static const std::vector<std::string> names = [] {
    std::vector<std::string> all = verl::estimator_names();
    all.resize(static_cast<std::size_t>(verl::Estimator::Gae));
    return all;
  }();
  return names;
}

ExperimentConfig profile_defaults(const std::string& profile) {
  const FieldSpec& profile_field = field("profile");
  const int column = option_index(profile_field, profile);
  check_field(profile_field, column, profile);
  ExperimentConfig config;
  for (const FieldSpec& spec : config_fields())
    spec.set(config, column == 0 ? spec.smoke : spec.full);
  config.profile = profile;
  return config;
}

void check_field_relations(const ExperimentConfig& config) {
  require_at_most_field("promptBatch", config.prompt_batch, "trainPrompts", config.train_prompts);
  // TRL: generation_batch_size must be divisible by the global batch size (grpo_config.py 1082);
  // here the generation is promptBatch x groupSize and each step takes 1 / S of it.
  const int generation = config.prompt_batch * config.objective.group_size;
  require_coded(generation % config.steps_per_generation == 0, "must_divide", "stepsPerGeneration",
                [&] {
                  return std::pair<MessageParams, std::string>{
                      {{"other", std::string("promptBatch x groupSize")},
                       {"total", static_cast<double>(generation)},
                       {"got", static_cast<double>(config.steps_per_generation)}},
                      "stepsPerGeneration: must divide promptBatch x groupSize (" +
                          std::to_string(generation) + "), got " +
                          std::to_string(config.steps_per_generation)};
                });
  // pass@k during training: at most kMaxPassAtKLogs evaluations in the run.
  const int logs = config.pass_at_k_every > 0 ? config.updates / config.pass_at_k_every : 0;
  require_coded(logs <= ExperimentConfig::kMaxPassAtKLogs, "too_frequent", "passAtKEvery", [&] {
    return std::pair<MessageParams, std::string>{
        {{"other", static_cast<double>(config.updates)},
         {"max", static_cast<double>(ExperimentConfig::kMaxPassAtKLogs)},
         {"got", static_cast<double>(config.pass_at_k_every)}},
        "passAtKEvery: at most " + std::to_string(ExperimentConfig::kMaxPassAtKLogs) +
            " evaluations in a run of " + std::to_string(config.updates) + " updates, got every " +
            std::to_string(config.pass_at_k_every)};
  });
  // The prompts are distinct problems of the task (the trainer's PromptOptions): the two splits
  // hold at most as many as there are. Checked with the config, not first by createExperiment.
  const int available = problem_count(config.task, config.max_operand);
  const double prompts = static_cast<double>(config.train_prompts) + config.heldout_prompts;
  require_coded(prompts <= available, "total_too_large", "heldoutPrompts", [&] {
    return std::pair<MessageParams, std::string>{
        {{"max", static_cast<double>(available)}, {"got", prompts}},
        "heldoutPrompts: trainPrompts + heldoutPrompts must be at most " +
            std::to_string(available) +
            (config.task == TaskKind::Scratch
                 ? std::string(" (the scratch task's distinct problems)")
                 : " (the distinct problems with maxOperand " + std::to_string(config.max_operand) +
                       ")") +
            ", got " + format_number(prompts)};
  });
  // TRL accepts entropy_coef_min > entropy_coef_max (the coefficient is min(c + delta, max) or
  // max(c - delta, min), grpo_trainer.py 3202-3207) and a soft_punish_cache longer than
  // max_completion_len (a ramp from below 0, other_rewards.py 132): so do we.
  const ObjectiveConfig& o = config.objective;
  o.check_relations();
  // The toy's sampler is TRL's vLLM (section 9 writes use_vllm=True for it).
  o.check_sampler_relations(config.separate_sampler());
  // TRL aggregates rewards for GRPO's group advantages only.
  require_coded(!config.normalize_then_sum || o.advantage_estimator == AdvantageEstimator::Grpo,
                "must_equal", "advantageEstimator", [&] {
                  return std::pair<MessageParams, std::string>{
                      {{"expected", std::string("grpo")},
                       {"got", std::string(advantage_estimator_name(o.advantage_estimator))}},
                      "advantageEstimator: must be grpo with multiObjectiveAggregation "
                      "normalize_then_sum, got " +
                          std::string(advantage_estimator_name(o.advantage_estimator))};
                });
  // TRL refuses sync_ref_model without a reference model, which beta = 0 does not load.
  check_verl_relations(config);
  require_coded(!config.sync_ref_model || o.beta > 0, "needs_positive", "syncRefModel", [&] {
    return std::pair<MessageParams, std::string>{
        {{"other", std::string("beta")}, {"got", o.beta}},
        "syncRefModel: needs beta > 0, got beta = " + format_number(o.beta)};
  });
}

namespace {

// `field` must be `expected` while `other` is `value` (code "one_of_with", naming both fields).
void require_with(bool condition, const char* field, const std::string& expected, const char* other,
                  const std::string& value, const std::string& got) {
  require_coded(condition, "one_of_with", field, [&] {
    return std::pair<MessageParams, std::string>{
        {{"options", expected}, {"other", std::string(other)}, {"value", value}, {"got", got}},
        std::string(field) + ": must be one of " + expected + " with " + other + " " + value +
            ", got " + got};
  });
}

}  // namespace

// engine verl: the TRL-only options that would silently act on nothing are refused, each naming
// the TRL field and engine.
void check_verl_relations(const ExperimentConfig& config) {
  if (config.engine != Engine::Verl) return;
  const ObjectiveConfig& o = config.objective;
  const VerlTrainOptions& v = config.verl_options;
  require_with(o.importance_level == ImportanceLevel::Token, "importanceSamplingLevel", "token",
               "engine", "verl (verlLossMode gspo is the sequence-level ratio)",
               importance_level_names()[static_cast<int>(o.importance_level)]);
  require_with(!config.use_adaptive_entropy, "useAdaptiveEntropy", "false", "engine", "verl",
               "true");
  require_with(!o.use_bias_correction_kl, "useBiasCorrectionKl", "false", "engine", "verl", "true");
  require_with(o.top_entropy_quantile == 1.0, "topEntropyQuantile", "1", "engine", "verl",
               format_number(o.top_entropy_quantile));
  require_with(!o.delta, "delta", "None", "engine", "verl (clipRatioC is verl's dual clip)",
               o.delta ? format_number(*o.delta) : "None");
  require_with(!o.off_policy_mask_threshold, "offPolicyMaskThreshold", "None", "engine", "verl",
               o.off_policy_mask_threshold ? format_number(*o.off_policy_mask_threshold) : "None");
  require_with(!config.separate_sampler(), "samplerMismatch", "0 (and samplerLag 0)", "engine",
               "verl", format_number(config.sampler_mismatch));
  require_with(!config.normalize_then_sum, "multiObjectiveAggregation", "sum_then_normalize",
               "engine", "verl", "normalize_then_sum");
  require_with(o.scale_rewards != ScaleRewards::Batch, "scaleRewards", "group, none", "engine",
               "verl (norm_adv_by_std_in_grpo)", "batch");
  // verl's clip_cov takes candidates in (lb, ub): an empty interval selects nothing.
  require_less_than_field("clipCovLb", v.clip_cov_lb, "clipCovUb", v.clip_cov_ub);
}

void ExperimentConfig::validate() const {
  for (const FieldSpec& spec : config_fields())
    check_field(spec, spec.get(*this), spec.kind == FieldKind::Enum ? profile : "");
  check_field_relations(*this);
}

}  // namespace grpo
