// Catch2 [threads]: the core's passes on 1, 2 and 3 threads give the same bytes (issue 28 item 2):
// a product split into column blocks (rl/gemm_block.h), the policy's forward and backward, and
// whole runs of both tasks.
#include <Eigen/Core>
#include <catch2/catch.hpp>
#include <cstring>
#include <string>
#include <vector>

#include "api/api_experiments.h"
#include "rl/compute_pool.h"
#include "rl/gemm_block.h"
#include "rl/gru_policy.h"
#include "rl/rng.h"
#include "rl/trainer.h"
#include "scopes.h"

namespace {

using grpo::Ragged;
using grpo::TokenRows;

template <typename M>
bool same_bytes(const M& a, const M& b) {
  return a.rows() == b.rows() && a.cols() == b.cols() &&
         std::memcmp(a.data(), b.data(), sizeof(typename M::Scalar) * a.size()) == 0;
}

bool same_bytes(const Ragged& a, const Ragged& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].size() != b[i].size() ||
        (!a[i].empty() && std::memcmp(a[i].data(), b[i].data(), 8 * a[i].size()) != 0))
      return false;
  return true;
}

// The thread counts this build can run: a WebAssembly build without -pthread has one thread
// (set_core_threads refuses more), so there the cases compare 1 thread with itself.
std::vector<int> more_threads() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return {1};
#else
  return {2, 3};
#endif
}

template <typename Scalar>
void check_split_products() {
  using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;
  using RowMat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  // (rows, depth, cols): the GRU's W_hh h and W_hh^T dgh at H 5, 64, 128, the head (V = 18),
  // long depths that Eigen blocks (> 248 and > 504), odd everything.
  const int shapes[][3] = {{15, 5, 9},     {192, 64, 64}, {64, 192, 61}, {384, 128, 37},
                           {128, 384, 64}, {18, 64, 201}, {64, 18, 200}, {18, 128, 1000},
                           {192, 700, 13}, {21, 3, 7},    {7, 300, 22},  {12, 40, 6}};
  for (const auto& shape : shapes) {
    const int m = shape[0], k = shape[1], n = shape[2];
    const RowMat a = RowMat::Random(m, k);
    const Mat at = Mat::Random(k, m);
    const Mat b = Mat::Random(k, n);
    Mat whole = Mat::Random(m, n), whole_t = whole;
    const Mat start = whole;
    whole.noalias() += a * b;
    whole_t.noalias() = at.transpose() * b;
    for (int tasks = 1; tasks <= 5; ++tasks) {
      Mat split = start, split_t = Mat::Zero(m, n);
      for (int t = 0; t < tasks; ++t) {
        const Eigen::Index c0 = grpo::column_start(t, tasks, n);
        const Eigen::Index c1 = grpo::column_start(t + 1, tasks, n);
        if (c1 == c0) continue;
        grpo::gemm_columns(split.middleCols(c0, c1 - c0), a, b.middleCols(c0, c1 - c0), n, true);
        grpo::gemm_columns(split_t.middleCols(c0, c1 - c0), at.transpose(),
                           b.middleCols(c0, c1 - c0), n, false);
      }
      INFO("shape " << m << " x " << k << " x " << n << ", " << tasks << " blocks");
      CHECK(same_bytes(split, whole));
      CHECK(same_bytes(split_t, whole_t));
    }
    // One column on its own (the last block of a split) still takes the GEMM kernel.
    if (grpo::gemm_splittable(m, k, n) && n % 4 == 1) {
      Mat last = Mat::Zero(m, 1);
      grpo::gemm_columns(last.middleCols(0, 1), a, b.rightCols(1), n, false);
      Mat expected = Mat::Zero(m, n);
      expected.noalias() = a * b;
      CHECK(std::memcmp(last.data(), expected.col(n - 1).data(), sizeof(Scalar) * m) == 0);
    }
  }
}

struct Batch {
  TokenRows prompts, completions;
  Ragged dlogp, dentropy;
};

Batch make_batch(int prompt_len, int min_len, int max_len, int vocab, std::uint64_t seed) {
  const int P = 5, G = 7;  // B = 35: blocks of 4 and a tail
  grpo::Rng rng(seed);
  Batch batch;
  batch.prompts.assign(P, std::vector<int>(prompt_len));
  for (auto& row : batch.prompts)
    for (int& token : row) token = static_cast<int>(rng.below(vocab));
  batch.completions.resize(P * G);
  batch.dlogp.resize(P * G);
  batch.dentropy.resize(P * G);
  for (int j = 0; j < P * G; ++j) {
    const int length = min_len + static_cast<int>(rng.below(max_len - min_len + 1));
    for (int t = 0; t < length; ++t) {
      batch.completions[j].push_back(static_cast<int>(rng.below(vocab)));
      batch.dlogp[j].push_back(rng.uniform(-1.0, 1.0));
      batch.dentropy[j].push_back(rng.uniform(-1.0, 1.0));
    }
  }
  return batch;
}

