// verl v0.7.0's batch tensors as the core holds them ([B][T] rows of doubles) and the masked
// reductions of verl/utils/torch_functional.py that every verl_* function uses (docs/verl.md).
//
// Shapes: B batch (rows, one response each), T time (the padded response width). A mask holds
// 0 or 1 per position (verl's response_mask: bool, int64 or float alike).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace grpo::verl {

using Matrix = std::vector<std::vector<double>>;  // [B][T], every row T long

// Largest B * T any verl_* function accepts (docs/limits.md).
inline constexpr std::size_t kMaxCells = 1000000;

// Throws InvalidArgument naming `name` ("logProb[2]: must have 5 entries, got 4") unless `m` is
// a non-empty rectangle of at most kMaxCells finite values, B x T with T >= 1 (rows == 0 and
// cols == 0: any shape; else exactly rows x cols).
void check_matrix(const char* name, const Matrix& m, std::size_t rows = 0, std::size_t cols = 0);
// check_matrix, and every entry 0 or 1.
void check_mask(const char* name, const Matrix& mask, std::size_t rows = 0, std::size_t cols = 0);

// "name[i][t]", the field of one entry in errors.
std::string cell_name(const char* name, std::size_t i, std::size_t t);

std::size_t rows(const Matrix& m);
std::size_t cols(const Matrix& m);  // T; m non-empty
Matrix zeros_like(const Matrix& m);

// masked_sum (torch_functional.py:266): sum of where(mask, values, 0) * mask.
double masked_sum(const Matrix& values, const Matrix& mask);
// masked_mean (:287): masked_sum / (sum(mask) + 1e-8).
double masked_mean(const Matrix& values, const Matrix& mask);
// masked_whiten (:322) with masked_var(unbiased=True) (:304): (x - mean) * rsqrt(var + 1e-8),
// var = masked_mean((x - mean)^2) * N / (N - 1), N = sum(mask). verl raises ValueError for N of
// 0 or 1: throws InvalidArgument naming `mask_name` then.
Matrix masked_whiten(const Matrix& values, const Matrix& mask, const char* mask_name);

double mask_count(const Matrix& mask);                // N = sum(mask)
double row_count(const Matrix& mask, std::size_t i);  // n_i = sum_t mask[i][t]

}  // namespace grpo::verl
