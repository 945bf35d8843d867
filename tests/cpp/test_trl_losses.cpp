// Tests of TRL 1.9's loss types (cispo, sapo, luspo, vespo) and options (delta,
// topEntropyQuantile, offPolicyMaskThreshold, useBiasCorrectionKl, entropyCoef) in grpo_objective.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/api.h"
#include "core/errors.h"
#include "rl/grpo_objective.h"
#include "rl/loss_terms.h"
#include "rl/rng.h"
#include "rl/trainer.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using grpo::ImportanceLevel;
using grpo::LossType;
using grpo::ObjectiveConfig;
using grpo::ObjectiveInputs;
using grpo::ObjectiveResult;
using grpo::Ragged;
using grpo::SamplerCorrection;

namespace {

constexpr double kDelta = 1.45;  // above 1 + epsHigh = 1.28, so it caps the unclipped branch

const LossType kAllLosses[] = {LossType::Grpo,  LossType::Bnpo, LossType::DrGrpo, LossType::Dapo,
                               LossType::Cispo, LossType::Sapo, LossType::Luspo,  LossType::Vespo};

// CISPO and VESPO multiply log p by a detached coefficient (min(r, epsHigh), phi(w)).
bool detached_coefficient(LossType loss) {
  return loss == LossType::Cispo || loss == LossType::Vespo;
}

// A random off-policy batch: 3 groups of 4, lengths 0..5 (completion 7 empty), completions 2, 7
// and 12 % 5 truncated, ratios of about e^+-0.8, no token or sequence ratio within 0.02 of a kink
// (1 - epsLow, 1 + epsHigh, delta), sampler log-probs for the off-policy mask.
ObjectiveInputs random_batch(std::uint64_t seed) {
  grpo::Rng rng(seed);
  const int n = 12;
  const double kinks[] = {0.8, 1.28, kDelta};
  auto near_kink = [&](double log_ratio) {
    for (double k : kinks)
      if (std::fabs(std::exp(log_ratio) - k) < 0.02) return true;
    return false;
  };
  ObjectiveInputs in;
  const double levels[] = {0.0, 0.5, 1.0};
  for (int i = 0; i < n; ++i) in.rewards.push_back(levels[rng.below(3)]);
  in.rewards[0] = 1.0;  // every group informative
  in.rewards[1] = 0.0;
  in.rewards[4] = 0.0;
  in.rewards[5] = 1.0;
  in.rewards[8] = 0.5;
  in.rewards[9] = 1.0;
  in.old_logp = Ragged();
  in.ref_logp = Ragged();
  in.entropies = Ragged();
  in.sampling_logp = Ragged();
  for (int i = 0; i < n; ++i) {
    const int length = i == 7 ? 0 : 1 + static_cast<int>(rng.below(5));
    std::vector<double> logp, old, ref, entropy, sampler;
    for (;;) {
      logp.clear();
      old.clear();
      ref.clear();
      entropy.clear();
      sampler.clear();
      const double offset = i == 0 ? 0.6 : i == 1 ? -0.5 : rng.uniform(-0.55, 0.55);
      double sum = 0.0;
      bool ok = true;
      for (int t = 0; t < length; ++t) {
        const double lp = rng.uniform(-3.0, -0.05);
        const double lr = offset + rng.uniform(-0.25, 0.25);
        ok = ok && !near_kink(lr);
        sum += lr;
        logp.push_back(lp);
        old.push_back(lp - lr);
        ref.push_back(lp + rng.uniform(-0.6, 0.6));
        entropy.push_back(rng.uniform(0.1, 2.0));
        sampler.push_back(lp + rng.uniform(-0.4, 0.4));
      }
      if (ok && (length == 0 || !near_kink(sum / length))) break;
    }
    in.logp.push_back(logp);
    in.old_logp->push_back(old);
    in.ref_logp->push_back(ref);
    in.entropies->push_back(entropy);
    in.sampling_logp->push_back(sampler);
    in.truncated.push_back(i % 5 == 2);
  }
  return in;
}

// The mean sampler KL of each completion, as get_off_policy_mask computes it.
std::vector<double> sampler_kls(const ObjectiveInputs& in) {
  std::vector<double> kls;
  for (std::size_t i = 0; i < in.logp.size(); ++i) {
    double kl = 0.0;
    for (std::size_t t = 0; t < in.logp[i].size(); ++t)
      kl += (*in.sampling_logp)[i][t] - in.logp[i][t];
    kls.push_back(in.logp[i].empty() ? 0.0 : kl / static_cast<double>(in.logp[i].size()));
  }
  return kls;
}

// A threshold in the middle of the widest gap between completions' sampler KLs, so that some
// completions fall on each side and a finite-difference step (<= 2e-3 of a mean) crosses none.
double threshold_between(const ObjectiveInputs& in) {
  std::vector<double> kls = sampler_kls(in);
  std::sort(kls.begin(), kls.end());
  double best_gap = 0.0, threshold = 0.0;
  for (std::size_t k = 1; k < kls.size(); ++k)
    if (kls[k] - kls[k - 1] > best_gap) {
      best_gap = kls[k] - kls[k - 1];
      threshold = 0.5 * (kls[k] + kls[k - 1]);
    }
  REQUIRE(best_gap > 0.01);
  return threshold;
}

// Five-point central difference of the loss in one input (h = 1e-3: truncation O(h^4)).
template <class Loss>
double five_point(Loss loss_at) {
  const double h = 1e-3;
  return (8.0 * (loss_at(h) - loss_at(-h)) - (loss_at(2 * h) - loss_at(-2 * h))) / (12.0 * h);
}

double relative_error(double numeric, double analytic) {
  const double scale = std::max(std::fabs(numeric), std::fabs(analytic));
  return scale > 1e-12 ? std::fabs(numeric - analytic) / scale : 0.0;
}

// Largest relative error of d loss / d logp against central differences. For CISPO and VESPO the
// coefficient is detached (TRL's .detach() / @torch.no_grad), so the difference is taken with it
// held fixed: logp and oldLogProbs move together, which leaves every ratio unchanged.
double max_logp_gradient_error(const ObjectiveConfig& config, ObjectiveInputs inputs) {
  const ObjectiveResult result = grpo::grpo_objective(config, inputs);
  const bool hold_ratio = detached_coefficient(config.loss_type);
  double worst = 0.0;
  for (std::size_t i = 0; i < inputs.logp.size(); ++i)
    for (std::size_t t = 0; t < inputs.logp[i].size(); ++t) {
      const double saved = inputs.logp[i][t], saved_old = (*inputs.old_logp)[i][t];
      const double numeric = five_point([&](double step) {
        inputs.logp[i][t] = saved + step;
        if (hold_ratio) (*inputs.old_logp)[i][t] = saved_old + step;
        const double value = grpo::grpo_objective(config, inputs).loss;
        inputs.logp[i][t] = saved;
        (*inputs.old_logp)[i][t] = saved_old;
        return value;
      });
      worst = std::max(worst, relative_error(numeric, result.grad_logp[i][t]));
    }
  return worst;
}

// Largest relative error of d loss / d entropy (the entropy bonus) against central differences.
double max_entropy_gradient_error(const ObjectiveConfig& config, ObjectiveInputs inputs) {
  const ObjectiveResult result = grpo::grpo_objective(config, inputs);
  double worst = 0.0;
  for (std::size_t i = 0; i < inputs.logp.size(); ++i)
    for (std::size_t t = 0; t < inputs.logp[i].size(); ++t) {
      double& h = (*inputs.entropies)[i][t];
      const double saved = h;
      const double numeric = five_point([&](double step) {
        h = saved + step;
        const double value = grpo::grpo_objective(config, inputs).loss;
        h = saved;
        return value;
      });
      worst = std::max(worst, relative_error(numeric, result.grad_entropy[i][t]));
    }
  return worst;
}

ObjectiveConfig base_config(LossType loss) {
  ObjectiveConfig c;
  c.group_size = 4;
  c.loss_type = loss;
  c.eps_low = 0.2;
  c.eps_high = loss == LossType::Cispo ? 1.3 : 0.28;  // a CISPO cap that some ratios exceed
  c.max_completion_length = 8;
  // The batch carries sampler log-probs (for the off-policy mask); the sampler correction they
  // would also switch on has its own tests below.
  c.vllm_importance_sampling_correction = false;
  return c;
}

// One option switched on (or none).
enum class Option { None, Delta, EntropyQuantile, OffPolicyMask, BiasCorrectionKl, EntropyCoef };

const char* option_name(Option o) {
  switch (o) {
    case Option::None:
      return "none";
    case Option::Delta:
      return "delta";
    case Option::EntropyQuantile:
      return "topEntropyQuantile";
    case Option::OffPolicyMask:
      return "offPolicyMaskThreshold";
    case Option::BiasCorrectionKl:
      return "useBiasCorrectionKl";
    case Option::EntropyCoef:
      return "entropyCoef";
  }
  return "?";
}

void apply(Option option, ObjectiveConfig& c, const ObjectiveInputs& in) {
  switch (option) {
    case Option::None:
      return;
    case Option::Delta:
      c.delta = kDelta;
      return;
    case Option::EntropyQuantile:
      c.top_entropy_quantile = 0.6;
      return;
    case Option::OffPolicyMask:
      c.off_policy_mask_threshold = threshold_between(in);
      return;
    case Option::BiasCorrectionKl:
      c.use_bias_correction_kl = true;
      c.beta = 0.07;
      return;
    case Option::EntropyCoef:
      c.entropy_coef = 0.03;
      c.top_entropy_quantile = 0.7;  // the bonus then sees the same masked tokens
      return;
  }
}

std::vector<double> flat(const Ragged& rows) {
  std::vector<double> out;
  for (const auto& row : rows) out.insert(out.end(), row.begin(), row.end());
  return out;
}

}  // namespace

