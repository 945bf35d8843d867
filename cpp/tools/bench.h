// The bench program's shared pieces: one row type and a clock (native and WASM builds alike).
#pragma once

#include <string>
#include <vector>

namespace grpo {
struct ExperimentConfig;
}

namespace grpo::bench {

// The GRPO update's reference shape (E=16, group 8, prompt batch 8, at most 4 new tokens, 2
// epochs, full profile's prompts) at hidden size H: timed and counted by the same config.
ExperimentConfig update_bench_config(int hidden);

struct Row {
  std::string name;
  double value;
  std::string unit;
};

double now_seconds();                // steady clock
double seconds_since(double start);  // now_seconds() - start

// Each area adds its rows (bench_<area>.cpp).
void bench_verifier(std::vector<Row>& rows);
void bench_policy(std::vector<Row>& rows);
void bench_training(std::vector<Row>& rows);
// only_hidden > 0: that H's update alone, without the peak (for profiling one size).
void bench_gflops(std::vector<Row>& rows, int only_hidden = 0);
// Issue 28: the policy's forward + backward GFLOP/s against the peak, both tasks, H 64 and 128;
// one run on 1 and 2 threads.
// only_task / only_hidden: that case alone, sampled 2000 times (for a profiler).
void bench_fwd_bwd(std::vector<Row>& rows, const std::string& only_task = "", int only_hidden = 0);
void bench_threads(std::vector<Row>& rows);

}  // namespace grpo::bench
