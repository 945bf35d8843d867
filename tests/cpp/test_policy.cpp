// Catch2 tests of the GRU policy (forward, backward through time, sampling), Adam, gradient
// clipping and JSON checkpoints.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/errors.h"
#include "rl/adam.h"
#include "rl/checkpoint.h"
#include "rl/gru_policy.h"
#include "rl/rng.h"

using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using grpo::GruDims;
using grpo::GruPolicy;
using grpo::ParamInfo;
using grpo::PolicyOutput;
using grpo::Ragged;
using grpo::Rng;
using grpo::SampleOutput;
using grpo::TokenRows;

namespace {

template <typename Scalar>
GruPolicy<Scalar> make_policy(const GruDims& dims, std::uint64_t seed) {
  GruPolicy<Scalar> policy(dims);
  Rng rng(seed);
  policy.reset_parameters(rng);
  return policy;
}

// Absolute tolerance for comparing forward results of one precision with double references.
template <typename Scalar>
double tolerance() {
  return sizeof(Scalar) == sizeof(float) ? 2e-5 : 1e-12;
}

// The naive reference, written straight from PyTorch's nn.GRU documentation with scalar loops
// in double (no Eigen): log-probs and entropies of `completion` after `prompt`.
struct Reference {
  std::vector<double> logp, entropy;
};

template <typename Scalar>
Reference naive_reference(const GruPolicy<Scalar>& policy, const std::vector<int>& prompt,
                          const std::vector<int>& completion, double temperature) {
  const int V = policy.dims().vocab, E = policy.dims().embed, H = policy.dims().hidden;
  auto tensor = [&](const char* name) {
    for (const ParamInfo& info : policy.param_table())
      if (info.name == name) {
        const Scalar* data = policy.params().data() + info.offset;
        return std::vector<double>(data, data + info.size);
      }
    FAIL("no tensor " << name);
    return std::vector<double>();
  };
  const std::vector<double> emb = tensor("embedding.weight"), w_ih = tensor("gru.weight_ih_l0"),
                            w_hh = tensor("gru.weight_hh_l0"), b_ih = tensor("gru.bias_ih_l0"),
                            b_hh = tensor("gru.bias_hh_l0"), w_head = tensor("head.weight"),
                            b_head = tensor("head.bias");
  std::vector<double> h(H, 0.0);
  auto step = [&](int token) {
    const double* x = &emb[token * E];
    auto input = [&](int row) {  // W_i[row] x + b_i[row]
      double sum = b_ih[row];
      for (int e = 0; e < E; ++e) sum += w_ih[row * E + e] * x[e];
      return sum;
    };
    auto hidden = [&](int row) {  // W_h[row] h + b_h[row]
      double sum = b_hh[row];
      for (int k = 0; k < H; ++k) sum += w_hh[row * H + k] * h[k];
      return sum;
    };
    std::vector<double> next(H);
    for (int i = 0; i < H; ++i) {
      const double r = 1 / (1 + std::exp(-(input(i) + hidden(i))));
      const double z = 1 / (1 + std::exp(-(input(H + i) + hidden(H + i))));
      const double n = std::tanh(input(2 * H + i) + r * hidden(2 * H + i));
      next[i] = (1 - z) * n + z * h[i];
    }
    h = next;
  };
  for (int token : prompt) step(token);
  Reference ref;
  for (std::size_t t = 0; t < completion.size(); ++t) {
    std::vector<double> z(V);
    double max = -std::numeric_limits<double>::infinity();
    for (int v = 0; v < V; ++v) {
      double logit = b_head[v];
      for (int k = 0; k < H; ++k) logit += w_head[v * H + k] * h[k];
      z[v] = logit / temperature;
      max = std::max(max, z[v]);
    }
    double sum = 0;
    for (int v = 0; v < V; ++v) sum += std::exp(z[v] - max);
    const double lse = max + std::log(sum);
    double entropy = 0;
    for (int v = 0; v < V; ++v) entropy -= std::exp(z[v] - lse) * (z[v] - lse);
    ref.logp.push_back(z[completion[t]] - lse);
    ref.entropy.push_back(entropy);
    step(completion[t]);
  }
  return ref;
}

Ragged random_like(const Ragged& shape, Rng& rng) {
  Ragged values = shape;
  for (std::vector<double>& row : values)
    for (double& value : row) value = rng.uniform(-1.0, 1.0);
  return values;
}

// The batch of the gradient check: V = 7, 2 prompts of length 3, G = 3 ragged completions
// (one empty, one of length 1, repeated tokens).
const TokenRows kGradPrompts = {{1, 4, 2}, {3, 0, 6}};
const TokenRows kGradCompletions = {{5, 2, 6, 1}, {}, {3}, {2, 2}, {6, 0, 4, 1, 5}, {0, 3, 3}};

double weighted_loss(GruPolicy<double>& policy, double temperature, const Ragged& w_logp,
                     const Ragged* w_entropy) {
  PolicyOutput out;
  policy.forward(kGradPrompts, kGradCompletions, temperature, out);
  double loss = 0;
  for (std::size_t j = 0; j < out.logp.size(); ++j)
    for (std::size_t t = 0; t < out.logp[j].size(); ++t) {
      loss += w_logp[j][t] * out.logp[j][t];
      if (w_entropy) loss += (*w_entropy)[j][t] * out.entropy[j][t];
    }
  return loss;
}

// Central differences, fourth order: (-f(x+2h) + 8 f(x+h) - 8 f(x-h) + f(x-2h)) / (12 h).
// The parameter is restored afterwards.
template <typename Loss>
double numeric_derivative(std::vector<double>& params, std::size_t i, const Loss& loss) {
  const double h = 1e-4;
  const double saved = params[i];
  double f[4];
  const double offsets[4] = {2 * h, h, -h, -2 * h};
  for (int k = 0; k < 4; ++k) {
    params[i] = saved + offsets[k];
    f[k] = loss();
  }
  params[i] = saved;
  return (-f[0] + 8 * f[1] - 8 * f[2] + f[3]) / (12 * h);
}

// |a - n| / max(1e-8, |a| + |n|): relative, with a floor so exact zeros compare as equal.
double relative_error(double analytic, double numeric) {
  return std::fabs(analytic - numeric) / std::max(1e-8, std::fabs(analytic) + std::fabs(numeric));
}

// Checks every entry of every tensor; reports the worst relative error per tensor.
template <typename Loss>
void check_all_gradients(GruPolicy<double>& policy, const Loss& loss) {
  const std::vector<double> analytic = policy.grads();
  for (const ParamInfo& info : policy.param_table()) {
    double worst = 0, largest = 0;
    for (std::size_t i = info.offset; i < info.offset + info.size; ++i) {
      const double numeric = numeric_derivative(policy.params(), i, loss);
      worst = std::max(worst, relative_error(analytic[i], numeric));
      largest = std::max(largest, std::fabs(analytic[i]));
    }
    INFO(info.name << ": max relative error " << worst << ", max |grad| " << largest);
    CHECK(worst < 1e-6);
    CHECK(largest > 1e-3);  // the tensor really takes part in the loss
  }
}

}  // namespace

