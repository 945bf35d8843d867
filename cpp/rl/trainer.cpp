// The toy RLVR/GRPO experiment: warm-up, rollouts, GRPO updates, fresh-generation evaluation.
#include "rl/trainer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/coverage_metrics.h"
#include "core/errors.h"
#include "core/interrupt.h"
#include "rl/history_extras.h"
#include "rl/trainer_verl.h"
#include "rl/warmup_cache.h"

namespace grpo {
namespace {

GruDims dims_of(const ExperimentConfig& config, const Vocab& vocab) {
  return GruDims{static_cast<int>(vocab.tokens.size()), config.embed, config.hidden};
}

TokenRows prompt_tokens(const std::vector<Prompt>& prompts) {
  TokenRows rows;
  rows.reserve(prompts.size());
  for (const Prompt& prompt : prompts) rows.push_back(prompt.tokens);
  return rows;
}

// One optimizer step's batch: its rows (one prompt row per completion when split), their inputs,
// and the positions one pass over it touches.
struct MiniBatch {
  TokenRows prompts, completions;
  ObjectiveInputs inputs;
  std::vector<int> rows;  // indices into the generation's kept rows (empty: all, in order)
  double positions = 0;
};

// stepsPerGeneration S > 1: the generation's kept rows shuffled (shuffle_sequence_dict) and split
// into S parts (split_tensor_dict; near-equal when dynamic sampling kept fewer rows, an empty
// part dropped), each with the generation's advantages and TRL's num_items_in_batch, the
// generation's loss-mask tokens (dapo's normaliser).
std::vector<MiniBatch> split_generation(const TokenRows& prompts, const TokenRows& completions,
                                        const ObjectiveInputs& all,
                                        const std::vector<double>& advantages, int group, int parts,
                                        bool mask_truncated, Rng& rng) {
  const std::size_t n = completions.size();
  std::vector<int> order(n);
  for (std::size_t j = 0; j < n; ++j) order[j] = static_cast<int>(j);
  for (std::size_t i = n; i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  double items = 0;
  for (std::size_t j = 0; j < n; ++j)
    if (!(mask_truncated && all.truncated[j])) items += static_cast<double>(completions[j].size());
  std::vector<MiniBatch> out;
  const std::size_t count = static_cast<std::size_t>(parts);
  std::size_t begin = 0;
  for (std::size_t m = 0; m < count; ++m) {
    const std::size_t size = n / count + (m < n % count ? 1 : 0);
    if (size == 0) continue;
    MiniBatch part;
    part.inputs.advantages.emplace();
    part.inputs.num_items_in_batch = items;
    if (all.sampling_logp) part.inputs.sampling_logp.emplace();
    for (std::size_t k = begin; k < begin + size; ++k) {
      const std::size_t j = static_cast<std::size_t>(order[k]);
      part.rows.push_back(order[k]);
      part.prompts.push_back(prompts[j / static_cast<std::size_t>(group)]);
      part.completions.push_back(completions[j]);
      part.inputs.truncated.push_back(all.truncated[j]);
      part.inputs.advantages->push_back(advantages[j]);
      if (all.sampling_logp) part.inputs.sampling_logp->push_back((*all.sampling_logp)[j]);
    }
    begin += size;
    out.push_back(std::move(part));
  }
  return out;
}

// entropyMechanism: Cov(log pi, A) over the parts' loss-mask tokens (truncated rows out when
// mask_truncated), log pi the learner's before any step (old_logp), A the row's advantage; plain
// means, two passes; 0 without a token.
double logp_advantage_cov(const std::vector<MiniBatch>& parts,
                          const std::vector<double>& advantages, bool mask_truncated) {
  double count = 0, sum_lp = 0, sum_a = 0, sum_product = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const double mean_lp = count > 0 ? sum_lp / count : 0.0;
    const double mean_a = count > 0 ? sum_a / count : 0.0;
    for (const MiniBatch& part : parts)
      for (std::size_t k = 0; k < part.completions.size(); ++k) {
        if (mask_truncated && part.inputs.truncated[k]) continue;
        const double a = advantages[part.rows.empty() ? k : static_cast<std::size_t>(part.rows[k])];
        for (double lp : (*part.inputs.old_logp)[k]) {
          if (pass == 0) {
            count += 1;
            sum_lp += lp;
            sum_a += a;
          } else {
            sum_product += (lp - mean_lp) * (a - mean_a);
          }
        }
      }
  }
  return count > 0 ? sum_product / count : 0.0;
}

// A step's verl metrics into the update's sums (the same keys every step, in verl's order);
// verl_metrics_over_steps turns them into what verl logs.
void add_verl_metrics(std::vector<std::pair<std::string, double>>& sums,
                      const std::vector<std::pair<std::string, double>>& step) {
  if (sums.empty()) {
    for (const auto& [name, value] : step) sums.emplace_back(name, 0.0);
  }
  for (std::size_t k = 0; k < step.size() && k < sums.size(); ++k) sums[k].second += step[k].second;
}

// dp_actor accumulates actor/pg_loss and actor/kl_loss over the update (`metrics[k] += loss *
// loss_scale_factor`, one term a mini-batch per epoch: ours has one micro-batch), the rest are
// lists reduce_metrics averages.
void verl_metrics_over_steps(std::vector<std::pair<std::string, double>>& sums, int steps) {
  for (auto& [name, value] : sums)
    if (name != "actor/pg_loss" && name != "actor/kl_loss") value /= steps;
}

}  // namespace

ObjectiveConfig objective_config(const ExperimentConfig& config) {
  ObjectiveConfig objective = config.objective;
  objective.scale_rewards = aggregated_scale(
      objective.scale_rewards, config.normalize_then_sum ? RewardAggregation::NormalizeThenSum
                                                         : RewardAggregation::SumThenNormalize);
  return objective;
}

double soft_overlong_punishment(int length, int max_completion_len, int soft_punish_cache) {
  // trl/rewards/other_rewards.py get_soft_overlong_punishment: 0 up to max - cache, then a linear
  // ramp to -1 at max, -1 beyond.
  const int expected = max_completion_len - soft_punish_cache;
  if (length <= expected) return 0.0;
  if (length <= max_completion_len)
    return static_cast<double>(expected - length) / soft_punish_cache;
  return -1.0;
}

void task_reward(Scored& score, int length, const ExperimentConfig& config) {
  score.overlong = config.overlong_weight != 0
                       ? soft_overlong_punishment(length, config.overlong_max_completion_len,
                                                  config.soft_punish_cache)
                       : 0.0;
  // sum_then_normalize's reward: TRL's (rewards_per_func * reward_weights).nansum(1).
  if (config.correctness_weight != 1.0 || config.overlong_weight != 0)
    score.reward = config.correctness_weight * score.correctness +
                   config.format_weight * score.format + config.overlong_weight * score.overlong;
}

std::vector<double> aggregated_rewards(const std::vector<const Scored*>& scores, int group_size,
                                       const ExperimentConfig& config) {
  if (!config.normalize_then_sum) {
    std::vector<double> out(scores.size());
    for (std::size_t j = 0; j < scores.size(); ++j) out[j] = scores[j]->reward;
    return out;
  }
  // normalize_then_sum (the batch normalisation follows in the objective, objective_config).
  const std::vector<double> weights = {config.correctness_weight, config.format_weight,
                                       config.overlong_weight};
  const std::size_t functions = config.overlong_weight != 0 ? 3 : 2;
  Ragged per_func(scores.size());
  for (std::size_t j = 0; j < scores.size(); ++j) {
    const double values[] = {scores[j]->correctness, scores[j]->format, scores[j]->overlong};
    per_func[j].assign(values, values + functions);
  }
  return aggregate_rewards(per_func, {weights.begin(), weights.begin() + functions}, group_size,
                           RewardAggregation::NormalizeThenSum);
}

RolloutBatch collect_rollouts(Policy& policy, const Vocab& vocab,
                              const std::vector<Prompt>& prompts, const ExperimentConfig& config,
                              Rng& rng) {
  const int group = config.objective.group_size;
  const Task& task = task_of(config.task);
  SampleOutput sampled;
  policy.sample(prompt_tokens(prompts), group, config.objective.max_completion_length,
                config.temperature, vocab.eos_id, rng, sampled);
  RolloutBatch batch;
  batch.groups.resize(prompts.size());
  if (config.engine == Engine::Verl && config.verl_options.estimator == verl::Estimator::Remax) {
    // verl's REMAX baseline: one greedy completion per prompt from the same policy, scored by
    // the same reward (ray_trainer.py:1368-1400, do_sample=False). Greedy draws no rng.
    SampleOutput greedy;
    policy.greedy(prompt_tokens(prompts), config.objective.max_completion_length,
                  config.temperature, vocab.eos_id, greedy);
    for (std::size_t p = 0; p < prompts.size(); ++p) {
      Scored score =
          task.score(greedy.tokens[p], greedy.terminated[p], prompts[p], config.format_weight);
      task_reward(score, static_cast<int>(greedy.tokens[p].size()), config);
      batch.greedy_rewards.push_back(score.reward);
      batch.greedy_tokens += static_cast<double>(greedy.tokens[p].size());
    }
  }
  for (std::size_t p = 0; p < prompts.size(); ++p) {
    for (int g = 0; g < group; ++g) {
      const std::size_t j = p * group + g;
      RolloutRow row;
      row.prompt_id = prompts[p].id;
      row.tokens = sampled.tokens[j];
      row.terminated = sampled.terminated[j];
      row.score = task.score(row.tokens, row.terminated, prompts[p], config.format_weight);
      task_reward(row.score, static_cast<int>(row.tokens.size()), config);
      row.old_logp = sampled.logp[j];
      row.entropy = sampled.entropy[j];
      batch.groups[p].push_back(std::move(row));
    }
  }
  // TRL's frac_reward_zero_std, over every group (TRL logs it before any group could be dropped).
  {
    std::vector<const Scored*> all_scores;
    for (const auto& rows : batch.groups)
      for (const RolloutRow& r : rows) all_scores.push_back(&r.score);
    batch.frac_reward_zero_std = frac_reward_zero_std(aggregated_rewards(all_scores, group, config),
                                                      group, objective_config(config).scale_rewards,
                                                      config.objective.advantage_estimator);
  }
  // Which groups the update uses: all, or with dynamic sampling only those whose rewards differ.
  int informative = 0, correctness_informative = 0;
  batch.kept.assign(prompts.size(), true);
  std::vector<const Scored*> kept_scores;
  for (std::size_t p = 0; p < prompts.size(); ++p) {
    const auto& rows = batch.groups[p];
    const bool differ = std::any_of(rows.begin(), rows.end(), [&](const RolloutRow& r) {
      return r.score.reward != rows[0].score.reward;
    });
    informative += differ ? 1 : 0;
    const bool right_and_wrong = std::any_of(rows.begin(), rows.end(), [&](const RolloutRow& r) {
      return r.score.correctness != rows[0].score.correctness;
    });
    correctness_informative += differ && right_and_wrong ? 1 : 0;
    batch.kept[p] = differ || !config.dynamic_sampling;
    if (batch.kept[p])
      for (const RolloutRow& r : rows) kept_scores.push_back(&r.score);
  }
  // What the objective sees of the kept groups' rewards (sum_then_normalize: the weighted sum).
  const std::vector<double> kept_rewards = aggregated_rewards(kept_scores, group, config);
  {
    std::size_t next = 0;
    for (std::size_t p = 0; p < prompts.size(); ++p)
      if (batch.kept[p])
        for (RolloutRow& r : batch.groups[p]) r.objective_reward = kept_rewards[next++];
  }
  // Advantages as the update computes them: over the kept groups only (with batch scaling the
  // batch std is theirs); a dropped group's rewards are all equal, so its advantages are 0.
  if (!kept_rewards.empty()) {
    std::vector<int> lengths;       // engine verl: its estimators see each response's tokens
    std::vector<double> baselines;  // remax: the row's prompt's greedy reward
    if (config.engine == Engine::Verl)
      for (std::size_t p = 0; p < prompts.size(); ++p)
        if (batch.kept[p])
          for (const RolloutRow& r : batch.groups[p]) {
            lengths.push_back(static_cast<int>(r.tokens.size()));
            if (!batch.greedy_rewards.empty()) baselines.push_back(batch.greedy_rewards[p]);
          }
    const std::vector<double> advantages =
        config.engine == Engine::Verl
            ? verl_row_advantages(config, kept_rewards, lengths, group, baselines)
            : grpo_advantages(kept_rewards, group, objective_config(config).scale_rewards,
                              config.objective.advantage_estimator);
    std::size_t next = 0;
    for (std::size_t p = 0; p < prompts.size(); ++p)
      if (batch.kept[p])
        for (RolloutRow& r : batch.groups[p]) r.advantage = advantages[next++];
  }
  const double groups = static_cast<double>(prompts.size());
  batch.informative_fraction = informative / groups;
  batch.correctness_informative_fraction = correctness_informative / groups;
  batch.discarded_fraction = config.dynamic_sampling ? (groups - informative) / groups : 0.0;
  return batch;
}

GenerationMetrics evaluate_generation(Policy& policy, Policy& reference, const Vocab& vocab,
                                      const std::vector<Prompt>& prompts, int samples,
                                      const ExperimentConfig& config, Rng& rng, bool with_kl) {
  GenerationMetrics metrics;
  if (prompts.empty()) return metrics;
  const Task& task = task_of(config.task);
  const TokenRows prompt_rows = prompt_tokens(prompts);
  SampleOutput sampled;
  policy.sample(prompt_rows, samples, config.objective.max_completion_length, config.temperature,
                vocab.eos_id, rng, sampled);
  double tokens = 0, entropy = 0, reward = 0, correct = 0, pass = 0;
  metrics.length_correct.assign(config.objective.max_completion_length + 1, 0);
  metrics.length_incorrect.assign(config.objective.max_completion_length + 1, 0);
  for (std::size_t p = 0; p < prompts.size(); ++p) {
    int prompt_correct = 0;
    std::vector<std::pair<std::string, std::string>> answers;  // {status, wrong answer}
    for (int g = 0; g < samples; ++g) {
      const std::size_t j = p * samples + g;
      Scored score =
          task.score(sampled.tokens[j], sampled.terminated[j], prompts[p], config.format_weight);
      task_reward(score, static_cast<int>(sampled.tokens[j].size()), config);
      prompt_correct += score.accuracy;
      (score.accuracy > 0 ? metrics.length_correct
                          : metrics.length_incorrect)[sampled.tokens[j].size()] += 1;
      answers.emplace_back(status_name(score.status),
                           score.status == VerifierStatus::Incorrect ? score.answer : "");
      reward += score.reward;
      tokens += static_cast<double>(sampled.tokens[j].size());
      for (double h : sampled.entropy[j]) entropy += h;
    }
    correct += prompt_correct;
    metrics.by_prompt.push_back(static_cast<double>(prompt_correct) / samples);
    metrics.by_prompt_successes.push_back(prompt_correct);
    metrics.by_prompt_answers.push_back(answer_histogram(answers, prompts[p].answer));
    pass += samples >= 4 ? pass_at_k_unbiased(samples, prompt_correct, 4) : 0.0;
  }
  metrics.samples = samples;
  const double rows = static_cast<double>(prompts.size()) * samples;
  metrics.accuracy = correct / rows;
  metrics.mean_reward = reward / rows;
  metrics.mean_length = tokens / rows;
  metrics.entropy = tokens > 0 ? entropy / tokens : 0.0;
  metrics.pass_at_4 = samples >= 4 ? pass / static_cast<double>(prompts.size())
                                   : std::numeric_limits<double>::quiet_NaN();
  if (with_kl && tokens > 0) {
    // Both policies teacher-forced through the same code path, so equal parameters give exactly 0.
    PolicyOutput current, ref;
    policy.forward(prompt_rows, sampled.tokens, config.temperature, current);
    reference.forward(prompt_rows, sampled.tokens, config.temperature, ref);
    double kl = 0;
    for (std::size_t j = 0; j < sampled.tokens.size(); ++j)
      for (std::size_t t = 0; t < sampled.tokens[j].size(); ++t)
        kl += k3_kl(current.logp[j][t], ref.logp[j][t]);
    metrics.teacher_forced_kl = kl / tokens;
  }
  return metrics;
}

Experiment::Experiment(const ExperimentConfig& config)
    : config_(config),
      vocab_(task_of(config.task).vocab()),
      rng_(config.seed),
      warmup_rng_(rng_.fork(1)),
      rollout_rng_(rng_.fork(2)),
      eval_rng_(rng_.fork(3)),
      batch_rng_(rng_.fork(4)),
      after_rng_(rng_.fork(6)),
      // Not from rng_ (each fork advances it): the streams above stay as they were.
      minibatch_rng_(Rng(config.seed).fork(7)),
      pass_at_k_rng_(Rng(config.seed).fork(9)),
      policy_(dims_of(config_, vocab_)),
      reference_(dims_of(config_, vocab_)),
      sampler_(dims_of(config_, vocab_)),
      entropy_coef_(config.objective.entropy_coef),
      optimizer_(policy_.num_params(), AdamConfig{config_.learning_rate}) {
  prompts_ = task_of(config_.task)
                 .prompts(config_.seed, config_.max_operand, config_.train_prompts,
                          config_.heldout_prompts);
  for (const Prompt& prompt : prompts_)
    (prompt.split == "train" ? train_ : heldout_).push_back(prompt);

  if (config_.entropy_mechanism) {
    const Task& task = task_of(config_.task);
    Rng probe_rng = Rng(config_.seed).fork(8);  // not rng_: the run's streams stay as they were
    for (const Prompt& prompt : heldout_.empty() ? train_ : heldout_) {
      probe_prompts_.push_back(prompt.tokens);
      probe_completions_.push_back(task.demonstration(prompt, 1.0, probe_rng));
    }
  }

  Rng init_rng = rng_.fork(5);  // on a cache hit too: rng_'s later forks stay as they were
  const std::string warmup = warmup_key(config_, static_cast<int>(vocab_.tokens.size()));
  if (!warmup_cache_find(warmup, policy_.params())) {
    policy_.reset_parameters(init_rng);
    warm_up();
    warmup_cache_store(warmup, policy_.params());
  }
  reference_.params() = policy_.params();  // the frozen reference is the warmed-up base

  for (std::size_t i = 0; i < train_.size(); ++i) batch_order_.push_back(static_cast<int>(i));
  batch_cursor_ = batch_order_.size();  // shuffle before the first batch

  before_train_ = evaluate_generation(policy_, reference_, vocab_, train_,
                                      config_.final_eval_samples, config_, eval_rng_, true);
  before_heldout_ = evaluate_generation(policy_, reference_, vocab_, heldout_,
                                        config_.final_eval_samples, config_, eval_rng_, true);
}

void Experiment::warm_up() {
  // Supervised fine-tuning on a noisy teacher's demonstrations over every prompt (train and
  // held-out), fresh demonstrations each step: the base policy learns to answer in format and
  // to be right about as often as the teacher, which gives GRPO informative groups.
  constexpr int kDemosPerPrompt = 4;
  const Task& task = task_of(config_.task);
  Adam<float> warmup_optimizer(policy_.num_params(), AdamConfig{config_.warmup_learning_rate});
  const TokenRows prompts = prompt_tokens(prompts_);
  TokenRows demos(prompts_.size() * kDemosPerPrompt);
  PolicyOutput out;
  Ragged dlogp;
  for (int step = 0; step < config_.warmup_steps; ++step) {
    interruption_point();
    double tokens = 0;
    for (std::size_t p = 0; p < prompts_.size(); ++p) {
      for (int d = 0; d < kDemosPerPrompt; ++d) {
        std::vector<int>& demo = demos[p * kDemosPerPrompt + d];
        demo = task.demonstration(prompts_[p], config_.teacher_accuracy, warmup_rng_);
        tokens += static_cast<double>(demo.size());
      }
    }
    policy_.forward(prompts, demos, 1.0, out);
    dlogp.resize(demos.size());
    for (std::size_t j = 0; j < demos.size(); ++j) dlogp[j].assign(demos[j].size(), -1.0 / tokens);
    policy_.zero_grad();
    policy_.backward(dlogp);
    clip_grad_norm(policy_.grads(), config_.max_grad_norm);
    warmup_optimizer.step(policy_.params(), policy_.grads());
  }
}

Policy& Experiment::sampler() {
  if (!config_.separate_sampler()) return policy_;
  const std::size_t lag = static_cast<std::size_t>(config_.sampler_lag);
  if (lag > 0) {
    // Update u samples from the policy after update max(0, u - 1 - k): the oldest snapshot,
    // or before the first update the policy itself (the warm-up policy). Then the policy as it
    // is now joins the ring, the oldest leaving once k are kept.
    sampler_.params() = lagged_.empty() ? policy_.params() : lagged_.front();
    lagged_.push_back(policy_.params());
    if (lagged_.size() > lag) lagged_.pop_front();
  } else {
    sampler_.params() = policy_.params();
  }
  const double step = config_.sampler_mismatch;
  if (step == 0) return sampler_;
  for (float& w : sampler_.params())
    w = static_cast<float>(step * std::nearbyint(static_cast<double>(w) / step));
  return sampler_;
}

void Experiment::after_optimizer_step(double effective_entropy) {
  ++optimizer_steps_;
  if (config_.use_adaptive_entropy) {
    // TRL's controller: the coefficient grows while the entropy is at or below the target.
    entropy_coef_ =
        effective_entropy <= config_.entropy_target
            ? std::min(entropy_coef_ + config_.entropy_coef_delta, config_.entropy_coef_max)
            : std::max(entropy_coef_ - config_.entropy_coef_delta, config_.entropy_coef_min);
    last_step_entropy_ = effective_entropy;
  }
  if (config_.sync_ref_model && optimizer_steps_ % config_.ref_model_sync_steps == 0) {
    // SyncRefModelCallback: ref <- alpha * policy + (1 - alpha) * ref.
    const double alpha = config_.ref_model_mixup_alpha;
    std::vector<float>& ref = reference_.params();
    const std::vector<float>& now = policy_.params();
    for (std::size_t k = 0; k < ref.size(); ++k)
      ref[k] = static_cast<float>(alpha * now[k] + (1.0 - alpha) * ref[k]);
  }
}

double Experiment::probe_entropy(std::vector<double>* gradient) {
  PolicyOutput out;
  policy_.forward(probe_prompts_, probe_completions_, config_.temperature, out);
  double tokens = 0, sum = 0;
  for (const auto& row : out.entropy)
    for (double h : row) {
      sum += h;
      tokens += 1;
    }
  if (gradient != nullptr && tokens > 0) {
    // d(mean entropy)/d entropy[j][t] = 1/tokens, no log-prob term: backward gives grad_theta H.
    Ragged dlogp(out.logp.size()), dentropy(out.entropy.size());
    for (std::size_t j = 0; j < out.entropy.size(); ++j) {
      dlogp[j].assign(out.entropy[j].size(), 0.0);
      dentropy[j].assign(out.entropy[j].size(), 1.0 / tokens);
    }
    const std::vector<float> kept = policy_.grads();  // the trainer's gradients stay as they were
    policy_.zero_grad();
    policy_.backward(dlogp, &dentropy);
    gradient->assign(policy_.grads().begin(), policy_.grads().end());
    policy_.grads() = kept;
  } else if (gradient != nullptr) {
    gradient->assign(policy_.num_params(), 0.0);
  }
  return tokens > 0 ? sum / tokens : 0.0;
}

std::vector<Prompt> Experiment::next_prompt_batch() {
  std::vector<Prompt> batch;
  while (batch.size() < static_cast<std::size_t>(config_.prompt_batch)) {
    if (batch_cursor_ >= batch_order_.size()) {
      // Fisher-Yates with our own RNG: every prompt once per pass, in a seeded order.
      for (std::size_t i = batch_order_.size(); i > 1; --i)
        std::swap(batch_order_[i - 1], batch_order_[batch_rng_.below(i)]);
      batch_cursor_ = 0;
    }
    batch.push_back(train_[batch_order_[batch_cursor_++]]);
  }
  return batch;
}

const HistoryRow& Experiment::step(bool evaluate) {
  require(!done(), [&] {
    return "updates: the run has finished all " + std::to_string(config_.updates) + " updates";
  });
  HistoryRow row = update();
  if (evaluate) {
    const GenerationMetrics eval = evaluate_generation(
        policy_, reference_, vocab_, train_, config_.eval_samples, config_, eval_rng_, false);
    row.eval_accuracy = eval.accuracy;
    row.eval_entropy = eval.entropy;
    if (logs_pass_at_k(config_, row.update)) {
      row.pass_at_k_train =
          prompt_successes(policy_, reference_, vocab_, train_, config_, pass_at_k_rng_);
      row.pass_at_k_heldout =
          prompt_successes(policy_, reference_, vocab_, heldout_, config_, pass_at_k_rng_);
    }
  } else {
    row.eval_accuracy = row.eval_entropy = std::numeric_limits<double>::quiet_NaN();
  }
  history_.push_back(row);
  return history_.back();
}

HistoryRow Experiment::update() {
  const int group = config_.objective.group_size;
  // entropyMechanism: the parameters, the probe's entropy and its gradient before any step.
  std::vector<float> theta_before;
  std::vector<double> probe_gradient;
  double probe_before = 0;
  if (config_.entropy_mechanism) {
    theta_before = policy_.params();
    probe_before = probe_entropy(&probe_gradient);
  }
  const std::vector<Prompt> batch_prompts = next_prompt_batch();
  Policy& behaviour = sampler();
  last_from_copy_ = &behaviour == &sampler_;
  last_rollouts_ = collect_rollouts(behaviour, vocab_, batch_prompts, config_, rollout_rng_);
  const RolloutBatch& rollouts = last_rollouts_;
  const bool separate_sampler = config_.separate_sampler();
  if (observer_) observer_->begin_update(*this);

  HistoryRow row;
  row.update = updates_done() + 1;
  row.informative_fraction = rollouts.informative_fraction;
  row.correctness_informative_fraction = rollouts.correctness_informative_fraction;
  row.discarded_fraction = rollouts.discarded_fraction;
  row.frac_reward_zero_std = rollouts.frac_reward_zero_std;
  row.has_sampler = separate_sampler;

  // The update batch: every group, or with dynamic sampling only the informative ones.
  TokenRows prompts, completions;
  ObjectiveInputs inputs;
  if (separate_sampler) inputs.sampling_logp.emplace();
  std::vector<double> advantages;  // the generation's, per kept row (stepsPerGeneration > 1)
  double tokens = 0, entropy = 0;
  row.min_length = std::numeric_limits<double>::infinity();
  row.max_length = 0;
  for (std::size_t p = 0; p < rollouts.groups.size(); ++p) {
    const auto& rows = rollouts.groups[p];
    for (const RolloutRow& r : rows) {
      row.mean_reward += r.score.reward;
      row.accuracy += r.score.accuracy;
      row.mean_length += static_cast<double>(r.tokens.size());
      row.truncated_fraction += r.terminated ? 0.0 : 1.0;
      row.min_length = std::min(row.min_length, static_cast<double>(r.tokens.size()));
      row.max_length = std::max(row.max_length, static_cast<double>(r.tokens.size()));
      tokens += static_cast<double>(r.tokens.size());
      for (double h : r.entropy) entropy += h;
    }
    if (!rollouts.kept[p]) continue;
    prompts.push_back(batch_prompts[p].tokens);
    for (const RolloutRow& r : rows) {
      completions.push_back(r.tokens);
      inputs.rewards.push_back(r.objective_reward);
      inputs.truncated.push_back(!r.terminated);
      advantages.push_back(r.advantage);
      if (separate_sampler) inputs.sampling_logp->push_back(r.old_logp);
    }
  }
  const double sampled = static_cast<double>(rollouts.groups.size()) * group;
  row.mean_reward /= sampled;
  row.accuracy /= sampled;
  row.mean_length /= sampled;
  row.truncated_fraction /= sampled;
  row.sampler_entropy = tokens > 0 ? entropy / tokens : 0.0;
  add_correctness_lengths(rollouts, row);

  // Every position the policy touches: sampling, and each forward and backward pass below.
  const double prompt_len = batch_prompts.empty() ? 0.0 : batch_prompts[0].tokens.size();
  row.token_positions = static_cast<double>(batch_prompts.size()) * prompt_len + tokens;
  if (!rollouts.greedy_rewards.empty())  // remax's greedy decoding
    row.token_positions +=
        static_cast<double>(batch_prompts.size()) * prompt_len + rollouts.greedy_tokens;
  last_steps_.clear();
  if (!prompts.empty()) {
    // The optimizer steps' batches: with stepsPerGeneration 1 the generation as it is; with S > 1
    // its rows shuffled and split into S parts (TRL's shuffle_sequence_dict, split_tensor_dict).
    std::vector<MiniBatch> parts =
        config_.steps_per_generation == 1
            ? std::vector<MiniBatch>{MiniBatch{prompts, completions, inputs, {}}}
            : split_generation(prompts, completions, inputs, advantages, group,
                               config_.steps_per_generation, config_.objective.mask_truncated,
                               minibatch_rng_);
    PolicyOutput out;
    // The behaviour ("old") log-probs: the generating policy's, before any step (TRL computes
    // them at generation time when the batch is reused). The last forward is the first part's,
    // which its first step reuses: the first step's ratios are exactly 1, as in TRL.
    for (std::size_t m = parts.size(); m-- > 0;) {
      MiniBatch& part = parts[m];
      for (const auto& c : part.completions) part.positions += static_cast<double>(c.size());
      part.positions += static_cast<double>(part.prompts.size()) * prompt_len;
      if (m > 0) row.token_positions += part.positions;  // the first part's is its first step's
      policy_.forward(part.prompts, part.completions, config_.temperature, out);
      part.inputs.old_logp = out.logp;
      if (config_.objective.beta > 0) {
        PolicyOutput ref;
        reference_.forward(part.prompts, part.completions, config_.temperature, ref);
        part.inputs.ref_logp = ref.logp;
        row.token_positions += part.positions;
      }
    }
    if (config_.entropy_mechanism)
      row.logp_advantage_cov =
          logp_advantage_cov(parts, advantages, config_.objective.mask_truncated);
    row.ratio_min = std::numeric_limits<double>::infinity();
    row.ratio_max = -std::numeric_limits<double>::infinity();
    row.ratio_mean = 0;
    int steps_with_tokens = 0, steps = 0;
    row.clip_ratio_low_min = std::numeric_limits<double>::infinity();
    row.clip_ratio_high_max = 0;
    // sampling/*: over the whole generation, pooled from the first epoch's parts.
    double sampling_ratio_sum = 0, sampling_ratio_count = 0, difference_sum = 0,
           difference_count = 0;
    row.sampling_ratio_min = std::numeric_limits<double>::infinity();
    row.sampling_ratio_max = -std::numeric_limits<double>::infinity();
    ObjectiveConfig objective = objective_config(config_);
    for (int epoch = 0; epoch < config_.update_epochs; ++epoch) {
      for (std::size_t m = 0; m < parts.size(); ++m) {
        MiniBatch& part = parts[m];
        if (epoch > 0 || m > 0)
          policy_.forward(part.prompts, part.completions, config_.temperature, out);
        part.inputs.logp = out.logp;
        part.inputs.entropies = out.entropy;
        // The entropy bonus with this step's coefficient (adaptive: gated on the last step's
        // entropy, as TRL applies the coefficient from the end of the previous step).
        objective.entropy_coef =
            (!config_.use_adaptive_entropy || last_step_entropy_ <= config_.entropy_target)
                ? entropy_coef_
                : 0.0;
        const ObjectiveResult result =
            config_.engine == Engine::Verl
                ? verl_objective(config_, objective.entropy_coef, part.inputs,
                                 part.inputs.advantages ? *part.inputs.advantages : advantages)
                : grpo_objective(objective, part.inputs);
        row.token_positions += 2 * part.positions;  // this step's forward and backward
        if (observer_)
          observer_->optimizer_step(
              *this, ObservedStep{epoch, static_cast<int>(m), objective, part.inputs, part.rows,
                                  advantages, result});
        policy_.zero_grad();
        policy_.backward(result.grad_logp,
                         objective.entropy_coef != 0.0 ? &result.grad_entropy : nullptr);
        const double norm = clip_grad_norm(policy_.grads(), config_.max_grad_norm);
        optimizer_.step(policy_.params(), policy_.grads());
        const ObjectiveMetrics& m_ = result.metrics;
        after_optimizer_step(m_.effective_entropy);
        last_steps_.push_back(StepRecord{result.loss, m_, part.rows});
        ++steps;
        if (epoch == 0 && m_.has_sampling_ratio) {
          // Per generation, not per step: the first epoch's (the sampler ratios do not depend
          // on the steps).
          if (m_.sampling_ratio_count > 0) {
            row.sampling_ratio_min = std::min(row.sampling_ratio_min, m_.sampling_ratio_min);
            row.sampling_ratio_max = std::max(row.sampling_ratio_max, m_.sampling_ratio_max);
          }
          sampling_ratio_sum += m_.sampling_ratio_mean * m_.sampling_ratio_count;
          sampling_ratio_count += m_.sampling_ratio_count;
          difference_sum += m_.sampling_logp_difference_mean * m_.sampling_logp_difference_count;
          difference_count += m_.sampling_logp_difference_count;
          row.sampling_logp_difference_max =
              std::max(row.sampling_logp_difference_max, m_.sampling_logp_difference_max);
          if (parts.size() == 1) {  // one batch: its own numbers, bit for bit
            row.sampling_ratio_min = m_.sampling_ratio_min;
            row.sampling_ratio_mean = m_.sampling_ratio_mean;
            row.sampling_ratio_max = m_.sampling_ratio_max;
            row.sampling_logp_difference_mean = m_.sampling_logp_difference_mean;
          }
        }
        if (m_.has_clip_ratio && !std::isnan(m_.clip_ratio_low_min)) {
          row.clip_ratio_low_min = std::min(row.clip_ratio_low_min, m_.clip_ratio_low_min);
          row.clip_ratio_high_max = std::max(row.clip_ratio_high_max, m_.clip_ratio_high_max);
        }
        row.cispo_clip_ratio += m_.has_cispo_clip_ratio ? m_.cispo_clip_ratio : 0.0;
        add_verl_metrics(row.verl, m_.verl);
        row.loss += result.loss;
        row.grad_norm += norm;
        row.kl += m_.has_kl ? m_.kl : 0.0;
        row.entropy += m_.entropy;  // TRL's global_masked_mean(entropies) over the loss mask
        row.clip_fraction_low += m_.clip_ratio_low_mean;
        row.clip_fraction_high += m_.clip_ratio_high_mean;
        row.clip_fraction_region += m_.clip_ratio_region_mean;
        if (m_.num_tokens > 0) {
          row.ratio_min = std::min(row.ratio_min, m_.ratio_min);
          row.ratio_max = std::max(row.ratio_max, m_.ratio_max);
          row.ratio_mean += m_.ratio_mean;
          ++steps_with_tokens;
        }
      }
    }
    if (separate_sampler && parts.size() > 1) {
      row.sampling_ratio_mean =
          sampling_ratio_count > 0 ? sampling_ratio_sum / sampling_ratio_count : 0.0;
      row.sampling_logp_difference_mean =
          difference_count > 0 ? difference_sum / difference_count : 0.0;
    }
    if (std::isinf(row.sampling_ratio_min)) row.sampling_ratio_min = 0;  // TRL: 0 without any
    if (std::isinf(row.sampling_ratio_max)) row.sampling_ratio_max = 0;
    if (!separate_sampler) row.sampling_ratio_min = row.sampling_ratio_max = 1;
    const double mean_over = steps;  // update_epochs x the parts (S, fewer when some are empty)
    row.loss /= mean_over;
    row.grad_norm /= mean_over;
    row.kl /= mean_over;
    row.entropy /= mean_over;
    row.clip_fraction_low /= mean_over;
    row.clip_fraction_high /= mean_over;
    row.clip_fraction_region /= mean_over;
    row.cispo_clip_ratio /= mean_over;
    verl_metrics_over_steps(row.verl, steps);
    if (std::isinf(row.clip_ratio_low_min)) row.clip_ratio_low_min = 0;
    if (steps_with_tokens > 0) {
      row.ratio_mean /= steps_with_tokens;
    } else {
      row.ratio_min = row.ratio_mean = row.ratio_max = 1.0;
    }
  }
  if (std::isinf(row.min_length)) row.min_length = 0;
  row.entropy_coef = entropy_coef_;
  if (config_.entropy_mechanism) {
    row.has_entropy_mechanism = true;
    row.probe_entropy = probe_entropy(nullptr);
    row.probe_entropy_change = row.probe_entropy - probe_before;
    const std::vector<float>& theta = policy_.params();
    double prediction = 0, squared = 0;
    for (std::size_t k = 0; k < theta.size(); ++k) {
      const double step = static_cast<double>(theta[k]) - static_cast<double>(theta_before[k]);
      prediction += probe_gradient[k] * step;
      squared += step * step;
    }
    row.probe_entropy_prediction = prediction;
    row.step_norm = std::sqrt(squared);
  }
  return row;
}

void Experiment::finish() {
  // Its own stream (copied, so finishing twice gives the same numbers): "after" numbers do not
  // depend on how many updates were evaluated before.
  Rng after_rng = after_rng_;
  after_train_ = evaluate_generation(policy_, reference_, vocab_, train_,
                                     config_.final_eval_samples, config_, after_rng, true);
  after_heldout_ = evaluate_generation(policy_, reference_, vocab_, heldout_,
                                       config_.final_eval_samples, config_, after_rng, true);
  finished_ = true;
}

}  // namespace grpo
