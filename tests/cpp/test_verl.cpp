// Tests of verl v0.7.0's functions (rl/verl_*.h, api_verl.cpp): agg_loss, kl_penalty, the
// outcome advantage estimators and the policy losses. Expected values are derived by hand in the
// comments (or by the short formula written out beside them), never by the code under test;
// every gradient is checked against central differences of the loss.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "api/api.h"
#include "core/errors.h"
#include "rl/verl_advantages.h"
#include "rl/verl_agg_loss.h"
#include "rl/verl_kl_penalty.h"
#include "rl/verl_policy_loss.h"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using grpo::api::Json;
using grpo::verl::Matrix;

namespace {

Json ok(const std::string& method, const Json& args) {
  const Json envelope = grpo::api::call_json(method, args);
  INFO(envelope.dump());
  REQUIRE(envelope.contains("ok"));
  return envelope["ok"];
}

Json error_of(const std::string& method, const Json& args) {
  const Json envelope = grpo::api::call_json(method, args);
  INFO(envelope.dump());
  REQUIRE(envelope.contains("error"));
  return envelope["error"];
}

Matrix to_matrix(const Json& j) {
  return j.get<Matrix>();
}

// Central differences of f at x in every cell, against grad.
void check_gradient(const std::function<double(const Matrix&)>& f, Matrix x, const Matrix& grad,
                    const std::string& what) {
  const double h = 1e-6;
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t t = 0; t < x[i].size(); ++t) {
      const double keep = x[i][t];
      x[i][t] = keep + h;
      const double up = f(x);
      x[i][t] = keep - h;
      const double down = f(x);
      x[i][t] = keep;
      INFO(what << " at [" << i << "][" << t << "]");
      CHECK_THAT(grad[i][t], WithinAbs((up - down) / (2 * h), 2e-7));
    }
}

const Matrix kLoss = {{1, 2, 3}, {4, 5, 6}};
const Matrix kMask = {{1, 1, 0}, {1, 0, 0}};

Json agg(const std::string& mode, Json extra = Json::object()) {
  Json args{{"lossMat", kLoss}, {"lossMask", kMask}, {"lossAggMode", mode}};
  args.update(extra);
  return ok("verlAggLoss", args);
}

}  // namespace

TEST_CASE("verl agg_loss: the four modes by hand, with verl's keyword arguments", "[verl]") {
  // Valid: 1, 2 (row 0, n_0 = 2) and 4 (row 1, n_1 = 1); N = 3, T = 3.
  CHECK_THAT(agg("token-mean")["loss"].get<double>(), WithinRel(7.0 / 3, 1e-15));
  CHECK(agg("token-mean")["gradLossMat"] == Json({{1.0 / 3, 1.0 / 3, 0.0}, {1.0 / 3, 0.0, 0.0}}));
  // batch_num_tokens replaces N, dp_size multiplies: 7 / 7 * 2.
  CHECK(agg("token-mean", {{"batchNumTokens", 7}, {"dpSize", 2}})["loss"] == 2.0);
  // seq-mean-token-sum: (3 + 4) / 2 rows; global_batch_size 4: 7 / 4.
  CHECK(agg("seq-mean-token-sum")["loss"] == 3.5);
  CHECK(agg("seq-mean-token-sum", {{"globalBatchSize", 4}})["loss"] == 1.75);
  // seq-mean-token-mean: (3 / (2 + 1e-8) + 4 / (1 + 1e-8)) / 2 (about 2.75 - 2.4e-8).
  CHECK_THAT(agg("seq-mean-token-mean")["loss"].get<double>(),
             WithinRel((3 / (2 + 1e-8) + 4 / (1 + 1e-8)) / 2, 1e-15));
  CHECK_THAT(agg("seq-mean-token-mean")["gradLossMat"][1][0].get<double>(),
             WithinRel(0.5 / (1 + 1e-8), 1e-15));
  // seq-mean-token-sum-norm: 7 / T, dp_size ignored, loss_scale_factor replaces T.
  CHECK_THAT(agg("seq-mean-token-sum-norm")["loss"].get<double>(), WithinRel(7.0 / 3, 1e-15));
  CHECK_THAT(agg("seq-mean-token-sum-norm", {{"dpSize", 8}})["loss"].get<double>(),
             WithinRel(7.0 / 3, 1e-15));
  CHECK_THAT(agg("seq-mean-token-sum-norm", {{"lossScaleFactor", 10}})["loss"].get<double>(),
             WithinRel(0.7, 1e-15));
}

