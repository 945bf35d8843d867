// verl v0.7.0's masked reductions on [B][T] rows: see verl_tensor.h.
#include "rl/verl_tensor.h"

#include <cmath>
#include <string>

#include "core/errors.h"

namespace grpo::verl {

std::string cell_name(const char* name, std::size_t i, std::size_t t) {
  return std::string(name) + "[" + std::to_string(i) + "][" + std::to_string(t) + "]";
}

void check_matrix(const char* name, const Matrix& m, std::size_t rows, std::size_t cols) {
  if (rows != 0) {
    require_size(name, m.size(), rows);
  } else {
    require_not_empty(name, m.size());
  }
  const std::size_t width = cols != 0 ? cols : m[0].size();
  require_not_empty(FieldName(name, 0), m[0].size());
  require_at_most_values(name, m.size() * width, kMaxCells);
  for (std::size_t i = 0; i < m.size(); ++i) {
    require_size(FieldName(name, i), m[i].size(), width);
    for (std::size_t t = 0; t < width; ++t)
      if (!std::isfinite(m[i][t])) require_finite(cell_name(name, i, t), m[i][t]);
  }
}

void check_mask(const char* name, const Matrix& mask, std::size_t rows, std::size_t cols) {
  check_matrix(name, mask, rows, cols);
  for (std::size_t i = 0; i < mask.size(); ++i)
    for (std::size_t t = 0; t < mask[i].size(); ++t) {
      const double v = mask[i][t];
      if (v == 0.0 || v == 1.0) continue;
      const std::string field = cell_name(name, i, t);
      throw InvalidArgument("one_of", field,
                            {{"options", std::string("0, 1")},
                             {"got", format_number(v)},
                             {"nearest", std::string(v < 0.5 ? "0" : "1")}},
                            field + ": must be one of 0, 1, got " + format_number(v));
    }
}

std::size_t rows(const Matrix& m) {
  return m.size();
}
std::size_t cols(const Matrix& m) {
  return m[0].size();
}

Matrix zeros_like(const Matrix& m) {
  Matrix out(m.size());
  for (std::size_t i = 0; i < m.size(); ++i) out[i].assign(m[i].size(), 0.0);
  return out;
}

double masked_sum(const Matrix& values, const Matrix& mask) {
  double sum = 0.0;
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t t = 0; t < values[i].size(); ++t)
      if (mask[i][t] != 0.0) sum += values[i][t] * mask[i][t];
  return sum;
}

double mask_count(const Matrix& mask) {
  double n = 0.0;
  for (const auto& row : mask)
    for (double m : row) n += m;
  return n;
}

double row_count(const Matrix& mask, std::size_t i) {
  double n = 0.0;
  for (double m : mask[i]) n += m;
  return n;
}

double masked_mean(const Matrix& values, const Matrix& mask) {
  return masked_sum(values, mask) / (mask_count(mask) + 1e-8);
}

Matrix masked_whiten(const Matrix& values, const Matrix& mask, const char* mask_name) {
  const double n = mask_count(mask);
  require_coded(n >= 2.0, "at_least", mask_name, [&] {
    return std::pair<MessageParams, std::string>{
        {{"min", 2.0}, {"got", n}},
        std::string(mask_name) +
            ": must hold at least 2 valid tokens (verl's masked_whiten divides by N - 1), got " +
            format_number(n)};
  });
  const double mean = masked_mean(values, mask);
  Matrix centered_sq = zeros_like(values);
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t t = 0; t < values[i].size(); ++t) {
      const double c = values[i][t] - mean;
      centered_sq[i][t] = c * c;
    }
  const double var = masked_mean(centered_sq, mask) * (n / (n - 1.0));
  const double scale = 1.0 / std::sqrt(var + 1e-8);  // torch.rsqrt
  Matrix out = zeros_like(values);
  for (std::size_t i = 0; i < values.size(); ++i)
    for (std::size_t t = 0; t < values[i].size(); ++t) out[i][t] = (values[i][t] - mean) * scale;
  return out;
}

}  // namespace grpo::verl