TEST_CASE("TRL 1.9 losses and options: gradient matches five-point differences", "[objective]") {
  const LossType loss = GENERATE(LossType::Grpo, LossType::Bnpo, LossType::DrGrpo, LossType::Dapo,
                                 LossType::Cispo, LossType::Sapo, LossType::Luspo, LossType::Vespo);
  const ImportanceLevel level = GENERATE(ImportanceLevel::Token, ImportanceLevel::Sequence);
  const Option option =
      GENERATE(Option::None, Option::Delta, Option::EntropyQuantile, Option::OffPolicyMask,
               Option::BiasCorrectionKl, Option::EntropyCoef);
  const bool mask = GENERATE(false, true);
  if (loss == LossType::Vespo && level == ImportanceLevel::Sequence) return;  // TRL refuses it
  // The detached CISPO/VESPO coefficient is held fixed by moving old with logp, which would also
  // freeze the ratio the bias-corrected KL multiplies by; that KL path is the same code for every
  // loss type and is checked with the others.
  if (detached_coefficient(loss) && option == Option::BiasCorrectionKl) return;

  ObjectiveConfig config = base_config(loss);
  config.importance_level = level;
  config.mask_truncated = mask;
  const ObjectiveInputs inputs = random_batch(7);
  apply(option, config, inputs);
  config.validate();
  INFO("loss " << grpo::loss_type_name(loss) << ", level " << grpo::importance_level_name(level)
               << ", option " << option_name(option) << ", mask " << mask);

  const ObjectiveResult result = grpo::grpo_objective(config, inputs);
  CHECK(std::isfinite(result.loss));
  CHECK(max_logp_gradient_error(config, inputs) < 1e-6);
  if (option == Option::EntropyCoef) {
    CHECK(max_entropy_gradient_error(config, inputs) < 1e-9);
    const std::vector<double> g = flat(result.grad_entropy);
    CHECK(std::any_of(g.begin(), g.end(), [](double x) { return x < 0.0; }));
  }
  if (option == Option::EntropyQuantile) CHECK(result.metrics.num_entropy_masked > 0);
  if (option == Option::OffPolicyMask) CHECK(result.metrics.num_off_policy_masked > 0);
}