TEST_CASE("verl agg_loss: seq-mean-token-sum-norm at two padded widths, an all-masked row",
          "[verl]") {
  // The same tokens padded to T = 5: the loss is 7 / 5, not 7 / 3 (T is the padded width).
  const Json padded = ok("verlAggLoss", {{"lossMat", {{1, 2, 3, 9, 9}, {4, 5, 6, 9, 9}}},
                                         {"lossMask", {{1, 1, 0, 0, 0}, {1, 0, 0, 0, 0}}},
                                         {"lossAggMode", "seq-mean-token-sum-norm"}});
  CHECK_THAT(padded["loss"].get<double>(), WithinRel(7.0 / 5, 1e-15));
  CHECK(padded["gradLossMat"][0][0] == 0.2);
  // A third row with no valid token: no change to any mode but its count in no denominator.
  for (const char* mode :
       {"token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"}) {
    const Json three = ok("verlAggLoss", {{"lossMat", {{1, 2, 3}, {4, 5, 6}, {7, 7, 7}}},
                                          {"lossMask", {{1, 1, 0}, {1, 0, 0}, {0, 0, 0}}},
                                          {"lossAggMode", mode}});
    INFO(mode);
    CHECK(three["loss"] == agg(mode)["loss"]);
    CHECK(three["gradLossMat"][2] == Json({0.0, 0.0, 0.0}));
  }
  // Nothing valid: verl's 0 / 0.
  const Json none =
      ok("verlAggLoss",
         {{"lossMat", {{1, 2}}}, {"lossMask", {{0, 0}}}, {"lossAggMode", "token-mean"}});
  CHECK(none["loss"] == Json({{"$number", "NaN"}}));
}

TEST_CASE("verl agg_loss: gradients by central differences, errors name the field", "[verl]") {
  for (const std::string& mode : grpo::verl::agg_mode_names()) {
    const Json r = agg(mode, {{"dpSize", 2}});
    auto f = [&](const Matrix& l) {
      return grpo::verl::agg_loss(l, kMask, grpo::verl::parse_agg_mode(mode), {2.0, {}, {}, {}})
          .loss;
    };
    check_gradient(f, kLoss, to_matrix(r["gradLossMat"]), mode);
  }
  const Json bad = error_of("verlAggLoss",
                            {{"lossMat", kLoss}, {"lossMask", kMask}, {"lossAggMode", "seq-mean"}});
  CHECK(bad["field"] == "lossAggMode");
  CHECK(bad["type"] == "RangeError");
  CHECK(error_of("verlAggLoss", {{"lossMat", kLoss},
                                 {"lossMask", {{1, 0.5, 0}, {1, 0, 0}}},
                                 {"lossAggMode", "token-mean"}})["field"] == "lossMask[0][1]");
  CHECK(error_of("verlAggLoss", {{"lossMat", {{1, 2}, {3}}},
                                 {"lossMask", kMask},
                                 {"lossAggMode", "token-mean"}})["field"] == "lossMat[1]");
  CHECK(error_of("verlAggLoss", {{"lossMat", kLoss},
                                 {"lossMask", kMask},
                                 {"lossAggMode", "token-mean"},
                                 {"dpSize", 0}})["field"] == "dpSize");
}

TEST_CASE("verl kl_penalty: each estimate by hand, verl's clamps, gradients", "[verl]") {
  // lp - ref = 0.5: kl 0.5, abs 0.5, mse 0.125; k3 at x = ref - lp = -0.5: e^-0.5 + 0.5 - 1.
  const Json args{{"logProb", {{-1.0, 0.0, -30.0, -1.0}}},
                  {"refLogProb", {{-1.5, -30.0, 0.0, 2.0}}}};
  auto kl = [&](const char* type) {
    Json a = args;
    a["klPenalty"] = type;
    return ok("verlKlPenalty", a);
  };
  CHECK(kl("kl")["kl"][0][0] == 0.5);
  CHECK(kl("k1")["gradLogProb"][0][0] == 1.0);
  CHECK(kl("abs")["kl"][0][0] == 0.5);
  CHECK(kl("abs")["gradLogProb"][0][2] == -1.0);  // lp - ref = -30 < 0
  CHECK(kl("mse")["kl"][0][0] == 0.125);
  CHECK(kl("k2")["gradLogProb"][0][0] == 0.5);
  const double k3 = 0.10653065971263342;  // e^-0.5 = 0.6065306597126334
  CHECK_THAT(kl("low_var_kl")["kl"][0][0].get<double>(), WithinRel(k3, 1e-14));
  CHECK_THAT(kl("k3")["gradLogProb"][0][0].get<double>(), WithinRel(1 - 0.6065306597126334, 1e-14));
  // x = -30 -> -20: e^-20 + 19 > 10 -> 10; x = 30 -> 20 -> 10; x = 3: e^3 - 4 = 16.09 -> 10.
  const Json clamped = kl("k3");
  for (int t = 1; t < 4; ++t) {
    CHECK(clamped["kl"][0][t] == 10.0);
    CHECK(clamped["gradLogProb"][0][t] == 0.0);
  }
  CHECK(kl("kl")["kl"][0][1] == 30.0);  // kl has no clamp
  // Default kl (algorithm.kl_penalty).
  CHECK(ok("verlKlPenalty", args)["kl"] == kl("kl")["kl"]);
  // Central differences, away from the kinks (abs at 0, the clamps).
  const Matrix lp = {{-1.0, -0.2, -2.5}, {-0.7, -3.0, -0.1}};
  const Matrix ref = {{-1.5, -0.9, -1.0}, {-0.4, -1.0, -2.0}};
  for (const std::string& name : grpo::verl::kl_penalty_names()) {
    const auto type = grpo::verl::parse_kl_penalty(name);
    const Json r = ok("verlKlPenalty", {{"logProb", lp}, {"refLogProb", ref}, {"klPenalty", name}});
    auto sum = [&](const Matrix& x) {
      double s = 0;
      for (const auto& row : grpo::verl::kl_penalty(x, ref, type).kl)
        for (double v : row) s += v;
      return s;
    };
    check_gradient(sum, lp, to_matrix(r["gradLogProb"]), name);
  }
}

