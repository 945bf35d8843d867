// The tiny causal language model policy of sections 6-8: token embedding -> one GRU layer ->
// linear head, with a batched forward pass, backward through time, sampling and named parameters.
//
// What it is: PyTorch's nn.Embedding + nn.GRU(batch_first=True, 1 layer) + nn.Linear, with the
// same equations, parameter names, shapes and row-major memory layout, so a checkpoint exported by
// rl/checkpoint.h loads into PyTorch unchanged (docs/checkpoint.md). Forward and backward are
// written by hand (Eigen for the matrix products); no autodiff library.
// What it leaves out: more layers, dropout, padding tokens, anything but h0 = 0.
//
// Legend for shapes: V vocab, E embedding, H hidden, P prompts, Lp prompt length, G group size
// (completions per prompt), B = P*G completions, L_j length of completion j, T time.
//
// The group batch (forward / backward / sample): P prompts, all of the same length Lp >= 1, each
// with G completions, stored prompt-major: completion j = p*G + g belongs to prompt p. The prompt
// prefix runs ONCE per prompt (batch P); its final hidden state is shared by the G completions.
// Token t of completion j is scored from the hidden state after the prompt and the completion
// tokens < t; the prompt tokens themselves are not scored.
//
// Temperature (TRL convention): every log-prob and entropy here is of softmax(logits / T). Old,
// current and reference log-probs must all use the temperature the rollouts were sampled with.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rl/gemm_block.h"
#include "rl/rng.h"

namespace grpo {

// Size limits, checked by the constructor (and so by checkpoint import).
inline constexpr int kMaxPolicyVocab = 4096;
inline constexpr int kMaxPolicyEmbed = 1024;
inline constexpr int kMaxPolicyHidden = 1024;

struct GruDims {
  int vocab = 0;   // V, in [1, 4096]
  int embed = 0;   // E, in [1, 1024]
  int hidden = 0;  // H, in [1, 1024]
};

// The parameter tensors in PyTorch state_dict order; also the order of the flat buffers.
enum class ParamId : int {
  kEmbedding = 0,  // embedding.weight   [V, E]
  kWeightIh,       // gru.weight_ih_l0   [3H, E]  rows: W_ir; W_iz; W_in
  kWeightHh,       // gru.weight_hh_l0   [3H, H]  rows: W_hr; W_hz; W_hn
  kBiasIh,         // gru.bias_ih_l0     [3H]     b_ir; b_iz; b_in
  kBiasHh,         // gru.bias_hh_l0     [3H]     b_hr; b_hz; b_hn
  kHeadWeight,     // head.weight        [V, H]
  kHeadBias,       // head.bias          [V]
};
inline constexpr int kNumPolicyTensors = 7;

// One named view into the flat parameter (and gradient) buffer.
struct ParamInfo {
  std::string name;        // PyTorch state_dict name, e.g. "gru.weight_hh_l0"
  std::vector<int> shape;  // PyTorch shape, e.g. {3H, H}; data is row-major (C order)
  std::size_t offset = 0;  // index of the first element in params() / grads()
  std::size_t size = 0;    // product of shape
};

using TokenRows = std::vector<std::vector<int>>;  // ragged token ids, one row per sequence
using Ragged = std::vector<std::vector<double>>;  // [B][L_j] per-token values (as grpo_objective.h)

// Teacher-forced forward results, one row per completion j (same ragged shape as the tokens).
struct PolicyOutput {
  Ragged logp;     // [B][L_j] log pi(token_t | prompt, tokens < t) at temperature T
  Ragged entropy;  // [B][L_j] entropy of the full temperature-scaled distribution at that position
};

// Sampling results, one row per completion j = p*G + g.
struct SampleOutput {
  TokenRows tokens;              // [B][L_j], 1 <= L_j <= max_new_tokens; eos included if emitted
  Ragged logp;                   // [B][L_j] log-prob of each token under the sampling distribution
  Ragged entropy;                // [B][L_j] entropy of the sampling distribution at each position
  std::vector<bool> terminated;  // [B] true iff the row emitted eos (false = truncated)
};

// The policy. Scalar is float (training speed) or double (gradient checks); explicitly
// instantiated for both in gru_policy.cpp.
//
// Math (PyTorch nn.GRU, gate order r, z, n; sigma = logistic; * = elementwise):
//   x_t = embedding.weight[token_t]                                        [E]
//   r   = sigma(W_ir x + b_ir + W_hr h + b_hr)                             [H]
//   z   = sigma(W_iz x + b_iz + W_hz h + b_hz)                             [H]
//   n   = tanh (W_in x + b_in + r * (W_hn h + b_hn))                       [H]
//   h'  = (1 - z) * n + z * h,   h_0 = 0                                   [H]
//   logits = head.weight h + head.bias                                     [V]
//   logp   = log_softmax(logits / T),  entropy = -sum_v p_v logp_v        [V]
//
// Not thread-safe; forward() and sample() reuse workspaces kept in the object, so a policy is
// not const while it computes. Copying a policy copies parameters, gradients and workspaces.
// After a warm-up call with the largest batch shape, forward/backward/sample allocate nothing
// (the output structs are reused too: pass the same object every call).
template <typename Scalar>
class GruPolicy {
 public:
  // Parameters and gradients all zero; call reset_parameters() for PyTorch's default init.
  // Throws InvalidArgument for dims out of range ("policy.hidden: must be an integer in
  // [1, 1024], got 0").
  explicit GruPolicy(const GruDims& dims);

