// Column blocks of one matrix product, each computed exactly as Eigen computes that block inside
// the whole product, so a product split across threads gives the same bytes as in one piece.
//
// Eigen picks one of three kernels for dst = lhs * rhs by the WHOLE product's shape: a
// coefficient-based loop when rows + depth + cols < 20, GEMV when it has one column or one row,
// its blocked GEMM (gebp) otherwise. The GEMM's result for one column depends only on the depth
// blocking (a function of the depth alone), the rows, and whether the column sits in a block of
// nr = 4 columns or in the tail after the last such block. So a column block [c0, c0 + n) with c0
// a multiple of 4, run through the GEMM kernel itself (never GEMV, even for one column), gives
// every column the bits it has in the whole product. tests/cpp/test_threads.cpp checks it over
// shapes and splits.
#pragma once

#include <Eigen/Core>
#include <algorithm>

namespace grpo {

// Whether a product of this shape may be split into column blocks (it takes the GEMM kernel).
inline bool gemm_splittable(Eigen::Index rows, Eigen::Index depth, Eigen::Index cols) {
  return rows > 1 && cols > 1 && depth > 0 && rows + depth + cols >= 20;
}

namespace detail {

// dst += lhs * rhs through Eigen's GEMM path (the body of Eigen 3.4's
// generic_product_impl<..., GemmProduct>::scaleAndAddTo without its GEMV shortcuts).
template <typename Dst, typename Lhs, typename Rhs>
void gemm_add(Dst& dst, const Lhs& a_lhs, const Rhs& a_rhs) {
  namespace ei = Eigen::internal;
  using Scalar = typename Dst::Scalar;
  using Index = Eigen::Index;
  using LhsBlasTraits = ei::blas_traits<Lhs>;
  using ActualLhsType = typename LhsBlasTraits::DirectLinearAccessType;
  using ActualLhsTypeCleaned = typename ei::remove_all<ActualLhsType>::type;
  using RhsBlasTraits = ei::blas_traits<Rhs>;
  using ActualRhsType = typename RhsBlasTraits::DirectLinearAccessType;
  using ActualRhsTypeCleaned = typename ei::remove_all<ActualRhsType>::type;
  using Dest = typename ei::remove_all<Dst>::type;
  using Eigen::Dynamic;  // EIGEN_SIZE_MIN_PREFER_FIXED names it unqualified
  enum {
    MaxDepthAtCompileTime =
        EIGEN_SIZE_MIN_PREFER_FIXED(Lhs::MaxColsAtCompileTime, Rhs::MaxRowsAtCompileTime)
  };
  if (a_lhs.cols() == 0 || a_lhs.rows() == 0 || a_rhs.cols() == 0) return;
  typename ei::add_const_on_value_type<ActualLhsType>::type lhs = LhsBlasTraits::extract(a_lhs);
  typename ei::add_const_on_value_type<ActualRhsType>::type rhs = RhsBlasTraits::extract(a_rhs);
  const Scalar alpha = ei::combine_scalar_factors(Scalar(1), a_lhs, a_rhs);
  using BlockingType = ei::gemm_blocking_space<
      (Dest::Flags & Eigen::RowMajorBit) ? Eigen::RowMajor : Eigen::ColMajor, Scalar, Scalar,
      Dest::MaxRowsAtCompileTime, Dest::MaxColsAtCompileTime, MaxDepthAtCompileTime>;
  using GemmFunctor = ei::gemm_functor<
      Scalar, Index,
      ei::general_matrix_matrix_product<
          Index, Scalar,
          (ActualLhsTypeCleaned::Flags & Eigen::RowMajorBit) ? Eigen::RowMajor : Eigen::ColMajor,
          bool(LhsBlasTraits::NeedToConjugate), Scalar,
          (ActualRhsTypeCleaned::Flags & Eigen::RowMajorBit) ? Eigen::RowMajor : Eigen::ColMajor,
          bool(RhsBlasTraits::NeedToConjugate),
          (Dest::Flags & Eigen::RowMajorBit) ? Eigen::RowMajor : Eigen::ColMajor,
          Dest::InnerStrideAtCompileTime>,
      ActualLhsTypeCleaned, ActualRhsTypeCleaned, Dest, BlockingType>;
  BlockingType blocking(dst.rows(), dst.cols(), lhs.cols(), 1, true);
  ei::parallelize_gemm<(Dest::MaxRowsAtCompileTime > 32 ||
                        Dest::MaxRowsAtCompileTime == Eigen::Dynamic)>(
      GemmFunctor(lhs, rhs, dst, alpha, blocking), a_lhs.rows(), a_rhs.cols(), a_lhs.cols(),
      Dest::Flags & Eigen::RowMajorBit);
}

}  // namespace detail

// dst = lhs * rhs (accumulate false) or dst += lhs * rhs (true), where dst is the column block
// [c0, c0 + dst.cols()) of a product with total_cols columns, c0 a multiple of 4. The whole
// product (dst.cols() == total_cols) is Eigen's own expression, whatever its shape.
template <typename Dst, typename Lhs, typename Rhs>
void gemm_columns(Dst&& dst, const Lhs& lhs, const Rhs& rhs, Eigen::Index total_cols,
                  bool accumulate) {
  if (dst.cols() == total_cols || !gemm_splittable(dst.rows(), lhs.cols(), total_cols)) {
    if (accumulate)
      dst.noalias() += lhs * rhs;
    else
      dst.noalias() = lhs * rhs;
    return;
  }
  if (!accumulate) dst.setZero();
  detail::gemm_add(dst, lhs, rhs);
}

// A matrix packed once for Eigen's GEMM kernel, then multiplied by many right-hand sides: the GRU's
// W_hh (forward: W_hh h of every step) and W_hh^T (backward: W_hh^T dgh of every step), which
// Eigen's own product would re-pack for every step (a tenth of the instructions at H = 64,
// docs/performance.md). The products run Eigen's kernel on Eigen's packing with Eigen's depth
// blocking, in its order (depth blocks ascending, column blocks of Eigen's nc), so every column
// gets the bits Eigen's own product gives it (tests/cpp/test_threads.cpp).
template <typename Scalar>
class PackedLhs {
 public:
  using Index = Eigen::Index;

