// The error figure of the floating Gray-code walks (double and complex, CPU and GPU): an estimate
// of |computed − exact| that follows the rounding the walk really does, measured on a sample of
// its terms.
//
// A term's computed value is p̂ = Π ŷ_i, where each ŷ_i has drifted from y_i by the roundings of
// the incremental updates since the last recomputation (up to 2^reset_log2 of them) and the
// product rounds n − 1 times. First order: p̂ − p = Σ_i (ŷ_i − y_i) Π_{j≠i} y_j + p·η. What makes
// a fixed multiple of Σ|p| (the old figure) wrong in both directions is the middle factor: when a
// row sum cancels (|y_i| ≪ Σ_j |a_ij|) the drift of ŷ_i, which is set by the size of the entries,
// not of y_i, is multiplied by the other rows alone; on rows of ±2^22 whose sums cancel to O(1)
// that is 10^5 times more than Σ|p| suggests (issue 32). On random matrices no row cancels and
// the drift is a random walk of √m roundings, well inside (2n + 64)·u.
//
// So, per sampled term t, the walk is replayed exactly as the engines run it (y from the tables at
// the start of its reset block, then every incremental update in Gray order), and the variance of
// every rounding it makes is added up (a rounding to nearest is uniform within half an ulp of the
// result, variance ulp²/12): σ_i² per row for ŷ_i and the relative variance v of the product.
// The term's error spread is c_t = √(Σ_i σ_i² Π_{j≠i} ŷ_j² + p̂² v) (no division, so a row that
// cancels to exactly zero still counts), and the figure is
//
//     L = Σ_t c_t  ≈  Σ|p̂| · (Σ_sampled c_t / Σ_sampled |p̂|)          (a ratio estimator)
//
// — the terms' spreads added as if they were all of one sign, which covers errors that repeat
// across terms (equal rows, equal products) and, on independent errors, stays a few times above
// the √(Σ c_t²) they actually reach. The ratio uses the walk's exact Σ|p̂|: the magnitudes are
// too heavy-tailed to estimate from a sample (on random positive matrices a handful of terms
// hold most of Σ|p̂|), while c_t/|p̂| is not.
//
// Checked against exact rational arithmetic (tests/unit/exact/walk_error_test.cpp): on 1000
// matrices of five cancellation families the figure holds every time, and on random dense
// matrices it is within a small factor of the actual error. Small walks are not sampled at all:
// there the engines run in certified arithmetic (real) or every term is replayed (complex).
#pragma once

#include <complex>
#include <cstdint>

#include "pmcount/matrix.hpp"

namespace pmcount::exact::driver {

/// Reset blocks replayed whole (each 2^reset_log2 terms, in double and double-double): every
/// one when the walk has at most kWalkErrorMinBlocks, else between that and kWalkErrorBlocks.
inline constexpr std::uint64_t kWalkErrorMinBlocks = 16;
inline constexpr std::uint64_t kWalkErrorBlocks = 128;

/// The figure times this when every term was replayed: no sampling error then, but few terms,
/// whose roundings do not average out (on order-5 walks the actual error reached 1.4× L).
inline constexpr double kFewTermsFactor = 3;

/// Spreads of independent roundings add in quadrature: the figure is this many standard
/// deviations (on five families the actual error reached 2.7 of √(Σ c_t²), never more).
inline constexpr double kStandardDeviations = 4;

/// What the replayed sample found: Σ c_t, Σ c_t², Σ|p̂| and Σ|p̂|² over the sampled terms, and
/// whether their values repeat (then their roundings repeat too and add up coherently).
struct WalkSpread {
    double spread_sum = 0;
    double variance_sum = 0;
    double magnitude_sum = 0;
    double square_sum = 0;
    bool repeats = false;
    std::uint64_t samples = 0;
    std::uint64_t steps = 0;
    /// Reset blocks replayed whole: Σ of their actual errors squared and of their Σ|p̂|².
    std::uint64_t blocks = 0;
    double block_error_squares = 0;
    double block_squares = 0;
    /// The figure for a walk whose terms have Σ|p̂| = `magnitude` and Σ|p̂|² = `squares` (0:
    /// not summed by the walk).
    double figure(double magnitude, double squares) const;
};

/// Replays a sample of the walk over the row-scaled n×n matrix `scaled`, y recomputed every
/// 2^reset_log2 steps. Costs about samples · 2^(reset_log2 − 1) · n additions; the samples are
/// fewer for short walks (about 2^(n − 2 − reset_log2), at least 256) so that the figure never
/// costs more than a fraction of the walk. Deterministic (a fixed seed). Independent of the walk
/// itself, so a GPU walk runs beside it.
WalkSpread walk_spread(const DenseMatrix<double>& scaled, int reset_log2);
WalkSpread walk_spread(const DenseMatrix<std::complex<double>>& scaled, int reset_log2);

/// walk_spread(scaled, reset_log2).figure(magnitude, squares).
template <class T>
double walk_error(const DenseMatrix<T>& scaled, int reset_log2, double magnitude,
                  double squares) {
    return walk_spread(scaled, reset_log2).figure(magnitude, squares);
}

}  // namespace pmcount::exact::driver