TEST_CASE("policy: parameter table follows PyTorch names, shapes and order", "[policy]") {
  GruPolicy<float> policy(GruDims{18, 16, 64});
  const std::vector<ParamInfo>& table = policy.param_table();
  REQUIRE(table.size() == 7);
  const char* names[] = {"embedding.weight", "gru.weight_ih_l0", "gru.weight_hh_l0",
                         "gru.bias_ih_l0",   "gru.bias_hh_l0",   "head.weight",
                         "head.bias"};
  const std::vector<std::vector<int>> shapes = {{18, 16}, {192, 16}, {192, 64}, {192},
                                                {192},    {18, 64},  {18}};
  std::size_t offset = 0;
  for (int i = 0; i < 7; ++i) {
    CHECK(table[i].name == names[i]);
    CHECK(table[i].shape == shapes[i]);
    CHECK(table[i].offset == offset);
    offset += table[i].size;
  }
  CHECK(policy.num_params() == offset);
  CHECK(policy.grads().size() == offset);
  CHECK(policy.tensor(grpo::ParamId::kHeadBias) == policy.params().data() + table[6].offset);

  // PyTorch default init: embedding N(0, 1), the rest U(-1/sqrt(H), 1/sqrt(H)).
  Rng rng(5);
  policy.reset_parameters(rng);
  double emb_sq = 0, bound = 0;
  for (std::size_t i = 0; i < table[0].size; ++i) emb_sq += policy.params()[i] * policy.params()[i];
  for (std::size_t i = table[1].offset; i < policy.num_params(); ++i)
    bound = std::max(bound, std::fabs(static_cast<double>(policy.params()[i])));
  CHECK_THAT(emb_sq / table[0].size, WithinAbs(1.0, 0.2));
  CHECK(bound <= 0.125);
  CHECK(bound > 0.12);
}