TEST_CASE("verl kl_penalty: full, the '+' variants and unknown names raise, naming klPenalty",
          "[verl]") {
  for (const char* name :
       {"full", "k3+", "low_var_kl+", "kl+", "k1+", "abs+", "mse+", "k2+", "x"}) {
    const Json e = error_of("verlKlPenalty",
                            {{"logProb", {{-1.0}}}, {"refLogProb", {{-1.0}}}, {"klPenalty", name}});
    INFO(name);
    CHECK(e["field"] == "klPenalty");
    CHECK_THAT(e["message"].get<std::string>(), StartsWith("klPenalty: must be one of 'kl', 'k1'"));
  }
}

namespace {

Json advantages(const std::string& estimator, Json extra) {
  Json args{{"estimator", estimator}};
  args.update(extra);
  return ok("verlAdvantages", args);
}

// Scores [1, 0, 0.5 | 2] in groups a, a, a, b; row 1 is all masked, rewards on several tokens.
const Json kBatch{{"tokenLevelRewards", {{0, 1, 0}, {0, 0, 0}, {0.25, 0.25, 0}, {1, 0, 1}}},
                  {"responseMask", {{1, 1, 0}, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}}},
                  {"index", {"a", "a", "a", 7}}};

}  // namespace

TEST_CASE("verl grpo: group std with eps 1e-6, a singleton group, norm off, masked rows",
          "[verl]") {
  // Group a: mean 0.5, unbiased std sqrt((0.25 + 0.25 + 0) / 2) = 0.5.
  const Json r = advantages("grpo", kBatch);
  const double a0 = 0.5 / (0.5 + 1e-6);
  CHECK_THAT(r["advantages"][0][0].get<double>(), WithinRel(a0, 1e-15));
  CHECK(r["advantages"][0][2] == 0.0);                    // masked position
  CHECK(r["advantages"][1] == Json({-0.0, -0.0, -0.0}));  // all masked: A * 0
  CHECK(r["advantages"][2][0] == 0.0);
  // Singleton (uid 7): mean 0, std torch.tensor(1.0) (float32): 2 / float32(1 + 1e-6).
  CHECK(r["advantages"][3][0] == 2.0 / 1.00000095367431640625);
  CHECK(r["returns"] == r["advantages"]);
  Json off = kBatch;
  off["normAdvByStdInGrpo"] = false;
  const Json plain = advantages("grpo", off);
  CHECK(plain["advantages"][0][1] == 0.5);
  CHECK(plain["advantages"][3][2] == 2.0);
}

TEST_CASE(
    "verl grpo_passk: a tie at the group maximum gives 0 to every row, a group of one "
    "raises",
    "[verl]") {
  // Group g1 = [1, 1, 0, 0]: tie at the max -> all 0. Group g2 = [0.2, 1, 0.5]: the max row gets
  // (1 - 0.5) / (std + 1e-6), std of [0.2, 1, 0.5] (unbiased, written out below).
  const Json r =
      advantages("grpo_passk", {{"tokenLevelRewards", {{1}, {1}, {0}, {0}, {0.2}, {1}, {0.5}}},
                                {"responseMask", {{1}, {1}, {1}, {1}, {1}, {1}, {1}}},
                                {"index", {1, 1, 1, 1, 2, 2, 2}}});
  for (int i = 0; i < 4; ++i) CHECK(r["advantages"][i][0] == 0.0);
  const double mean = (0.2 + 1 + 0.5) / 3;
  const double var =
      ((0.2 - mean) * (0.2 - mean) + (1 - mean) * (1 - mean) + (0.5 - mean) * (0.5 - mean)) / 2;
  CHECK_THAT(r["advantages"][5][0].get<double>(), WithinRel(0.5 / (std::sqrt(var) + 1e-6), 1e-14));
  CHECK(r["advantages"][4][0] == 0.0);
  CHECK(r["advantages"][6][0] == 0.0);
  // normAdvByStdInGrpo off: r_max - r_2nd itself.
  const Json plain = advantages("grpo_passk", {{"tokenLevelRewards", {{0.2}, {1}, {0.5}}},
                                               {"responseMask", {{1}, {1}, {1}}},
                                               {"index", {2, 2, 2}},
                                               {"normAdvByStdInGrpo", false}});
  CHECK(plain["advantages"] == Json({{0.0}, {0.5}, {0.0}}));
  const Json e = error_of("verlAdvantages", {{"estimator", "grpo_passk"},
                                             {"tokenLevelRewards", {{1}, {0}, {1}}},
                                             {"responseMask", {{1}, {1}, {1}}},
                                             {"index", {"p", "p", "q"}}});
  CHECK(e["field"] == "index");
  CHECK_THAT(e["message"].get<std::string>(), Contains("group 'q' has 1"));
}

