// Hafnians and permanents of matrices with repeated rows and columns, at a cost that grows with
// the multiplicities' product Π(r_i + 1) instead of 2^(Σ r_i / 2) (library-internal; the public
// entries are in count.hpp).
//
// Conventions (thewalrus's `reduction`, `hafnian_repeated`, `permanent_repeated`): B is the
// matrix A with row and column i repeated r_i times, B[(i,a),(j,b)] = a_ij — so a_ii joins two
// copies of i — and N = Σ r_i. The loop version puts mu_i on the diagonal of every copy of i.
//
// Hafnians, by the finite-difference sieve over symmetric points (Kan 2008; Björklund, Gupt and
// Quesada 2019 for repeated rows): for ν_i ∈ [0, r_i] put y_i = r_i − 2ν_i, q = yᵀAy/8 and
// l = μᵀy/2; then
//     haf(B)  = Σ_ν (−1)^Σν Π_i C(r_i, ν_i) · q^(N/2) / (N/2)!,
//     lhaf(B) = Σ_ν (−1)^Σν Π_i C(r_i, ν_i) · Σ_j q^j l^(N−2j) / (j!·(N−2j)!).
// Why: lhaf(B) is the coefficient of x_1⋯x_N in exp(xᵀB̂x/2 + μᵀx) (B̂: B off its diagonal), that
// is of its degree-N part G; Σ over h ∈ {±1/2}^N of the signs Π(−1)^[h_k < 0]·G(h) keeps exactly
// that coefficient (a monomial without some x_k, or with an even power of it, cancels), and G(h)
// depends only on the copies' sums H_i = y_i/2 of each mode, C(r_i, ν_i) of them per value; the
// copies' own terms a_ii·h² = a_ii/4 only shift q by a constant, which changes G by terms of lower
// degree, and those cancel too.
//
// Permanents (Ryser's formula grouped by multiplicities): with ν_j ∈ [0, c_j] copies of column j
// chosen and x_i = Σ_j a_ij ν_j,
//     perm(B) = (−1)^N Σ_ν (−1)^Σν Π_j C(c_j, ν_j) · Π_i x_i^(r_i),
// over the side whose Π(m + 1) is smaller (the transpose otherwise).
//
// The ν are walked in a reflected mixed-radix Gray code inside chunks (a few modes), each chunk
// starting from scratch (the outer modes fixed); threads take chunks, summed in chunk order (the
// same result for any thread count). Exact: modulo 62-bit primes (Montgomery), CRT checked by a
// spare prime; floating: double or complex double, each term with a bound on its rounding error
// (the incrementally updated Ay or x drifts by at most the chunk's steps times u times its
// largest possible size), summed with compensation: the figure is that bound, which holds on
// every input but counts every term's rounding, so strong cancellation between the terms shows
// as a large figure.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// What the repeated engines compute: haf(B), lhaf(B) (mu given), or perm(B) (rows and cols).
struct Multiplicities {
    std::vector<int> rows;  ///< r_i (the hafnian's only multiplicities)
    std::vector<int> cols;  ///< c_j (permanents only)
};

/// Largest total N = Σ r_i the engines accept (the terms' powers are taken in double and in
/// 62-bit primes; far beyond any GBS pattern).
inline constexpr int kMaxRepeatedPhotons = 400;
/// Largest number of points Π(r_i + 1) walked (about a minute on 2 cores).
inline constexpr double kMaxRepeatedPoints = 1e11;

/// InvalidArgument for a non-square or asymmetric A, rpt of another length or with a negative
/// entry, mu of another length; ProblemTooLarge past kMaxRepeatedPhotons.
template <class T>
void check_hafnian_repeated(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                            const std::vector<T>* mu);

/// The modes with a positive multiplicity (a zero one takes no part): A restricted to them in
/// `kept`, their multiplicities in r, their mu in kept_mu (when mu is given).
template <class T>
void keep_present(const DenseMatrix<T>& a, const std::vector<int>& rpt, const std::vector<T>* mu,
                  DenseMatrix<T>& kept, std::vector<int>& r, std::vector<T>& kept_mu);

/// log2 of a bound on |haf(B)| (|lhaf(B)| with mu) for the modes present (keep_present's A and
/// r); −∞ when a mode has no entry at all (the value is 0). Integer matrices.
template <class T>
double hafnian_repeated_bound_log2(const DenseMatrix<T>& a, const std::vector<int>& r,
                                   const std::vector<T>* mu);

/// haf(B) (or lhaf(B) with mu, one value per row of A) of the symmetric integer matrix A with
/// rows and columns repeated rpt[i] times, exactly. InvalidArgument for a non-square or
/// asymmetric A, rpt of another length or negative; ProblemTooLarge past the limits above.
ExactOutcome hafnian_repeated_exact(const DenseMatrix<std::int64_t>& a, const std::vector<int>& rpt,
                                    const std::vector<std::int64_t>* mu, const run::EngineRun& run);
/// The same in double (complex double), with a bound on the rounding error.
template <class T>
FloatOutcome hafnian_repeated_float(const DenseMatrix<T>& a, const std::vector<int>& rpt,
                                    const std::vector<T>* mu, const run::EngineRun& run);

/// perm(B) of A (m×n) with row i repeated rows[i] times and column j cols[j] times
/// (Σ rows = Σ cols, else 0), exactly / in floating point with a bound.
ExactOutcome permanent_repeated_exact(const DenseMatrix<std::int64_t>& a,
                                      const std::vector<int>& rows, const std::vector<int>& cols,
                                      const run::EngineRun& run);
template <class T>
FloatOutcome permanent_repeated_float(const DenseMatrix<T>& a, const std::vector<int>& rows,
                                      const std::vector<int>& cols, const run::EngineRun& run);

}  // namespace pmcount::exact