TEST_CASE("policy: hand-written backward matches central differences for every tensor",
          "[policy]") {
  GruPolicy<double> policy = make_policy<double>(GruDims{7, 3, 4}, 11);
  const double temperature = 0.7;
  PolicyOutput out;
  policy.forward(kGradPrompts, kGradCompletions, temperature, out);
  Rng rng(99);
  const Ragged w_logp = random_like(out.logp, rng);
  const Ragged w_entropy = random_like(out.entropy, rng);

  SECTION("loss = sum w_t logp_t") {
    policy.zero_grad();
    policy.forward(kGradPrompts, kGradCompletions, temperature, out);
    policy.backward(w_logp);
    check_all_gradients(policy,
                        [&] { return weighted_loss(policy, temperature, w_logp, nullptr); });
  }
  SECTION("loss = sum w_t logp_t + u_t entropy_t") {
    policy.zero_grad();
    policy.forward(kGradPrompts, kGradCompletions, temperature, out);
    policy.backward(w_logp, &w_entropy);
    check_all_gradients(policy,
                        [&] { return weighted_loss(policy, temperature, w_logp, &w_entropy); });
  }
  SECTION("backward accumulates; zero_grad clears") {
    policy.zero_grad();
    policy.forward(kGradPrompts, kGradCompletions, temperature, out);
    policy.backward(w_logp);
    const std::vector<double> once = policy.grads();
    policy.backward(w_logp);
    for (std::size_t i = 0; i < once.size(); ++i)
      REQUIRE_THAT(policy.grads()[i], WithinAbs(2 * once[i], 1e-14));
    policy.zero_grad();
    for (double g : policy.grads()) REQUIRE(g == 0);
  }
}

TEST_CASE("policy: teacher_forced_log_probs gives log-probs and the gradient of their sum",
          "[policy]") {
  GruPolicy<double> policy = make_policy<double>(GruDims{7, 3, 4}, 3);
  const TokenRows sequences = {{1, 2, 3, 4}, {6}, {0, 0, 5}};
  const double temperature = 1.3;
  policy.zero_grad();
  const Ragged logp = policy.teacher_forced_log_probs(sequences, temperature, true);
  REQUIRE(logp.size() == 3);
  CHECK(logp[1].empty());
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    const std::vector<int> rest(sequences[i].begin() + 1, sequences[i].end());
    const Reference ref = naive_reference(policy, {sequences[i][0]}, rest, temperature);
    REQUIRE(logp[i].size() == rest.size());
    for (std::size_t t = 0; t < rest.size(); ++t)
      CHECK_THAT(logp[i][t], WithinAbs(ref.logp[t], 1e-12));
  }
  check_all_gradients(policy, [&] {
    GruPolicy<double> copy = policy;
    double sum = 0;
    for (const std::vector<double>& row :
         copy.teacher_forced_log_probs(sequences, temperature, false))
      for (double value : row) sum += value;
    return sum;
  });
  CHECK_THROWS_WITH(policy.teacher_forced_log_probs({{1}, {}}, 1.0, false),
                    Contains("sequences[1]: must have at least 1 token"));
}

