// The hafnian engine (library-internal API; count.hpp's hafnian() and count_perfect_matchings()
// are the public entries).
//
// haf(A) of a symmetric n×n matrix (n even; the diagonal never enters) is Σ over the perfect
// matchings M of the complete graph of Π_{uv∈M} a_uv: the weighted number of perfect matchings of
// the graph of A. It is computed by Björklund's recursion over vertex pairs (recursion.hpp) in
// O(m²·2^m) multiply-adds for m = n/2 — about 4.7·m²·2^m — generic over the arithmetic: several
// primes below 2^27 at once in vector lanes with a CRT into a big integer (exact), double and
// complex double carrying a running error (a compensated sum of the leaves), double-double.
// OpenMP over subtrees, with progress and cancellation (a progress callback that throws) like the
// other engines; in double and complex double each subtree's four grandchildren run side by side
// in vector lanes (recursion.hpp: run_chunk_in_lanes), the same values bit for bit.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// Largest order the hafnian engine accepts: the cost doubles with every two vertices (n = 64
/// is about 2·10^13 multiply-adds, hours on two cores), and the lane accumulation bound holds up
/// to n = 128.
inline constexpr int kMaxHafnianOrder = 100;

/// A step of the walk is a whole leaf of the recursion (about 4.7·m² multiply-adds), not a Gray
/// step: from 12 pairs (order 24; 2^12 leaves, about a millisecond) threads pay, as the cost
/// model assumes. With the Gray-code engines' 18, orders 24–34 ran on one thread (order 34 in
/// double: 0.35 s on the 2-core machine, predicted at half that).
inline constexpr int kThreadsFromPairs = 12;

/// Exact haf(A) for a symmetric integer matrix: enough primes below 2^27 for the proven bound
/// numeric::hafnian_bound_log2 plus one spare, CRT into a big integer checked against the spare
/// (InternalError on mismatch). Odd order: 0; order 0: 1. InvalidArgument when A is not square
/// and symmetric, ProblemTooLarge beyond kMaxHafnianOrder.
ExactOutcome hafnian_exact(const DenseMatrix<std::int64_t>& a, const run::EngineRun& run);

/// haf(A) mod p for a prime p with 2^26 < p < 2^27 (the lanes' modulus range).
std::uint64_t hafnian_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                              const run::EngineRun& run);

/// Primes (including the spare) hafnian_exact uses for a bound of 2^bound_log2 on |haf|.
int hafnian_primes(double bound_log2);

/// haf(A) of a real symmetric matrix: Precision::double_precision or double_plain (double with
/// a running first-order error per coefficient, the leaves summed with compensation) or
/// double_double. Double: every coefficient carries e ≈ exact − computed, propagated through the
/// recursion with its sign (recursion.hpp's roundings recovered exactly by TwoProduct and
/// TwoSum), so the leaves' Σe is the result's error to first order, cancellation included; the
/// figure is |Σe| plus the dropped second-order terms (hafnian_tracked_error): an estimate that
/// follows the actual error within a few per cent. Double-double: a bound, factor·4u²·Σ|monomials|
/// with Σ|monomials| the same recursion run on |A|.
FloatOutcome hafnian_real(const DenseMatrix<double>& a, Precision precision,
                          const run::EngineRun& run);
/// haf(A) of a complex symmetric matrix in complex double (a running error as hafnian_real's).
FloatOutcome hafnian_complex(const DenseMatrix<std::complex<double>>& a, const run::EngineRun& run);

/// lhaf(A), the loop hafnian: Σ over the partitions of the vertices into pairs and singletons of
/// Π_pairs a_uv · Π_singletons a_vv (the diagonal as loops; thewalrus's `hafnian(A, loop=True)`),
/// by the same recursion with loops (recursion.hpp), in the same arithmetics and with the same
/// figures. An odd order is padded by a vertex with a loop of weight 1 and no edge; order 0
/// gives 1. Exact: primes for numeric::loop_hafnian_bound_log2.
ExactOutcome loop_hafnian_exact(const DenseMatrix<std::int64_t>& a, const run::EngineRun& run);
FloatOutcome loop_hafnian_real(const DenseMatrix<double>& a, Precision precision,
                               const run::EngineRun& run);
FloatOutcome loop_hafnian_complex(const DenseMatrix<std::complex<double>>& a,
                                  const run::EngineRun& run);

/// loop_hafnian_complex of many matrices, the same values bit for bit: those of one order eight
/// at a time, one per vector lane of the same recursion (a batch of small matrices runs several
/// times faster than one by one), the groups spread over run.threads.
std::vector<FloatOutcome> loop_hafnians_complex(
    const std::vector<DenseMatrix<std::complex<double>>>& matrices, const run::EngineRun& run);

/// The double engines' (CPU and GPU) stated error, from the leaves' sums: `error` = |Σe + the
/// rounding of the leaves' sum to one double|, plus κu·Σ|e| (error_magnitude: the roundings of
/// e's own arithmetic, relative u per operation) and κ²u²·Σ|leaf| (magnitude: the dropped
/// products of two errors), κ = hafnian_error_factor(n). In the scaled matrix's units.
double hafnian_tracked_error(double error, double error_magnitude, double magnitude, int n);

/// The factor of the error bound: a monomial of the recursion has at most 2m + 1 factors, each
/// product and each sum it passes through (at most 2m + 1 terms per coefficient, m levels) adds
/// a rounding: 8m² + 64 covers them with room (see recursion.hpp).
double hafnian_error_factor(int n);

}  // namespace pmcount::exact