TEST_CASE("verl rloo, opo, gpg, remax by hand", "[verl]") {
  // rloo: n / (n - 1) = 1.5 times (s - 0.5): 0.75, -0.75, 0; the singleton keeps 2.
  const Json rloo = advantages("rloo", kBatch);
  CHECK(rloo["advantages"][0][0] == 0.75);
  CHECK(rloo["advantages"][2][2] == 0.0);
  CHECK(rloo["advantages"][3][1] == 2.0);
  // opo: lengths 2, 0, 3; baseline (2 * 1 + 0 * 0 + 3 * 0.5) / 5 = 0.7.
  const Json opo = advantages("opo", kBatch);
  CHECK_THAT(opo["advantages"][0][0].get<double>(), WithinRel(0.3, 1e-14));
  CHECK_THAT(opo["advantages"][2][1].get<double>(), WithinRel(-0.2, 1e-14));
  CHECK(opo["advantages"][3][0] == 2.0);
  // gpg: alpha = B / #nonzero scores = 4 / 3 in float32 = 1.33333337306976318359375.
  const Json gpg = advantages("gpg", kBatch);
  const double alpha = 1.33333337306976318359375;
  CHECK(gpg["advantages"][0][0] == alpha * 0.5);
  CHECK(gpg["advantages"][3][0] == alpha * 2.0);
  // remax: reverse cumsum of r * M (gamma ignored), minus b * M.
  const Json remax = advantages("remax", {{"tokenLevelRewards", {{0.5, 0, 1}, {1, 2, 3}}},
                                          {"responseMask", {{1, 1, 1}, {1, 1, 0}}},
                                          {"rewardBaselines", {0.25, 1}},
                                          {"gamma", 0.5}});
  CHECK(remax["returns"] == Json({{1.5, 1.0, 1.0}, {3.0, 2.0, 0.0}}));
  CHECK(remax["advantages"] == Json({{1.25, 0.75, 0.75}, {2.0, 1.0, 0.0}}));
}

TEST_CASE(
    "verl reinforce_plus_plus (and _baseline): discounted returns reset by the mask, "
    "token-weighted whitening",
    "[verl]") {
  // gamma 0.5: row 0 G = [0.25, 0.5, 1]; row 1 (last token masked) G = [1, 2, 0].
  const Json r = advantages("reinforce_plus_plus", {{"tokenLevelRewards", {{0, 0, 1}, {0, 2, 0}}},
                                                    {"responseMask", {{1, 1, 1}, {1, 1, 0}}},
                                                    {"gamma", 0.5}});
  CHECK(r["returns"] == Json({{0.25, 0.5, 1.0}, {1.0, 2.0, 0.0}}));
  // Whitening over the 5 valid values (eps 1e-8 in the mean and var, unbiased var).
  const double v[5] = {0.25, 0.5, 1, 1, 2};
  const double mean = 4.75 / (5 + 1e-8);
  double sq = 0;
  for (double x : v) sq += (x - mean) * (x - mean);
  const double var = sq / (5 + 1e-8) * (5.0 / 4.0);
  CHECK_THAT(r["advantages"][1][1].get<double>(),
             WithinRel((2 - mean) / std::sqrt(var + 1e-8), 1e-14));
  CHECK(r["advantages"][1][2] == 0.0);
  // Baseline: a_i = s_i - group mean (singleton: s_i), broadcast, whitened, masked.
  const Json b =
      advantages("reinforce_plus_plus_baseline", {{"tokenLevelRewards", {{1, 0}, {0, 0}, {3, 0}}},
                                                  {"responseMask", {{1, 1}, {1, 0}, {1, 0}}},
                                                  {"index", {0, 0, 1}}});
  // a = [0.5, -0.5, 3] on tokens [0.5, 0.5 | -0.5 | 3].
  const double w[4] = {0.5, 0.5, -0.5, 3};
  const double m = 3.5 / (4 + 1e-8);
  double s2 = 0;
  for (double x : w) s2 += (x - m) * (x - m);
  const double var2 = s2 / (4 + 1e-8) * (4.0 / 3.0);
  CHECK_THAT(b["advantages"][2][0].get<double>(),
             WithinRel((3 - m) / std::sqrt(var2 + 1e-8), 1e-14));
  CHECK(b["advantages"][2][1] == 0.0);
  // One valid token: verl's masked_var raises.
  const Json e = error_of("verlAdvantages", {{"estimator", "reinforce_plus_plus"},
                                             {"tokenLevelRewards", {{1, 0}}},
                                             {"responseMask", {{1, 0}}}});
  CHECK(e["field"] == "responseMask");
  for (const char* unknown : {"grpo_vectorized", "ppo", ""}) {
    const Json u = error_of("verlAdvantages", {{"estimator", unknown},
                                               {"tokenLevelRewards", {{1}}},
                                               {"responseMask", {{1}}},
                                               {"index", {1}}});
    INFO(unknown);
    CHECK(u["field"] == "estimator");
    CHECK(u["type"] == "RangeError");
  }
  CHECK(error_of("verlAdvantages", {{"estimator", "grpo_vectorized"},
                                    {"tokenLevelRewards", {{1}}},
                                    {"responseMask", {{1}}},
                                    {"index", {1}}})["field"] == "estimator");
  CHECK(error_of("verlAdvantages", {{"estimator", "grpo"},
                                    {"tokenLevelRewards", {{1}}},
                                    {"responseMask", {{1}}}})["field"] == "index");
}