  // PyTorch's default initialisation, drawn from rng in table order, row-major within a tensor:
  // embedding ~ N(0, 1); every GRU and head tensor ~ U(-1/sqrt(H), 1/sqrt(H)).
  void reset_parameters(Rng& rng);

  const GruDims& dims() const { return dims_; }
  std::size_t num_params() const { return params_.size(); }

  // (name, shape, offset, size) of the 7 tensors in PyTorch order; indexable by ParamId.
  const std::vector<ParamInfo>& param_table() const { return table_; }
  const ParamInfo& param_info(ParamId id) const { return table_[static_cast<int>(id)]; }

  // The flat buffers: one tensor after another in table order, each row-major. Same layout for
  // both, so an optimiser is one loop and a gradient check walks one array. Resizing them is a
  // caller error; writing values is fine (e.g. loading a snapshot: dst.params() = src.params()).
  std::vector<Scalar>& params() { return params_; }
  const std::vector<Scalar>& params() const { return params_; }
  std::vector<Scalar>& grads() { return grads_; }
  const std::vector<Scalar>& grads() const { return grads_; }
  Scalar* tensor(ParamId id) { return params_.data() + param_info(id).offset; }
  const Scalar* tensor(ParamId id) const { return params_.data() + param_info(id).offset; }
  Scalar* grad_tensor(ParamId id) { return grads_.data() + param_info(id).offset; }
  const Scalar* grad_tensor(ParamId id) const { return grads_.data() + param_info(id).offset; }

  // Sets every gradient to 0 (backward only ever adds).
  void zero_grad();

  // Multiply-adds done by the matrix products of forward(), backward() and sample() since
  // construction (an m x k by k x n product counts m*k*n; elementwise gate, softmax and bias
  // work is not counted). For the bench's GFLOP/s: FLOPs = 2 * multiply-adds.
  std::uint64_t multiply_adds() const { return multiply_adds_; }

  // Optional: sizes every workspace for the largest batch to come (P prompts of prompt_len
  // tokens, G completions each of at most max_completion_len tokens, also the sampling shape
  // with max_new_tokens = max_completion_len), so that no later forward/backward/sample within
  // those bounds allocates. Without it, workspaces grow on the first call that needs more.
  void reserve(int num_prompts, int prompt_len, int group_size, int max_completion_len);

  // Teacher-forced forward over a group batch. prompts: [P][Lp], all the same length Lp >= 1;
  // completions: [B = P*G][L_j] with G >= 1 and any L_j >= 0 (ragged; empty rows are fine).
  // Writes out.logp and out.entropy ([B][L_j]) and keeps the activations for backward().
  // The log-softmax is computed in double from the Scalar logits, by the same code as sample(),
  // so teacher-forcing sampled tokens gives back their sampling log-probs (to GEMM rounding).
  // Throws InvalidArgument (naming "prompts[p]", "completions[j][t]", "temperature", ...) for
  // unequal prompt lengths, a completion count that is not a multiple of P, token ids outside
  // [0, V) or a temperature that is not a positive finite number. Nothing is kept on error.
  void forward(const TokenRows& prompts, const TokenRows& completions, double temperature,
               PolicyOutput& out);

  // Backward through time of the LAST forward() on this object.
  // Contract: given dLoss/dlogp[j][t] for every completion token (same ragged shape as
  // out.logp) and, optionally, dLoss/dentropy[j][t] (nullptr = 0), ADDS dLoss/dparameter into
  // grads() (+=, never zeroes; call zero_grad() first for a fresh gradient). Parameters must not
  // change between forward() and backward(). The gradient reaching each prompt's final hidden
  // state is summed over its G completions and backpropagated through the prefix once.
  // May be called again (it adds again). Throws InvalidArgument if there was no forward or a
  // shape differs ("dlogp[3]: must have 4 values (length of completion 3), got 3").
  void backward(const Ragged& dlogp, const Ragged* dentropy = nullptr);

