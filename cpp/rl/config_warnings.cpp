// The warnings of a config (config_warnings.h): each rule says why the setting does nothing.
#include "rl/config_warnings.h"

#include "rl/scratch_task.h"

namespace grpo {
namespace {

// The shortest completion that answers: one digit and <eos> (the task's answers are 0..18).
constexpr int kShortestAnswerTokens = 2;

bool clip_family(LossType t) {
  return t == LossType::Grpo || t == LossType::Bnpo || t == LossType::DrGrpo ||
         t == LossType::Dapo || t == LossType::Luspo;
}

}  // namespace

const std::vector<MessageCode>& warning_codes() {
  static const std::vector<MessageCode> codes = {
      {"no_answer_fits", {"got", "needed"}},
      {"scratch_cut", {"got", "needed"}},
      {"all_weights_zero", {}},
      {"delta_below_one", {"got"}},
      {"cispo_cap_low", {"got"}},
      {"trl_luspo_token", {}},
      {"trl_vespo_sequence", {}},
      {"trl_sequence_sums", {"lossType"}},
  };
  return codes;
}

std::vector<ConfigWarning> config_warnings(const ExperimentConfig& config) {
  std::vector<ConfigWarning> out;
  const ObjectiveConfig& o = config.objective;
  auto add = [&](const char* code, const char* field, MessageParams params, std::string text) {
    out.push_back({code, field, std::move(params), std::string(field) + ": " + text});
  };
  if (config.correctness_weight == 0 && config.format_weight == 0 && config.overlong_weight == 0)
    add("all_weights_zero", "correctnessWeight", {},
        "every reward weight (correctnessWeight, formatWeight, overlongWeight) is 0, so every "
        "reward and every advantage is 0: the policy term has no gradient");
  // TRL's warnings (grpo_trainer.py 894, 897, 904 at v1.9.0).
  const bool sequence = o.importance_level == ImportanceLevel::Sequence;
  if (o.loss_type == LossType::Luspo && !sequence)
    add("trl_luspo_token", "importanceSamplingLevel", {},
        "TRL warns that lossType luspo should use importanceSamplingLevel sequence, as its "
        "paper does");
  if (o.loss_type == LossType::Vespo && sequence)
    add("trl_vespo_sequence", "importanceSamplingLevel", {},
        "TRL warns that VESPO computes its sequence weights itself and the level should be "
        "token; the level changes nothing but the bias-corrected KL");
  const bool sums = o.loss_type == LossType::Bnpo || o.loss_type == LossType::DrGrpo ||
                    o.loss_type == LossType::Dapo || o.loss_type == LossType::Cispo;
  if (sequence && sums) {
    const std::string name = loss_type_name(o.loss_type);
    add("trl_sequence_sums", "importanceSamplingLevel", {{"lossType", name}},
        "TRL warns that at sequence level the " + name +
            " loss sums per-token terms, weighting each sequence by its length; GSPO's setup is "
            "lossType grpo");
  }
  if (o.max_completion_length < kShortestAnswerTokens)
    add("no_answer_fits", "maxNewTokens",
        {{"got", static_cast<double>(o.max_completion_length)},
         {"needed", static_cast<double>(kShortestAnswerTokens)}},
        "no answer fits in " + std::to_string(o.max_completion_length) +
            " token (the shortest, a digit and <eos>, needs " +
            std::to_string(kShortestAnswerTokens) +
            "): every completion is truncated, none is correct, nothing is learnt");
  if (config.task == TaskKind::Scratch && o.max_completion_length >= kShortestAnswerTokens &&
      o.max_completion_length < scratch_longest_demonstration())
    add("scratch_cut", "maxNewTokens",
        {{"got", static_cast<double>(o.max_completion_length)},
         {"needed", static_cast<double>(scratch_longest_demonstration())}},
        "the scratch task's teacher writes up to " +
            std::to_string(scratch_longest_demonstration()) +
            " tokens with <eos>: its longer completions (the column work, the check) are cut at " +
            std::to_string(o.max_completion_length) +
            ", truncated and scored 0, so the run can only learn short answers");
  if (o.delta && *o.delta < 1.0 && clip_family(o.loss_type))
    add("delta_below_one", "delta", {{"got", *o.delta}},
        format_number(*o.delta) +
            " < 1 caps the ratio below 1: a token with a positive advantage and a ratio above "
            "delta (every token of the first pass, where r = 1) gets no gradient");
  if (o.loss_type == LossType::Cispo && o.eps_high_value() <= 1.0)
    add("cispo_cap_low", "epsHigh", {{"got", o.eps_high_value()}},
        "lossType cispo caps every ratio at epsHigh = " + format_number(o.eps_high_value()) +
            ", at or below 1 where the ratios lie: the coefficient is that constant, the cap "
            "clips every token and only scales the gradient (CISPO's recommendation is 5.0)");
  return out;
}

}  // namespace grpo