namespace {

// A 3 x 4 batch, row 2 half masked; log-ratios away from every clip edge and tie.
const Matrix kOld = {{-1.0, -0.5, -2.0, -1.2}, {-0.3, -1.1, -0.8, -2.2}, {-1.5, -0.9, -0.4, -3}};
const Matrix kLogp = {
    {-0.9, -0.55, -1.7, -1.25}, {-0.45, -1.02, -0.8001, -2.0}, {-1.41, -1.3, -0.4, -2}};
const Matrix kAdv = {{1.2, 1.2, 1.2, 1.2}, {-0.7, -0.7, -0.7, -0.7}, {0.4, -2.0, 0.9, 0.0}};
const Matrix kPolicyMask = {{1, 1, 1, 1}, {1, 1, 1, 0}, {1, 1, 0, 0}};

Json policy(const std::string& mode, Json extra = Json::object()) {
  Json args{{"lossMode", mode},   {"oldLogProb", kOld},          {"logProb", kLogp},
            {"advantages", kAdv}, {"responseMask", kPolicyMask}, {"rolloutLogProb", kOld}};
  args.update(extra);
  return ok("verlPolicyLoss", args);
}

}  // namespace

TEST_CASE("verl policy losses: vanilla by hand, dual clip active, verl's metric names", "[verl]") {
  // Two tokens. Token 0: A = 1, r = e^0.5 = 1.6487 > 1.2: l2 = -1.2 > l1, clipped, gradient 0.
  // Token 1: A = -1, r = 4 > clip_ratio_c = 3: c1 = max(4, 1.2) = 4 > l3 = 3: dual clip, loss 3.
  const Json r = ok("verlPolicyLoss", {{"oldLogProb", {{0.0, 0.0}}},
                                       {"logProb", {{0.5, std::log(4.0)}}},
                                       {"advantages", {{1.0, -1.0}}},
                                       {"responseMask", {{1, 1}}}});
  CHECK_THAT(r["pgLoss"].get<double>(), WithinRel((-1.2 + 3.0) / 2, 1e-15));
  CHECK(r["gradLogProb"] == Json({{0.0, 0.0}}));
  CHECK_THAT(r["metrics"]["actor/pg_clipfrac"].get<double>(), WithinRel(0.5 / (1 + 0.5e-8), 1e-15));
  CHECK_THAT(r["metrics"]["actor/pg_clipfrac_lower"].get<double>(),
             WithinRel(0.5 / (1 + 0.5e-8), 1e-15));
  // ppo_kl = mm(-d) = -(0.5 + ln 4) / (2 + 1e-8): negative.
  CHECK_THAT(r["metrics"]["actor/ppo_kl"].get<double>(),
             WithinRel(-(0.5 + std::log(4.0)) / (2 + 1e-8), 1e-15));
  // clipRatioC 5: no dual clip, the loss is -A r = 4 there and its gradient -A r W = 4 / 2.
  const Json wide = ok("verlPolicyLoss", {{"oldLogProb", {{0.0, 0.0}}},
                                          {"logProb", {{0.5, std::log(4.0)}}},
                                          {"advantages", {{1.0, -1.0}}},
                                          {"responseMask", {{1, 1}}},
                                          {"config", {{"clipRatioC", 5}}}});
  CHECK_THAT(wide["pgLoss"].get<double>(), WithinRel((-1.2 + 4.0) / 2, 1e-15));
  CHECK_THAT(wide["gradLogProb"][0][1].get<double>(), WithinRel(2.0, 1e-15));
  // On-policy (r = 1): loss = token-mean of -A, gradient -A / N.
  const Json on = ok("verlPolicyLoss", {{"oldLogProb", {{-1.0, -2.0}}},
                                        {"logProb", {{-1.0, -2.0}}},
                                        {"advantages", {{0.5, -1.5}}},
                                        {"responseMask", {{1, 1}}}});
  CHECK(on["pgLoss"] == 0.5);
  CHECK(on["gradLogProb"] == Json({{-0.25, 0.75}}));
  CHECK(on["metrics"].size() == 3);
  // clip_ratio_c must be > 1.
  const Json e = error_of("verlPolicyLoss", {{"oldLogProb", {{0.0}}},
                                             {"logProb", {{0.0}}},
                                             {"advantages", {{1.0}}},
                                             {"responseMask", {{1}}},
                                             {"config", {{"clipRatioC", 1}}}});
  CHECK(e["field"] == "clipRatioC");
}