TEMPLATE_TEST_CASE("policy: forward equals a naive scalar reference of the PyTorch equations",
                   "[policy]", float, double) {
  GruPolicy<TestType> policy = make_policy<TestType>(GruDims{11, 5, 8}, 21);
  Rng rng(4);
  TokenRows prompts(3, std::vector<int>(2));
  for (auto& prompt : prompts)
    for (int& token : prompt) token = static_cast<int>(rng.below(11));
  TokenRows completions(3 * 4);
  for (auto& completion : completions) {
    completion.resize(rng.below(6));  // lengths 0..5
    for (int& token : completion) token = static_cast<int>(rng.below(11));
  }
  for (double temperature : {1.0, 0.6}) {
    PolicyOutput out;
    policy.forward(prompts, completions, temperature, out);
    REQUIRE(out.logp.size() == completions.size());
    for (std::size_t j = 0; j < completions.size(); ++j) {
      const Reference ref = naive_reference(policy, prompts[j / 4], completions[j], temperature);
      REQUIRE(out.logp[j].size() == completions[j].size());
      REQUIRE(out.entropy[j].size() == completions[j].size());
      for (std::size_t t = 0; t < completions[j].size(); ++t) {
        CHECK_THAT(out.logp[j][t], WithinAbs(ref.logp[t], tolerance<TestType>()));
        CHECK_THAT(out.entropy[j][t], WithinAbs(ref.entropy[t], tolerance<TestType>()));
      }
    }
  }
}

TEMPLATE_TEST_CASE("policy: the shared-prefix batch equals each sequence run on its own",
                   "[policy]", float, double) {
  GruPolicy<TestType> policy = make_policy<TestType>(GruDims{13, 6, 16}, 8);
  Rng rng(17);
  const int P = 4, G = 5, Lp = 3;
  TokenRows prompts(P, std::vector<int>(Lp));
  for (auto& prompt : prompts)
    for (int& token : prompt) token = static_cast<int>(rng.below(13));
  TokenRows completions(P * G);
  for (auto& completion : completions) {
    completion.resize(rng.below(7));
    for (int& token : completion) token = static_cast<int>(rng.below(13));
  }
  PolicyOutput batched, single;
  policy.reserve(P, Lp, G, 6);  // presized workspaces give the same results
  policy.forward(prompts, completions, 0.9, batched);
  for (int j = 0; j < P * G; ++j) {
    policy.forward({prompts[j / G]}, {completions[j]}, 0.9, single);
    REQUIRE(single.logp[0].size() == completions[j].size());
    for (std::size_t t = 0; t < completions[j].size(); ++t) {
      CHECK_THAT(batched.logp[j][t], WithinAbs(single.logp[0][t], tolerance<TestType>()));
      CHECK_THAT(batched.entropy[j][t], WithinAbs(single.entropy[0][t], tolerance<TestType>()));
    }
  }
}

