// The step inspector's record of updates: see inspection.h.
#include "rl/inspection.h"

#include <string>

#include "rl/trainer_verl.h"

namespace grpo {
namespace {

// What keeping a value costs: its payload and the vectors' own headers (capacity beyond the
// size is not counted: the record's vectors are copies, sized exactly).
template <class T>
std::size_t bytes_of(const std::vector<T>& values) {
  return sizeof(values) + values.size() * sizeof(T);
}
std::size_t bytes_of(const std::vector<bool>& flags) {
  return sizeof(flags) + (flags.size() + 7) / 8;
}
std::size_t bytes_of(const Ragged& rows) {
  std::size_t bytes = sizeof(rows);
  for (const auto& row : rows) bytes += bytes_of(row);
  return bytes;
}
template <class T>
std::size_t bytes_of(const std::optional<T>& value) {
  return value ? bytes_of(*value) : 0;
}
std::size_t bytes_of(const std::string& text) {
  return sizeof(text) + text.size();
}
std::size_t bytes_of(const ObjectiveInputs& in) {
  return sizeof(in) + bytes_of(in.rewards) + bytes_of(in.logp) + bytes_of(in.old_logp) +
         bytes_of(in.ref_logp) + bytes_of(in.truncated) + bytes_of(in.entropies) +
         bytes_of(in.sampling_logp) + bytes_of(in.advantages);
}
std::size_t bytes_of(const InspectedRow& row) {
  return sizeof(row) + bytes_of(row.tokens) + bytes_of(row.score.text) + bytes_of(row.score.answer);
}

}  // namespace

ObjectiveInputs step_inputs(const UpdateRecord& record, std::size_t step) {
  const InspectedStep& s = record.steps.at(step);
  ObjectiveInputs inputs = record.parts.at(static_cast<std::size_t>(s.part)).inputs;
  inputs.logp = s.logp;
  inputs.entropies = s.entropies;
  return inputs;
}

ObjectiveResult step_objective(const ExperimentConfig& config, const UpdateRecord& record,
                               std::size_t step, bool token_terms) {
  ObjectiveInputs inputs = step_inputs(record, step);
  inputs.token_terms = token_terms;
  const InspectedStep& s = record.steps[step];
  if (!record.verl) return grpo_objective(s.objective, inputs);
  // The trainer's call (trainer.cpp, Experiment::update), with the same advantages.
  const std::vector<double>& advantages =
      inputs.advantages ? *inputs.advantages : record.advantages;
  return verl_objective(config, s.objective.entropy_coef, inputs, advantages);
}

InspectionLog::InspectionLog(const Experiment& experiment, std::size_t max_bytes, bool keep_applied)
    : config_(experiment.config()),
      vocab_(experiment.vocab().tokens),
      max_bytes_(max_bytes),
      keep_applied_(keep_applied) {
  for (const Prompt& p : experiment.prompts()) prompts_.emplace_back(p.id, p.text);
}

const std::string& InspectionLog::prompt_text(int id) const {
  static const std::string none;
  for (const auto& [key, text] : prompts_)
    if (key == id) return text;
  return none;
}

void InspectionLog::close() {
  closed_ = true;
  records_.clear();
  bytes_ = 0;
}

void InspectionLog::add_bytes(std::size_t bytes) {
  records_.back().bytes += bytes;
  bytes_ += bytes;
  // Over budget: drop the oldest updates, never the one being recorded.
  while (bytes_ > max_bytes_ && records_.size() > 1) {
    bytes_ -= records_.front().bytes;
    records_.pop_front();
    ++dropped_;
  }
}

void InspectionLog::begin_update(const Experiment& experiment) {
  if (closed_) return;
  const ExperimentConfig& config = experiment.config();
  const RolloutBatch& batch = experiment.last_rollouts();
  UpdateRecord record;
  record.update = experiment.updates_done() + 1;  // its row is not in the history yet
  record.group = config.objective.group_size;
  record.verl = config.engine == Engine::Verl;
  record.kept = batch.kept;
  for (std::size_t p = 0; p < batch.groups.size(); ++p)
    for (const RolloutRow& r : batch.groups[p]) {
      record.rows.push_back(InspectedRow{r.prompt_id, r.tokens, r.score, r.terminated, r.advantage,
                                         r.objective_reward});
      if (batch.kept[p]) record.advantages.push_back(r.advantage);
    }
  std::size_t bytes = sizeof(record) + bytes_of(record.kept) + bytes_of(record.advantages);
  for (const InspectedRow& row : record.rows) bytes += bytes_of(row);
  records_.push_back(std::move(record));
  add_bytes(bytes);
}

void InspectionLog::optimizer_step(const Experiment&, const ObservedStep& step) {
  if (closed_ || records_.empty()) return;
  UpdateRecord& record = records_.back();
  std::size_t bytes = 0;
  if (step.epoch == 0) {  // the first epoch meets each part in order: parts[m] is part m
    InspectedPart part{step.rows, step.inputs};
    part.inputs.logp.clear();
    part.inputs.entropies.reset();
    bytes += sizeof(part) + bytes_of(part.rows) + bytes_of(part.inputs);
    record.parts.push_back(std::move(part));
  }
  InspectedStep kept{step.epoch, step.part, step.objective, step.inputs.logp, step.inputs.entropies,
                     {}};
  if (keep_applied_) kept.applied = step.result.grad_logp;
  bytes += sizeof(kept) + bytes_of(kept.logp) + bytes_of(kept.entropies) + bytes_of(kept.applied);
  record.steps.push_back(std::move(kept));
  add_bytes(bytes);
}

const UpdateRecord* InspectionLog::find(int update) const {
  if (records_.empty() || update < records_.front().update || update > records_.back().update)
    return nullptr;
  return &records_[static_cast<std::size_t>(update - records_.front().update)];
}

}  // namespace grpo