TEST_CASE("TRL 1.9 losses and options: masked completions' values change nothing", "[objective]") {
  // The API is ragged: a completion masked by maskTruncated plays TRL's padding. Whatever its
  // values, the loss, the other rows' gradients and the metrics TRL computes over the mask are
  // unchanged, and its own gradient is zero.
  const LossType loss = GENERATE(LossType::Grpo, LossType::Bnpo, LossType::DrGrpo, LossType::Dapo,
                                 LossType::Cispo, LossType::Sapo, LossType::Luspo, LossType::Vespo);
  const Option option =
      GENERATE(Option::None, Option::Delta, Option::EntropyQuantile, Option::OffPolicyMask,
               Option::BiasCorrectionKl, Option::EntropyCoef);
  const bool sampler_correction = GENERATE(false, true);
  ObjectiveConfig config = base_config(loss);
  config.mask_truncated = true;
  config.vllm_importance_sampling_correction = sampler_correction;
  config.vllm_importance_sampling_mode = SamplerCorrection::SequenceTruncate;
  const ObjectiveInputs inputs = random_batch(11);
  apply(option, config, inputs);
  INFO("loss " << grpo::loss_type_name(loss) << ", option " << option_name(option));
  const ObjectiveResult a = grpo::grpo_objective(config, inputs);

  ObjectiveInputs garbage = inputs;
  grpo::Rng rng(99);
  for (std::size_t i = 0; i < garbage.logp.size(); ++i) {
    if (!garbage.truncated[i]) continue;
    for (std::size_t t = 0; t < garbage.logp[i].size(); ++t) {
      garbage.logp[i][t] = rng.uniform(-9.0, -0.01);
      (*garbage.old_logp)[i][t] = rng.uniform(-9.0, -0.01);
      (*garbage.ref_logp)[i][t] = rng.uniform(-9.0, -0.01);
      (*garbage.sampling_logp)[i][t] = rng.uniform(-9.0, -0.01);
      (*garbage.entropies)[i][t] = rng.uniform(0.0, 5.0);
    }
  }
  const ObjectiveResult b = grpo::grpo_objective(config, garbage);
  CHECK(a.loss == b.loss);
  for (std::size_t i = 0; i < inputs.logp.size(); ++i) {
    for (std::size_t t = 0; t < inputs.logp[i].size(); ++t) {
      if (inputs.truncated[i]) {
        CHECK(b.grad_logp[i][t] == 0.0);
        CHECK(b.grad_entropy[i][t] == 0.0);
      } else {
        CHECK(a.grad_logp[i][t] == b.grad_logp[i][t]);
        CHECK(a.grad_entropy[i][t] == b.grad_entropy[i][t]);
      }
    }
  }
  CHECK(a.metrics.kl == b.metrics.kl);
  CHECK(a.metrics.entropy == b.metrics.entropy);
  CHECK(a.metrics.num_entropy_masked == b.metrics.num_entropy_masked);
  CHECK(a.metrics.sampling_ratio_mean == b.metrics.sampling_ratio_mean);
  CHECK(a.metrics.sampling_logp_difference_max == b.metrics.sampling_logp_difference_max);
}

namespace {

// One small group by hand: G = 2, rewards {1, 0}. Group mean 1/2, sample std sqrt(1/2), so the
// advantages are A_0 = +a, A_1 = -a with a = (1/2) / (sqrt(1/2) + 1e-4). Completion 0 has one
// token (logp -0.5, old -0.7: r = e^0.2); completion 1 two tokens (logp -1.0, -0.2; old -1.1, -0.2:
// r = e^0.1 and e^0). epsLow 0.2, epsHigh 0.28: every ratio is inside [0.8, 1.28].
ObjectiveInputs small_group() {
  ObjectiveInputs in;
  in.rewards = {1.0, 0.0};
  in.logp = {{-0.5}, {-1.0, -0.2}};
  in.old_logp = Ragged{{-0.7}, {-1.1, -0.2}};
  return in;
}

ObjectiveConfig small_config(LossType loss) {
  ObjectiveConfig c;
  c.group_size = 2;
  c.loss_type = loss;
  c.eps_low = 0.2;
  c.eps_high = 0.28;
  c.max_completion_length = 4;
  return c;
}

const double kA = 0.5 / (std::sqrt(0.5) + 1e-4);

}  // namespace

TEST_CASE("cispo by hand: the notebook's epsHigh 0.28 caps every ratio at 0.28", "[objective]") {
  // CISPO's term is -min(r, epsilon_high) * A * logp, normalised by the batch's 3 tokens. With
  // epsilon_high = 0.28 (TRL's trap: an absolute cap, not 1 + 0.28) every ratio (>= 1) is capped:
  //   token (0,0): -0.28 * (+a) * (-0.5) = +0.14 a
  //   token (1,0): -0.28 * (-a) * (-1.0) = -0.28 a;  token (1,1): -0.28 * (-a) * (-0.2) = -0.056 a
  //   loss = (0.14 - 0.28 - 0.056) a / 3 = -0.196 a / 3; d loss / d logp = -0.28 A / 3.
  const ObjectiveResult r = grpo::grpo_objective(small_config(LossType::Cispo), small_group());
  CHECK_THAT(r.loss, WithinRel(-0.196 * kA / 3.0, 1e-12));
  CHECK_THAT(r.grad_logp[0][0], WithinRel(-0.28 * kA / 3.0, 1e-12));
  CHECK_THAT(r.grad_logp[1][1], WithinRel(0.28 * kA / 3.0, 1e-12));
  // cispo_clip_ratio counts r > epsilon_high where A > 0: 1 of the 3 tokens.
  CHECK_THAT(r.metrics.cispo_clip_ratio, WithinRel(1.0 / 3.0, 1e-12));
  CHECK_FALSE(r.metrics.has_clip_ratio);
  // The CISPO paper's 5.0 caps nothing here: c = r.
  ObjectiveConfig paper = small_config(LossType::Cispo);
  paper.eps_high = 5.0;
  const double expected =
      (-std::exp(0.2) * kA * -0.5 + std::exp(0.1) * kA * -1.0 + 1.0 * kA * -0.2) / 3.0;
  CHECK_THAT(grpo::grpo_objective(paper, small_group()).loss, WithinRel(expected, 1e-12));
}

TEST_CASE("sapo by hand: sigmoid gate, temperature by the advantage's sign", "[objective]") {
  // SAPO's term is -sigmoid(tau (r - 1)) * 4 / tau * A, tau = 1.0 for A > 0, 1.05 otherwise,
  // normalised as grpo (mean over each completion's tokens, then over completions):
  //   l_00 = -sigmoid(e^0.2 - 1) * 4 * a
  //   l_10 = +sigmoid(1.05 (e^0.1 - 1)) * 4 / 1.05 * a;  l_11 = +sigmoid(0) * 4 / 1.05 * a
  //   loss = (l_00 + (l_10 + l_11) / 2) / 2
  auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  const double l00 = -sigmoid(std::exp(0.2) - 1.0) * 4.0 * kA;
  const double l10 = sigmoid(1.05 * (std::exp(0.1) - 1.0)) * 4.0 / 1.05 * kA;
  const double l11 = 0.5 * 4.0 / 1.05 * kA;
  const ObjectiveResult r = grpo::grpo_objective(small_config(LossType::Sapo), small_group());
  CHECK_THAT(r.loss, WithinRel((l00 + 0.5 * (l10 + l11)) / 2.0, 1e-12));
  // At r = 1 the gate's slope is 1: d l / d log r = -4 A sigmoid (1 - sigmoid) r = -A, times the
  // grpo weight 1 / (2 * 2) for token (1, 1).
  CHECK_THAT(r.grad_logp[1][1], WithinRel(kA / 4.0, 1e-12));
}