TEST_CASE("verl policy losses: gspo, sapo, cispo, gpg, reinforce, geo_mean by hand", "[verl]") {
  const Json one{{"responseMask", {{1, 1}}}};
  auto call = [&](const std::string& mode, const Json& lp, const Json& old, const Json& adv,
                  Json config = Json::object()) {
    Json args{{"lossMode", mode},         {"logProb", lp},
              {"oldLogProb", old},        {"advantages", adv},
              {"responseMask", {{1, 1}}}, {"config", config}};
    if (mode == "reinforce") args["rolloutLogProb"] = old;
    return ok("verlPolicyLoss", args);
  };
  // gspo: d = [0.1, 0.3], mean 0.2, s = e^0.2 = 1.2214 > 1.2. A = 1: clipped, loss -1.2 (the
  // seq-mean-token-mean of two -1.2s: -2.4 / (2 + 1e-8)), gradient 0, clipfrac 1.
  const Json g = call("gspo", {{-0.9, -0.7}}, {{-1.0, -1.0}}, {{1.0, 1.0}});
  CHECK_THAT(g["pgLoss"].get<double>(), WithinRel(-2.4 / (2 + 1e-8), 1e-15));
  CHECK(g["gradLogProb"] == Json({{0.0, 0.0}}));
  // A = -1: loss = s, gradient d/dlp_t = s * W, W = 1 / (2 + 1e-8); token-mean asked, ignored.
  const Json gn = call("gspo", {{-0.9, -0.7}}, {{-1.0, -1.0}}, {{-1.0, -1.0}});
  CHECK_THAT(gn["pgLoss"].get<double>(), WithinRel(2 * std::exp(0.2) / (2 + 1e-8), 1e-14));
  CHECK_THAT(gn["gradLogProb"][0][0].get<double>(), WithinRel(std::exp(0.2) / (2 + 1e-8), 1e-14));
  CHECK(gn["metrics"]["actor/pg_clipfrac"] == 0.0);
  // sapo at r = 1: gate = sigmoid(0) * 4 / tau = 2 / tau; loss -2 A / tau; gradient -A * W.
  const Json s = call("sapo", {{-1.0, -2.0}}, {{-1.0, -2.0}}, {{1.0, -1.0}});
  CHECK_THAT(s["pgLoss"].get<double>(), WithinRel((-2.0 + 2.0 / 1.05) / (2 + 1e-8), 1e-14));
  CHECK_THAT(s["gradLogProb"][0][1].get<double>(), WithinRel(1.0 / (2 + 1e-8), 1e-14));
  // cispo: r = 0.5 is clamped to 0.8 (verl's lower clip), r = 1 not: loss -c A lp.
  const Json c = call("cispo", {{std::log(0.5) - 1, -2.0}}, {{-1.0, -2.0}}, {{1.0, 1.0}});
  CHECK_THAT(c["pgLoss"].get<double>(),
             WithinRel((-0.8 * (std::log(0.5) - 1) - 1.0 * -2.0) / 2, 1e-14));
  CHECK_THAT(c["gradLogProb"][0][0].get<double>(), WithinRel(-0.4, 1e-14));
  CHECK_THAT(c["metrics"]["actor/pg_clipfrac"].get<double>(), WithinRel(0.5, 1e-8));
  // gpg: -lp A, token-mean; no metrics.
  const Json p = call("gpg", {{-1.0, -3.0}}, {{0.0, 0.0}}, {{2.0, 1.0}});
  CHECK(p["pgLoss"] == 2.5);
  CHECK(p["metrics"] == Json::object());
  // reinforce: seq-mean-token-sum by default: -(2 * -1 + 1 * -3) / 1 row = 5.
  const Json rf = call("reinforce", {{-1.0, -3.0}}, {{-1.5, -3.0}}, {{2.0, 1.0}});
  CHECK(rf["pgLoss"] == 5.0);
  CHECK(rf["gradLogProb"] == Json({{-2.0, -1.0}}));
  CHECK_THAT(rf["metrics"]["actor/ppo_kl"].get<double>(), WithinRel(-0.5 / (2 + 1e-8), 1e-14));
  // geo_mean: A > 0, d = [0.1, 0.5], clip at 0.2: min(d, clamp(d)) = [0.1, 0.2], mean 0.15.
  const Json gm = call("geo_mean", {{-0.9, -0.5}}, {{-1.0, -1.0}}, {{1.0, 1.0}});
  CHECK_THAT(gm["pgLoss"].get<double>(),
             WithinRel(-(2 / (2 + 1e-8)) * std::exp(0.3 / (2 + 1e-8)), 1e-14));
  CHECK(gm["gradLogProb"][0][1] == 0.0);  // the clipped token
  CHECK_THAT(gm["metrics"]["actor/pg_clipfrac"].get<double>(), WithinRel(0.5, 1e-8));
}

