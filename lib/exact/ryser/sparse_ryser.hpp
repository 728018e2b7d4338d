// Sparse Ryser engines: SpaRyser and SkipPer (library-internal API).
//
// Both walk the same Gray code as dense Ryser but touch only the nonzeros of the column that
// changes, and keep the number of zero entries of y, so a subset whose y has a zero costs only
// its column update (SpaRyser; Kaya's thesis Alg. 5, SUPERMAN Alg. 2). SkipPer goes further:
// after a step that leaves y_i = 0, no subset can contribute until a column with a nonzero in
// row i changes, so it jumps straight to the first Gray index at which every zero row has been
// touched, applying the Gray-code difference at once (thesis eq. 5.1, Alg. 10).
//
// Correctness with modular arithmetic: the engines track y_i mod p, so a "zero" may be a nonzero
// multiple of p. Skipping is still exact: a term with y_i ≡ 0 (mod p) is ≡ 0, and y_i only
// changes when a column with a nonzero in row i flips, so every skipped term is ≡ 0 as well. The
// product is never divided by an entry (which could be ≡ 0): whenever y has no zero, the engines
// form the whole product afresh, exactly as dense Ryser does. tests/unit/exact/sparse_ryser_test
// checks this with small primes, where such false zeros are frequent.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "exact/ryser/ryser.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

enum class SparseVariant {
    sparyser,  ///< zero tracking; columns in ascending nonzero count (SortOrder)
    skipper,   ///< zero tracking and Gray-code skipping; SkipOrder
};

const char* to_string(SparseVariant variant) noexcept;

/// Column order for a variant: the permutation (new position → old column) that the engine
/// applies. The last position holds the densest column, which the Gray code never flips.
///   SortOrder (sparyser): the other columns by ascending number of nonzeros, so the most
///     frequently flipped Gray bits touch the fewest rows.
///   SkipOrder (skipper): greedily, the column that touches the fewest rows not yet touched by
///     the columns before it, so that many rows are first touched by a rarely flipped bit and a
///     zero there is skipped over a long run of Gray codes.
std::vector<vertex_t> sparse_column_order(const DenseMatrix<std::int64_t>& pattern,
                                          SparseVariant variant, bool binary = false);

/// Columns of `a` permuted by `order` (new position → old column); perm is unchanged.
template <class T>
DenseMatrix<T> permute_columns(const DenseMatrix<T>& a, const std::vector<vertex_t>& order) {
    DenseMatrix<T> out(a.rows(), a.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            out(i, j) = a(i, order[static_cast<std::size_t>(j)]);
        }
    }
    return out;
}

/// The 0-1 pattern of the nonzeros.
template <class T>
DenseMatrix<std::int64_t> pattern_of(const DenseMatrix<T>& a) {
    DenseMatrix<std::int64_t> p(a.rows(), a.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            p(i, j) = a(i, j) != T{} ? 1 : 0;
        }
    }
    return p;
}

/// What the sparse engines meet on a matrix, for the planner's cost model.
struct SparseWalkEstimate {
    /// Fraction of the 2^(n−1) Gray indices whose y has no zero: the terms that need a product.
    double term_fraction = 1;
    /// Fraction SkipPer visits: its terms and the indices its jumps land on.
    double visit_fraction = 1;
    /// SpaRyser: mean nonzeros of the column flipped by a Gray step (SortOrder).
    double entries_per_step = 0;
    /// The Gray columns are 0-1: with exact lanes SkipPer takes its 0-1 path.
    bool binary = false;
    /// The 0-1 path's sub-blocks (numeric/sub_block_bits.hpp): 2^sub_bits terms share one static
    /// product, and `dynamic_rows` rows change inside one.
    int sub_bits = 0;
    int dynamic_rows = 0;
    /// The 0-1 path's rows that can be zero (even y(∅) ≤ 0): those a visit tests.
    int tested_rows = 0;
    /// Samples taken to estimate the fractions (the tree's probes, or the windows of the Gray
    /// code walked where the probes did not settle); 0 when the whole walk was taken (then they
    /// are exact).
    std::uint64_t windows = 0;
    /// Whether the fractions are known: the whole walk, the tree's probes settled (standard
    /// error ≤ 50%), or the windows met 64 term visits. Otherwise they are a guess that may
    /// miss by orders of magnitude, and the planner says so.
    bool trusted = true;
};

/// Estimates SkipPer's walk (SkipOrder, its jump rule, exact zero tests on the entries) from
/// seeded windows of the Gray code, each walked as the engine walks it; the whole walk when it has
/// at most 2^16 blocks, or when `whole` (sparse_ryser.cpp gives the method and its accuracy).
/// Deterministic.
template <class T>
SparseWalkEstimate estimate_sparse_walk(const DenseMatrix<T>& a, bool whole = false);

ExactOutcome sparse_ryser_exact(const DenseMatrix<std::int64_t>& a, bool binary,
                                SparseVariant variant, const run::EngineRun& run);
std::uint64_t sparse_ryser_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                                   SparseVariant variant, const run::EngineRun& run);
FloatOutcome sparse_ryser_real(const DenseMatrix<double>& a, Precision precision,
                               SparseVariant variant, const run::EngineRun& run);
FloatOutcome sparse_ryser_complex(const DenseMatrix<std::complex<double>>& a, SparseVariant variant,
                                  const run::EngineRun& run);

}  // namespace pmcount::exact