  // Packs the m x k matrix at data, dense: row-major (element (i, p) at data[i * k + p]) or
  // column-major (data[p * m + i], the transpose of a row-major k x m matrix).
  void pack(const Scalar* data, Index m, Index k, bool row_major) {
    namespace ei = Eigen::internal;
    m_ = m;
    k_ = k;
    ld_ = row_major ? k : m;
    row_major_ = row_major;
    data_ = data;
    ei::gemm_blocking_space<Eigen::ColMajor, Scalar, Scalar, Eigen::Dynamic, Eigen::Dynamic,
                            Eigen::Dynamic>
        blocking(m, 64, k, 1, true);
    kc_ = blocking.kc();
    if (packed_.size() < m * k) packed_.resize(m * k);
    for (Index k2 = 0; k2 < k; k2 += kc_) {
      const Index actual_kc = std::min(k2 + kc_, k) - k2;
      if (row_major)
        pack_block<Eigen::RowMajor>(k2, actual_kc);
      else
        pack_block<Eigen::ColMajor>(k2, actual_kc);
    }
  }

  // dst = A rhs (accumulate false) or dst += A rhs, for the column block of a product with
  // total_cols columns whose first column is a multiple of 4 (as gemm_columns). dst is m x n,
  // rhs k x n, both column-major blocks with inner stride 1. A product that Eigen would not run
  // through its GEMM kernel (gemm_splittable false, or one column) is Eigen's own expression.
  template <typename Dst, typename Rhs>
  void multiply(Dst&& dst, const Rhs& rhs, Index total_cols, bool accumulate) const {
    namespace ei = Eigen::internal;
    using Traits = ei::gebp_traits<Scalar, Scalar>;
    using RhsMapper = ei::const_blas_data_mapper<Scalar, Index, Eigen::ColMajor>;
    using ResMapper = ei::blas_data_mapper<Scalar, Index, Eigen::ColMajor, Eigen::Unaligned, 1>;
    if (!gemm_splittable(m_, k_, total_cols) || total_cols == 1) {
      // The expression Eigen would have been given: a row-major map, or the transpose of one.
      using RowMat = Eigen::Matrix<Scalar, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
      if (row_major_)
        gemm_columns(dst, Eigen::Map<const RowMat>(data_, m_, k_), rhs, total_cols, accumulate);
      else
        gemm_columns(dst, Eigen::Map<const RowMat>(data_, k_, m_).transpose(), rhs, total_cols,
                     accumulate);
      return;
    }
    const Index n = dst.cols();
    if (!accumulate) dst.setZero();
    if (n == 0) return;
    ei::gemm_blocking_space<Eigen::ColMajor, Scalar, Scalar, Eigen::Dynamic, Eigen::Dynamic,
                            Eigen::Dynamic>
        blocking(m_, n, k_, 1, true);
    eigen_assert(blocking.kc() == kc_);
    const Index nc = std::min(n, blocking.nc());
    const RhsMapper rhs_map(rhs.data(), rhs.outerStride());
    const ResMapper res(dst.data(), dst.outerStride());
    ei::gemm_pack_rhs<Scalar, Index, RhsMapper, Traits::nr, Eigen::ColMajor> pack_rhs;
    ei::gebp_kernel<Scalar, Scalar, Index, ResMapper, Traits::mr, Traits::nr, false, false> gebp;
    using namespace Eigen;  // the macro names internal:: unqualified
    ei_declare_aligned_stack_constructed_variable(Scalar, block_b, kc_ * nc, 0);
    for (Index k2 = 0; k2 < k_; k2 += kc_) {
      const Index actual_kc = std::min(k2 + kc_, k_) - k2;
      for (Index j2 = 0; j2 < n; j2 += nc) {
        const Index actual_nc = std::min(j2 + nc, n) - j2;
        pack_rhs(block_b, rhs_map.getSubMapper(k2, j2), actual_kc, actual_nc);
        gebp(res.getSubMapper(0, j2), packed_.data() + m_ * k2, block_b, m_, actual_kc, actual_nc,
             Scalar(1));
      }
    }
  }

