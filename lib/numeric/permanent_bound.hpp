// Proven upper bounds on |perm(A)|, used to choose how many primes the exact engine needs.
#pragma once

#include <cstdint>

#include "pmcount/matrix.hpp"

namespace pmcount::numeric {

/// An upper bound on log2 |perm(A)| for a square integer matrix: the smaller of Σ_i log2 ‖row_i‖₁
/// and Σ_j log2 ‖col_j‖₁ (|perm A| ≤ Π_i Σ_j |a_ij|, expand the product), and for 0-1 matrices
/// also Brégman's bound Π_i (r_i!)^(1/r_i) (Brégman 1973, Minc's conjecture) on rows and on
/// columns. −∞ when a row or column is zero. Floating-point evaluation is padded by a safety
/// margin far larger than its rounding error, so the returned value is never below the truth.
double permanent_bound_log2(const DenseMatrix<std::int64_t>& a, bool binary);
/// The same bound from a sparse matrix (stored zeros count as zeros), O(nnz).
double permanent_bound_log2(const SparseMatrix<std::int64_t>& a, bool binary);

}  // namespace pmcount::numeric
