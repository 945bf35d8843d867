// The GRU policy's forward, backward through time and sampling (see gru_policy.h for the math).
//
// Layout reminders: activations are column-major [H, columns] (one column per sequence at one
// step); weights are PyTorch's row-major tensors mapped in place; the embedding, row-major
// [V, E], is mapped as a column-major [E, V] matrix so that token v's vector is column v.
#include "rl/gru_policy.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"
#include "core/interrupt.h"
#include "rl/compute_pool.h"
#include "rl/gemm_block.h"

namespace grpo {
namespace {

// Grows m to rows x cols when it is smaller; callers then use leading blocks, so a batch that
// shrinks never reallocates and one that grows reallocates once.
template <typename M>
void ensure(M& m, Eigen::Index rows, Eigen::Index cols) {
  if (m.rows() != rows || m.cols() < cols) m.resize(rows, cols);
}
template <typename V>
void ensure_size(V& v, Eigen::Index size) {
  if (v.size() < size) v.resize(size);
}

void check_dim(int value, int max, const char* name) {
  require_integer_in_range(std::string("policy.") + name, value, 1, max);
}

void check_temperature(double temperature) {
  require_positive("temperature", temperature);
}

void check_token(int token, int vocab, const std::string& where) {
  if (token < 0 || token >= vocab)
    throw InvalidArgument(where + ": must be a token id in [0, " + std::to_string(vocab - 1) +
                          "], got " + std::to_string(token));
}

// Inverse-CDF draw from one probability column (double, sums to 1 up to rounding); without an
// rng, the most probable token (the first of equal ones, as torch.argmax): greedy decoding.
template <typename Column>
int draw_token(const Column& prob, Rng* rng) {
  if (rng == nullptr) {
    Eigen::Index best = 0;
    for (Eigen::Index v = 1; v < prob.size(); ++v)
      if (prob(v) > prob(best)) best = v;
    return static_cast<int>(best);
  }
  const double u = rng->uniform();
  double cumulative = 0;
  int last = 0;
  for (Eigen::Index v = 0; v < prob.size(); ++v) {
    const double p = prob(v);
    if (p <= 0) continue;
    last = static_cast<int>(v);
    cumulative += p;
    if (u < cumulative) return last;
  }
  return last;  // u landed in the rounding gap above the last cumulative sum
}

// dw += dg a^T for rows [r0, r0 + rows) of a row-major weight gradient dw. Eigen computes a
// row-major product as its transpose, dw^T += a dg^T, so rows of dw are columns of that product:
// a block of them (r0 a multiple of 4) comes out as in the whole (gemm_block.h).
template <typename DW, typename DG, typename A>
void add_weight_rows(DW& dw, const DG& dg, const A& a, Eigen::Index r0, Eigen::Index rows) {
  if (rows == dw.rows())
    dw.noalias() += dg * a.transpose();
  else
    gemm_columns(dw.middleRows(r0, rows).transpose(), a, dg.middleRows(r0, rows).transpose(),
                 dw.rows(), true);
}

// dst += m.rowwise().sum() with the bits Eigen gives it. Without SIMD in Eigen (WebAssembly:
// Eigen 3.4 has no SIMD128 code) each row's sum runs left to right, (m0 + m1) + m2 ..., with
// strided scalar loads; the same sums built column by column (sums = column 0, then += column j
// in order) read memory in order and let the compiler vectorise across rows. With SIMD, Eigen
// sums groups of columns in its own order: its expression is kept.
template <typename Dst, typename M, typename Sums>
void add_row_sums(Dst&& dst, const M& m, Sums& sums) {
#ifdef EIGEN_VECTORIZE
  (void)sums;
  dst += m.rowwise().sum();
#else
  if (m.cols() == 0) {
    dst += m.rowwise().sum();  // an empty sum is +0
    return;
  }
  if (sums.size() < m.rows()) sums.resize(m.rows());
  sums.head(m.rows()) = m.col(0);
  for (Eigen::Index j = 1; j < m.cols(); ++j) sums.head(m.rows()) += m.col(j);
  dst += sums.head(m.rows());
#endif
}

// Multiply-adds between two interruption points (core/interrupt.h) at most, about 60 ms in WASM:
// a product of more is split into more blocks than threads (the same bytes, gemm_block.h), and
// a single-thread pass asks between blocks, so Stop is taken at once even at the config maxima.
constexpr double kInterruptMacs = 1 << 29;

// Blocks of 4 columns (or rows) among `units`, for a product of `macs` multiply-adds: one per
// thread, more when the product is larger than kInterruptMacs.
int split_tasks(Eigen::Index units, double macs) {
  const int blocks = static_cast<int>(std::min(std::ceil(macs / kInterruptMacs), 1e6));
  return static_cast<int>(
      std::min<Eigen::Index>((units + 3) / 4, std::max(core_threads(), blocks)));
}

// Tasks for a weight gradient of `rows` rows and `cols` columns summed over `depth` positions.
int weight_tasks(Eigen::Index rows, Eigen::Index depth, Eigen::Index cols) {
  return gemm_splittable(cols, depth, rows)
             ? split_tasks(rows, static_cast<double>(rows) * static_cast<double>(depth) * cols)
             : 1;
}

}  // namespace

template <typename Scalar>
GruPolicy<Scalar>::GruPolicy(const GruDims& dims) : dims_(dims) {
  check_dim(dims.vocab, kMaxPolicyVocab, "vocab");
  check_dim(dims.embed, kMaxPolicyEmbed, "embed");
  check_dim(dims.hidden, kMaxPolicyHidden, "hidden");
  const int V = dims.vocab, E = dims.embed, H = dims.hidden;
  const char* names[kNumPolicyTensors] = {
      "embedding.weight", "gru.weight_ih_l0", "gru.weight_hh_l0", "gru.bias_ih_l0",
      "gru.bias_hh_l0",   "head.weight",      "head.bias"};
  const std::vector<int> shapes[kNumPolicyTensors] = {{V, E},  {3 * H, E}, {3 * H, H}, {3 * H},
                                                      {3 * H}, {V, H},     {V}};
  std::size_t offset = 0;
  for (int i = 0; i < kNumPolicyTensors; ++i) {
    ParamInfo info;
    info.name = names[i];
    info.shape = shapes[i];
    info.offset = offset;
    info.size = 1;
    for (int d : info.shape) info.size *= static_cast<std::size_t>(d);
    offset += info.size;
    table_.push_back(info);
  }
  params_.assign(offset, Scalar(0));
  grads_.assign(offset, Scalar(0));
  for (InputProjection* proj : {&cache_.proj, &sample_.proj}) {
    proj->slot_of_token.assign(V, -1);
    proj->unique.reserve(V);
  }
}

template <typename Scalar>
void GruPolicy<Scalar>::reset_parameters(Rng& rng) {
  const double bound = 1.0 / std::sqrt(static_cast<double>(dims_.hidden));
  for (const ParamInfo& info : table_) {
    Scalar* data = params_.data() + info.offset;
    const bool is_embedding = info.offset == 0;
    for (std::size_t i = 0; i < info.size; ++i)
      data[i] = static_cast<Scalar>(is_embedding ? rng.normal() : rng.uniform(-bound, bound));
  }
}

template <typename Scalar>
void GruPolicy<Scalar>::zero_grad() {
  std::fill(grads_.begin(), grads_.end(), Scalar(0));
}

template <typename Scalar>
void GruPolicy<Scalar>::reserve(int num_prompts, int prompt_len, int group_size,
                                int max_completion_len) {
  const int limit = 1 << 20;
  for (const int value : {num_prompts, prompt_len, group_size, max_completion_len})
    if (value < 1 || value > limit)
      throw InvalidArgument("reserve: every size must be an integer in [1, 1048576], got " +
                            std::to_string(value));
  const int V = dims_.vocab, E = dims_.embed, H = dims_.hidden;
  const int P = num_prompts, B = P * group_size, T = max_completion_len;
  const int C = prompt_len * P + (T - 1) * B;  // GRU-step columns of the longest batch
  const int Q = P + (T - 1) * B;               // head columns
  const int U = std::min(V, C);                // distinct input tokens
  const int n = std::max(B, P);                // columns of one step
  Cache& k = cache_;
  for (std::vector<int>* v : {&k.lengths, &k.order, &k.rank, &k.first_token, &k.prompt_of})
    v->reserve(B);
  for (std::vector<int>* v : {&k.active, &k.comp_offset, &k.counts}) v->reserve(T + 2);
  k.input_token.reserve(C);
  k.target.reserve(Q);
  k.proj.slot.reserve(C);
  ensure(k.proj.x, E, U);
  ensure(k.proj.gi, 3 * H, U);
  ensure_size(k.proj.bias, 3 * H);
  for (Mat* m : {&k.h_prev, &k.ghn, &k.h_out, &k.dh_out}) ensure(*m, H, C);
  for (Mat* m : {&k.gates, &k.dgh}) ensure(*m, 3 * H, C);
  ensure(k.logits, V, Q);
  ensure(k.dlogits, V, Q);
  for (MatD* m : {&k.logp, &k.prob, &k.dlogits_d}) ensure(*m, V, Q);
  for (VecD* v : {&k.entropy, &k.coef_logp, &k.coef_ent}) ensure_size(*v, Q);
  ensure(k.dgi, 3 * H, U);
  ensure(k.dx, E, U);
  ensure(k.dan, H, C);
  ensure(k.dh_prev, H, n);
  ensure(k.dgh_shared, 3 * H, P);
  ensure_size(k.row_sums, std::max(V, 3 * H));
  ensure(gh_, 3 * H, n);
  ensure(gh_shared_, 3 * H, P);

  SampleScratch& w = sample_;
  const int inputs = std::max(B, P * prompt_len);
  w.proj.slot.reserve(inputs);
  ensure(w.proj.x, E, std::min(V, inputs));
  ensure(w.proj.gi, 3 * H, std::min(V, inputs));
  ensure_size(w.proj.bias, 3 * H);
  for (Mat* m : {&w.h_a, &w.h_b, &w.ghn}) ensure(*m, H, n);
  ensure(w.gates, 3 * H, n);
  ensure(w.logits, V, n);
  ensure(w.logp, V, n);
  ensure(w.prob, V, n);
  ensure_size(w.entropy, n);
  for (std::vector<int>* v : {&w.active_rows, &w.next_rows, &w.prompt_of}) v->reserve(B);
  if (static_cast<int>(w.tokens.size()) < inputs) w.tokens.resize(inputs);
}

template <typename Scalar>
int GruPolicy<Scalar>::validate_prompts(const TokenRows& prompts, const char* name) const {
  // Messages are built only on failure: this runs on every call.
  const auto row_name = [&](std::size_t p) {
    return std::string(name) + "[" + std::to_string(p) + "]";
  };
  if (prompts.empty())
    throw InvalidArgument(std::string(name) + ": must have at least 1 prompt, got 0");
  const int length = static_cast<int>(prompts[0].size());
  if (length < 1) throw InvalidArgument(row_name(0) + ": must have at least 1 token, got 0");
  for (std::size_t p = 0; p < prompts.size(); ++p) {
    if (static_cast<int>(prompts[p].size()) != length)
      throw InvalidArgument(row_name(p) + ": must have " + std::to_string(length) +
                            " tokens (all prompts of a batch have the same length), got " +
                            std::to_string(prompts[p].size()));
    for (std::size_t t = 0; t < prompts[p].size(); ++t)
      if (prompts[p][t] < 0 || prompts[p][t] >= dims_.vocab)
        check_token(prompts[p][t], dims_.vocab, row_name(p) + "[" + std::to_string(t) + "]");
  }
  return length;
}

// x -> W_ih x + b_ih (+ b_hr, b_hz on the r, z rows) for the distinct tokens among `count`
// inputs; proj.slot[i] says which column of proj.gi input i uses.
template <typename Scalar>
void GruPolicy<Scalar>::project_inputs(const int* tokens, int count, InputProjection& proj) {
  const int V = dims_.vocab, E = dims_.embed, H = dims_.hidden;
  proj.unique.clear();
  if (static_cast<int>(proj.slot.size()) < count) proj.slot.resize(count);
  for (int i = 0; i < count; ++i) {
    int& slot = proj.slot_of_token[tokens[i]];
    if (slot < 0) {
      slot = static_cast<int>(proj.unique.size());
      proj.unique.push_back(tokens[i]);
    }
    proj.slot[i] = slot;
  }
  const int U = static_cast<int>(proj.unique.size());
  for (int u = 0; u < U; ++u) proj.slot_of_token[proj.unique[u]] = -1;

  const Eigen::Map<const Mat> embedding(tensor(ParamId::kEmbedding), E, V);  // [E, V]
  const Eigen::Map<const RowMat> w_ih(tensor(ParamId::kWeightIh), 3 * H, E);
  const Eigen::Map<const Vec> b_ih(tensor(ParamId::kBiasIh), 3 * H);
  const Eigen::Map<const Vec> b_hh(tensor(ParamId::kBiasHh), 3 * H);
  ensure(proj.x, E, U);
  ensure(proj.gi, 3 * H, U);
  ensure_size(proj.bias, 3 * H);
  for (int u = 0; u < U; ++u) proj.x.col(u) = embedding.col(proj.unique[u]);
  proj.bias.head(3 * H) = b_ih;
  proj.bias.head(2 * H) += b_hh.head(2 * H);
  proj.gi.leftCols(U).noalias() = w_ih * proj.x.leftCols(U);
  count_product(3 * H, E, U);
  proj.gi.leftCols(U).colwise() += proj.bias.head(3 * H);
}

// Whether W_hh h for h = 0 over `cols` columns is all +0, so the first prefix step may skip its
// product: every path Eigen takes for it from 20 rows + depth + columns on (GEMM, GEMV and
// PackedLhs) zeroes the destination and adds sums of w * 0 to it, and +0 + (+-0) is +0 when every
// w is finite (an infinite or NaN weight gives NaN: the product is then computed). Below that
// size Eigen's coefficient loop assigns the sum itself, which may be -0: computed too.
template <typename Scalar>
bool GruPolicy<Scalar>::zero_state_gh_is_zero(int cols) const {
  const int H = dims_.hidden;
  if (4 * H + cols < 20) return false;
  // w * 0 is +-0 for a finite w and NaN otherwise, so the sum is NaN iff some weight is not
  // finite (one vectorised pass, unlike allFinite()'s comparisons).
  const Eigen::Map<const Vec> w_hh(tensor(ParamId::kWeightHh), 3 * H * H);
  return !std::isnan((w_hh.array() * Scalar(0)).sum());
}

// One GRU step for n = h_prev.cols() sequences:
//   gates[0:H]   = r = sigma(gi_r + W_hr h)        gi_r already holds W_ir x + b_ir + b_hr
//   gates[H:2H]  = z = sigma(gi_z + W_hz h)        gi_z likewise
//   ghn          = W_hn h + b_hn
//   gates[2H:3H] = n = tanh(gi_n + r * ghn)        gi_n = W_in x + b_in
//   h_out        = (1 - z) * n + z * h = n + z * (h - n)
template <typename Scalar>
void GruPolicy<Scalar>::gru_step_forward(const Eigen::Ref<const Mat>& h_prev,
                                         const InputProjection& proj, const int* slots,
                                         Eigen::Ref<Mat> gates, Eigen::Ref<Mat> ghn,
                                         Eigen::Ref<Mat> h_out, Eigen::Ref<Mat> gh_cols,
                                         Eigen::Index total_cols, const Mat* shared_gh,
                                         const int* shared_map, bool zero_state) {
  const int H = dims_.hidden;
  const Eigen::Index n = h_prev.cols();
  if (zero_state)
    gh_cols.setZero();  // W_hh 0: the bits of the product (zero_state_gh_is_zero)
  else if (!shared_gh)
    w_hh_packed_.multiply(gh_cols, h_prev, total_cols, false);  // [3H, n]
  // One pass per column, each value computed by the same operations in the same order as the
  // earlier separate passes over the whole block (same bytes), without storing the sums first.
  // sigma(x) = (1 + tanh(x / 2)) / 2: Eigen's float tanh is a branch-free rational function that
  // vectorises natively and in WASM (its logistic() makes LLVM call expf per element in WASM).
  using Column = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  using ConstColumn = Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  const Scalar half(0.5);
  const ConstColumn b_hn(tensor(ParamId::kBiasHh) + 2 * H, H);
  for (Eigen::Index c = 0; c < n; ++c) {
    const ConstColumn gi(proj.gi.col(slots[c]).data(), 3 * H);
    const ConstColumn gh(shared_gh ? shared_gh->col(shared_map[c]).data() : gh_cols.col(c).data(),
                         3 * H);
    const ConstColumn h(h_prev.col(c).data(), H);
    Column g(gates.col(c).data(), 3 * H);  // r; z; n
    Column hn(ghn.col(c).data(), H);
    Column out(h_out.col(c).data(), H);
    g.head(2 * H) = half + half * (half * (gi.head(2 * H) + gh.head(2 * H))).tanh();
    hn = gh.tail(H) + b_hn;
    g.tail(H) = (gi.tail(H) + g.head(H) * hn).tanh();
    out = g.tail(H) + g.segment(H, H) * (h - g.tail(H));
  }
}

// logits = head.weight h + head.bias; logp = log_softmax(logits / T) and its probabilities and
// entropy, in double, for columns [c0, c0 + count) of the first total_cols columns of h (the
// caller sizes the outputs for total_cols and counts the product).
template <typename Scalar>
void GruPolicy<Scalar>::head_log_softmax(const Eigen::Ref<const Mat>& h, int c0, int count,
                                         int total_cols, double inv_temperature, Mat& logits,
                                         MatD& logp, MatD& prob, VecD& entropy) {
  const int V = dims_.vocab, H = dims_.hidden;
  const Eigen::Map<const RowMat> w_head(tensor(ParamId::kHeadWeight), V, H);
  const Eigen::Map<const Vec> b_head(tensor(ParamId::kHeadBias), V);
  gemm_columns(logits.middleCols(c0, count), w_head, h.middleCols(c0, count), total_cols, false);
  logits.middleCols(c0, count).colwise() += b_head;
  logp.middleCols(c0, count) =
      logits.middleCols(c0, count).template cast<double>() * inv_temperature;
  for (int c = c0; c < c0 + count; ++c) logp.col(c).array() -= logp.col(c).maxCoeff();
  prob.middleCols(c0, count).array() = logp.middleCols(c0, count).array().exp();
  for (int c = c0; c < c0 + count; ++c) {
    const double sum = prob.col(c).sum();
    logp.col(c).array() -= std::log(sum);
    prob.col(c) /= sum;
    entropy(c) = -(prob.col(c).array() * logp.col(c).array()).sum();
  }
}

template <typename Scalar>
void GruPolicy<Scalar>::forward(const TokenRows& prompts, const TokenRows& completions,
                                double temperature, PolicyOutput& out) {
  Cache& k = cache_;
  k.valid = false;
  const int lp = validate_prompts(prompts, "prompts");
  check_temperature(temperature);
  const int P = static_cast<int>(prompts.size());
  if (!(!completions.empty() && completions.size() % prompts.size() == 0))
    throw InvalidArgument("completions: must have a positive multiple of " + std::to_string(P) +
                          " rows (G completions per prompt, prompt-major), got " +
                          std::to_string(completions.size()));
  const int B = static_cast<int>(completions.size());
  const int G = B / P;
  int S = 0;  // longest completion
  for (int j = 0; j < B; ++j) {
    const std::vector<int>& row = completions[j];
    S = std::max(S, static_cast<int>(row.size()));
    for (std::size_t t = 0; t < row.size(); ++t)
      if (row[t] < 0 || row[t] >= dims_.vocab)
        check_token(row[t], dims_.vocab,
                    "completions[" + std::to_string(j) + "][" + std::to_string(t) + "]");
  }
  const int H = dims_.hidden;

  // Sort completions by length, longest first (stable counting sort): the ones still running at
  // step s are then always the leading n_s columns.
  k.lengths.resize(B);
  k.order.resize(B);
  k.rank.resize(B);
  k.counts.assign(S + 2, 0);
  for (int j = 0; j < B; ++j) {
    k.lengths[j] = static_cast<int>(completions[j].size());
    ++k.counts[S - k.lengths[j] + 1];
  }
  for (int key = 1; key <= S + 1; ++key) k.counts[key] += k.counts[key - 1];
  for (int j = 0; j < B; ++j) {
    const int c = k.counts[S - k.lengths[j]]++;
    k.order[c] = j;
    k.rank[j] = c;
  }
  k.active.assign(S + 1, 0);
  for (int s = 0, c = B; s <= S; ++s) {
    while (c > 0 && k.lengths[k.order[c - 1]] <= s) --c;
    k.active[s] = c;
  }
  k.comp_offset.assign(std::max(S + 1, 2), 0);
  for (int s = 1; s < S; ++s) k.comp_offset[s + 1] = k.comp_offset[s] + k.active[s];
  const int prefix_cols = lp * P;
  const int C = prefix_cols + (S >= 1 ? k.comp_offset[S] : 0);
  const int head_start = (lp - 1) * P;
  const int Q = C - head_start;

  // The token fed at every step column, then their input projections in one product.
  k.input_token.resize(C);
  for (int t = 0; t < lp; ++t)
    for (int p = 0; p < P; ++p) k.input_token[t * P + p] = prompts[p][t];
  for (int s = 1; s < S; ++s)
    for (int c = 0; c < k.active[s]; ++c)
      k.input_token[prefix_cols + k.comp_offset[s] + c] = completions[k.order[c]][s - 1];
  project_inputs(k.input_token.data(), C, k.proj);

  ensure(k.h_prev, H, C);
  ensure(k.gates, 3 * H, C);
  ensure(k.ghn, H, C);
  ensure(k.h_out, H, C);
  ensure(gh_, 3 * H, std::max(B, P));
  w_hh_packed_.pack(tensor(ParamId::kWeightHh), 3 * H, H, true);
  // The prefix, once per prompt (P columns per step). Step 0 starts from h = 0: its W_hh h is
  // all +0, not computed when that gives the same bits.
  const bool skip_first = zero_state_gh_is_zero(P);
  for (int t = 0; t < lp; ++t) {
    const int o = t * P;
    if (t == 0)
      k.h_prev.leftCols(P).setZero();
    else
      k.h_prev.middleCols(o, P) = k.h_out.middleCols(o - P, P);
    const bool zero_state = t == 0 && skip_first;
    gru_step_forward(k.h_prev.middleCols(o, P), k.proj, k.proj.slot.data() + o,
                     k.gates.middleCols(o, P), k.ghn.middleCols(o, P), k.h_out.middleCols(o, P),
                     gh_.leftCols(P), P, nullptr, nullptr, zero_state);
    if (!zero_state) count_product(3 * H, H, P);
  }
  // Completion steps: step s feeds token s-1 of the n_s completions longer than s. Step 1
  // starts from copies of the P prompt states, so W_hh h is computed once per prompt.
  if (S > 1) {
    const int n1 = k.active[1];
    k.prompt_of.resize(n1);
    for (int c = 0; c < n1; ++c) k.prompt_of[c] = k.order[c] / G;
    ensure(gh_shared_, 3 * H, P);
    w_hh_packed_.multiply(gh_shared_.leftCols(P), k.h_out.middleCols(head_start, P), P, false);
    count_product(3 * H, H, P);
    for (int s = 2; s < S; ++s) count_product(3 * H, H, k.active[s]);
  }
  // Each task runs every step of its own block of sorted completions [c0, c1): a completion's
  // states only ever depend on its own earlier ones.
  plan_tasks();
  const int tasks = static_cast<int>(k.task_start.size()) - 1;
  parallel_tasks(tasks, [&](int task) {
    const int c0 = k.task_start[task], c1 = k.task_start[task + 1];
    for (int s = 1; s < S; ++s) {
      if (task_should_stop()) break;  // a long pass (config maxima) stops between time steps
      const int n = k.active[s];
      if (n <= c0) break;
      const int count = std::min(c1, n) - c0;
      const int o = prefix_cols + k.comp_offset[s] + c0;
      if (s == 1) {
        for (int c = c0; c < c0 + count; ++c)
          k.h_prev.col(o + c - c0) = k.h_out.col(head_start + k.prompt_of[c]);
        gru_step_forward(k.h_prev.middleCols(o, count), k.proj, k.proj.slot.data() + o,
                         k.gates.middleCols(o, count), k.ghn.middleCols(o, count),
                         k.h_out.middleCols(o, count), gh_.middleCols(c0, count), n, &gh_shared_,
                         k.prompt_of.data() + c0);
      } else {
        k.h_prev.middleCols(o, count) =
            k.h_out.middleCols(prefix_cols + k.comp_offset[s - 1] + c0, count);
        gru_step_forward(k.h_prev.middleCols(o, count), k.proj, k.proj.slot.data() + o,
                         k.gates.middleCols(o, count), k.ghn.middleCols(o, count),
                         k.h_out.middleCols(o, count), gh_.middleCols(c0, count), n);
      }
    }
  });
  // One head product for every scored position: the prefix's last state (position 0 of each
  // prompt's G completions) followed by every completion step; split into column blocks.
  const double inv_temperature = 1.0 / temperature;
  const int V = dims_.vocab;
  ensure(k.logits, V, Q);
  ensure(k.logp, V, Q);
  ensure(k.prob, V, Q);
  ensure_size(k.entropy, Q);
  const int head_tasks =
      gemm_splittable(V, H, Q) ? split_tasks(Q, static_cast<double>(V) * H * Q) : 1;
  parallel_tasks(head_tasks, [&](int task) {
    const int c0 = static_cast<int>(column_start(task, head_tasks, Q));
    const int c1 = static_cast<int>(column_start(task + 1, head_tasks, Q));
    if (c1 > c0)
      head_log_softmax(k.h_out.middleCols(head_start, Q), c0, c1 - c0, Q, inv_temperature, k.logits,
                       k.logp, k.prob, k.entropy);
  });
  count_product(V, H, Q);

  k.target.resize(Q);
  k.first_token.resize(B);
  out.logp.resize(B);
  out.entropy.resize(B);
  for (int j = 0; j < B; ++j) {
    const int L = k.lengths[j];
    std::vector<double>& logp = out.logp[j];
    std::vector<double>& entropy = out.entropy[j];
    logp.reserve(S);  // every row can hold the longest: reused outputs stop allocating
    entropy.reserve(S);
    logp.resize(L);
    entropy.resize(L);
    k.first_token[j] = L > 0 ? completions[j][0] : -1;
    for (int s = 0; s < L; ++s) {
      const int q = s == 0 ? j / G : P + k.comp_offset[s] + k.rank[j];
      const int token = completions[j][s];
      if (s > 0) k.target[q] = token;
      logp[s] = k.logp(token, q);
      entropy[s] = k.entropy(q);
    }
  }
  k.num_prompts = P;
  k.prompt_len = lp;
  k.group = G;
  k.rows = B;
  k.max_len = S;
  k.columns = C;
  k.head_start = head_start;
  k.head_cols = Q;
  k.inv_temperature = inv_temperature;
  k.valid = true;
}

// Backward of one GRU step (columns [offset, offset + count)), given dh_out there:
//   dn = dh * (1 - z);  dan = dn * (1 - n^2)                  (pre-tanh)
//   dar = dan * ghn * r * (1 - r);  daz = dh * (h - n) * z * (1 - z)
//   d(W_h h + b_h) = [dar; daz; dan * r],  d(W_i x + b_i) = [dar; daz; dan]
//   dh_prev = dh * z + W_hh^T d(W_h h + b_h)
template <typename Scalar>
void GruPolicy<Scalar>::gru_step_backward(int offset, int c0, int count, int total_cols,
                                          bool want_dh_prev) {
  Cache& k = cache_;
  const int H = dims_.hidden;
  const Scalar one(1);
  const Eigen::Index o = offset + c0, n = count;
  // One pass per column, each value computed by the same operations in the same order as
  // separate passes over the whole block (products and differences only: the same bits however
  // they are vectorised), with the column's operands in cache.
  using Column = Eigen::Map<Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  using ConstColumn = Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>;
  for (Eigen::Index c = o; c < o + n; ++c) {
    const ConstColumn dh(k.dh_out.col(c).data(), H);
    const ConstColumn h(k.h_prev.col(c).data(), H);
    const ConstColumn g(k.gates.col(c).data(), 3 * H);
    const ConstColumn ghn(k.ghn.col(c).data(), H);
    Column dan(k.dan.col(c).data(), H);
    Column dg(k.dgh.col(c).data(), 3 * H);
    const ConstColumn r(g.data(), H), z(g.data() + H, H), nn(g.data() + 2 * H, H);
    dan = dh * (one - z) * (one - nn.square());
    dg.head(H) = dan * ghn * r * (one - r);
    dg.segment(H, H) = dh * (h - nn) * z * (one - z);
    dg.tail(H) = dan * r;
    if (want_dh_prev) Column(k.dh_prev.col(c - offset).data(), H) = dh * z;
  }
  if (want_dh_prev)
    w_hh_t_packed_.multiply(k.dh_prev.middleCols(c0, n), k.dgh.middleCols(o, n), total_cols, true);
}

template <typename Scalar>
void GruPolicy<Scalar>::plan_tasks() {
  Cache& k = cache_;
  const int B = static_cast<int>(k.order.size());
  const int H = dims_.hidden;
  // One block per thread, more when a step's product over every completion is large (its time
  // steps then run block by block, asking for Stop at each).
  const int blocks = std::max(core_threads(), split_tasks(B, 3.0 * H * H * B));
  k.task_start.assign(1, 0);
  // Below H = 5 a step's products are too small for Eigen's GEMM kernel (gemm_block.h).
  if (blocks > 1 && B >= 8 && H >= 5) {
    long total = 0;
    for (int c = 0; c < B; ++c) total += std::max(k.lengths[k.order[c]] - 1, 0);
    long before = 0;  // completion steps of the sorted completions < c
    for (int c = 0, task = 1; c < B && task < blocks; c += 4) {
      if (c > 0 && before * blocks >= total * task) {
        k.task_start.push_back(c);
        ++task;
      }
      for (int i = c; i < std::min(c + 4, B); ++i) before += std::max(k.lengths[k.order[i]] - 1, 0);
    }
  }
  k.task_start.push_back(B);
}

template <typename Scalar>
void GruPolicy<Scalar>::backward(const Ragged& dlogp, const Ragged* dentropy) {
  Cache& k = cache_;
  if (!k.valid) throw InvalidArgument("backward: needs a successful forward() first");
  const int B = k.rows, P = k.num_prompts, G = k.group, S = k.max_len, lp = k.prompt_len;
  const int Q = k.head_cols, C = k.columns, head_start = k.head_start;
  const int prefix_cols = lp * P;
  const int V = dims_.vocab, E = dims_.embed, H = dims_.hidden;
  const int U = static_cast<int>(k.proj.unique.size());
  for (int which = 0; which < (dentropy ? 2 : 1); ++which) {
    const Ragged& values = which == 0 ? dlogp : *dentropy;
    const char* name = which == 0 ? "dlogp" : "dentropy";
    if (static_cast<int>(values.size()) != B)
      throw InvalidArgument(std::string(name) + ": must have " + std::to_string(B) +
                            " rows (one per completion), got " + std::to_string(values.size()));
    for (int j = 0; j < B; ++j) {
      if (static_cast<int>(values[j].size()) != k.lengths[j])
        throw InvalidArgument(std::string(name) + "[" + std::to_string(j) + "]: must have " +
                              std::to_string(k.lengths[j]) + " values (length of completion " +
                              std::to_string(j) + "), got " + std::to_string(values[j].size()));
      for (std::size_t t = 0; t < values[j].size(); ++t)
        if (!std::isfinite(values[j][t]))
          throw InvalidArgument(std::string(name) + "[" + std::to_string(j) + "][" +
                                std::to_string(t) + "]: must be finite, got " +
                                format_number(values[j][t]));
    }
  }

  // Head: d logp_tok / d z = onehot(tok) - p;  d entropy / d z = -p * (logp + entropy);
  // z = logits / T. Position-0 columns collect all G completions of their prompt.
  ensure_size(k.coef_logp, Q);
  ensure_size(k.coef_ent, Q);
  k.coef_logp.head(Q).setZero();
  k.coef_ent.head(Q).setZero();
  for (int j = 0; j < B; ++j)
    for (int s = 0; s < k.lengths[j]; ++s) {
      const int q = s == 0 ? j / G : P + k.comp_offset[s] + k.rank[j];
      k.coef_logp(q) += dlogp[j][s];
      if (dentropy) k.coef_ent(q) += (*dentropy)[j][s];
    }
  ensure(k.dlogits_d, V, Q);
  for (int q = 0; q < Q; ++q) {
    k.dlogits_d.col(q) = -k.coef_logp(q) * k.prob.col(q);
    if (dentropy)
      k.dlogits_d.col(q).array() -=
          k.coef_ent(q) * k.prob.col(q).array() * (k.logp.col(q).array() + k.entropy(q));
  }
  for (int j = 0; j < B; ++j)
    for (int s = 0; s < k.lengths[j]; ++s) {
      const int q = s == 0 ? j / G : P + k.comp_offset[s] + k.rank[j];
      k.dlogits_d(s == 0 ? k.first_token[j] : k.target[q], q) += dlogp[j][s];
    }
  ensure(k.dlogits, V, Q);
  k.dlogits.leftCols(Q) = (k.dlogits_d.leftCols(Q) * k.inv_temperature).template cast<Scalar>();

  const Eigen::Map<const RowMat> w_head(tensor(ParamId::kHeadWeight), V, H);
  const Eigen::Map<const RowMat> w_ih(tensor(ParamId::kWeightIh), 3 * H, E);
  Eigen::Map<RowMat> dw_head(grad_tensor(ParamId::kHeadWeight), V, H);
  Eigen::Map<Vec> db_head(grad_tensor(ParamId::kHeadBias), V);
  Eigen::Map<RowMat> dw_hh(grad_tensor(ParamId::kWeightHh), 3 * H, H);
  Eigen::Map<Vec> db_hh(grad_tensor(ParamId::kBiasHh), 3 * H);
  Eigen::Map<RowMat> dw_ih(grad_tensor(ParamId::kWeightIh), 3 * H, E);
  Eigen::Map<Vec> db_ih(grad_tensor(ParamId::kBiasIh), 3 * H);
  Eigen::Map<Mat> dembedding(grad_tensor(ParamId::kEmbedding), E, V);  // [E, V]

  const int head_w_tasks = weight_tasks(V, Q, H);
  parallel_tasks(head_w_tasks, [&](int task) {
    const Eigen::Index r0 = column_start(task, head_w_tasks, V);
    add_weight_rows(dw_head, k.dlogits.leftCols(Q), k.h_out.middleCols(head_start, Q), r0,
                    column_start(task + 1, head_w_tasks, V) - r0);
  });
  count_product(V, Q, H);
  add_row_sums(db_head, k.dlogits.leftCols(Q), k.row_sums);
  ensure(k.dh_out, H, C);
  k.dh_out.leftCols(head_start).setZero();
  const int head_tasks =
      gemm_splittable(H, V, Q) ? split_tasks(Q, static_cast<double>(H) * V * Q) : 1;
  parallel_tasks(head_tasks, [&](int task) {
    const Eigen::Index c0 = column_start(task, head_tasks, Q);
    const Eigen::Index c1 = column_start(task + 1, head_tasks, Q);
    gemm_columns(k.dh_out.middleCols(head_start + c0, c1 - c0), w_head.transpose(),
                 k.dlogits.middleCols(c0, c1 - c0), Q, false);
  });
  count_product(H, V, Q);

  // Through time, last step first. dh_out of a step is complete once every later step that
  // reads its state has been processed: each task runs the completion steps of its own sorted
  // completions (as in forward), then the shared step 1 and the prefix run on one thread.
  ensure(k.dgh, 3 * H, C);
  ensure(k.dgi, 3 * H, U);
  ensure(k.dan, H, C);
  ensure(k.dh_prev, H, std::max(B, P));
  k.dgi.leftCols(U).setZero();
  w_hh_t_packed_.pack(tensor(ParamId::kWeightHh), H, 3 * H, false);
  for (int s = S - 1; s >= 2; --s) count_product(H, 3 * H, k.active[s]);
  const int tasks = static_cast<int>(k.task_start.size()) - 1;
  parallel_tasks(tasks, [&](int task) {
    const int c0 = k.task_start[task], c1 = k.task_start[task + 1];
    for (int s = S - 1; s >= 2; --s) {
      if (task_should_stop()) break;
      const int n = k.active[s];
      if (n <= c0) continue;
      const int count = std::min(c1, n) - c0;
      gru_step_backward(prefix_cols + k.comp_offset[s], c0, count, n, true);
      k.dh_out.middleCols(prefix_cols + k.comp_offset[s - 1] + c0, count) +=
          k.dh_prev.middleCols(c0, count);
    }
  });
  const int n1 = S >= 2 ? k.active[1] : 0;  // columns of completion step 1
  if (n1 > 0) {
    // Step 1 read copies of the prompt states: sum its gradients over the G completions of each
    // prompt first, then one product per prompt (dh_prev = dh * z + W_hh^T dgh).
    const int o = prefix_cols;
    gru_step_backward(o, 0, n1, n1, false);
    ensure(k.dgh_shared, 3 * H, P);
    k.dgh_shared.leftCols(P).setZero();
    for (int c = 0; c < n1; ++c) {
      const int p = k.prompt_of[c];
      k.dgh_shared.col(p) += k.dgh.col(o + c);
      k.dh_out.col(head_start + p).array() +=
          k.dh_out.col(o + c).array() * k.gates.col(o + c).segment(H, H).array();
    }
    w_hh_t_packed_.multiply(k.dh_out.middleCols(head_start, P), k.dgh_shared.leftCols(P), P, true);
    count_product(H, 3 * H, P);
  }
  for (int t = lp - 1; t >= 0; --t) {
    gru_step_backward(t * P, 0, P, P, t > 0);
    if (t > 0) {
      k.dh_out.middleCols((t - 1) * P, P) += k.dh_prev.leftCols(P);
      count_product(H, 3 * H, P);
    }
  }
  // The input gradients of every column, per distinct token, in step order (the last step first,
  // columns in order): the order in which they are summed is the same at any thread count.
  const auto scatter = [&](int o, int n) {
    for (int c = o; c < o + n; ++c) {
      const int u = k.proj.slot[c];
      k.dgi.col(u).head(2 * H) += k.dgh.col(c).head(2 * H);
      k.dgi.col(u).tail(H) += k.dan.col(c);
    }
  };
  for (int s = S - 1; s >= 2; --s) scatter(prefix_cols + k.comp_offset[s], k.active[s]);
  if (n1 > 0) scatter(prefix_cols, n1);
  for (int t = lp - 1; t >= 0; --t) scatter(t * P, P);

  // Weight gradients of all steps at once (prefix step 0 is skipped: its state is 0; step 1
  // uses the per-prompt sums); each task adds the three products to its own rows, in this order.
  const int rest = C - prefix_cols - n1;
  if (lp > 1) count_product(3 * H, prefix_cols - P, H);
  if (n1 > 0) count_product(3 * H, P, H);
  if (rest > 0) count_product(3 * H, rest, H);
  const bool hh_split = gemm_splittable(H, std::max(P, 1), 3 * H) &&
                        gemm_splittable(H, std::max(prefix_cols - P, 1), 3 * H) &&
                        gemm_splittable(H, std::max(rest, 1), 3 * H);
  const int hh_tasks = hh_split ? split_tasks(3 * H, 3.0 * H * H * (C - P)) : 1;
  parallel_tasks(hh_tasks, [&](int task) {
    const Eigen::Index r0 = column_start(task, hh_tasks, 3 * H);
    const Eigen::Index rows = column_start(task + 1, hh_tasks, 3 * H) - r0;
    if (lp > 1)
      add_weight_rows(dw_hh, k.dgh.middleCols(P, prefix_cols - P),
                      k.h_prev.middleCols(P, prefix_cols - P), r0, rows);
    if (n1 > 0)
      add_weight_rows(dw_hh, k.dgh_shared.leftCols(P), k.h_out.middleCols(head_start, P), r0, rows);
    if (rest > 0)
      add_weight_rows(dw_hh, k.dgh.middleCols(prefix_cols + n1, rest),
                      k.h_prev.middleCols(prefix_cols + n1, rest), r0, rows);
  });
  add_row_sums(db_hh, k.dgh.leftCols(C), k.row_sums);
  add_row_sums(db_ih, k.dgi.leftCols(U), k.row_sums);
  dw_ih.noalias() += k.dgi.leftCols(U) * k.proj.x.leftCols(U).transpose();
  count_product(3 * H, U, E);
  ensure(k.dx, E, U);
  k.dx.leftCols(U).noalias() = w_ih.transpose() * k.dgi.leftCols(U);
  count_product(E, 3 * H, U);
  for (int u = 0; u < U; ++u) dembedding.col(k.proj.unique[u]) += k.dx.col(u);
}

template <typename Scalar>
void GruPolicy<Scalar>::sample(const TokenRows& prompts, int group_size, int max_new_tokens,
                               double temperature, int eos_id, Rng& rng, SampleOutput& out) {
  decode(prompts, group_size, max_new_tokens, temperature, eos_id, &rng, out);
}

template <typename Scalar>
void GruPolicy<Scalar>::greedy(const TokenRows& prompts, int max_new_tokens, double temperature,
                               int eos_id, SampleOutput& out) {
  decode(prompts, 1, max_new_tokens, temperature, eos_id, nullptr, out);
}

template <typename Scalar>
void GruPolicy<Scalar>::decode(const TokenRows& prompts, int group_size, int max_new_tokens,
                               double temperature, int eos_id, Rng* rng, SampleOutput& out) {
  const int lp = validate_prompts(prompts, "prompts");
  require_integer_in_range("group_size", group_size, 1, 65536);
  require_integer_in_range("max_new_tokens", max_new_tokens, 1, 65536);
  check_temperature(temperature);
  check_token(eos_id, dims_.vocab, "eos_id");
  SampleScratch& w = sample_;
  const int P = static_cast<int>(prompts.size());
  const int G = group_size, B = P * G, H = dims_.hidden;
  const int width = std::max(B, P);
  const double inv_temperature = 1.0 / temperature;

  out.tokens.resize(B);
  out.logp.resize(B);
  out.entropy.resize(B);
  out.terminated.assign(B, false);
  for (int j = 0; j < B; ++j) {  // rows keep their capacity between calls
    out.tokens[j].clear();
    out.logp[j].clear();
    out.entropy[j].clear();
    out.tokens[j].reserve(max_new_tokens);
    out.logp[j].reserve(max_new_tokens);
    out.entropy[j].reserve(max_new_tokens);
  }
  ensure(w.h_a, H, width);
  ensure(w.h_b, H, width);
  ensure(w.gates, 3 * H, width);
  ensure(w.ghn, H, width);
  ensure(gh_, 3 * H, width);
  ensure(w.logits, dims_.vocab, width);
  ensure(w.logp, dims_.vocab, width);
  ensure(w.prob, dims_.vocab, width);
  ensure_size(w.entropy, width);
  if (static_cast<int>(w.tokens.size()) < std::max(B, P * lp)) w.tokens.resize(std::max(B, P * lp));

  w_hh_packed_.pack(tensor(ParamId::kWeightHh), 3 * H, H, true);
  // The prefix, once per prompt: all its input projections in one product.
  for (int t = 0; t < lp; ++t)
    for (int p = 0; p < P; ++p) w.tokens[t * P + p] = prompts[p][t];
  project_inputs(w.tokens.data(), P * lp, w.proj);
  w.h_a.leftCols(P).setZero();
  const bool skip_first = zero_state_gh_is_zero(P);  // as in forward()
  for (int t = 0; t < lp; ++t) {
    const bool zero_state = t == 0 && skip_first;
    gru_step_forward(w.h_a.leftCols(P), w.proj, w.proj.slot.data() + t * P, w.gates.leftCols(P),
                     w.ghn.leftCols(P), w.h_b.leftCols(P), gh_.leftCols(P), P, nullptr, nullptr,
                     zero_state);
    if (!zero_state) count_product(3 * H, H, P);
    w.h_a.swap(w.h_b);
  }
  // Position 0: one distribution per prompt, G draws from it.
  head_log_softmax(w.h_a.leftCols(P), 0, P, P, inv_temperature, w.logits, w.logp, w.prob,
                   w.entropy);
  count_product(dims_.vocab, H, P);
  w.active_rows.clear();
  for (int j = 0; j < B; ++j) {
    const int p = j / G;
    const int token = draw_token(w.prob.col(p), rng);
    out.tokens[j].push_back(token);
    out.logp[j].push_back(w.logp(token, p));
    out.entropy[j].push_back(w.entropy(p));
    if (token == eos_id)
      out.terminated[j] = true;
    else if (max_new_tokens > 1)
      w.active_rows.push_back(j);
  }
  // Running rows start from copies of their prompt's state (h_a keeps it while h_b is filled);
  // W_hh h of those is computed once per prompt.
  const int n1 = static_cast<int>(w.active_rows.size());
  if (static_cast<int>(w.prompt_of.size()) < n1) w.prompt_of.resize(n1);
  for (int i = 0; i < n1; ++i) {
    w.prompt_of[i] = w.active_rows[i] / G;
    w.h_b.col(i) = w.h_a.col(w.prompt_of[i]);
  }
  if (n1 > 0) {
    ensure(gh_shared_, 3 * H, P);
    w_hh_packed_.multiply(gh_shared_.leftCols(P), w.h_a.leftCols(P), P, false);
    count_product(3 * H, H, P);
  }
  w.h_a.swap(w.h_b);  // h_a: the running rows' states

  for (bool first_step = true; !w.active_rows.empty(); first_step = false) {
    interruption_point();
    const int n = static_cast<int>(w.active_rows.size());
    for (int i = 0; i < n; ++i) w.tokens[i] = out.tokens[w.active_rows[i]].back();
    project_inputs(w.tokens.data(), n, w.proj);
    // The step and its head, split into column blocks (the draws below stay in row order).
    const int tasks = n >= 8 && gemm_splittable(3 * H, H, n) && gemm_splittable(dims_.vocab, H, n)
                          ? split_tasks(n, (3.0 * H + dims_.vocab) * H * n)
                          : 1;
    parallel_tasks(tasks, [&](int task) {
      const int c0 = static_cast<int>(column_start(task, tasks, n));
      const int count = static_cast<int>(column_start(task + 1, tasks, n)) - c0;
      gru_step_forward(w.h_a.middleCols(c0, count), w.proj, w.proj.slot.data() + c0,
                       w.gates.middleCols(c0, count), w.ghn.middleCols(c0, count),
                       w.h_b.middleCols(c0, count), gh_.middleCols(c0, count), n,
                       first_step ? &gh_shared_ : nullptr, w.prompt_of.data() + c0);
      head_log_softmax(w.h_b.leftCols(n), c0, count, n, inv_temperature, w.logits, w.logp, w.prob,
                       w.entropy);
    });
    if (!first_step) count_product(3 * H, H, n);
    count_product(dims_.vocab, H, n);
    w.next_rows.clear();
    for (int i = 0; i < n; ++i) {
      const int j = w.active_rows[i];
      const int token = draw_token(w.prob.col(i), rng);
      out.tokens[j].push_back(token);
      out.logp[j].push_back(w.logp(token, i));
      out.entropy[j].push_back(w.entropy(i));
      if (token == eos_id) {
        out.terminated[j] = true;
      } else if (static_cast<int>(out.tokens[j].size()) < max_new_tokens) {
        w.h_a.col(w.next_rows.size()) = w.h_b.col(i);  // compact the survivors to the left
        w.next_rows.push_back(j);
      }
    }
    w.active_rows.swap(w.next_rows);
  }
}

template <typename Scalar>
Ragged GruPolicy<Scalar>::teacher_forced_log_probs(const TokenRows& sequences, double temperature,
                                                   bool accumulate_sum_gradient) {
  if (sequences.empty()) throw InvalidArgument("sequences: must have at least 1 sequence, got 0");
  TokenRows prompts(sequences.size()), completions(sequences.size());
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    if (sequences[i].empty())
      throw InvalidArgument("sequences[" + std::to_string(i) +
                            "]: must have at least 1 token (token 0 is the context)");
    for (std::size_t t = 0; t < sequences[i].size(); ++t)
      if (sequences[i][t] < 0 || sequences[i][t] >= dims_.vocab)
        check_token(sequences[i][t], dims_.vocab,
                    "sequences[" + std::to_string(i) + "][" + std::to_string(t) + "]");
    prompts[i].assign(1, sequences[i][0]);
    completions[i].assign(sequences[i].begin() + 1, sequences[i].end());
  }
  PolicyOutput out;
  forward(prompts, completions, temperature, out);
  if (accumulate_sum_gradient) {
    Ragged ones = out.logp;  // d(sum)/d logp = 1 for every token
    for (std::vector<double>& row : ones) std::fill(row.begin(), row.end(), 1.0);
    backward(ones);
  }
  return out.logp;
}

template class GruPolicy<float>;
template class GruPolicy<double>;

}  // namespace grpo