TEST_CASE("luspo by hand: each completion's loss weighted by its length", "[objective]") {
  // Sequence level, beta 0: log r_0 = 0.2, log r_1 = (0.1 + 0) / 2 = 0.05, both in the band, so
  // l_0 = -e^0.2 a, l_1 = +e^0.05 a, and TRL's (per_token_loss * mask.sum(1)).mean() over the
  // (B, 1) losses is (1 * l_0 + 2 * l_1) / 2.
  ObjectiveConfig c = small_config(LossType::Luspo);
  c.importance_level = ImportanceLevel::Sequence;
  const ObjectiveResult r = grpo::grpo_objective(c, small_group());
  CHECK_THAT(r.loss, WithinRel((-std::exp(0.2) * kA + 2.0 * std::exp(0.05) * kA) / 2.0, 1e-12));
  CHECK(r.metrics.has_clip_ratio);
}

TEST_CASE("vespo by hand: the gamma weight of the summed log-ratio", "[objective]") {
  // log w_0 = 0.2 (A >= 0: k 2, lambda 3): phi_0 = exp(3 + 2 * 0.2 - 3 e^0.2);
  // log w_1 = 0.1 + 0 = 0.1 (A < 0: k 3, lambda 2): phi_1 = exp(2 + 3 * 0.1 - 2 e^0.1).
  // Term -phi A logp, normalised by the 3 tokens:
  //   loss = (phi_0 a 0.5 - phi_1 a 1.0 - phi_1 a 0.2) / 3.
  const double phi0 = std::exp(3.0 + 0.4 - 3.0 * std::exp(0.2));
  const double phi1 = std::exp(2.0 + 0.3 - 2.0 * std::exp(0.1));
  const ObjectiveResult r = grpo::grpo_objective(small_config(LossType::Vespo), small_group());
  CHECK_THAT(r.loss, WithinRel((0.5 * phi0 - 1.2 * phi1) * kA / 3.0, 1e-12));
  CHECK_THAT(r.grad_logp[1][0], WithinRel(phi1 * kA / 3.0, 1e-12));
  CHECK_THAT(r.metrics.vespo_phi_seq_mean, WithinRel((phi0 + phi1) / 2.0, 1e-12));
  // phi(1) = 1: on-policy VESPO is -A logp.
  CHECK_THAT(grpo::vespo_phi({0.0}, 1.0, 2.0, 3.0, 3.0, 2.0), WithinRel(1.0, 1e-15));
}

TEST_CASE("delta caps the unclipped branch of a negative advantage", "[objective]") {
  // A < 0 and r = e^1: min(r A, clip(r) A) = r A (unclipped), loss e a per token; delta = 2
  // caps it at 2 a with zero gradient. Completion 0 (A > 0, r = e^0.2 in the band) is unchanged.
  ObjectiveInputs in = small_group();
  in.logp[1] = {-1.0};
  in.old_logp = Ragged{{-0.7}, {-2.0}};
  ObjectiveConfig c = small_config(LossType::Bnpo);
  const double plain = grpo::grpo_objective(c, in).loss;
  CHECK_THAT(plain, WithinRel((-std::exp(0.2) * kA + std::exp(1.0) * kA) / 2.0, 1e-12));
  c.delta = 2.0;
  const ObjectiveResult r = grpo::grpo_objective(c, in);
  CHECK_THAT(r.loss, WithinRel((-std::exp(0.2) * kA + 2.0 * kA) / 2.0, 1e-12));
  CHECK(r.grad_logp[1][0] == 0.0);
}

TEST_CASE("topEntropyQuantile keeps the top fraction by entropy, the KL term stays",
          "[objective]") {
  // Entropies {0.1, 0.9, 0.5}: the 0.5 quantile (rho = 0.5) of {0.1, 0.5, 0.9} is 0.5, so tokens
  // (1, 0) and (1, 1) keep their policy term and token (0, 0) loses it.
  ObjectiveInputs in = small_group();
  in.entropies = Ragged{{0.1}, {0.9, 0.5}};
  ObjectiveConfig c = small_config(LossType::Dapo);
  c.top_entropy_quantile = 0.5;
  const ObjectiveResult r = grpo::grpo_objective(c, in);
  CHECK(r.grad_logp[0][0] == 0.0);
  CHECK(r.grad_logp[1][0] != 0.0);
  CHECK(r.metrics.num_entropy_masked == 1);
  CHECK_THAT(grpo::linear_quantile({0.1, 0.9, 0.5}, 0.25), WithinRel(0.3, 1e-12));
  // The normaliser still counts all 3 tokens: loss = (e^0.1 a + a) / 3.
  CHECK_THAT(r.loss, WithinRel((std::exp(0.1) + 1.0) * kA / 3.0, 1e-12));
}

TEST_CASE("offPolicyMaskThreshold drops negative-advantage completions far from the sampler",
          "[objective]") {
  ObjectiveInputs in = small_group();
  in.sampling_logp = Ragged{{0.0}, {-0.5, -0.2}};  // mean KLs: 0.5 (A > 0) and 0.25 (A < 0)
  ObjectiveConfig c = small_config(LossType::Dapo);
  c.off_policy_mask_threshold = 0.3;
  CHECK(grpo::grpo_objective(c, in).metrics.num_off_policy_masked == 0);  // 0.25 <= 0.3
  c.off_policy_mask_threshold = 0.2;
  const ObjectiveResult r = grpo::grpo_objective(c, in);
  CHECK(r.metrics.num_off_policy_masked == 1);  // A >= 0 is always kept
  CHECK(r.grad_logp[1][0] == 0.0);
  CHECK(r.grad_logp[0][0] != 0.0);
}

TEST_CASE("useBiasCorrectionKl multiplies k3 by the ratio", "[objective]") {
  ObjectiveInputs in = small_group();
  in.ref_logp = Ragged{{-0.6}, {-1.0, -0.2}};  // k3 is 0 for completion 1
  ObjectiveConfig c = small_config(LossType::Bnpo);
  c.beta = 0.5;
  const double d = -0.6 - -0.5;
  const double k3 = std::exp(d) - d - 1.0;
  const double base = grpo::grpo_objective(c, in).loss;
  c.use_bias_correction_kl = true;
  const ObjectiveResult r = grpo::grpo_objective(c, in);
  CHECK_THAT(r.loss - base, WithinRel(0.5 * k3 * (std::exp(0.2) - 1.0) / 3.0, 1e-9));
  CHECK_THAT(r.metrics.kl, WithinRel(k3 * std::exp(0.2) / 3.0, 1e-12));
}

