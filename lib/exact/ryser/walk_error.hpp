// The error figure of the floating Gray-code walks (double and complex, CPU and GPU): an estimate
// of |computed − exact| that follows the rounding the walk really does, measured on a sample of
// its reset blocks.
//
// A term's computed value is p̂ = Π ŷ_i, where each ŷ_i has drifted from y_i by the roundings of
// the incremental updates since the last recomputation (up to 2^reset_log2 of them) and the
// product rounds n − 1 times. First order: p̂ − p = Σ_i (ŷ_i − y_i) Π_{j≠i} y_j + p·η. What makes
// a fixed multiple of Σ|p| (the old figure) wrong in both directions is the middle factor: when a
// row sum cancels (|y_i| ≪ Σ_j |a_ij|) the drift of ŷ_i, which is set by the size of the entries,
// not of y_i, is multiplied by the other rows alone; on rows of ±2^22 whose sums cancel to O(1)
// that is 10^5 times more than Σ|p| suggests (issue 32). On random matrices no row cancels and
// the drift is a random walk of √m roundings, so (2n + 64)·u·Σ|p| was 12 to 300 times the actual
// error (17.6 times at 40×40 on an H200: the default then recounted, 3.5 times the cost).
//
// So the figure is measured rather than assumed. A sample of whole reset blocks (every block of a
// short walk, else 16–128 of them, distinct, from a fixed seed) is replayed as the engines run it:
// y from the tables at the block's start, then every incremental update in Gray order, each
// rounding error measured exactly (TwoSum; products by FMA), and beside it the same terms in
// double-double. From that replay:
//   - per term, the spread of its error c_t = √(Σ_i σ_i² Π_{j≠i} ŷ_j² + p̂² v) (σ_i² the squared
//     roundings ŷ_i has taken, v the product's; no division, so a row at exactly 0 still counts),
//   - per block, its actual error: the engines' arithmetic against double-double, with every
//     coherence between the block's terms (they share each row's drift) included.
// The figure is four standard deviations of the sum, the variance taken as the larger of Σ c_t²
// and of the blocks' squared errors, each scaled to the whole walk by the walk's exact Σ p̂²
// (a ratio estimator: the magnitudes are too heavy-tailed to estimate from a sample — on random
// positive matrices a handful of terms hold most of Σ|p̂| — while the ratios are not). Where the
// independence behind a standard deviation fails — sampled terms that repeat (equal rows, small
// integers: their roundings repeat too) — or where every term was replayed (few terms, which do
// not average out), the figure is instead a first-order bound summed over the terms: each row's
// measured drift times the other rows, and n − 1 product roundings at u (×3 for a walk replayed
// whole), scaled by the walk's Σ|p̂|.
//
// Checked against exact rational arithmetic (tests/unit/exact/walk_error_test.cpp, and
// gpu_ryser_test.cpp on the GPU): 1000 matrices of five cancellation families, every precision,
// zero misses; random dense matrices of orders 20–22, the figure a median 5.2 times the actual
// error; 40×40 on an H200, 6.4 times. Real walks of at most 2^16 steps do not use it: they run in
// certified arithmetic (ryser_driver.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>

#include "pmcount/matrix.hpp"

namespace pmcount::exact::driver {

/// Reset blocks replayed whole (each 2^reset_log2 terms, in double and double-double): every
/// one when the walk has at most kWalkErrorMinBlocks, else between that and kWalkErrorBlocks.
inline constexpr std::uint64_t kWalkErrorMinBlocks = 16;
inline constexpr std::uint64_t kWalkErrorBlocks = 128;

/// Walks of at most 2^kCertifiedWalkLog2 steps run in certified arithmetic when double is asked
/// for (real matrices, ryser_driver.hpp): at that size the bound costs under a millisecond more,
/// and few terms are too few for this estimate to be trusted.
inline constexpr int kCertifiedWalkLog2 = 16;

/// The CPU's double and complex walks recompute y every 2^kFloatWalkResetLog2 steps (their drift
/// between recomputations is what the replay measures).
inline constexpr int kFloatWalkResetLog2 = 10;

/// The reset blocks walk_spread replays of a walk of 2^(n−1) steps with y recomputed every
/// 2^reset_log2 (0: never): every block of a short walk, else a 256th of them (a tenth of the
/// walk's cost or less), at least kWalkErrorMinBlocks and at most kWalkErrorBlocks.
inline std::uint64_t walk_error_blocks(int n, int reset_log2) {
    if (n <= 1) {
        return 0;
    }
    const int r = std::min(reset_log2 > 0 ? reset_log2 : 63, n - 1);
    const std::uint64_t blocks = (std::uint64_t{1} << (n - 1)) >> r;
    return blocks <= kWalkErrorMinBlocks
               ? blocks
               : std::clamp<std::uint64_t>(blocks / 256, kWalkErrorMinBlocks, kWalkErrorBlocks);
}

/// The terms those blocks hold (the replay's work is about 30n operations per term).
inline double walk_error_replayed_terms(int n, int reset_log2) {
    const int r = std::min(reset_log2 > 0 ? reset_log2 : 63, std::max(0, n - 1));
    return std::ldexp(static_cast<double>(walk_error_blocks(n, reset_log2)), r);
}

/// The figure times this when every term was replayed: no sampling error then, but few terms,
/// whose roundings do not average out (on order-5 walks the actual error reached 1.4× L).
inline constexpr double kFewTermsFactor = 3;

/// Spreads of independent roundings add in quadrature: the figure is this many standard
/// deviations (in simulations of five families the actual error reached 2.7 of √(Σ c_t²)).
inline constexpr double kStandardDeviations = 4;

/// What the replayed blocks found: the terms' first-order bounds summed (spread_sum), Σ c_t²,
/// Σ|p̂| and Σ|p̂|², whether the terms' values repeat (then their roundings repeat too and add up
/// coherently), and the blocks' actual errors.
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

/// Replays blocks of the walk over the row-scaled n×n matrix `scaled`, y recomputed every
/// 2^reset_log2 steps: about blocks · 2^reset_log2 · 30n operations (double-double beside
/// double), a 256th of the blocks, so a tenth of the walk's own cost or less from order 26 on the
/// CPU (at order 24: 0.15 s with the walk, 0.15–0.2 s before). Deterministic (a fixed seed).
/// Independent of the walk itself, so a GPU walk runs beside it.
WalkSpread walk_spread(const DenseMatrix<double>& scaled, int reset_log2);
WalkSpread walk_spread(const DenseMatrix<std::complex<double>>& scaled, int reset_log2);

/// walk_spread(scaled, reset_log2).figure(magnitude, squares).
template <class T>
double walk_error(const DenseMatrix<T>& scaled, int reset_log2, double magnitude, double squares) {
    return walk_spread(scaled, reset_log2).figure(magnitude, squares);
}

}  // namespace pmcount::exact::driver