  // Samples G completions for each of the P prompts ([P][Lp], same length Lp >= 1) in one
  // batched loop: the prefix runs once per prompt, then all P*G rows step together, each row
  // leaving the batch when it emits eos_id (kept as its last token, terminated = true) or reaches
  // max_new_tokens (terminated = false). Each token is drawn by inverse CDF from the softmax of
  // logits / temperature computed in double, with one rng.uniform() per token, rows in order of
  // j at every step: identical inputs and seed give identical results. Does not disturb the
  // activations kept for backward(). Throws InvalidArgument for group_size < 1,
  // max_new_tokens outside [1, 65536], eos_id outside [0, V), a bad temperature or bad prompts.
  void sample(const TokenRows& prompts, int group_size, int max_new_tokens, double temperature,
              int eos_id, Rng& rng, SampleOutput& out);

  // Greedy decoding (vLLM's do_sample=False, verl's REMAX baseline): one completion per prompt,
  // each token the most probable one (the first of equal ones); no rng is drawn, so it leaves
  // every sampled run as it was. Otherwise as sample() with group_size 1.
  void greedy(const TokenRows& prompts, int max_new_tokens, double temperature, int eos_id,
              SampleOutput& out);

  // Convenience for the JS API teacherForcedLogProbs: sequences of length >= 1 each, where
  // token 0 is the context (a prompt of length 1) and tokens 1.. are scored; returns
  // [N][L_i - 1] log-probs at the temperature. With accumulate_sum_gradient, also adds
  // d(sum of all returned log-probs)/dparameter into grads() (+=, as backward()).
  Ragged teacher_forced_log_probs(const TokenRows& sequences, double temperature,
                                  bool accumulate_sum_gradient);

 private:
  // sample() (rng) and greedy() (rng null) alike.
  void decode(const TokenRows& prompts, int group_size, int max_new_tokens, double temperature,
              int eos_id, Rng* rng, SampleOutput& out);
  using Mat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic>;   // column-major
  using MatD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic>;  // column-major
  using RowMat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Vec = Eigen::Matrix<Scalar, Eigen::Dynamic, 1>;
  using VecD = Eigen::Matrix<double, Eigen::Dynamic, 1>;

  // Input projections of the distinct tokens fed in one call: x -> W_ih x + b_ih (+ b_hh for the
  // r and z rows, which only ever appear summed). Columns then gather from it by slot.
  struct InputProjection {
    std::vector<int> unique;         // [U] distinct token ids, in first-seen order
    std::vector<int> slot_of_token;  // [V] index into unique, -1 when absent (reset after use)
    std::vector<int> slot;           // [columns] slot of each input column
    Mat x;                           // [E, U] embeddings of the distinct tokens
    Mat gi;                          // [3H, U] W_ih x + b_ih, + b_hr / b_hz on the r, z rows
    Vec bias;                        // [3H] b_ih + (b_hr; b_hz; 0)
  };

  // Everything forward() keeps for backward(), plus backward scratch. Columns of the GRU-step
  // matrices ([., C]) are laid out step after step: prefix steps t = 0..Lp-1 (P columns each),
  // then completion steps s = 1..S-1 (n_s columns each, n_s = #{j : L_j > s}, completions sorted
  // by length, longest first, so the active ones are always a leading block).
  struct Cache {
    bool valid = false;
    int num_prompts = 0, prompt_len = 0, group = 0, rows = 0, max_len = 0;
    int columns = 0;     // C
    int head_start = 0;  // first column of the head's input: the prefix's last step
    int head_cols = 0;   // Q = C - head_start: P position-0 columns + one per later position
    double inv_temperature = 1;
    std::vector<int> lengths;      // [B] L_j
    std::vector<int> order;        // [B] completion j at sorted position c
    std::vector<int> rank;         // [B] sorted position of completion j
    std::vector<int> active;       // [S + 1] n_s
    std::vector<int> comp_offset;  // [S + 1] first column of completion step s, minus Lp*P
    std::vector<int> counts;       // [S + 2] counting-sort scratch
    std::vector<int> input_token;  // [C] token fed at each column
    std::vector<int> target;       // [Q] token scored at head column q (q >= P)
    std::vector<int> first_token;  // [B] token 0 of completion j (scored at column p = j / G)
    std::vector<int> prompt_of;    // [n_1] prompt of sorted completion c (= order[c] / G)
    InputProjection proj;
    Mat h_prev;      // [H, C]  state entering each step
    Mat gates;       // [3H, C] r; z; n (after the nonlinearity)
    Mat ghn;         // [H, C]  W_hn h + b_hn
    Mat h_out;       // [H, C]  state leaving each step
    Mat logits;      // [V, Q]
    MatD logp;       // [V, Q]  log_softmax(logits / T)
    MatD prob;       // [V, Q]
    VecD entropy;    // [Q]
    VecD coef_logp;  // [Q] sum of dlogp scored at column q
    VecD coef_ent;   // [Q] sum of dentropy at column q
    MatD dlogits_d;  // [V, Q]
    Mat dlogits;     // [V, Q]
    Mat dh_out;      // [H, C]
    Mat dgh;         // [3H, C] d(pre-activation) of W_hh h + b_hh: dr; dz; dn * r
    Mat dgi;         // [3H, U] d(pre-activation) of W_ih x + b_ih per distinct input token
    Mat dgh_shared;  // [3H, P] dgh of the first completion step summed per prompt
    Mat dx;          // [E, U]
    Mat dan;         // [H, C]  d(pre-tanh of n) of every step
    Mat dh_prev;     // [H, n]  gradient leaving one step towards its input state
    Vec row_sums;    // [max(V, 3H)] bias gradients' sums over columns (add_row_sums)
    std::vector<int> task_start;  // [tasks + 1] first sorted completion of each thread's task
  };