TEST_CASE("entropyCoef subtracts coef times the mean entropy", "[objective]") {
  ObjectiveInputs in = small_group();
  in.entropies = Ragged{{0.3}, {0.6, 1.2}};
  for (LossType loss : kAllLosses) {
    ObjectiveConfig c = small_config(loss);
    const double base = grpo::grpo_objective(c, in).loss;
    c.entropy_coef = 0.1;
    const ObjectiveResult r = grpo::grpo_objective(c, in);
    INFO(grpo::loss_type_name(loss));
    CHECK_THAT(r.loss, WithinAbs(base - 0.1 * 0.7, 1e-14));  // mean entropy 2.1 / 3
    CHECK_THAT(r.grad_entropy[1][1], WithinRel(-0.1 / 3.0, 1e-12));
  }
}

TEST_CASE("TRL 1.9 options reject out-of-range values naming the field", "[objective]") {
  auto fails = [](void (*set)(ObjectiveConfig&), const char* text) {
    ObjectiveConfig c;
    set(c);
    CHECK_THROWS_WITH(c.validate(), Contains(text));
  };
  fails([](ObjectiveConfig& c) { c.sapo_temperature_pos = 0.0; },
        "sapoTemperaturePos: must be in (0, 100]");
  fails([](ObjectiveConfig& c) { c.sapo_temperature_neg = NAN; }, "sapoTemperatureNeg");
  fails([](ObjectiveConfig& c) { c.vespo_k_pos = -1.0; }, "vespoKPos: must be in [0, 100]");
  fails([](ObjectiveConfig& c) { c.vespo_lambda_neg = 101.0; }, "vespoLambdaNeg");
  fails([](ObjectiveConfig& c) { c.delta = 0.0; }, "delta: must be in (0, 1000000]");
  fails([](ObjectiveConfig& c) { c.top_entropy_quantile = 1.5; },
        "topEntropyQuantile: must be in [0, 1]");
  fails([](ObjectiveConfig& c) { c.off_policy_mask_threshold = INFINITY; },
        "offPolicyMaskThreshold");
  fails([](ObjectiveConfig& c) { c.entropy_coef = -0.1; }, "entropyCoef: must be in [0, 10]");
  ObjectiveConfig vespo = small_config(LossType::Vespo);
  vespo.importance_level = ImportanceLevel::Sequence;  // TRL only warns (grpo_trainer.py 897)
  CHECK_NOTHROW(vespo.validate());
  ObjectiveConfig c = small_config(LossType::Dapo);
  c.top_entropy_quantile = 0.5;
  CHECK_THROWS_WITH(grpo::grpo_objective(c, small_group()),
                    Contains("entropies: required when topEntropyQuantile < 1"));
}

TEST_CASE("grpoObjective JSON method: TRL 1.9 keys, metrics and entropy gradient",
          "[objective][api]") {
  const grpo::api::Json args = {
      {"rewards", {1, 0}},
      {"groupSize", 2},
      {"logProbs", {{-0.5}, {-1.0, -0.2}}},
      {"oldLogProbs", {{-0.7}, {-1.1, -0.2}}},
      {"entropies", {{0.3}, {0.6, 1.2}}},
      {"lossType", "cispo"},
      {"epsHigh", 5.0},
      {"entropyCoef", 0.1},
      {"delta", nullptr},
  };
  const grpo::api::Json out = grpo::api::call_json("grpoObjective", args);
  REQUIRE(out.contains("ok"));
  const grpo::api::Json& r = out["ok"];
  CHECK(r["config"]["lossType"] == "cispo");
  CHECK(r["config"]["delta"].is_null());
  CHECK(r["config"]["sapoTemperatureNeg"] == 1.05);
  CHECK(r["metrics"]["clipRatioLowMean"].is_null());
  CHECK(r["metrics"]["cispoClipRatio"] == 0.0);
  CHECK_THAT(r["gradEntropies"][1][1].get<double>(), WithinRel(-0.1 / 3.0, 1e-12));
  grpo::api::Json bad = args;
  bad["topEntropyQuantile"] = 2;
  const grpo::api::Json error = grpo::api::call_json("grpoObjective", bad)["error"];
  CHECK(error["type"] == "RangeError");
  CHECK(error["message"] == "topEntropyQuantile: must be in [0, 1], got 2");
}

TEST_CASE("the trainer runs every TRL 1.9 loss type and table option without NaN",
          "[trainer][sweep]") {
  struct Case {
    const char* loss;
    double top_entropy_quantile;
    bool bias_correction;
  };
  const Case cases[] = {{"cispo", 1.0, false}, {"sapo", 1.0, false}, {"luspo", 1.0, false},
                        {"vespo", 1.0, false}, {"dapo", 0.5, false}, {"grpo", 1.0, true},
                        {"sapo", 0.2, true},   {"luspo", 0.5, false}};
  for (const Case& c : cases) {
    grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
    config.updates = 6;
    config.objective.loss_type = grpo::parse_loss_type(c.loss);
    config.objective.top_entropy_quantile = c.top_entropy_quantile;
    config.objective.use_bias_correction_kl = c.bias_correction;
    config.objective.beta = c.bias_correction ? 0.04 : 0.0;
    if (config.objective.loss_type == LossType::Cispo) config.objective.eps_high = 5.0;
    config.validate();
    grpo::Experiment experiment(config);
    while (!experiment.done()) experiment.step();
    experiment.finish();
    for (const auto& row : experiment.history()) {
      INFO(c.loss << " rho " << c.top_entropy_quantile << " bias " << c.bias_correction
                  << " update " << row.update);
      CHECK(std::isfinite(row.loss));
      CHECK(std::isfinite(row.kl));
      CHECK(std::isfinite(row.grad_norm));
    }
    CHECK(std::isfinite(experiment.after_train().accuracy));
  }
}

namespace {

// small_group's sampler: d = old - sampling = {0.2}, {0, 0.3}.
ObjectiveInputs small_group_with_sampler() {
  ObjectiveInputs in = small_group();
  in.sampling_logp = Ragged{{-0.9}, {-1.1, -0.5}};
  return in;
}

}  // namespace

