// The toy RLVR/GRPO experiment of notebook sections 6-8, in steps: create (prompts, policy,
// supervised warm-up, frozen reference, metrics before RL), run one update at a time (rollouts
// from a frozen behaviour copy, rewards from the verifier, the GRPO objective, backward, Adam),
// then finish (metrics after RL, coverage, checkpoint). A Web Worker streams one step at a time.
#pragma once

#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/prompt_coverage.h"
#include "rl/adam.h"
#include "rl/arithmetic_task.h"
#include "rl/experiment_config.h"
#include "rl/gru_policy.h"
#include "rl/rng.h"

namespace grpo {

using Policy = GruPolicy<float>;

// Fresh-generation metrics over a prompt set (the notebook's selected columns).
struct GenerationMetrics {
  double accuracy = 0;            // share of sampled responses the verifier marks correct
  double mean_reward = 0;         // mean total reward
  double mean_length = 0;         // mean completion tokens (eos included)
  double entropy = 0;             // mean per-token entropy of the sampling distribution
  double teacher_forced_kl = 0;   // mean per-token k3 KL to the reference, teacher-forced
  double pass_at_4 = 0;           // unbiased pass@4 per prompt, averaged over prompts
  std::vector<double> by_prompt;  // per-prompt accuracy, in prompt order
  std::vector<long long> by_prompt_successes;  // per-prompt correct answers of `samples`
  int samples = 0;                             // fresh answers per prompt
  // Per prompt, the histogram of its answers (core/prompt_coverage.h answer_histogram).
  std::vector<std::vector<AnswerBin>> by_prompt_answers;
  // How many of the samples have each length in tokens (index 0 .. maxNewTokens), correct
  // ones and incorrect ones apart (section 8's length histogram, issue 23).
  std::vector<long long> length_correct, length_incorrect;
};

// One row of the per-update history (all numbers of that update).
struct HistoryRow {
  int update = 0;  // 1-based
  double eval_accuracy = 0, eval_entropy = 0;
  double informative_fraction = 0;  // groups with unequal rewards / groups
  // Of those, the groups whose correctness also differs (some right, some wrong) / groups; the
  // rest of the informative ones differ in format (or the overlong punishment) alone.
  double correctness_informative_fraction = 0;
  double discarded_fraction = 0;  // groups dropped by dynamic sampling / groups
  double ratio_min = 1, ratio_mean = 1, ratio_max = 1;  // over every epoch's unmasked tokens
  double clip_fraction_low = 0, clip_fraction_high = 0, clip_fraction_region = 0;
  double kl = 0, loss = 0, grad_norm = 0;  // means over the update's optimizer steps (pre-clip)
  double mean_reward = 0, accuracy = 0, mean_length = 0, truncated_fraction = 0;  // rollouts
  // TRL's entropy: the learner's mean per-token entropy over the loss-mask tokens (truncated
  // completions out when maskTruncated), mean over the update's epochs; 0 when no token is in.
  double entropy = 0;
  double sampler_entropy = 0;  // ours: the sampler's mean per-token entropy over every rollout
  double token_positions = 0;  // positions processed by the policy (sampling, forwards, backwards)
  // TRL's metrics that the columns above do not already give (TRL's names in the comments).
  double clip_ratio_low_min = 0, clip_ratio_high_max = 0;  // clip_ratio/low_min, high_max
  double frac_reward_zero_std = 0;  // frac_reward_zero_std, before dynamic sampling drops groups
  double min_length = 0, max_length = 0;  // completions/min_length, completions/max_length
  double cispo_clip_ratio = 0;            // cispo_clip_ratio (0 unless lossType cispo)
  // sampling/importance_sampling_ratio/{min,mean,max} and sampling/sampling_logp_difference/
  // {mean,max}: the sampler-to-learner ratio. Only with a separate sampler (samplerMismatch or
  // samplerLag > 0, has_sampler); without one TRL logs none, and the run file leaves them out.
  bool has_sampler = false;
  double sampling_ratio_min = 1, sampling_ratio_mean = 1, sampling_ratio_max = 1;
  double sampling_logp_difference_mean = 0, sampling_logp_difference_max = 0;
  double entropy_coef = 0;  // entropy_coef: the coefficient after the update's last step
  // Why entropy falls (config entropyMechanism; has_entropy_mechanism, else the run file leaves
  // them out). The probe set is fixed (Experiment::probe_entropy); theta is every parameter.
  bool has_entropy_mechanism = false;
  double probe_entropy = 0;             // the learner's mean token entropy on it, after the update
  double probe_entropy_change = 0;      // measured: after - before the update
  double probe_entropy_prediction = 0;  // first order: grad_theta H(before) . delta theta
  double step_norm = 0;                 // |delta theta|: every optimizer step of the update
  // Cov(log pi, A) over the update's loss-mask tokens (truncated rows out when maskTruncated):
  // the learner's log-prob of each sampled token before the update, its row's advantage.
  double logp_advantage_cov = 0;
  // Issue 23 (rl/history_extras.h): the mean length of the generation's correct and of its
  // incorrect completions (NaN when it has none of them: the run file leaves the column out).
  double mean_length_correct = std::numeric_limits<double>::quiet_NaN();
  double mean_length_incorrect = std::numeric_limits<double>::quiet_NaN();
  // passAtKEvery: each train and held-out prompt's correct answers among final_eval_samples
  // fresh ones after this update; empty on the updates that log none.
  std::vector<long long> pass_at_k_train, pass_at_k_heldout;
  // engine verl: verl's metrics under verl's names, reduced over the update's optimizer steps
  // as verl v0.7.0's dp_actor logs them: actor/pg_loss and actor/kl_loss (0 without the KL loss)
  // summed (dp_actor.py:434-436,536,549), the loss mode's own (actor/pg_clipfrac, actor/ppo_kl,
  // actor/pg_clipfrac_lower: those it returns) the mean (reduce_metrics' np.mean of the list).
  // Empty with engine trl (the run file then has none).
  std::vector<std::pair<std::string, double>> verl;
};

// One sampled response with everything the notebook's inspection table shows.
struct RolloutRow {
  int prompt_id = 0;
  std::vector<int> tokens;  // completion tokens, eos included when emitted
  Scored score;             // text, status, accuracy and reward components (arithmetic_task.h)
  bool terminated = false;
  std::vector<double> old_logp;  // the sampler (the behaviour policy), per token
  std::vector<double> entropy;   // the sampler, per token
  double advantage = 0;          // the update's: over the kept groups (0 in a dropped group)
  double objective_reward = 0;   // what the objective takes as this row's reward (the weighted
                                 // sum, or normalize_then_sum's group-normalised sum)
};

struct RolloutBatch {
  std::vector<std::vector<RolloutRow>> groups;  // [prompt_batch][group_size]
  std::vector<bool> kept;  // [prompt_batch] enters the update (dynamic sampling drops the rest)
  double discarded_fraction = 0;  // dropped by dynamic sampling (when on)
  double informative_fraction = 0;
  double frac_reward_zero_std = 0;  // over every group, before dynamic sampling drops any (TRL's)
  double correctness_informative_fraction = 0;  // HistoryRow's
  // engine verl with remax: each prompt's greedy completion's reward (verl's reward_baselines,
  // ray_trainer.py:1368-1400) and its tokens; empty otherwise.
  std::vector<double> greedy_rewards;  // [prompt_batch]
  double greedy_tokens = 0;
};

// Samples `config.objective.group_size` responses for each prompt from `policy` (frozen: not
// changed), scores them, marks the groups the update keeps and computes their advantages as
// the update does (the objective's group_advantages over the kept groups' rewards).
// The task's rewards (TRL: reward functions, reward_weights, multi_objective_aggregation).
// DAPO's soft overlong punishment of a completion of `length` tokens (0, a ramp, then -1).
double soft_overlong_punishment(int length, int max_completion_len, int soft_punish_cache);
// Sets score.overlong and score.reward = the weighted sum of the three functions.
void task_reward(Scored& score, int length, const ExperimentConfig& config);
// The rewards the objective takes for rows in groups of `group_size`: the weighted sums, or with
// normalize_then_sum each function normalised in its group, then weighted and summed.
std::vector<double> aggregated_rewards(const std::vector<const Scored*>& scores, int group_size,
                                       const ExperimentConfig& config);
// The objective's settings of the run (normalize_then_sum scales over the batch).
ObjectiveConfig objective_config(const ExperimentConfig& config);

RolloutBatch collect_rollouts(Policy& policy, const Vocab& vocab,
                              const std::vector<Prompt>& prompts, const ExperimentConfig& config,
                              Rng& rng);

// Fresh generation: `samples` responses per prompt, scored; with_kl adds the teacher-forced k3
// KL to `reference` on those samples (one more forward pass).
GenerationMetrics evaluate_generation(Policy& policy, Policy& reference, const Vocab& vocab,
                                      const std::vector<Prompt>& prompts, int samples,
                                      const ExperimentConfig& config, Rng& rng, bool with_kl);

// One optimizer step of an update: its loss, its metrics, and which of the generation's kept
// rows (in last_rollouts() order, kept groups only) it trained on (empty: all of them).
struct StepRecord {
  double loss = 0;
  ObjectiveMetrics metrics;
  std::vector<int> rows;
};

class Experiment;

// One optimizer step as the trainer applies it (UpdateObserver::optimizer_step): the objective's
// settings (this step's entropy coefficient), its inputs, the generation's advantages per kept
// row, and the result whose grad_logp the policy's backward takes.
struct ObservedStep {
  int epoch = 0, part = 0;
  const ObjectiveConfig& objective;
  const ObjectiveInputs& inputs;
  const std::vector<int>& rows;  // StepRecord::rows
  const std::vector<double>& advantages;
  const ObjectiveResult& result;
};

// A watcher of the updates (the step inspector's record, rl/inspection.h). Off by default; it
// reads what the trainer computes and changes none of it.
class UpdateObserver {
 public:
  virtual ~UpdateObserver() = default;
  // After the update's rollouts are collected (last_rollouts()), before its optimizer steps.
  virtual void begin_update(const Experiment& experiment) = 0;
  virtual void optimizer_step(const Experiment& experiment, const ObservedStep& step) = 0;
};

class Experiment {
 public:
  // `config` must be valid (ExperimentConfig::validate, or the API's reader, which calls it):
  // it was checked where it entered the core and is not checked again. Builds the prompts,
  // initialises the policy, runs the supervised warm-up, freezes the reference and measures
  // "before RL".
  explicit Experiment(const ExperimentConfig& config);

