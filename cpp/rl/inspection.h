// The step inspector's record (docs/inspector.md): for each update, its rollouts and what each
// optimizer step gave its objective, kept within a byte budget, so that every token's term can be
// recomputed exactly as the trainer applied it. Attached to an Experiment as its UpdateObserver.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "rl/experiment_config.h"
#include "rl/grpo_objective.h"
#include "rl/trainer.h"

namespace grpo {

// One sampled completion of the update (its group's row).
struct InspectedRow {
  int prompt_id = 0;
  std::vector<int> tokens;
  Scored score;
  bool terminated = false;
  double advantage = 0;         // the update's (0 in a group dynamic sampling dropped)
  double objective_reward = 0;  // the reward the objective took
};

// One optimizer step: the inputs its objective took (logp, entropies here; the rest, the same in
// every epoch, in its part), and its settings.
struct InspectedStep {
  int epoch = 0, part = 0;
  ObjectiveConfig objective;  // as applied: this step's entropy coefficient
  Ragged logp;
  std::optional<Ragged> entropies;
  Ragged applied;  // the gradient the trainer's backward took (InspectionLog's keep_applied)
};

// One mini-batch of the generation (stepsPerGeneration parts; one part when S = 1): the inputs
// of its steps but the learner's current log-probs and entropies.
struct InspectedPart {
  std::vector<int> rows;   // indices into the update's kept rows (empty: all, in order)
  ObjectiveInputs inputs;  // logp and entropies left empty
};

struct UpdateRecord {
  int update = 0;                  // 1-based
  int group = 0;                   // rows per group
  bool verl = false;               // engine verl: the steps' objective is verl_objective
  std::vector<InspectedRow> rows;  // [prompt_batch * group], groups contiguous
  std::vector<bool> kept;          // [prompt_batch] the group entered the update
  std::vector<double>
      advantages;  // [kept rows] the generation's, as the steps' objectives saw them
  std::vector<InspectedPart> parts;
  std::vector<InspectedStep> steps;  // in the order applied: epoch by epoch, part by part
  std::size_t bytes = 0;             // what keeping it costs (bytes_of)
};

// The inputs the trainer gave the objective of `record.steps[step]` (its part's and its own).
ObjectiveInputs step_inputs(const UpdateRecord& record, std::size_t step);

// The objective of that step as the trainer computed it: grpo_objective, or verl_objective
// (engine verl) with `config`, the run's.
ObjectiveResult step_objective(const ExperimentConfig& config, const UpdateRecord& record,
                               std::size_t step, bool token_terms);

// The updates' records, newest last, within `max_bytes`: when a new update would pass it, the
// oldest records are dropped (the newest is always kept; a dropped update is recomputed by
// replaying the run from its seed). It copies what its views need of the experiment (config,
// vocabulary, prompt texts), so it outlives the experiment it watched.
class InspectionLog : public UpdateObserver {
 public:
  InspectionLog(const Experiment& experiment, std::size_t max_bytes, bool keep_applied);

  void begin_update(const Experiment& experiment) override;
  void optimizer_step(const Experiment& experiment, const ObservedStep& step) override;

  const UpdateRecord* find(int update) const;  // null: not kept (dropped, or not run yet)
  int first_kept() const { return records_.empty() ? 0 : records_.front().update; }
  int last_kept() const { return records_.empty() ? 0 : records_.back().update; }
  std::size_t bytes() const { return bytes_; }
  std::size_t max_bytes() const { return max_bytes_; }
  long long dropped() const { return dropped_; }
  const ExperimentConfig& config() const { return config_; }
  const std::vector<std::string>& vocab() const { return vocab_; }
  const std::string& prompt_text(int id) const;  // "" for an id the experiment did not have
  // Stops recording and frees every record (a disposed record whose experiment still runs).
  void close();

 private:
  void add_bytes(std::size_t bytes);

  ExperimentConfig config_;
  std::vector<std::string> vocab_;
  std::vector<std::pair<int, std::string>> prompts_;  // id, text
  std::deque<UpdateRecord> records_;
  bool closed_ = false;
  std::size_t max_bytes_, bytes_ = 0;
  bool keep_applied_;
  long long dropped_ = 0;
};

}  // namespace grpo
