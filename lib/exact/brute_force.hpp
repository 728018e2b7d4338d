// The oracles: the permanent as a sum over permutations, by depth-first search over rows that only
// follows nonzero entries, and the hafnian as a sum over pairings, by depth-first search that
// pairs the first free vertex with every later free vertex of nonzero entry. Independent of every
// other engine (no Ryser, no recursion over pairs, no modular arithmetic). Θ(n!) and Θ((n−1)!!)
// for dense matrices; limited to n ≤ 12 and n ≤ 16. The loop hafnian likewise over the loop
// matchings (pairs and loops).
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

inline constexpr int kMaxPairingsOrder = 16;

/// Exact haf(A) for a symmetric integer matrix (the diagonal is not used; odd order: 0).
BigInt hafnian_brute_force_exact(const DenseMatrix<std::int64_t>& a);
/// haf(A) with products and sums in double-double, rounded to double.
double hafnian_brute_force(const DenseMatrix<double>& a);
std::complex<double> hafnian_brute_force(const DenseMatrix<std::complex<double>>& a);

/// The loop hafnian (the diagonal as loops: every vertex paired or on its own loop) the same
/// way, the first free vertex taking its loop or a later partner; any order up to 16 (T(16) =
/// 46206736 terms).
BigInt loop_hafnian_brute_force_exact(const DenseMatrix<std::int64_t>& a);
double loop_hafnian_brute_force(const DenseMatrix<double>& a);
std::complex<double> loop_hafnian_brute_force(const DenseMatrix<std::complex<double>>& a);

}  // namespace pmcount::exact