  bool done() const { return history_.size() >= static_cast<std::size_t>(config_.updates); }
  int updates_done() const { return static_cast<int>(history_.size()); }

  // One GRPO update (rollouts, update_epochs optimizer steps, evaluation). Throws
  // InvalidArgument when the run is already done. Without `evaluate` (a replay: the inspector's)
  // the row's evalAccuracy and evalEntropy are NaN; the evaluation has its own random stream and
  // changes no parameter, so the training itself is the same bit for bit.
  const HistoryRow& step(bool evaluate = true);

  // The optimisation part of step() alone (rollouts, objective, backward, Adam), without the
  // evaluation and without recording history: what the bench times against other GRPO loops.
  HistoryRow update();

  // Metrics after RL (fresh generation); may be called at any step (also early, after Stop).
  void finish();

  const ExperimentConfig& config() const { return config_; }
  const Vocab& vocab() const { return vocab_; }
  const std::vector<Prompt>& prompts() const { return prompts_; }
  const std::vector<Prompt>& train() const { return train_; }
  const std::vector<Prompt>& heldout() const { return heldout_; }
  const std::vector<HistoryRow>& history() const { return history_; }
  const GenerationMetrics& before_train() const { return before_train_; }
  const GenerationMetrics& before_heldout() const { return before_heldout_; }
  const GenerationMetrics& after_train() const { return after_train_; }
  const GenerationMetrics& after_heldout() const { return after_heldout_; }
  bool finished() const { return finished_; }
  Policy& policy() { return policy_; }
  // The policy the last update sampled its rollouts from (the policy itself, or the sampler
  // copy: samplerMismatch, samplerLag), and those rollouts; before any update, the policy and
  // an empty batch.
  const Policy& last_sampler() const { return last_from_copy_ ? sampler_ : policy_; }
  const RolloutBatch& last_rollouts() const { return last_rollouts_; }
  // The last update's optimizer steps, in order (updateEpochs x stepsPerGeneration of them).
  const std::vector<StepRecord>& last_steps() const { return last_steps_; }
  // The watcher of later updates (null: none); the experiment owns it.
  void set_observer(std::shared_ptr<UpdateObserver> observer) { observer_ = std::move(observer); }
  UpdateObserver* observer() const { return observer_.get(); }