TEST_CASE("policy: forward, backward and sample reject bad arguments by name", "[policy]") {
  GruPolicy<double> policy = make_policy<double>(GruDims{5, 2, 3}, 1);
  PolicyOutput out;
  SampleOutput samples;
  Rng rng(1);
  CHECK_THROWS_AS(GruPolicy<double>(GruDims{5, 2, 0}), grpo::InvalidArgument);
  CHECK_THROWS_WITH(GruPolicy<double>(GruDims{5000, 2, 3}),
                    Contains("policy.vocab: must be an integer in [1, 4096], got 5000"));
  CHECK_THROWS_WITH(policy.backward({}), Contains("backward: needs a successful forward()"));
  CHECK_THROWS_WITH(policy.reserve(8, 4, 0, 4),
                    Contains("reserve: every size must be an integer in [1, 1048576], got 0"));
  CHECK_THROWS_WITH(policy.forward({{1, 2}, {3}}, {{1}, {2}}, 1.0, out),
                    Contains("prompts[1]: must have 2 tokens"));
  CHECK_THROWS_WITH(policy.forward({{}}, {{1}}, 1.0, out),
                    Contains("prompts[0]: must have at least 1 token"));
  CHECK_THROWS_WITH(policy.forward({{1}, {2}}, {{1}, {2}, {3}}, 1.0, out),
                    Contains("completions: must have a positive multiple of 2"));
  CHECK_THROWS_WITH(policy.forward({{1}}, {{1, 5}}, 1.0, out),
                    Contains("completions[0][1]: must be a token id in [0, 4], got 5"));
  CHECK_THROWS_WITH(policy.forward({{-1}}, {{1}}, 1.0, out),
                    Contains("prompts[0][0]: must be a token id in [0, 4], got -1"));
  CHECK_THROWS_WITH(policy.forward({{1}}, {{1}}, 0.0, out),
                    Contains("temperature: must be a positive finite number, got 0"));
  policy.forward({{1}, {2}}, {{1, 2}, {3}}, 1.0, out);
  CHECK_THROWS_WITH(policy.backward({{0.5}}), Contains("dlogp: must have 2 rows"));
  CHECK_THROWS_WITH(policy.backward({{0.5}, {1.0}}),
                    Contains("dlogp[0]: must have 2 values (length of completion 0), got 1"));
  CHECK_THROWS_WITH(policy.backward({{0.5, std::nan("")}, {1.0}}),
                    Contains("dlogp[0][1]: must be finite, got NaN"));
  const Ragged bad_entropy = {{0.5, 1.0}, {}};
  CHECK_THROWS_WITH(policy.backward({{0.5, 1.0}, {1.0}}, &bad_entropy),
                    Contains("dentropy[1]: must have 1 values"));
  CHECK_THROWS_WITH(policy.sample({{1}}, 0, 3, 1.0, 0, rng, samples),
                    Contains("group_size: must be an integer in [1, 65536], got 0"));
  CHECK_THROWS_WITH(policy.sample({{1}}, 2, 0, 1.0, 0, rng, samples),
                    Contains("max_new_tokens: must be an integer in [1, 65536], got 0"));
  CHECK_THROWS_WITH(policy.sample({{1}}, 2, 3, 1.0, 7, rng, samples),
                    Contains("eos_id: must be a token id in [0, 4], got 7"));
  CHECK_THROWS_WITH(policy.sample({{1}}, 2, 3, -1.0, 0, rng, samples),
                    Contains("temperature: must be a positive finite number, got -1"));
}

TEMPLATE_TEST_CASE("policy: sampling is deterministic, stops at eos and scores like forward",
                   "[policy]", float, double) {
  const GruDims dims{9, 4, 12};
  const int eos = 2, G = 6, max_new = 5;
  GruPolicy<TestType> policy = make_policy<TestType>(dims, 31);
  policy.tensor(grpo::ParamId::kHeadBias)[eos] += TestType(1.2);  // both endings occur
  const TokenRows prompts = {{1, 3}, {4, 4}, {0, 8}};
  const double temperature = 0.8;

  SampleOutput a, b, c;
  Rng rng_a(2024), rng_b(2024), rng_c(2025);
  policy.sample(prompts, G, max_new, temperature, eos, rng_a, a);
  policy.sample(prompts, G, max_new, temperature, eos, rng_b, b);
  policy.sample(prompts, G, max_new, temperature, eos, rng_c, c);
  CHECK(a.tokens == b.tokens);
  CHECK(a.logp == b.logp);
  CHECK(a.entropy == b.entropy);
  CHECK(a.terminated == b.terminated);
  CHECK(a.tokens != c.tokens);

  REQUIRE(a.tokens.size() == prompts.size() * G);
  int terminated = 0, truncated = 0;
  for (std::size_t j = 0; j < a.tokens.size(); ++j) {
    const std::vector<int>& row = a.tokens[j];
    REQUIRE(!row.empty());
    REQUIRE(static_cast<int>(row.size()) <= max_new);
    for (std::size_t t = 0; t + 1 < row.size(); ++t) CHECK(row[t] != eos);
    CHECK(a.terminated[j] == (row.back() == eos));
    if (!a.terminated[j]) CHECK(static_cast<int>(row.size()) == max_new);
    (a.terminated[j] ? terminated : truncated) += 1;
  }
  CHECK(terminated > 0);
  CHECK(truncated > 0);

  // Teacher forcing the sampled tokens gives the sampling log-probs and entropies back.
  PolicyOutput out;
  policy.forward(prompts, a.tokens, temperature, out);
  for (std::size_t j = 0; j < a.tokens.size(); ++j)
    for (std::size_t t = 0; t < a.tokens[j].size(); ++t) {
      CHECK_THAT(out.logp[j][t], WithinAbs(a.logp[j][t], tolerance<TestType>()));
      CHECK_THAT(out.entropy[j][t], WithinAbs(a.entropy[j][t], tolerance<TestType>()));
    }

  // Sampling between forward and backward leaves the activations backward needs.
  Ragged ones = out.logp;
  for (auto& row : ones) std::fill(row.begin(), row.end(), 1.0);
  policy.zero_grad();
  policy.forward(prompts, a.tokens, temperature, out);
  policy.backward(ones);
  const std::vector<TestType> expected = policy.grads();
  policy.zero_grad();
  policy.forward(prompts, a.tokens, temperature, out);
  policy.sample({{5}}, 3, 4, temperature, eos, rng_c, c);
  policy.backward(ones);
  CHECK(policy.grads() == expected);
}

