// Bench rows for the GRU policy (float, as the trainer runs it): one batched sampling pass and one
// teacher-forced forward + backward over the GRPO batch shape of issue 3 (V = 18, E = 16,
// P = 8 prompts of 4 tokens, G = 8, at most 4 new tokens), at H = 64 and H = 128.
#include <algorithm>
#include <string>
#include <vector>

#include "rl/gru_policy.h"
#include "rl/rng.h"
#include "tools/bench.h"

namespace grpo::bench {
namespace {

constexpr double kBatchSeconds = 0.01;  // each timed batch runs about this long
constexpr int kBatches = 25;            // the reported time is the median batch

// Median over kBatches of the mean seconds per call of `work`, after a warm-up (which also
// sizes every workspace, so the timed calls allocate nothing).
template <typename Work>
double median_seconds(const Work& work) {
  for (int i = 0; i < 5; ++i) work();
  const double start = now_seconds();
  int calls = 0;
  while (seconds_since(start) < kBatchSeconds) {
    work();
    ++calls;
  }
  std::vector<double> batches;
  for (int b = 0; b < kBatches; ++b) {
    const double begin = now_seconds();
    for (int i = 0; i < calls; ++i) work();
    batches.push_back(seconds_since(begin) / calls);
  }
  std::nth_element(batches.begin(), batches.begin() + kBatches / 2, batches.end());
  return batches[kBatches / 2];
}

void bench_hidden(int hidden, std::vector<Row>& rows) {
  const int vocab = 18, embed = 16, prompts_n = 8, prompt_len = 4, group = 8, max_new = 4;
  const int eos = 0;
  const double temperature = 1.0;
  GruPolicy<float> policy(GruDims{vocab, embed, hidden});
  Rng init(1234);
  policy.reset_parameters(init);
  TokenRows prompts(prompts_n, std::vector<int>(prompt_len));
  for (auto& prompt : prompts)
    for (int& token : prompt) token = 1 + static_cast<int>(init.below(vocab - 1));

  // Sampling: a fresh stream each call is not needed; timing does not depend on the seed much.
  SampleOutput samples;
  Rng rng(7);
  const double sample_s = median_seconds(
      [&] { policy.sample(prompts, group, max_new, temperature, eos, rng, samples); });

  // Forward + backward over one sampled batch (an untrained policy rarely emits eos, so most
  // completions have the full 4 tokens: close to the worst case).
  policy.sample(prompts, group, max_new, temperature, eos, rng, samples);
  PolicyOutput out;
  Ragged dlogp;
  policy.forward(prompts, samples.tokens, temperature, out);
  dlogp = out.logp;
  for (auto& row : dlogp)
    for (double& value : row) value = rng.uniform(-1.0, 1.0) / 64;
  const double fwd_bwd_s = median_seconds([&] {
    policy.zero_grad();
    policy.forward(prompts, samples.tokens, temperature, out);
    policy.backward(dlogp);
  });

  const std::string suffix = "_H" + std::to_string(hidden);
  rows.push_back({"policy_fwd_bwd" + suffix, fwd_bwd_s * 1e3, "ms"});
  rows.push_back({"policy_sample" + suffix, sample_s * 1e3, "ms"});
  if (hidden == 64) {
    // Token positions of one forward + backward: every prompt and completion token of every one
    // of the P*G sequences, counted as if each sequence ran alone (the shared prefix is not
    // discounted).
    double positions = 0;
    for (const auto& row : samples.tokens)
      positions += prompt_len + static_cast<double>(row.size());
    rows.push_back({"policy_token_positions_per_s" + suffix, positions / fwd_bwd_s, "positions/s"});
  }
}

}  // namespace

void bench_policy(std::vector<Row>& rows) {
  bench_hidden(64, rows);
  bench_hidden(128, rows);
}

}  // namespace grpo::bench
