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
//   per epoch, forward:  3H*E*U + 3H*H*(Lp*P + P + K) + V*H*Q
//   per epoch, backward: 2*V*H*Q + 2*3H*H*(Lp*P + K) + 2*3H*E*U
//   sampling (once):     3H*H*(Lp*P + P + K) + V*H*Q + 3H*E*(U per step)
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

}  // namespace

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
