// The planner's estimate of SkipPer's walk (plan/walk_estimate.hpp) against the walk itself: the
// whole walk's term fraction against brute force, and the estimate's windows and tree against the
// whole walk on random and structured matrices.
#include "plan/walk_estimate.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "exact/ryser/gray_code.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "pmcount/generate.hpp"
#include "support/random_matrices.hpp"

namespace pmcount::plan {
namespace {

using exact::gray;
using exact::sparse_column_order;
using exact::SparseVariant;

/// y of Ryser's formula for Gray index k with `last` always in the subset and the other columns
/// in `order` on Gray bits 0, 1, ...: y_i = Σ_{j ∈ S} a_ij − Σ_{j ∉ S} a_ij.
std::int64_t count_terms(const DenseMatrix<std::int64_t>& a, const std::vector<vertex_t>& order) {
    const int n = a.rows();
    std::int64_t terms = 0;
    for (std::uint64_t k = 0; k < (std::uint64_t{1} << (n - 1)); ++k) {
        bool zero = false;
        for (int i = 0; i < n && !zero; ++i) {
            std::int64_t y = a(i, order.back());
            for (int b = 0; b + 1 < n; ++b) {
                y += ((gray(k) >> b) & 1U) != 0 ? a(i, order[static_cast<std::size_t>(b)])
                                                : -a(i, order[static_cast<std::size_t>(b)]);
            }
            zero = y == 0;
        }
        terms += zero ? 0 : 1;
    }
    return terms;
}

TEST(SparseWalkEstimate, ExactTermFractionOnSmallMatrices) {
    // Up to 2^12 Gray indices the estimate walks everything: the term fraction is exact.
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        const int n = 8 + static_cast<int>(seed % 6);
        const auto a = seed % 2 == 0 ? test::random_binary(n, 0.3, seed)
                                     : test::random_integer(n, -2, 2, 0.4, seed);
        const SparseWalkEstimate e = estimate_sparse_walk(a);
        const auto order = sparse_column_order(a, SparseVariant::skipper, seed % 2 == 0);
        EXPECT_DOUBLE_EQ(e.term_fraction,
                         std::ldexp(static_cast<double>(count_terms(a, order)), -(n - 1)))
            << "seed " << seed;
        EXPECT_GT(e.visit_fraction, 0);
        EXPECT_LE(e.visit_fraction, 1);
        EXPECT_GT(e.entries_per_step, 0);
        EXPECT_EQ(e.binary, seed % 2 == 0);
    }
    // A dense all-positive real matrix never has a zero y: every index is a term.
    const SparseWalkEstimate full = estimate_sparse_walk(test::random_real(20, 0.5, 1.0, 1.0, 3));
    EXPECT_EQ(full.term_fraction, 1);
    EXPECT_EQ(full.visit_fraction, 1);
}

TEST(SparseWalkEstimate, TheWholeWalkCountsEveryTerm) {
    // n = 22, walked whole on request: its term fraction is the brute-force count's.
    const auto a = test::random_binary(22, 0.2, 8);
    const SparseWalkEstimate e = estimate_sparse_walk(a, true);
    const double truth = std::ldexp(
        static_cast<double>(count_terms(a, sparse_column_order(a, SparseVariant::skipper, true))),
        -21);
    ASSERT_GT(truth, 0);
    EXPECT_EQ(e.windows, 0U);
    EXPECT_DOUBLE_EQ(e.term_fraction, truth);
    // Unasked it takes windows there (the walk needs more than 2^14 row tests), and comes close.
    const SparseWalkEstimate sampled = estimate_sparse_walk(a);
    EXPECT_GT(sampled.windows, 0U);
    EXPECT_NEAR(sampled.term_fraction / truth, 1.0, 0.1);
}

TEST(SparseWalkEstimate, WindowsAgreeWithTheWholeWalk) {
    // Walks of 10^6–10^7 visits, too long to take whole unasked: the windows' visits and terms
    // against the whole walk's (measured 0.92–1.0 of it). Before the windows (uniform indices,
    // short walks, rows taken as independent) estimates read 0.2–0.6 of the truth on 0-1
    // matrices of this kind.
    struct Case {
        DenseMatrix<std::int64_t> a;
        const char* name;
    };
    const std::vector<Case> cases = {
        {test::random_binary(38, 0.1, 3), "0-1 n=38 d=0.1 seed 3"},
        {test::random_binary(40, 0.1, 2), "0-1 n=40 d=0.1 seed 2 (sub-blocks of 2^10)"},
        {test::random_binary(32, 0.2, 5), "0-1 n=32 d=0.2 seed 5"},
        {test::random_integer(26, -2, 2, 0.2, 2), "integer n=26 d=0.2 seed 2 (general rows)"},
    };
    for (const Case& c : cases) {
        const SparseWalkEstimate whole = estimate_sparse_walk(c.a, true);
        const SparseWalkEstimate sampled = estimate_sparse_walk(c.a);
        ASSERT_GT(whole.term_fraction, 0) << c.name;
        EXPECT_EQ(whole.windows, 0U) << c.name;
        EXPECT_GT(sampled.windows, 0U) << c.name;
        EXPECT_NEAR(sampled.term_fraction / whole.term_fraction, 1.0, 0.25) << c.name;
        EXPECT_NEAR(sampled.visit_fraction / whole.visit_fraction, 1.0, 0.25) << c.name;
    }
}

/// The 0-1 biadjacency matrix of `g`.
DenseMatrix<std::int64_t> biadjacency(const BipartiteGraph& g) {
    DenseMatrix<std::int64_t> a(g.n_left(), g.n_right());
    for (const auto& [u, v] : g.edges()) {
        a(u, v) = 1;
    }
    return a;
}

TEST(SparseWalkEstimate, HoldsOnStructuredMatrices) {
    // Tori, grids, bands and coupled blocks, where the terms gather in a few regions: the
    // estimate's visits and terms (what the planner predicts SkipPer's time from) against the
    // whole walk's, within 3× (measured 0.85–1.01 for visits, 0.92–1.01 for terms). Before the
    // tree estimate the windows met no term on the 8×12 torus (1.9·10^7 visits) and read 0: its
    // count, predicted 0.3 ms, took 0.9 s, and 8×16's minutes.
    struct Case {
        DenseMatrix<std::int64_t> a;
        const char* name;
    };
    auto band = [](int n, int half_width) {
        DenseMatrix<std::int64_t> a(n, n);
        for (int i = 0; i < n; ++i) {
            for (int j = std::max(0, i - half_width); j <= std::min(n - 1, i + half_width); ++j) {
                a(i, j) = 1;
            }
        }
        return a;
    };
    auto coupled_blocks = [](int n, int size) {  // dense blocks, each tied to the next
        DenseMatrix<std::int64_t> a(n, n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                a(i, j) = i / size == j / size ? 1 : 0;
            }
        }
        for (int b = 0; b < n / size; ++b) {
            a(b * size, ((b + 1) % (n / size)) * size + 1) = 1;
        }
        return a;
    };
    const std::vector<Case> cases = {
        {biadjacency(torus_graph(8, 12)), "torus 8x12"},
        {biadjacency(torus_graph(8, 10)), "torus 8x10"},
        {biadjacency(torus_graph(6, 12)), "torus 6x12"},
        {biadjacency(torus_graph(8, 8)), "torus 8x8"},
        {biadjacency(grid_graph(8, 8)), "grid 8x8"},
        {biadjacency(grid_graph(6, 10)), "grid 6x10"},
        {band(44, 3), "band n=44 half-width 3"},
        {coupled_blocks(24, 4), "coupled blocks 6 of 4"},
        {coupled_blocks(30, 5), "coupled blocks 6 of 5"},
    };
    for (const Case& c : cases) {
        const SparseWalkEstimate whole = estimate_sparse_walk(c.a, true);
        const SparseWalkEstimate sampled = estimate_sparse_walk(c.a);
        ASSERT_GT(whole.term_fraction, 0) << c.name;
        EXPECT_GT(sampled.windows, 0U) << c.name;
        EXPECT_TRUE(sampled.trusted) << c.name;
        const double visits = sampled.visit_fraction / whole.visit_fraction;
        const double terms = sampled.term_fraction / whole.term_fraction;
        EXPECT_TRUE(visits >= 1.0 / 3 && visits <= 3) << c.name << ": visits " << visits;
        EXPECT_TRUE(terms >= 1.0 / 3 && terms <= 3) << c.name << ": terms " << terms;
    }
}

}  // namespace
}  // namespace pmcount::plan