TEST_CASE("policy: sampled first tokens follow the temperature-scaled softmax", "[policy]") {
  GruPolicy<double> policy = make_policy<double>(GruDims{6, 3, 5}, 77);
  const double temperature = 0.7;
  const int draws = 20000;
  SampleOutput samples;
  Rng rng(8);
  policy.sample({{3, 1}}, draws, 1, temperature, 0, rng, samples);
  PolicyOutput out;
  TokenRows all_tokens(6);
  for (int v = 0; v < 6; ++v) all_tokens[v] = {v};
  policy.forward({{3, 1}}, all_tokens, temperature, out);
  std::vector<int> counts(6, 0);
  for (const auto& row : samples.tokens) ++counts[row[0]];
  for (int v = 0; v < 6; ++v) {
    const double p = std::exp(out.logp[v][0]);
    const double sigma = std::sqrt(draws * p * (1 - p));
    INFO("token " << v << " p " << p << " count " << counts[v]);
    CHECK(std::fabs(counts[v] - draws * p) < 4.5 * sigma + 1);
  }
}

TEST_CASE("adam: one and two steps equal the hand-computed PyTorch update", "[policy]") {
  grpo::AdamConfig config;
  config.learning_rate = 0.01;
  grpo::Adam<double> adam(3, config);
  std::vector<double> params = {1.0, -2.0, 0.5};
  // Step 1: m = 0.1 g, v = 0.001 g^2, step_size = lr / 0.1, denom = |g| + 1e-8,
  // so p -= 0.01 * g / (|g| + 1e-8).
  adam.step(params, {0.1, -0.2, 0.3});
  CHECK_THAT(params[0], WithinRel(1.0 - 0.01 * 0.1 / (0.1 + 1e-8), 1e-14));
  CHECK_THAT(params[1], WithinRel(-2.0 + 0.01 * 0.2 / (0.2 + 1e-8), 1e-14));
  CHECK_THAT(params[2], WithinRel(0.5 - 0.01 * 0.3 / (0.3 + 1e-8), 1e-14));
  // Step 2 with g = (-0.05, 0.4, 0): m = 0.9 m + 0.1 g, v = 0.999 v + 0.001 g^2,
  // step_size = 0.01 / (1 - 0.9^2), denom = sqrt(v) / sqrt(1 - 0.999^2) + 1e-8.
  adam.step(params, {-0.05, 0.4, 0.0});
  const double g1[3] = {0.1, -0.2, 0.3}, g2[3] = {-0.05, 0.4, 0.0};
  const double start[3] = {1.0, -2.0, 0.5};
  for (int i = 0; i < 3; ++i) {
    const double m1 = 0.1 * g1[i], v1 = 0.001 * g1[i] * g1[i];
    const double p1 = start[i] - (0.01 / 0.1) * m1 / (std::sqrt(v1) / std::sqrt(0.001) + 1e-8);
    const double m2 = 0.9 * m1 + 0.1 * g2[i], v2 = 0.999 * v1 + 0.001 * g2[i] * g2[i];
    const double p2 =
        p1 - (0.01 / (1 - 0.81)) * m2 / (std::sqrt(v2) / std::sqrt(1 - 0.998001) + 1e-8);
    CHECK_THAT(params[i], WithinRel(p2, 1e-12));
  }
  // The same numbers from torch.optim.Adam(lr=0.01) after two steps (float64).
  CHECK_THAT(params[0], WithinRel(0.9873366309403391, 1e-12));
  CHECK_THAT(params[1], WithinRel(-1.9936610356546038, 1e-12));
  CHECK_THAT(params[2], WithinRel(0.48329941810791543, 1e-12));
  CHECK(adam.steps() == 2);

  CHECK_THROWS_WITH(adam.step(params, {1.0}), Contains("grads: must have 3 entries, got 1"));
  config.learning_rate = -1;
  CHECK_THROWS_WITH(grpo::Adam<float>(3, config),
                    Contains("learning_rate: must be a positive finite number, got -1"));
}

