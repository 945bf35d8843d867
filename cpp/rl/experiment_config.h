// The toy GRPO experiment's settings. Their names, ranges, defaults per profile and TRL names are
// in one table, rl/config_fields.cpp; build a config with profile_defaults().
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "rl/grpo_objective.h"
#include "rl/task.h"
#include "rl/verl_advantages.h"
#include "rl/verl_kl_penalty.h"
#include "rl/verl_policy_loss.h"

namespace grpo {

// The engine whose objective the trainer runs: TRL's GRPOTrainer (grpo_objective.h, the default)
// or verl v0.7.0's actor (its estimator, policy loss, agg_loss and KL loss, rl/verl_*.h).
enum class Engine { Trl, Verl };
const std::vector<std::string>& engine_names();  // trl, verl

// verl's own options, used when engine = verl (docs/verl.md "The trainer with engine verl"). The
// fields verl shares with TRL are the TRL ones: epsLow/epsHigh are clip_ratio_low/high, beta is
// kl_loss_coef (use_kl_loss = beta > 0), scaleRewards none is norm_adv_by_std_in_grpo=False,
// sapoTemperaturePos/Neg are tau_pos/neg, entropyCoef is entropy_coeff.
struct VerlTrainOptions {
  verl::LossMode loss_mode = verl::LossMode::Vanilla;           // policy_loss.loss_mode
  verl::AggMode agg_mode = verl::AggMode::TokenMean;            // loss_agg_mode
  verl::Estimator estimator = verl::Estimator::Grpo;            // algorithm.adv_estimator
  double clip_ratio_c = 0;                                      // dual clip (vanilla)
  double clip_cov_ratio = 0, clip_cov_lb = 0, clip_cov_ub = 0;  // policy_loss.clip_cov_*
  double kl_cov_ratio = 0, ppo_kl_coef = 0;  // policy_loss.kl_cov_ratio, ppo_kl_coef
  verl::KlPenalty kl_loss_type = verl::KlPenalty::LowVarKl;  // kl_loss_type
};
// The estimators the trainer offers (verl's outcome estimators, enum order; gae needs a critic).
const std::vector<std::string>& verl_train_estimator_names();

// Members without defaults on purpose: every default lives in the field table.
struct ExperimentConfig {
  std::string profile;     // "smoke" (seconds) or "full" (larger budget)
  std::uint64_t seed = 0;  // every random draw of the run derives from it

  // Task: the notebook's single-digit arithmetic (rl/arithmetic_task.h), two-digit problems with
  // optional scratch work before the answer (rl/scratch_task.h), or the arithmetic problems with
  // several right answers (rl/rewrite_task.h), behind rl/task.h.
  TaskKind task = TaskKind::Arithmetic;
  int train_prompts = 0;
  int heldout_prompts = 0;
  int max_operand = 0;  // operands 0..max_operand
  // The task's reward functions and TRL's reward_weights over them: correctness, format and
  // DAPO's soft overlong punishment (get_soft_overlong_punishment), aggregated as
  // multi_objective_aggregation says (rl/trainer.cpp task_reward, aggregated_rewards).
  double correctness_weight = 0;        // reward_weights[0]
  double format_weight = 0;             // reward_weights[1]
  double overlong_weight = 0;           // reward_weights[2]; 0 leaves the function out
  int overlong_max_completion_len = 0;  // its max_completion_len
  int soft_punish_cache = 0;            // its soft_punish_cache
  bool normalize_then_sum = false;      // multi_objective_aggregation

  // Policy (rl/gru_policy.h).
  int embed = 0;   // E
  int hidden = 0;  // H

  // Supervised warm-up on a noisy teacher, so the base policy is right only sometimes.
  int warmup_steps = 0;
  double warmup_learning_rate = 0;
  double teacher_accuracy = 0;  // share of correct demonstrations

