// Proven upper bounds on |perm(A)| and |haf(A)|, used to choose how many primes the exact engines
// need.
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

/// An upper bound on log2 |haf(A)| for a symmetric integer matrix of even order (the diagonal does
/// not enter the hafnian and is ignored). |haf(A)| ≤ haf(|A|), and haf(B)² ≤ perm(B) for a
/// nonnegative symmetric B: an ordered pair of perfect matchings (M₁, M₂) is a spanning union of
/// even cycles and doubled edges with one of its 2^cycles 2-colourings, and those correspond one
/// to one to the permutations whose cycles are the same even cycles, each oriented either way,
/// and 2-cycles for the doubled edges, each of the same weight Π_{M₁} Π_{M₂}. So the bound is half
/// of permanent_bound_log2 of |A| with a zero diagonal (with Brégman's factor for 0-1 matrices),
/// and for 0-1 matrices also at most log2((n−1)!!), the complete graph's count. −∞ when a row
/// has no off-diagonal nonzero (no perfect matching).
double hafnian_bound_log2(const SparseMatrix<std::int64_t>& a, bool binary);
double hafnian_bound_log2(const DenseMatrix<std::int64_t>& a, bool binary);

/// log2 T(n), T the involution numbers (T(k) = T(k − 1) + (k − 1)·T(k − 2), T(0) = T(1) = 1):
/// the loop matchings of the complete graph on n vertices, by the recurrence in log space.
double involutions_log2(int n);

/// An upper bound on log2 |lhaf(A)|, the loop hafnian (the diagonal as loops) of a symmetric
/// integer matrix: with c_i = max_j |a_ij| (the diagonal included), |a_ij| ≤ √(c_i·c_j), so each
/// of the T(n) loop matchings of the complete graph (T the involution numbers, T(k) = T(k − 1)
/// + (k − 1)·T(k − 2)) weighs at most Π c_i. −∞ when a row is zero.
double loop_hafnian_bound_log2(const DenseMatrix<std::int64_t>& a);

}  // namespace pmcount::numeric