TEST_CASE("adam: gradient-norm clipping scales to max_norm and returns the norm before",
          "[policy]") {
  std::vector<float> grads = {3.0f, -4.0f, 0.0f};
  const double norm = grpo::clip_grad_norm(grads, 1.0);
  CHECK_THAT(norm, WithinRel(5.0, 1e-12));
  CHECK_THAT(grpo::global_grad_norm(grads), WithinRel(1.0, 1e-6));
  CHECK_THAT(grads[0], WithinRel(0.6, 1e-6));
  CHECK_THAT(grads[1], WithinRel(-0.8, 1e-6));
  std::vector<double> small = {0.3, 0.4};
  CHECK_THAT(grpo::clip_grad_norm(small, 1.0), WithinRel(0.5, 1e-15));
  CHECK(small == std::vector<double>{0.3, 0.4});  // below max_norm: unchanged
  CHECK_THROWS_WITH(grpo::clip_grad_norm(small, 0.0),
                    Contains("max_grad_norm: must be a positive finite number, got 0"));
}

TEMPLATE_TEST_CASE("checkpoint: export then import is bit-identical", "[checkpoint]", float,
                   double) {
  const GruDims dims{6, 4, 5};
  const GruPolicy<TestType> policy = make_policy<TestType>(dims, 13);
  const std::vector<std::string> vocab = {"<eos>", "0", "1", "+", "=", "?"};
  const nlohmann::json config = {{"temperature", 0.7}, {"note", "smoke"}, {"hidden", 999}};
  const nlohmann::json exported = grpo::export_checkpoint(policy, vocab, config);
  CHECK(exported["config"]["hidden"] == 5);
  CHECK(exported["config"]["embed"] == 4);
  CHECK(exported["tensors"]["gru.weight_hh_l0"]["shape"] == nlohmann::json::array({15, 5}));

  const nlohmann::json parsed = nlohmann::json::parse(exported.dump());
  const grpo::Checkpoint<TestType> loaded = grpo::import_checkpoint<TestType>(parsed);
  CHECK(loaded.vocab == vocab);
  CHECK(loaded.temperature == 0.7);
  CHECK(loaded.config["note"] == "smoke");
  REQUIRE(loaded.policy.num_params() == policy.num_params());
  CHECK(std::memcmp(loaded.policy.params().data(), policy.params().data(),
                    policy.num_params() * sizeof(TestType)) == 0);
  CHECK(grpo::export_checkpoint(loaded.policy, loaded.vocab, loaded.config).dump() ==
        exported.dump());
  CHECK_THROWS_WITH(grpo::export_checkpoint(policy, {"a"}, config),
                    Contains("vocab: must have 6 entries"));
}

