// Bench rows for the RL loop: time per GRPO update (the reference shape: E=16, group 8,
// prompt batch 8, at most 4 new tokens, 2 update epochs) at H=64 and H=128, token positions per
// second, and whole smoke / full profiles.
#include "rl/trainer.h"
#include "tools/bench.h"

namespace grpo::bench {

ExperimentConfig update_bench_config(int hidden) {
  ExperimentConfig config = profile_defaults("full");
  config.embed = 16;
  config.hidden = hidden;
  config.objective.group_size = 8;
  config.prompt_batch = 8;
  config.objective.max_completion_length = 4;
  config.update_epochs = 2;
  config.warmup_steps = 50;
  return config;
}

namespace {

void bench_updates(std::vector<Row>& rows, int hidden) {
  const ExperimentConfig config = update_bench_config(hidden);
  Experiment experiment(config);
  for (int i = 0; i < 5; ++i) experiment.update();  // warm the workspaces
  const int updates = 60;
  double positions = 0;
  const double start = now_seconds();
  for (int i = 0; i < updates; ++i) positions += experiment.update().token_positions;
  const double seconds = seconds_since(start);
  const std::string suffix = "_H" + std::to_string(hidden);
  rows.push_back({"grpo_update_ms" + suffix, 1e3 * seconds / updates, "ms"});
  rows.push_back({"grpo_token_positions_per_s" + suffix, positions / seconds, "positions/s"});
}

void bench_profile(std::vector<Row>& rows, const std::string& profile) {
  const double start = now_seconds();
  Experiment experiment(profile_defaults(profile));
  while (!experiment.done()) experiment.step();
  experiment.finish();
  rows.push_back({"profile_" + profile + "_s", seconds_since(start), "s"});
}

}  // namespace

void bench_training(std::vector<Row>& rows) {
  bench_updates(rows, 64);
  bench_updates(rows, 128);
  bench_profile(rows, "smoke");
  bench_profile(rows, "full");
}

}  // namespace grpo::bench
