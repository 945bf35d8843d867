// Bench rows for the GRPO update against the machine's limit: the update's achieved GFLOP/s
// (its matrix products' multiply-adds over its time) beside the peak float GEMM GFLOP/s of the
// same build, measured in the same run, at H = 64, 128 and 256.
#include <Eigen/Core>
#include <algorithm>
#include <cstdint>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "api/api.h"
#include "rl/compute_pool.h"
#include "rl/gru_policy.h"
#include "rl/rng.h"
#include "rl/trainer.h"
#include "tools/bench.h"

namespace grpo::bench {
namespace {

// The clock: process CPU time natively (the machine is shared and loaded: CPU time does not
// count the time other processes hold the core); wall time in WASM (Emscripten's clock() is a
// wall clock), where best-of over many short samples stands in for it.
double clock_seconds() {
#ifdef __EMSCRIPTEN__
  return now_seconds();
#else
  return static_cast<double>(std::clock()) / CLOCKS_PER_SEC;
#endif
}

// The peak: one 256 x 256 x 256 float product (Eigen's blocked GEMM kernel; big enough that
// packing and loop overheads are a few percent, short enough, ~2-5 ms, to be timed like one
// update). Samples are taken between the updates, so that both meet the same load.
struct PeakGemm {
  static constexpr int n = 256;
  Eigen::MatrixXf a = Eigen::MatrixXf::Random(n, n), b = Eigen::MatrixXf::Random(n, n);
  Eigen::MatrixXf c = Eigen::MatrixXf::Zero(n, n);
  double best = 0;  // GFLOP/s
  void sample() {
    const double start = clock_seconds();
    c.noalias() = a * b;
    const double seconds = clock_seconds() - start;
    if (seconds > 0) best = std::max(best, 2.0 * n * n * static_cast<double>(n) / seconds / 1e9);
  }
};

// One GRPO update (Experiment::update: sampling, verifier, forward passes, objective, backward,
// Adam) of the reference shape (E = 16, V = 18, P = 8 prompts of Lp tokens, G = 8,
// B = P*G completions of L_j <= 4 tokens, 2 epochs, beta = 0 so no reference pass), timed whole.
// Its multiply-adds are the policy's own count of its matrix products (GruPolicy::
// multiply_adds(); elementwise gate, softmax, objective and Adam work is not counted). With
// K = sum_j max(L_j - 2, 0) (completion steps >= 2), Q = P + sum_j (L_j - 1) scored head columns
// and U <= V distinct input tokens, one update does
//   per epoch, forward:  3H*E*U + 3H*H*((Lp - 1)*P + P + K) + V*H*Q
//   per epoch, backward: 2*V*H*Q + 2*3H*H*(Lp*P + K) + 2*3H*E*U
//   sampling (once):     3H*H*((Lp - 1)*P + P + K) + V*H*Q + 3H*E*(U per step)
// (the first prefix step's W_hh h, h = 0, is written as zeros, not computed: gru_policy.cpp),
// i.e. about (3*epochs + 1) forward passes' worth, with 3H^2 + V*H per token position forward.
// GFLOP/s = 2 * multiply-adds / seconds; the best update of the run is reported, as for the peak.
double update_gflops(int hidden, PeakGemm* peak) {
  ExperimentConfig config = update_bench_config(hidden);
  config.objective.beta = 0;
  Experiment experiment(config);
  for (int i = 0; i < 3; ++i) experiment.update();  // warm the workspaces
  const int updates = hidden >= 256 ? 20 : 40;
  double best = 0;
  for (int i = 0; i < updates; ++i) {
    const std::uint64_t before = experiment.policy().multiply_adds();
    const double start = clock_seconds();
    experiment.update();
    const double seconds = clock_seconds() - start;
    const double macs = static_cast<double>(experiment.policy().multiply_adds() - before);
    if (seconds > 0) best = std::max(best, 2.0 * macs / seconds / 1e9);
    if (peak) peak->sample();
  }
  return best;
}

// One teacher-forced forward + backward of the policy over one batch (GruPolicy::forward and
// backward alone: no sampling, objective or Adam), the issue-28 item-1 measure. P = 8 prompts,
// G = 8 completions each, V = 18, E = 16. "arith": the arithmetic task's shape, prompts of 4
// tokens, completion lengths drawn uniformly from [1, 4] (its max_completion_length);
// "scratch": the scratch task's, prompts of 6 tokens, lengths drawn uniformly from [2, 30]
// (concise answers to checked column work). Tokens are random; the time does not depend on them.
struct Batch {
  TokenRows prompts, completions;
  Ragged dlogp;
};

Batch make_batch(const std::string& task, std::uint64_t seed) {
  const bool scratch = task == "scratch";
  const int P = 8, G = 8, V = 18, prompt_len = scratch ? 6 : 4;
  const int min_len = scratch ? 2 : 1, max_len = scratch ? 30 : 4;
  Rng rng(seed);
  Batch batch;
  batch.prompts.assign(P, std::vector<int>(prompt_len));
  for (auto& row : batch.prompts)
    for (int& token : row) token = 1 + static_cast<int>(rng.below(V - 1));
  batch.completions.resize(P * G);
  batch.dlogp.resize(P * G);
  for (int j = 0; j < P * G; ++j) {
    const int length = min_len + static_cast<int>(rng.below(max_len - min_len + 1));
    for (int t = 0; t < length; ++t) {
      batch.completions[j].push_back(static_cast<int>(rng.below(V)));
      batch.dlogp[j].push_back(rng.uniform(-1.0, 1.0) / 64);
    }
  }
  return batch;
}

struct FwdBwd {
  double gflops = 0;   // best sample, the clock above
  double best_ms = 0;  // wall clock, best sample (threads: CPU time would add up the threads)
  double macs = 0;     // multiply-adds of one forward + backward
};

FwdBwd fwd_bwd(const std::string& task, int hidden, int threads, PeakGemm* peak, int samples) {
  set_core_threads(threads);
  GruPolicy<float> policy(GruDims{18, 16, hidden});
  Rng init(1234);
  policy.reset_parameters(init);
  const Batch batch = make_batch(task, 99);
  PolicyOutput out;
  const auto once = [&] {
    policy.zero_grad();
    policy.forward(batch.prompts, batch.completions, 1.0, out);
    policy.backward(batch.dlogp);
  };
  for (int i = 0; i < 3; ++i) once();
  FwdBwd result;
  std::vector<double> walls;
  for (int i = 0; i < samples; ++i) {
    const std::uint64_t before = policy.multiply_adds();
    const double wall = now_seconds();
    const double start = clock_seconds();
    once();
    const double seconds = clock_seconds() - start;
    walls.push_back(seconds_since(wall));
    result.macs = static_cast<double>(policy.multiply_adds() - before);
    if (seconds > 0) result.gflops = std::max(result.gflops, 2.0 * result.macs / seconds / 1e9);
    if (peak) peak->sample();
  }
  result.best_ms = 1e3 * *std::min_element(walls.begin(), walls.end());
  set_core_threads(1);
  return result;
}

// Best wall-clock ms of one GRPO update of the bench shape at H on `threads` threads (the best of
// 15: on a shared machine the best is the one least disturbed), and the policy's parameters after
// them (to check that the thread count leaves the bytes alone).
double update_ms(TaskKind task, int hidden, int threads, std::vector<float>* params) {
  set_core_threads(threads);
  ExperimentConfig config = update_bench_config(hidden);
  config.task = task;
  if (task == TaskKind::Scratch) config.objective.max_completion_length = 32;
  Experiment experiment(config);
  for (int i = 0; i < 2; ++i) experiment.update();
  std::vector<double> walls;
  for (int i = 0; i < 15; ++i) {
    const double start = now_seconds();
    experiment.update();
    walls.push_back(seconds_since(start));
  }
  if (params) *params = experiment.policy().params();
  set_core_threads(1);
  return 1e3 * *std::min_element(walls.begin(), walls.end());
}

// Best wall-clock ms of a whole run through the JSON API on `threads` threads (create with its
// warm-up and evaluations, every update, finish: what a page's Run does; the runs of
// tests/browser/threads.test.mjs), the best of 3, and its history as JSON text.
double run_ms(const api::Json& options, int threads, std::string* history) {
  set_core_threads(threads);
  std::vector<double> walls;
  for (int i = 0; i < 3; ++i) {
    const double start = now_seconds();
    const api::Json created = api::call_json("experimentCreate", options);
    const api::Json handle = created.at("ok").at("handle");
    api::call_json("experimentStep", {{"handle", handle}, {"count", options.at("updates")}});
    const api::Json finished = api::call_json("experimentFinish", {{"handle", handle}});
    walls.push_back(seconds_since(start));
    api::call_json("experimentDispose", {{"handle", handle}});
    *history = finished.at("ok").at("history").dump();
  }
  set_core_threads(1);
  return 1e3 * *std::min_element(walls.begin(), walls.end());
}

}  // namespace

// Issue 28: the policy's forward + backward against the peak (one thread, both tasks, H = 64
// and 128), and one run on 1 and 2 threads (wall clock; the machine has 2 cores and is shared).
void bench_fwd_bwd(std::vector<Row>& rows, const std::string& only_task, int only_hidden) {
  PeakGemm peak;
  peak.sample();
  std::vector<Row> own;
  for (const std::string task : {"arith", "scratch"})
    for (const int hidden : {64, 128}) {
      if ((!only_task.empty() && task != only_task) || (only_hidden > 0 && hidden != only_hidden))
        continue;
      const FwdBwd one = only_hidden > 0 ? fwd_bwd(task, hidden, 1, nullptr, 3000)
                                         : fwd_bwd(task, hidden, 1, &peak, 60);
      const std::string suffix = "_" + task + "_H" + std::to_string(hidden);
      own.push_back({"fwd-bwd-gflops" + suffix, one.gflops, "GFLOP/s"});
      own.push_back({"fwd-bwd-mflop" + suffix, 2 * one.macs / 1e6, "MFLOP"});
    }
  rows.push_back({"fwd-bwd-gemm-peak-gflops", peak.best, "GFLOP/s"});
  for (const Row& row : own) {
    rows.push_back(row);
    if (row.unit == "GFLOP/s")
      rows.push_back({"fwd-bwd-over-peak" + row.name.substr(std::string("fwd-bwd-gflops").size()),
                      row.value / peak.best, "ratio"});
  }
}

void bench_threads(std::vector<Row>& rows) {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  // A WebAssembly build without -pthread has one thread: grpo_bench_mt gives these rows.
  (void)rows;
  return;
#endif
  for (const std::string task : {"arith", "scratch"}) {
    const std::string suffix = "_" + task + "_H128";
    const double one = fwd_bwd(task, 128, 1, nullptr, 40).best_ms;
    const double two = fwd_bwd(task, 128, 2, nullptr, 40).best_ms;
    rows.push_back({"fwd-bwd-ms-1-thread" + suffix, one, "ms"});
    rows.push_back({"fwd-bwd-ms-2-threads" + suffix, two, "ms"});
    rows.push_back({"fwd-bwd-threads-speedup" + suffix, one / two, "x"});
  }
  for (const TaskKind task : {TaskKind::Arithmetic, TaskKind::Scratch}) {
    const std::string suffix =
        std::string(task == TaskKind::Scratch ? "_scratch" : "_arith") + "_H128";
    std::vector<float> params1, params2;
    const double one = update_ms(task, 128, 1, &params1);
    const double two = update_ms(task, 128, 2, &params2);
    rows.push_back({"update-ms-1-thread" + suffix, one, "ms"});
    rows.push_back({"update-ms-2-threads" + suffix, two, "ms"});
    rows.push_back({"update-threads-speedup" + suffix, one / two, "x"});
    rows.push_back({"update-threads-same-bytes" + suffix, params1 == params2 ? 1.0 : 0.0, "bool"});
  }
  const std::pair<const char*, api::Json> runs[] = {
      {"_smoke", {{"profile", "smoke"}, {"seed", 9}, {"updates", 15}}},
      {"_scratch",
       {{"profile", "smoke"},
        {"seed", 9},
        {"updates", 4},
        {"task", "scratch"},
        {"maxNewTokens", 24}}},
  };
  for (const auto& [suffix, options] : runs) {
    std::string history1, history2;
    const double one = run_ms(options, 1, &history1);
    const double two = run_ms(options, 2, &history2);
    rows.push_back({std::string("run-ms-1-thread") + suffix, one, "ms"});
    rows.push_back({std::string("run-ms-2-threads") + suffix, two, "ms"});
    rows.push_back({std::string("run-threads-speedup") + suffix, one / two, "x"});
    rows.push_back(
        {std::string("run-threads-same-bytes") + suffix, history1 == history2 ? 1.0 : 0.0, "bool"});
  }
}

void bench_gflops(std::vector<Row>& rows, int only_hidden) {
  if (only_hidden > 0) {
    rows.push_back({"update-gflops_H" + std::to_string(only_hidden),
                    update_gflops(only_hidden, nullptr), "GFLOP/s"});
    return;
  }
  PeakGemm peak;
  peak.sample();  // warm-up
  std::vector<std::pair<int, double>> achieved;
  for (const int hidden : {64, 128, 256})
    achieved.push_back({hidden, update_gflops(hidden, &peak)});
  rows.push_back({"gemm-peak-gflops", peak.best, "GFLOP/s"});
  for (const auto& [hidden, gflops] : achieved) {
    const std::string suffix = "_H" + std::to_string(hidden);
    rows.push_back({"update-gflops" + suffix, gflops, "GFLOP/s"});
    rows.push_back({"update-over-peak" + suffix, gflops / peak.best, "ratio"});
  }
}

}  // namespace grpo::bench