TEST_CASE("the sampler correction weighs the policy term as TRL's four modes do", "[objective]") {
  // small_group's per-token dapo terms are -e^0.2 a (completion 0) and e^0.1 a, a (completion 1),
  // over 3 tokens. The correction multiplies each by its weight w: token modes w = e^d per token
  // ({e^0.2}, {1, e^0.3}), sequence modes w = e^(sum d) per completion ({e^0.2}, {e^0.3, e^0.3});
  // truncate clamps w to [clipMin, clipMax], mask sets a w outside it to 0.
  const ObjectiveInputs in = small_group_with_sampler();
  ObjectiveConfig c = small_config(LossType::Dapo);
  const double e1 = std::exp(0.1), e2 = std::exp(0.2), e3 = std::exp(0.3), e4 = std::exp(0.4);
  struct Case {
    SamplerCorrection mode;
    double clip_max;
    std::optional<double> clip_min;
    double expected;  // loss / (a / 3)
  };
  const Case cases[] = {
      {SamplerCorrection::TokenTruncate, 3.0, std::nullopt, -e4 + e1 + e3},
      {SamplerCorrection::TokenTruncate, 1.25, std::nullopt, -e4 + e1 + 1.25},
      {SamplerCorrection::TokenTruncate, 3.0, 1.1, -e4 + 1.1 * e1 + e3},
      {SamplerCorrection::TokenMask, 1.25, std::nullopt, -e4 + e1},
      {SamplerCorrection::SequenceTruncate, 3.0, std::nullopt, -e4 + e1 * e3 + e3},
      {SamplerCorrection::SequenceMask, 1.25, std::nullopt, -e4},
  };
  for (const Case& k : cases) {
    c.vllm_importance_sampling_mode = k.mode;
    c.vllm_importance_sampling_clip_max = k.clip_max;
    c.vllm_importance_sampling_clip_min = k.clip_min;
    c.validate();
    INFO(grpo::sampler_correction_names()[static_cast<int>(k.mode)] << " max " << k.clip_max);
    const ObjectiveResult r = grpo::grpo_objective(c, in);
    CHECK_THAT(r.loss, WithinRel(k.expected * kA / 3.0, 1e-12));
  }
  // The weight is detached: d loss / d logp of token (1, 1) is its weight times r a / 3.
  c.vllm_importance_sampling_mode = SamplerCorrection::TokenTruncate;
  c.vllm_importance_sampling_clip_max = 3.0;
  c.vllm_importance_sampling_clip_min = std::nullopt;
  const ObjectiveResult r = grpo::grpo_objective(c, in);
  CHECK_THAT(r.grad_logp[1][1], WithinRel(e3 * kA / 3.0, 1e-12));
  // TRL's metrics: ratios over the tokens, |d| over the tokens.
  CHECK(r.metrics.has_sampling_ratio);
  CHECK_THAT(r.metrics.sampling_ratio_min, WithinRel(1.0, 1e-15));
  CHECK_THAT(r.metrics.sampling_ratio_max, WithinRel(e3, 1e-15));
  CHECK_THAT(r.metrics.sampling_ratio_mean, WithinRel((e2 + 1.0 + e3) / 3.0, 1e-15));
  CHECK_THAT(r.metrics.sampling_logp_difference_mean, WithinRel(0.5 / 3.0, 1e-12));
  CHECK_THAT(r.metrics.sampling_logp_difference_max, WithinRel(0.3, 1e-12));
  // Sequence modes: one ratio per completion.
  c.vllm_importance_sampling_mode = SamplerCorrection::SequenceMask;
  const ObjectiveResult s = grpo::grpo_objective(c, in);
  CHECK_THAT(s.metrics.sampling_ratio_mean, WithinRel((e2 + e3) / 2.0, 1e-15));
  // Off: the loss is the uncorrected one; the raw ratios are still measured.
  c.vllm_importance_sampling_correction = false;
  const ObjectiveResult off = grpo::grpo_objective(c, in);
  CHECK_THAT(off.loss, WithinRel((-e2 + e1 + 1.0) * kA / 3.0, 1e-12));
  CHECK_THAT(off.metrics.sampling_ratio_max, WithinRel(e3, 1e-15));
  // clipMin >= clipMax is refused, naming the field (TRL grpo_config.py 1131).
  c.vllm_importance_sampling_clip_min = 3.0;
  CHECK_THROWS_WITH(c.validate(), StartsWith("vllmImportanceSamplingClipMin: must be less than"));
  // A *_truncate mode with both bounds None is refused while correcting (1141), not when off.
  c.vllm_importance_sampling_clip_min = std::nullopt;
  c.vllm_importance_sampling_clip_max = std::nullopt;
  c.vllm_importance_sampling_mode = SamplerCorrection::TokenTruncate;
  CHECK_NOTHROW(c.validate());
  c.vllm_importance_sampling_correction = true;
  CHECK_THROWS_WITH(c.validate(), StartsWith("vllmImportanceSamplingClipMax: "
                                             "vllmImportanceSamplingMode token_truncate"));
}

TEST_CASE("the sampler correction: gradient matches five-point differences", "[objective]") {
  // The weights depend on old and sampling only, so they are constants of logp. (CISPO's and
  // VESPO's check moves old with logp to hold their coefficient; their weight is exercised above
  // and by the trainer test.)
  const LossType loss = GENERATE(LossType::Grpo, LossType::Bnpo, LossType::DrGrpo, LossType::Dapo,
                                 LossType::Sapo, LossType::Luspo);
  const ImportanceLevel level = GENERATE(ImportanceLevel::Token, ImportanceLevel::Sequence);
  const SamplerCorrection mode =
      GENERATE(SamplerCorrection::TokenTruncate, SamplerCorrection::TokenMask,
               SamplerCorrection::SequenceTruncate, SamplerCorrection::SequenceMask);
  ObjectiveConfig config = base_config(loss);
  config.importance_level = level;
  config.mask_truncated = true;
  config.vllm_importance_sampling_correction = true;
  config.vllm_importance_sampling_mode = mode;
  config.vllm_importance_sampling_clip_max = 1.1;  // some weights clipped or masked
  config.validate();
  const ObjectiveInputs inputs = random_batch(7);
  INFO("loss " << grpo::loss_type_name(loss) << ", level " << grpo::importance_level_name(level)
               << ", mode " << grpo::sampler_correction_names()[static_cast<int>(mode)]);
  CHECK(std::isfinite(grpo::grpo_objective(config, inputs).loss));
  CHECK(max_logp_gradient_error(config, inputs) < 1e-6);
}