  // GRPO: the objective's settings (group size, loss type, clipping, beta, the completion
  // length that sampling also uses) are the objective's own struct, passed on as it is.
  ObjectiveConfig objective;
  int prompt_batch = 0;  // prompts per update
  int updates = 0;
  int update_epochs = 0;
  // TRL's steps_per_generation S: an update samples one generation (promptBatch x groupSize
  // completions, TRL's generation_batch_size), shuffles its rows and splits them into S
  // mini-batches (TRL's per_device_train_batch_size = generation / S on one process), one
  // optimizer step each, update_epochs times over: S x update_epochs steps per update. The old
  // log-probs are the generating policy's, so every step after the first sees ratios != 1.
  int steps_per_generation = 0;
  double temperature = 0;
  double learning_rate = 0;
  double max_grad_norm = 0;
  bool dynamic_sampling = false;  // drop groups whose rewards are all equal
  // The sampler: 0 samples from the policy itself; s > 0 from a copy whose weights are rounded
  // to multiples of s (a low-precision inference engine), which the correction then corrects.
  double sampler_mismatch = 0;
  // The sampler lags k updates (one-step-off-policy and asynchronous RL): update u samples from
  // the policy after update max(0, u - 1 - k), the warm-up policy being update 0's. TRL has no
  // such option; its vLLM sampler with weights synced k updates late is the same thing.
  int sampler_lag = 0;
  // A sampler other than the learner (TRL's vLLM): samplerMismatch > 0 or samplerLag > 0.
  bool separate_sampler() const { return sampler_mismatch > 0 || sampler_lag > 0; }

  // TRL's adaptive entropy control (use_adaptive_entropy and its four settings).
  bool use_adaptive_entropy = false;
  double entropy_target = 0;
  double entropy_coef_delta = 0;
  double entropy_coef_min = 0;
  double entropy_coef_max = 0;

  // TRL's reference-model sync (TR-DPO): every N optimizer steps ref <- a policy + (1 - a) ref.
  bool sync_ref_model = false;
  double ref_model_mixup_alpha = 0;
  int ref_model_sync_steps = 0;

  Engine engine = Engine::Trl;
  VerlTrainOptions verl_options;

  // Evaluation by fresh generation.
  int eval_samples = 0;        // per train prompt, after every update
  int final_eval_samples = 0;  // per prompt, before/after RL (pass@4 needs >= 4)
  // Why entropy falls (docs/entropy-mechanism.md, "The GRU"): per update, the learner's entropy
  // on a fixed probe set before and after, the first-order prediction grad H . (theta_after -
  // theta_before) and Cov(log pi, A) over the batch's loss-mask tokens, as history columns.
  // Off by default (it costs a forward and a backward on the probe per update); on or off, the
  // run's other numbers are the same bit for bit.
  bool entropy_mechanism = false;
  // pass@k during training (issue 23): every N updates (0: never) the policy answers each train
  // and held-out prompt final_eval_samples times, from a stream of its own, and the history row
  // of that update holds pass@k at k = 1, 2, 4, ... (rl/history_extras.h). Off by default; on or
  // off, the run's other numbers are the same bit for bit.
  int pass_at_k_every = 0;
  // At most this many pass@k evaluations in a run (updates / passAtKEvery): each costs a full
  // evaluation, and the run file must stay within its 64 MiB at 50 000 updates.
  static constexpr int kMaxPassAtKLogs = 200;

  // For a config built in C++: checks every field against the table (config_fields.h
  // check_field) and check_field_relations; throws InvalidArgument naming the field. (The API's
  // reader checks each value it reads instead.)
  void validate() const;
};

// The rules between fields (InvalidArgument naming the field): TRL's (ObjectiveConfig's
// check_relations and check_sampler_relations, docs/trl.md "Configs TRL refuses") and the toy's
// own (promptBatch <= trainPrompts, the task's problems, normalize_then_sum's estimator).
void check_field_relations(const ExperimentConfig& config);
// Its part for engine verl (nothing with engine trl): the TRL-only options verl has no term for,
// refused naming the field and engine (code one_of_with), and clipCovLb < clipCovUb.
void check_verl_relations(const ExperimentConfig& config);

// The profiles' names, in the table's order of default columns.
const std::vector<std::string>& profile_names();

// The defaults of a profile; throws InvalidArgument for an unknown name.
ExperimentConfig profile_defaults(const std::string& profile);

}  // namespace grpo
