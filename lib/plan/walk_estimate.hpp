// The planner's estimate of the sparse Ryser engines' work on a matrix (exact/ryser/
// sparse_ryser.hpp): the fraction of Gray indices SkipPer visits and of those that are terms,
// and SpaRyser's entries per step, which the cost model turns into time (LeafFacts).
#pragma once

#include <cstdint>

#include "pmcount/matrix.hpp"

namespace pmcount::plan {

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
/// at most 2^16 blocks, or when `whole` (walk_estimate.cpp gives the method and its accuracy).
/// Deterministic.
template <class T>
SparseWalkEstimate estimate_sparse_walk(const DenseMatrix<T>& a, bool whole = false);

}  // namespace pmcount::plan