TEST_CASE("checkpoint: every invalid checkpoint throws naming the field", "[checkpoint]") {
  const GruPolicy<float> policy = make_policy<float>(GruDims{5, 3, 4}, 2);
  const nlohmann::json good =
      grpo::export_checkpoint(policy, {"a", "b", "c", "d", "e"}, {{"temperature", 1.0}});
  REQUIRE_NOTHROW(grpo::import_checkpoint<float>(good));
  auto fails_with = [&](nlohmann::json bad, const std::string& message) {
    INFO(message);
    CHECK_THROWS_AS(grpo::import_checkpoint<float>(bad), grpo::InvalidArgument);
    CHECK_THROWS_WITH(grpo::import_checkpoint<double>(bad), Contains(message));
  };
  nlohmann::json bad = good;
  bad["tensors"].erase("gru.bias_hh_l0");
  fails_with(bad, "checkpoint.tensors.gru.bias_hh_l0: is required (a tensor of shape [12])");

  bad = good;
  bad["tensors"]["gru.weight_hh_l1"] = good["tensors"]["gru.weight_hh_l0"];
  fails_with(bad, "checkpoint.tensors.gru.weight_hh_l1: unknown tensor");

  bad = good;
  bad["tensors"]["gru.weight_hh_l0"]["shape"] = {4, 4};
  fails_with(bad, "checkpoint.tensors.gru.weight_hh_l0.shape: must be [12, 4], got [4, 4]");

  bad = good;
  bad["tensors"]["head.bias"]["data"][3] = std::nan("");
  fails_with(bad, "checkpoint.tensors.head.bias.data[3]: must be a finite number, got NaN");

  bad = good;
  bad["tensors"]["head.bias"]["data"][1] = nullptr;  // what JSON.stringify makes of NaN
  fails_with(bad, "checkpoint.tensors.head.bias.data[1]: must be a finite number, got null");

  bad = good;
  bad["tensors"]["head.bias"]["data"][0] = {{"$number", "Infinity"}};
  fails_with(bad, "checkpoint.tensors.head.bias.data[0]: must be a finite number, got Infinity");

  bad = good;
  bad["tensors"]["head.bias"]["data"][0] = 1e300;
  CHECK_THROWS_WITH(grpo::import_checkpoint<float>(bad),
                    Contains("head.bias.data[0]: must be a finite number in float range"));

  bad = good;
  bad["tensors"]["embedding.weight"]["data"].erase(14);
  fails_with(bad,
             "checkpoint.tensors.embedding.weight.data: must be an array of 15 numbers (product "
             "of shape [5, 3]), got 14");

  bad = good;
  bad["tensors"]["embedding.weight"]["shape"] = {1000000000, 3};
  fails_with(bad, "checkpoint.tensors.embedding.weight.shape: must be [5, 3], got [1000000000, 3]");

  bad = good;
  bad["config"]["hidden"] = 100000;
  fails_with(bad, "checkpoint.config.hidden: must be an integer in [1, 1024], got 100000");

  bad = good;
  bad["config"].erase("embed");
  fails_with(bad, "checkpoint.config.embed: is required");

  bad = good;
  bad["config"]["temperature"] = 0;
  fails_with(bad, "checkpoint.config.temperature: must be a positive finite number, got 0");

  bad = good;
  bad["vocab"][2] = 7;
  fails_with(bad, "checkpoint.vocab[2]: must be a string, got 7");

  bad = good;
  bad["vocab"] = nlohmann::json::array();
  fails_with(bad, "checkpoint.vocab: must be an array of 1 to 4096 token strings");

  bad = good;
  bad["vocab"].push_back("f");  // 6 tokens but the head has 5 rows
  fails_with(bad, "checkpoint.tensors.embedding.weight.shape: must be [6, 3], got [5, 3]");

  bad = good;
  bad.erase("tensors");
  fails_with(bad, "checkpoint.tensors: is required");

  fails_with(nlohmann::json::array(), "checkpoint: must be an object");
}