namespace {

grpo::Experiment run_smoke(const std::function<void(grpo::ExperimentConfig&)>& change,
                           int updates = 6) {
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.updates = updates;
  change(config);
  config.validate();
  grpo::Experiment experiment(config);
  while (!experiment.done()) experiment.step();
  return experiment;
}

}  // namespace

TEST_CASE("the trainer: a sampler mismatch moves the ratios and the correction acts on them",
          "[trainer][sweep]") {
  const grpo::Experiment same = run_smoke([](grpo::ExperimentConfig&) {});
  for (const auto& row : same.history()) {
    CHECK(row.sampling_ratio_min == 1.0);  // the sampler is the policy: nothing to correct
    CHECK(row.sampling_logp_difference_max == 0.0);
  }
  auto mismatched = [](bool correction) {
    return run_smoke([&](grpo::ExperimentConfig& c) {
      c.sampler_mismatch = 0.05;
      c.objective.vllm_importance_sampling_correction = correction;
      c.objective.vllm_importance_sampling_mode = SamplerCorrection::TokenTruncate;
    });
  };
  const grpo::Experiment on = mismatched(true), off = mismatched(false);
  for (std::size_t k = 0; k < on.history().size(); ++k) {
    const auto& row = on.history()[k];
    INFO("update " << row.update << " ratio " << row.sampling_ratio_min << " "
                   << row.sampling_ratio_mean << " " << row.sampling_ratio_max);
    CHECK(row.sampling_logp_difference_max > 0.0);
    CHECK(row.sampling_ratio_min < row.sampling_ratio_max);
    CHECK(row.sampling_ratio_max <= 3.0);  // token_truncate's clip
    CHECK(std::isfinite(row.loss));
  }
  // The first batch is the same; the correction changes the first update's loss.
  CHECK(on.history()[0].sampling_logp_difference_mean ==
        off.history()[0].sampling_logp_difference_mean);
  CHECK(on.history()[0].loss != off.history()[0].loss);
}

TEST_CASE("the trainer: the entropy bonus, its adaptive control and the reference sync",
          "[trainer][sweep]") {
  // entropyCoef > 0 reaches the policy through the entropy's gradient.
  const grpo::Experiment plain = run_smoke([](grpo::ExperimentConfig&) {});
  const grpo::Experiment bonus =
      run_smoke([](grpo::ExperimentConfig& c) { c.objective.entropy_coef = 0.5; });
  CHECK(bonus.history()[1].entropy != plain.history()[1].entropy);
  CHECK(bonus.history()[0].entropy_coef == 0.5);

  // Adaptive: the coefficient moves by entropyCoefDelta per optimizer step (2 per update), up
  // while the step's entropy is <= the target, down otherwise, within [min, max].
  const grpo::Experiment low_target = run_smoke([](grpo::ExperimentConfig& c) {
    c.use_adaptive_entropy = true;
    c.objective.entropy_coef = 0.1;
    c.entropy_target = 0.0;  // entropies are above it: the coefficient shrinks
    c.entropy_coef_delta = 0.01;
  });
  CHECK_THAT(low_target.history()[0].entropy_coef, WithinAbs(0.08, 1e-12));
  CHECK_THAT(low_target.history()[2].entropy_coef, WithinAbs(0.04, 1e-12));
  const grpo::Experiment high_target = run_smoke([](grpo::ExperimentConfig& c) {
    c.use_adaptive_entropy = true;
    c.entropy_target = 10.0;  // always at or below: it grows, up to entropyCoefMax
    c.entropy_coef_delta = 0.05;
    c.entropy_coef_max = 0.25;
  });
  CHECK_THAT(high_target.history()[0].entropy_coef, WithinAbs(0.1, 1e-12));
  CHECK_THAT(high_target.history()[5].entropy_coef, WithinAbs(0.25, 1e-12));

  // TRL starts _last_world_entropy at float("inf") (grpo_trainer.py 830 at v1.9.0), so the first
  // optimizer step applies no bonus (3177): with one epoch per update, the adaptive run's first
  // update is the plain run's, bit for bit; the second applies the grown coefficient.
  auto one_epoch = [](bool adaptive) {
    return run_smoke([&](grpo::ExperimentConfig& c) {
      c.update_epochs = 1;
      c.use_adaptive_entropy = adaptive;
      c.objective.entropy_coef = adaptive ? 0.5 : 0.0;
      c.entropy_target = 10.0;
    });
  };
  const grpo::Experiment adaptive = one_epoch(true), unbonused = one_epoch(false);
  CHECK(adaptive.history()[0].loss == unbonused.history()[0].loss);
  CHECK(adaptive.history()[0].grad_norm == unbonused.history()[0].grad_norm);
  CHECK_THAT(adaptive.history()[0].entropy_coef, WithinAbs(0.505, 1e-12));
  CHECK(adaptive.history()[1].loss != unbonused.history()[1].loss);

  // The reference sync moves the reference toward the policy: the KL to it is smaller.
  auto with_sync = [](bool sync) {
    return run_smoke(
        [&](grpo::ExperimentConfig& c) {
          c.objective.beta = 0.04;
          c.sync_ref_model = sync;
          c.ref_model_sync_steps = 2;
        },
        10);
  };
  const grpo::Experiment synced = with_sync(true), frozen = with_sync(false);
  CHECK(synced.history()[0].kl == frozen.history()[0].kl);  // before the first sync
  CHECK(synced.history().back().kl < frozen.history().back().kl);
}

TEST_CASE("the trainer's metrics mean what TRL's mean", "[trainer][sweep]") {
  // entropy: the learner's over the loss-mask tokens (TRL's global_masked_mean(entropies)); with
  // maxNewTokens 1 no answer ends, maskTruncated masks every completion, and TRL logs 0. The
  // sampler's entropy over every sampled token is samplerEntropy.
  const grpo::Experiment masked =
      run_smoke([](grpo::ExperimentConfig& c) { c.objective.max_completion_length = 1; });
  for (const auto& row : masked.history()) {
    CHECK(row.truncated_fraction == 1.0);
    CHECK(row.entropy == 0.0);
    CHECK(row.sampler_entropy > 1.0);
  }
  // Without masking, the learner's entropy is the teacher-forced entropy of the same tokens: the
  // first epoch's forward is the sampler's own distribution (the same weights, the same tokens).
  const grpo::Experiment one = run_smoke([](grpo::ExperimentConfig& c) {
    c.update_epochs = 1;
    c.objective.mask_truncated = false;
  });
  CHECK_THAT(one.history()[0].entropy, WithinRel(one.history()[0].sampler_entropy, 1e-5));
  // frac_reward_zero_std: over every group, before dynamic sampling drops the equal ones (TRL
  // logs it over the whole batch); with group scaling it is 1 - informativeFraction.
  const grpo::Experiment dynamic =
      run_smoke([](grpo::ExperimentConfig& c) { c.dynamic_sampling = true; });
  bool dropped = false;
  for (const auto& row : dynamic.history()) {
    CHECK_THAT(row.frac_reward_zero_std, WithinAbs(1.0 - row.informative_fraction, 1e-12));
    dropped = dropped || row.discarded_fraction > 0;
  }
  CHECK(dropped);
  CHECK_FALSE(dynamic.history()[0].has_sampler);
}