TEST_CASE("verl clip_cov and kl_cov: the selection given or by the documented rule", "[verl]") {
  // A = [3, -3], lp = [-0.5, -2.5] (on-policy, r = 1): masked means 0 and -1.5 (to 1e-8), cov =
  // 3 * 1 = 3 and -3 * -1 = 3, both in (1, 5): candidates. clip_num = max(int(2e-4 * 2), 1) = 1.
  const Json base{{"lossMode", "clip_cov"},
                  {"oldLogProb", {{-0.5, -2.5}}},
                  {"logProb", {{-0.5, -2.5}}},
                  {"advantages", {{3.0, -3.0}}},
                  {"responseMask", {{1, 1}}}};
  const Json first = ok("verlPolicyLoss", base);  // rule: the first candidate, row-major
  CHECK(first["selectedTokens"] == Json({{0, 0}}));
  CHECK(first["pgLoss"] == 1.5);  // (0 + 3) / 2
  CHECK(first["gradLogProb"] == Json({{0.0, 1.5}}));
  CHECK_THAT(first["metrics"]["actor/pg_clipfrac"].get<double>(), WithinRel(0.5, 1e-8));
  CHECK(first["metrics"].size() == 2);
  Json given = base;
  given["selectedTokens"] = {{0, 1}};
  CHECK(ok("verlPolicyLoss", given)["pgLoss"] == -1.5);
  given["selectedTokens"] = {{0, 0}, {0, 1}};
  CHECK(error_of("verlPolicyLoss", given)["field"] == "selectedTokens");
  given["selectedTokens"] = {{0, 2}};
  CHECK(error_of("verlPolicyLoss", given)["field"] == "selectedTokens[0]");
  // kl_cov: A = [1, -1, 2], lp = [-1, -2, -0.5]: means 2/3, -7/6; cov = 1/3 * 1/6, -5/3 * -5/6,
  // 4/3 * 2/3: token 1 has the largest (1.39). k = max(1, int(3 * 2e-4)) = 1. d = [0, 0.5, 0].
  const Json kl = ok("verlPolicyLoss", {{"lossMode", "kl_cov"},
                                        {"oldLogProb", {{-1.0, -2.5, -0.5}}},
                                        {"logProb", {{-1.0, -2.0, -0.5}}},
                                        {"advantages", {{1.0, -1.0, 2.0}}},
                                        {"responseMask", {{1, 1, 1}}}});
  CHECK(kl["selectedTokens"] == Json({{0, 1}}));
  // (-1 + (e^0.5 + 0.1 * 0.5) - 2) / 3; gradient of token 1: (e^0.5 + 0.1) / 3.
  CHECK_THAT(kl["pgLoss"].get<double>(), WithinRel((-3 + std::exp(0.5) + 0.05) / 3, 1e-14));
  CHECK_THAT(kl["gradLogProb"][0][1].get<double>(), WithinRel((std::exp(0.5) + 0.1) / 3, 1e-14));
  CHECK_THAT(kl["metrics"]["actor/ppo_kl"].get<double>(), WithinRel(0.5 / (3 + 1e-8), 1e-14));
  // A tie: equal covariances; the rule takes the earlier token, a given later one is accepted.
  const Json tie{{"lossMode", "kl_cov"},
                 {"oldLogProb", {{-1.0, -1.0}}},
                 {"logProb", {{-0.5, -1.5}}},
                 {"advantages", {{1.0, -1.0}}},
                 {"responseMask", {{1, 1}}}};
  CHECK(ok("verlPolicyLoss", tie)["selectedTokens"] == Json({{0, 0}}));
  Json tie_given = tie;
  tie_given["selectedTokens"] = {{0, 1}};
  CHECK(ok("verlPolicyLoss", tie_given)["selectedTokens"] == Json({{0, 1}}));

  CHECK(error_of("verlPolicyLoss", {{"lossMode", "kl_cov"},
                                    {"oldLogProb", {{-1.0, -2.5, -0.5}}},
                                    {"logProb", {{-1.0, -2.0, -0.5}}},
                                    {"advantages", {{1.0, -1.0, 2.0}}},
                                    {"responseMask", {{1, 1, 1}}},
                                    {"selectedTokens", {{0, 0}}}})["field"] == "selectedTokens");
}

