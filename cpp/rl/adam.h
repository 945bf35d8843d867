// Adam and global gradient-norm clipping over one flat parameter buffer (PyTorch semantics).
#pragma once

#include <cstddef>
#include <vector>

namespace grpo {

// torch.optim.Adam defaults; no weight decay, no amsgrad.
struct AdamConfig {
  double learning_rate = 1e-3;  // lr, > 0 (finite)
  double beta1 = 0.9;           // betas[0], in [0, 1)
  double beta2 = 0.999;         // betas[1], in [0, 1)
  double eps = 1e-8;            // eps, > 0 (finite)

  // Throws InvalidArgument naming the field, e.g. "learning_rate: must be a positive finite
  // number, got -1".
  void validate() const;
};

// Adam over a flat buffer, as torch.optim.Adam (single-tensor path) computes it, step t = 1, 2..:
//   m = beta1 m + (1 - beta1) g              v = beta2 v + (1 - beta2) g^2
//   step_size = lr / (1 - beta1^t)           denom = sqrt(v) / sqrt(1 - beta2^t) + eps
//   p -= step_size * m / denom
// The moments are kept in Scalar; step_size and the bias corrections are computed in double and
// rounded to Scalar, as PyTorch does with its Python-float hyper-parameters.
template <typename Scalar>
class Adam {
 public:
  Adam(std::size_t num_params, const AdamConfig& config);  // validates config

  // One update: params and grads must both have num_params() entries (InvalidArgument if not).
  void step(std::vector<Scalar>& params, const std::vector<Scalar>& grads);

  // Changes lr for the next steps (a schedule); the moments are kept. Validated.
  void set_learning_rate(double learning_rate);

  // Forgets the moments and the step count (a fresh optimiser with the same config).
  void reset();

  const AdamConfig& config() const { return config_; }
  std::size_t num_params() const { return m_.size(); }
  long long steps() const { return steps_; }
  const std::vector<Scalar>& exp_avg() const { return m_; }     // m
  const std::vector<Scalar>& exp_avg_sq() const { return v_; }  // v

 private:
  AdamConfig config_;
  std::vector<Scalar> m_, v_;
  long long steps_ = 0;
};

// torch.nn.utils.clip_grad_norm_(parameters, max_norm) with norm_type 2 over the whole flat
// buffer: total = sqrt(sum g^2) (accumulated in double), coef = max_norm / (total + 1e-6); when
// coef < 1 every gradient is multiplied by coef. Returns the total norm BEFORE clipping.
// max_norm must be a positive finite number (InvalidArgument "max_grad_norm: ..." otherwise).
// A non-finite total norm leaves the gradients unchanged and is returned as it is.
template <typename Scalar>
double clip_grad_norm(std::vector<Scalar>& grads, double max_norm);

// The L2 norm of a flat buffer, accumulated in double (no clipping).
template <typename Scalar>
double global_grad_norm(const std::vector<Scalar>& grads);

extern template class Adam<float>;
extern template class Adam<double>;

}  // namespace grpo