TEST_CASE("the trainer: delta and offPolicyMaskThreshold run without NaN", "[trainer]") {
  const grpo::Experiment e = run_smoke([](grpo::ExperimentConfig& c) {
    c.objective.delta = 1.5;
    c.objective.off_policy_mask_threshold = 0.01;
    c.sampler_mismatch = 0.05;
  });
  for (const auto& row : e.history()) CHECK(std::isfinite(row.loss));
}

TEST_CASE("rewards: TRL's soft overlong punishment and normalize_then_sum by hand", "[trainer]") {
  // get_soft_overlong_punishment(max_completion_len 4, soft_punish_cache 2): 0 up to 2 tokens,
  // then (2 - L) / 2, then -1.
  CHECK(grpo::soft_overlong_punishment(2, 4, 2) == 0.0);
  CHECK(grpo::soft_overlong_punishment(3, 4, 2) == -0.5);
  CHECK(grpo::soft_overlong_punishment(4, 4, 2) == -1.0);
  CHECK(grpo::soft_overlong_punishment(5, 4, 2) == -1.0);
  // Two groups of two, (correctness, format): {(1, 1), (0, 1)} and {(1, 0), (1, 1)}. Each
  // function normalised in its group: ±a with a = 0.5 / (sqrt(0.5) + 1e-4) where the values differ,
  // 0 where they are equal (0 / (0 + 1e-4)); weights (1, 0.1): {a, -a}, {-0.1 a, 0.1 a}.
  grpo::ExperimentConfig config = grpo::profile_defaults("smoke");
  config.normalize_then_sum = true;
  std::vector<grpo::Scored> s(4);
  const double values[4][2] = {{1, 1}, {0, 1}, {1, 0}, {1, 1}};
  std::vector<const grpo::Scored*> rows;
  for (int j = 0; j < 4; ++j) {
    s[j].correctness = values[j][0];
    s[j].format = values[j][1];
    rows.push_back(&s[j]);
  }
  const std::vector<double> r = grpo::aggregated_rewards(rows, 2, config);
  CHECK_THAT(r[0], WithinRel(kA, 1e-12));
  CHECK_THAT(r[1], WithinRel(-kA, 1e-12));
  CHECK_THAT(r[2], WithinRel(-0.1 * kA, 1e-12));
  CHECK_THAT(r[3], WithinRel(0.1 * kA, 1e-12));
  CHECK(grpo::objective_config(config).scale_rewards == grpo::ScaleRewards::Batch);
}

TEST_CASE("aggregate_rewards: TRL's reward_weights and both aggregations by hand", "[rewards]") {
  // The groups of the case above as rewards_per_func [N][F], weights (1, 0.1).
  const grpo::Ragged per_func = {{1, 1}, {0, 1}, {1, 0}, {1, 1}};
  const std::vector<double> weights = {1, 0.1};
  // sum_then_normalize: each row's weighted sum, 1 * c + 0.1 * f.
  const std::vector<double> sum =
      grpo::aggregate_rewards(per_func, weights, 2, grpo::RewardAggregation::SumThenNormalize);
  CHECK(sum == std::vector<double>{1.1, 0.1, 1.0, 1.1});
  // normalize_then_sum: {a, -a, -0.1 a, 0.1 a}, as the trainer computes it (same function).
  const std::vector<double> gdpo =
      grpo::aggregate_rewards(per_func, weights, 2, grpo::RewardAggregation::NormalizeThenSum);
  CHECK_THAT(gdpo[0], WithinRel(kA, 1e-12));
  CHECK_THAT(gdpo[1], WithinRel(-kA, 1e-12));
  CHECK_THAT(gdpo[2], WithinRel(-0.1 * kA, 1e-12));
  CHECK_THAT(gdpo[3], WithinRel(0.1 * kA, 1e-12));
  CHECK(
      grpo::aggregated_scale(grpo::ScaleRewards::None, grpo::RewardAggregation::NormalizeThenSum) ==
      grpo::ScaleRewards::Batch);
  CHECK(
      grpo::aggregated_scale(grpo::ScaleRewards::None, grpo::RewardAggregation::SumThenNormalize) ==
      grpo::ScaleRewards::None);
  // Shapes: a row of the wrong width, a non-finite value, a batch not in whole groups.
  CHECK_THROWS_WITH(
      grpo::aggregate_rewards({{1, 1}, {0}}, weights, 2, grpo::RewardAggregation::SumThenNormalize),
      Catch::Matchers::StartsWith("rewardsPerFunc[1]: must have the same length"));
  CHECK_THROWS_WITH(grpo::aggregate_rewards({{1, 1}, {0, NAN}}, weights, 2,
                                            grpo::RewardAggregation::SumThenNormalize),
                    Catch::Matchers::StartsWith("rewardsPerFunc[1][1]: must be a finite"));
  CHECK_THROWS_WITH(grpo::aggregate_rewards({{1, 1}, {0, 1}, {1, 1}}, weights, 2,
                                            grpo::RewardAggregation::SumThenNormalize),
                    Catch::Matchers::StartsWith("rewardsPerFunc: length must be a positive"));
}

TEST_CASE("the trainer: reward weights, normalize_then_sum and the overlong punishment",
          "[trainer][sweep]") {
  const grpo::Experiment plain = run_smoke([](grpo::ExperimentConfig&) {});
  const grpo::Experiment gdpo = run_smoke([](grpo::ExperimentConfig& c) {
    c.normalize_then_sum = true;
    c.overlong_weight = 0.5;
    c.overlong_max_completion_len = 3;
    c.soft_punish_cache = 1;
  });
  for (const auto& row : gdpo.history()) {
    CHECK(std::isfinite(row.loss));
    CHECK(row.mean_reward >= -0.5);
  }
  CHECK(gdpo.history()[1].loss != plain.history()[1].loss);
}