TEST_CASE("verl policy losses: every mode's gradient by central differences, every agg mode",
          "[verl]") {
  for (const std::string& mode : grpo::verl::loss_mode_names()) {
    for (const char* agg_mode :
         {"token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"}) {
      Json extra{{"lossAggMode", agg_mode},
                 {"rolloutIsWeights", {{1, 0.5, 2, 1}, {1, 1, 1, 1}, {0.8, 1.1, 1, 1}}}};
      if (mode == "clip_cov")
        extra["config"] = {{"clipCovLb", -10}, {"clipCovUb", 10}, {"clipCovRatio", 0.3}};
      const Json r = policy(mode, extra);
      grpo::verl::PolicyInputs in;
      in.old_logp = kOld;
      in.advantages = kAdv;
      in.mask = kPolicyMask;
      in.rollout_logp = kOld;
      in.rollout_is_weights = extra["rolloutIsWeights"].get<Matrix>();
      in.agg_mode = grpo::verl::parse_agg_mode(agg_mode);
      grpo::verl::PolicyConfig config;
      if (mode == "clip_cov") {
        config.clip_cov_lb = -10;
        config.clip_cov_ub = 10;
        config.clip_cov_ratio = 0.3;
        std::vector<grpo::verl::Token> tokens;
        for (const auto& pair : r["selectedTokens"]) tokens.emplace_back(pair[0], pair[1]);
        in.selected_tokens = tokens;
        CHECK(tokens.size() == 2);  // int(0.3 * 9) = 2
      }
      const auto m = grpo::verl::parse_loss_mode(mode);
      // The loss as a function of log_prob with verl's detached factors held at kLogp: CISPO's
      // sg(clip(r)) (old shifted with lp keeps r), GSPO's sg(s_i) (written out: s_i e^(lp - lp0),
      // seq-mean-token-mean over the rows with a valid token).
      auto f = [&](const Matrix& lp) {
        grpo::verl::PolicyInputs x = in;
        x.logp = lp;
        if (mode == "cispo")
          for (std::size_t i = 0; i < lp.size(); ++i)
            for (std::size_t t = 0; t < lp[i].size(); ++t)
              x.old_logp[i][t] = kOld[i][t] + (lp[i][t] - kLogp[i][t]);
        if (mode != "gspo") return grpo::verl::policy_loss(m, config, x).loss;
        double total = 0, rows = 0;
        for (std::size_t i = 0; i < lp.size(); ++i) {
          double n = 0, sum_d = 0, sum = 0;
          for (std::size_t t = 0; t < 4; ++t) {
            n += kPolicyMask[i][t];
            sum_d += (kLogp[i][t] - kOld[i][t]) * kPolicyMask[i][t];
          }
          for (std::size_t t = 0; t < 4; ++t) {
            const double r = std::exp(sum_d / n + lp[i][t] - kLogp[i][t]);
            const double a = kAdv[i][t];
            const double l = std::max(-a * r, -a * std::min(std::max(r, 0.8), 1.2));
            sum += l * (*in.rollout_is_weights)[i][t] * kPolicyMask[i][t];
          }
          total += sum / (n + 1e-8);
          rows += 1;
        }
        return total / rows;
      };
      check_gradient(f, kLogp, to_matrix(r["gradLogProb"]), mode + " " + agg_mode);
    }
  }
  CHECK(error_of("verlPolicyLoss", {{"lossMode", "ppo"},
                                    {"oldLogProb", kOld},
                                    {"logProb", kLogp},
                                    {"advantages", kAdv},
                                    {"responseMask", kPolicyMask}})["field"] == "lossMode");
  CHECK(error_of("verlPolicyLoss", {{"lossMode", "reinforce"},
                                    {"logProb", kLogp},
                                    {"advantages", kAdv},
                                    {"responseMask", kPolicyMask}})["field"] == "rolloutLogProb");
  CHECK(error_of("verlPolicyLoss", {{"oldLogProb", kOld},
                                    {"logProb", kLogp},
                                    {"advantages", kAdv},
                                    {"responseMask", kPolicyMask},
                                    {"config", {{"clipRatioLo", 0.1}}}})["field"] == "clipRatioLo");
}

TEST_CASE("verl policy losses: an all-masked row changes nothing but geo_mean's row count",
          "[verl]") {
  // A fourth row with no valid token (its values arbitrary): every mode's masked sums, means and
  // selections are those of the three rows, and its gradient is 0. geo_mean alone averages over
  // all B rows (core_algos.py:1459, `torch.mean` of the per-row loss): its loss becomes 3/4 of
  // the three rows', and its other rows' gradients 3/4 too.
  Matrix old4 = kOld, logp4 = kLogp, adv4 = kAdv, mask4 = kPolicyMask;
  old4.push_back({-0.1, -9.0, -2.0, -0.7});
  logp4.push_back({-3.0, -0.2, -1.0, -0.1});
  adv4.push_back({5.0, -5.0, 5.0, -5.0});
  mask4.push_back({0, 0, 0, 0});
  for (const std::string& mode : grpo::verl::loss_mode_names()) {
    for (const char* agg_mode :
         {"token-mean", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm"}) {
      Json config = Json::object();
      if (mode == "clip_cov")
        config = {{"clipCovLb", -10}, {"clipCovUb", 10}, {"clipCovRatio", 0.3}};
      const Json three = policy(mode, {{"lossAggMode", agg_mode}, {"config", config}});
      const Json four = ok("verlPolicyLoss", {{"lossMode", mode},
                                              {"oldLogProb", old4},
                                              {"logProb", logp4},
                                              {"advantages", adv4},
                                              {"responseMask", mask4},
                                              {"rolloutLogProb", old4},
                                              {"lossAggMode", agg_mode},
                                              {"config", config}});
      INFO(mode << " " << agg_mode);
      const double scale = mode == "geo_mean" ? 0.75 : 1.0;
      CHECK_THAT(four["pgLoss"].get<double>(),
                 WithinRel(scale * three["pgLoss"].get<double>(), 1e-15));
      CHECK(four["gradLogProb"][3] == Json({0.0, 0.0, 0.0, 0.0}));
      for (int i = 0; i < 3; ++i)
        for (int t = 0; t < 4; ++t)
          CHECK_THAT(four["gradLogProb"][i][t].get<double>(),
                     WithinAbs(scale * three["gradLogProb"][i][t].get<double>(), 1e-15));
      CHECK(four["metrics"] == three["metrics"]);
      if (three.contains("selectedTokens"))
        CHECK(four["selectedTokens"] == three["selectedTokens"]);
    }
  }
}