 private:
  void warm_up();
  std::vector<Prompt> next_prompt_batch();
  // The policy the rollouts are sampled from: the policy itself, or a copy: the policy of
  // samplerLag k updates ago (lagged_), and with samplerMismatch s > 0 its weights rounded to
  // multiples of s. Called once per update, before its optimizer steps.
  Policy& sampler();
  // After each optimizer step: the adaptive entropy coefficient and the reference sync.
  void after_optimizer_step(double effective_entropy);
  // entropyMechanism: the learner's mean token entropy on the probe set (probe_prompts_,
  // probe_completions_); with `gradient`, also grad_theta of it there (the GRU's entropy
  // gradient, GruPolicy::backward's dentropy, as the entropy bonus uses it), in double.
  double probe_entropy(std::vector<double>* gradient);

  ExperimentConfig config_;
  Vocab vocab_;
  std::vector<Prompt> prompts_, train_, heldout_;
  Rng rng_;  // parent of the streams below
  Rng warmup_rng_, rollout_rng_, eval_rng_, batch_rng_, after_rng_;
  Rng minibatch_rng_;  // stepsPerGeneration > 1: the shuffle of each generation's rows
  // passAtKEvery's evaluations: Rng(seed).fork(9), a stream of its own (the run's stay as they
  // were).
  Rng pass_at_k_rng_;
  Policy policy_, reference_, sampler_;
  // samplerLag k > 0: the parameters after the last k updates, oldest first (fewer during the
  // first k updates, the warm-up policy first). Memory: k x num_params x 4 bytes (the smoke
  // profile's ~17k parameters: ~70 KB per snapshot, at most ~0.55 MB at k = 8).
  std::deque<std::vector<float>> lagged_;
  bool last_from_copy_ = false;  // last_sampler()
  RolloutBatch last_rollouts_;
  std::vector<StepRecord> last_steps_;
  std::shared_ptr<UpdateObserver> observer_;
  // entropyMechanism's probe set: each held-out prompt (the train prompts when there are none)
  // with one correct demonstration of the task's teacher, teacher-forced. Drawn once from
  // Rng(seed).fork(8), a stream of its own: the run's streams and bytes stay as they are.
  TokenRows probe_prompts_, probe_completions_;
  double entropy_coef_ = 0;  // the entropy bonus's coefficient (adaptive: changes per step)
  // Adaptive control: the previous step's entropy (TRL's _last_world_entropy, which starts at
  // float("inf") so that the first optimizer step applies no bonus).
  double last_step_entropy_ = std::numeric_limits<double>::infinity();
  long long optimizer_steps_ = 0;  // for refModelSyncSteps
  Adam<float> optimizer_;
  std::vector<int> batch_order_;  // shuffled train indices, consumed prompt_batch at a time
  std::size_t batch_cursor_ = 0;
  std::vector<HistoryRow> history_;
  GenerationMetrics before_train_, before_heldout_, after_train_, after_heldout_;
  bool finished_ = false;
};

}  // namespace grpo