template <typename Scalar>
struct PassResult {
  Ragged logp, entropy;
  std::vector<Scalar> grads;
  std::uint64_t macs = 0;
};

template <typename Scalar>
PassResult<Scalar> run_pass(int threads, const grpo::GruDims& dims, const Batch& batch) {
  Threads scope(threads);
  grpo::GruPolicy<Scalar> policy(dims);
  grpo::Rng init(5);
  policy.reset_parameters(init);
  grpo::PolicyOutput out;
  PassResult<Scalar> result;
  for (int repeat = 0; repeat < 2; ++repeat) {  // the second pass reuses every workspace
    policy.zero_grad();
    policy.forward(batch.prompts, batch.completions, 0.7, out);
    policy.backward(batch.dlogp, &batch.dentropy);
  }
  result.logp = out.logp;
  result.entropy = out.entropy;
  result.grads = policy.grads();
  result.macs = policy.multiply_adds();
  return result;
}

template <typename Scalar>
void check_policy_passes() {
  const grpo::GruDims dims_list[] = {{18, 16, 64}, {18, 16, 7}, {11, 5, 9}, {18, 16, 128}};
  // (prompt length, shortest and longest completion): the arithmetic task's shape, the scratch
  // task's, and one with empty completions.
  const int shapes[][3] = {{4, 1, 4}, {6, 2, 30}, {3, 0, 5}};
  for (const grpo::GruDims& dims : dims_list)
    for (const auto& shape : shapes) {
      const Batch batch = make_batch(shape[0], shape[1], shape[2], dims.vocab, 42);
      const PassResult<Scalar> one = run_pass<Scalar>(1, dims, batch);
      for (const int threads : more_threads()) {
        const PassResult<Scalar> many = run_pass<Scalar>(threads, dims, batch);
        INFO("H " << dims.hidden << ", completions " << shape[1] << ".." << shape[2] << ", "
                  << threads << " threads");
        CHECK(same_bytes(many.logp, one.logp));
        CHECK(same_bytes(many.entropy, one.entropy));
        CHECK(many.grads.size() == one.grads.size());
        CHECK(std::memcmp(many.grads.data(), one.grads.data(), sizeof(Scalar) * one.grads.size()) ==
              0);
        CHECK(many.macs == one.macs);
      }
    }
}

struct RunResult {
  std::vector<float> params;
  std::vector<std::string> history;
};

RunResult run_experiment(int threads, grpo::TaskKind task) {
  Threads scope(threads);
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.task = task;
  config.updates = 4;
  // The bytes on several threads, not a trained policy: a short warm-up, a small evaluation.
  config.warmup_steps = 20;
  config.final_eval_samples = 8;
  if (task == grpo::TaskKind::Scratch) config.objective.max_completion_length = 24;
  grpo::Experiment experiment(config);
  RunResult result;
  while (!experiment.done())
    result.history.push_back(grpo::api::history_json(experiment.step(), 0).dump());
  result.params = experiment.policy().params();
  return result;
}

void check_run_on_threads(grpo::TaskKind task) {
  const RunResult one = run_experiment(1, task);
  for (const int threads : more_threads()) {
    const RunResult many = run_experiment(threads, task);
    INFO(threads << " threads");
    CHECK(many.history == one.history);
    CHECK(std::memcmp(many.params.data(), one.params.data(), 4 * one.params.size()) == 0);
  }
}

}  // namespace

TEST_CASE("a product split into column blocks has the whole product's bytes", "[threads]") {
  check_split_products<float>();
  check_split_products<double>();
}

TEST_CASE("forward and backward give the same bytes on 1, 2 and 3 threads", "[threads]") {
  check_policy_passes<float>();
  check_policy_passes<double>();
}

TEST_CASE("a run gives the same bytes on 1, 2 and 3 threads", "[threads]") {
  check_run_on_threads(grpo::TaskKind::Arithmetic);
}

// The scratch task's runs (its warm-up, 24-token answers) natively only ([sweep]): under ASan
// they took 20 s of the suite, while the arithmetic case above keeps the threaded update there.
TEST_CASE("a scratch-task run gives the same bytes on 1, 2 and 3 threads", "[threads][sweep]") {
  check_run_on_threads(grpo::TaskKind::Scratch);
}

TEST_CASE("the thread count is checked", "[threads]") {
  const int before = grpo::core_threads();
  CHECK_THROWS_WITH(grpo::set_core_threads(0), Catch::Contains("threads"));
  CHECK_THROWS_WITH(grpo::set_core_threads(grpo::kCoreMaxThreads + 1), Catch::Contains("threads"));
  CHECK(grpo::core_threads() == before);
}
