// Adam and gradient-norm clipping over a flat buffer (see adam.h for the formulas).
#include "rl/adam.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo {

void AdamConfig::validate() const {
  require_positive("learning_rate", learning_rate);
  require_in_range("beta1", beta1, 0.0, 1.0, Ends::open_high);
  require_in_range("beta2", beta2, 0.0, 1.0, Ends::open_high);
  require_positive("eps", eps);
}

template <typename Scalar>
Adam<Scalar>::Adam(std::size_t num_params, const AdamConfig& config)
    : config_(config), m_(num_params, Scalar(0)), v_(num_params, Scalar(0)) {
  config_.validate();
}

template <typename Scalar>
void Adam<Scalar>::set_learning_rate(double learning_rate) {
  AdamConfig next = config_;
  next.learning_rate = learning_rate;
  next.validate();
  config_ = next;
}

template <typename Scalar>
void Adam<Scalar>::reset() {
  std::fill(m_.begin(), m_.end(), Scalar(0));
  std::fill(v_.begin(), v_.end(), Scalar(0));
  steps_ = 0;
}

template <typename Scalar>
void Adam<Scalar>::step(std::vector<Scalar>& params, const std::vector<Scalar>& grads) {
  require_size("params", params.size(), m_.size());
  require_size("grads", grads.size(), m_.size());
  ++steps_;
  const double t = static_cast<double>(steps_);
  const Scalar beta1 = static_cast<Scalar>(config_.beta1);
  const Scalar beta2 = static_cast<Scalar>(config_.beta2);
  const Scalar one_minus_beta1 = static_cast<Scalar>(1 - config_.beta1);
  const Scalar one_minus_beta2 = static_cast<Scalar>(1 - config_.beta2);
  const Scalar step_size =
      static_cast<Scalar>(config_.learning_rate / (1 - std::pow(config_.beta1, t)));
  const Scalar correction2_sqrt = static_cast<Scalar>(std::sqrt(1 - std::pow(config_.beta2, t)));
  const Scalar eps = static_cast<Scalar>(config_.eps);
  Scalar* p = params.data();
  const Scalar* g = grads.data();
  Scalar* m = m_.data();
  Scalar* v = v_.data();
  const std::size_t n = m_.size();
  for (std::size_t i = 0; i < n; ++i) {
    m[i] = beta1 * m[i] + one_minus_beta1 * g[i];
    v[i] = beta2 * v[i] + one_minus_beta2 * g[i] * g[i];
    const Scalar denom = std::sqrt(v[i]) / correction2_sqrt + eps;
    p[i] -= step_size * (m[i] / denom);
  }
}

template <typename Scalar>
double global_grad_norm(const std::vector<Scalar>& grads) {
  double sum = 0;
  for (const Scalar g : grads) sum += static_cast<double>(g) * static_cast<double>(g);
  return std::sqrt(sum);
}

template <typename Scalar>
double clip_grad_norm(std::vector<Scalar>& grads, double max_norm) {
  require_positive("max_grad_norm", max_norm);
  const double total = global_grad_norm(grads);
  if (!std::isfinite(total)) return total;
  const double coef = max_norm / (total + 1e-6);
  if (coef < 1) {
    const Scalar scale = static_cast<Scalar>(coef);
    for (Scalar& g : grads) g *= scale;
  }
  return total;
}

template class Adam<float>;
template class Adam<double>;
template double clip_grad_norm<float>(std::vector<float>&, double);
template double clip_grad_norm<double>(std::vector<double>&, double);
template double global_grad_norm<float>(const std::vector<float>&);
template double global_grad_norm<double>(const std::vector<double>&);

}  // namespace grpo