 private:
  template <int Order>
  void pack_block(Index k2, Index actual_kc) {
    namespace ei = Eigen::internal;
    using Traits = ei::gebp_traits<Scalar, Scalar>;
    using LhsMapper = ei::const_blas_data_mapper<Scalar, Index, Order>;
    ei::gemm_pack_lhs<Scalar, Index, LhsMapper, Traits::mr, Traits::LhsProgress,
                      typename Traits::LhsPacket4Packing, Order>
        pack_lhs;
    const LhsMapper lhs(data_, ld_);
    pack_lhs(packed_.data() + m_ * k2, lhs.getSubMapper(0, k2), actual_kc, m_);
  }

  Index m_ = 0, k_ = 0, ld_ = 0, kc_ = 1;
  bool row_major_ = true;
  const Scalar* data_ = nullptr;
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> packed_;  // depth block k2 at m * k2: m x actual_kc
};

// Task t of `tasks` gets columns [column_start(t), column_start(t + 1)) of n: blocks of whole
// multiples of 4 columns (the last takes the rest), as even as that allows.
inline Eigen::Index column_start(int t, int tasks, Eigen::Index n) {
  if (t >= tasks) return n;
  const Eigen::Index quads = (n + 3) / 4;
  const Eigen::Index start = 4 * ((quads * t) / tasks);
  return start < n ? start : n;
}

}  // namespace grpo
