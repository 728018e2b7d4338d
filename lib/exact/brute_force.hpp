// The oracle: the permanent as a sum over permutations, by depth-first search over rows that only
// follows nonzero entries. Independent of every other engine (no Ryser, no modular arithmetic).
// Θ(n!) for dense matrices; limited to n ≤ 12.
#pragma once

#include <complex>
#include <cstdint>

#include "pmcount/big_int.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::exact {

inline constexpr int kMaxBruteForceOrder = 12;

/// Exact perm(A) for an integer matrix.
BigInt brute_force_exact(const DenseMatrix<std::int64_t>& a);
/// perm(A) with products and sums in double-double, rounded to double.
double brute_force(const DenseMatrix<double>& a);
std::complex<double> brute_force(const DenseMatrix<std::complex<double>>& a);

}  // namespace pmcount::exact