  // Sampling scratch, separate from Cache so sampling keeps forward()'s activations.
  struct SampleScratch {
    InputProjection proj;
    std::vector<int> active_rows, next_rows, tokens, prompt_of;
    Mat h_a, h_b, gates, ghn, logits;
    MatD logp, prob;
    VecD entropy;
  };

  void project_inputs(const int* tokens, int count, InputProjection& proj);
  // With shared_gh, column c takes W_hh h from shared_gh.col(shared_map[c]) instead of a
  // product: the first completion step, whose states are copies of the P prompt states.
  // The columns given are a block [c0, c0 + n) of a step with total_cols columns (c0 a multiple
  // of 4, gemm_block.h), so that a step split across threads computes every column as in one
  // piece. gh is the W_hh h scratch of those columns. Callers count the products.
  void gru_step_forward(const Eigen::Ref<const Mat>& h_prev, const InputProjection& proj,
                        const int* slots, Eigen::Ref<Mat> gates, Eigen::Ref<Mat> ghn,
                        Eigen::Ref<Mat> h_out, Eigen::Ref<Mat> gh, Eigen::Index total_cols,
                        const Mat* shared_gh = nullptr, const int* shared_map = nullptr,
                        bool zero_state = false);
  // Whether W_hh h is exactly +0 for h = 0 over `cols` columns, whatever kernel Eigen would take:
  // with zero_state, gru_step_forward then writes zeros instead of computing it.
  bool zero_state_gh_is_zero(int cols) const;
  // Columns [offset + c0, offset + c0 + count) of a step of total_cols columns; dh_prev goes to
  // k.dh_prev columns [c0, c0 + count). The scatter into dgi is done afterwards, in step order.
  void gru_step_backward(int offset, int c0, int count, int total_cols, bool want_dh_prev);
  // Columns [c0, c0 + count) of a head pass over total_cols columns of h.
  void head_log_softmax(const Eigen::Ref<const Mat>& h, int c0, int count, int total_cols,
                        double inv_temperature, Mat& logits, MatD& logp, MatD& prob, VecD& entropy);
  // Task boundaries over the sorted completions (multiples of 4), balanced by completion steps.
  void plan_tasks();
  int validate_prompts(const TokenRows& prompts, const char* name) const;
  // Adds one m x k by k x n product to multiply_adds_.
  void count_product(Eigen::Index m, Eigen::Index k, Eigen::Index n) {
    multiply_adds_ += static_cast<std::uint64_t>(m) * static_cast<std::uint64_t>(k) *
                      static_cast<std::uint64_t>(n);
  }

  GruDims dims_;
  std::vector<ParamInfo> table_;
  std::vector<Scalar> params_;
  std::vector<Scalar> grads_;
  Mat gh_;         // [3H, n] per-step scratch: W_hh h, column c for sorted completion c
  Mat gh_shared_;  // [3H, P] W_hh h of the P prompt states (first completion step)
  // W_hh packed for Eigen's kernel once per forward() / sample() and W_hh^T once per backward(),
  // instead of once per GRU step by each product (gemm_block.h: the same bytes).
  PackedLhs<Scalar> w_hh_packed_, w_hh_t_packed_;
  Cache cache_;
  SampleScratch sample_;
  std::uint64_t multiply_adds_ = 0;
};

extern template class GruPolicy<float>;
extern template class GruPolicy<double>;

}  // namespace grpo
