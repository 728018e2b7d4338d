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

#include <algorithm>
#include <complex>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "exact/ryser/gray_code.hpp"
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

/// SkipPer's jump: the Gray index at which every zero row (bit s of zero_rows) has been touched
/// again, the largest of their next touches (thesis eq. 5.1), at least k + 1 and at most end.
/// (The engine and the planner's walk estimate, plan/walk_estimate.hpp, both walk by it.)
inline std::uint64_t skip_target(std::uint64_t k, std::uint64_t zero_rows,
                                 const std::uint64_t* row_mask, std::uint64_t end) noexcept {
    std::uint64_t target = k + 1;
    for (std::uint64_t rows = zero_rows; rows != 0 && target < end; rows &= rows - 1) {
        const std::uint64_t mask = row_mask[lowest_set_bit(rows)];
        target = mask == 0 ? end : std::max(target, next_step_flipping(k, mask));
    }
    return std::min(target, end);
}

/// Blocks of SkipPer's 0-1 path span at most 2^16 indices (and never more than a chunk).
inline constexpr int kMaxFreeBits = 16;

/// Whether every entry is 0 or 1 (SkipOrder's `binary`).
template <class T>
bool is_binary(const DenseMatrix<T>& a) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return std::all_of(a.data().begin(), a.data().end(),
                           [](std::int64_t v) { return v == 0 || v == 1; });
    } else {
        return false;
    }
}

ExactOutcome sparse_ryser_exact(const DenseMatrix<std::int64_t>& a, bool binary,
                                SparseVariant variant, const run::EngineRun& run);
std::uint64_t sparse_ryser_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                                   SparseVariant variant, const run::EngineRun& run);
FloatOutcome sparse_ryser_real(const DenseMatrix<double>& a, Precision precision,
                               SparseVariant variant, const run::EngineRun& run);
FloatOutcome sparse_ryser_complex(const DenseMatrix<std::complex<double>>& a, SparseVariant variant,
                                  const run::EngineRun& run);

}  // namespace pmcount::exact
