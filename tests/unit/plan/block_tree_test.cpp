// The structure front end as one cost-free function (plan/front_end.hpp): the block tree of a
// matrix depends on its entries and on the two switches only, and every node says what the
// structure found; the planner's costs add engines and splits afterwards.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "plan/front_end.hpp"

namespace pmcount::plan::detail {
namespace {

using Kind = Block<std::int64_t>::Kind;

SparseMatrix<std::int64_t> matrix(vertex_t n, const std::vector<Triplet<std::int64_t>>& entries) {
    return {n, n, entries};
}

/// A 5×5 with three fine blocks: rows/columns {0, 1} (a 2×2 of ones), {2, 3} ([[2, 3], [1, 1]])
/// and {4}; the entries (0, 3) and (2, 4) lie outside them (row 4 needs column 4), so no perfect
/// matching uses them. perm = 2 · 5 · 1.
SparseMatrix<std::int64_t> two_blocks() {
    return matrix(5, {{0, 0, 1},
                      {0, 1, 1},
                      {1, 0, 1},
                      {1, 1, 1},
                      {0, 3, 7},
                      {2, 2, 2},
                      {2, 3, 3},
                      {2, 4, 5},
                      {3, 2, 1},
                      {3, 3, 1},
                      {4, 4, 1}});
}

TEST(BlockTree, DulmageMendelsohnBlocksThenReductionsPerBlock) {
    const Block<std::int64_t> root = front_end(two_blocks(), true, true, false, true, "m");
    ASSERT_EQ(root.kind, Kind::product);
    EXPECT_TRUE(root.decomposed);
    EXPECT_EQ(root.matching_size, 5);
    EXPECT_EQ(root.dropped_entries, 2);
    EXPECT_EQ(root.block_orders, (std::vector<vertex_t>{2, 2, 1}));
    ASSERT_EQ(root.children.size(), 3U);
    // Each block is reduced to nothing (a 2×2 merges into one line, which is eliminated).
    for (const Block<std::int64_t>& block : root.children) {
        EXPECT_EQ(block.kind, Kind::reduced) << block.origin;
        ASSERT_EQ(block.children.size(), 1U);
        EXPECT_EQ(block.children.front().kind, Kind::leaf);
        EXPECT_EQ(block.children.front().matrix.rows(), 0);
        EXPECT_FALSE(block.splittable);
    }
    // The eliminated entries multiply out to the permanent.
    std::int64_t product = 1;
    for (const Block<std::int64_t>& block : root.children) {
        std::int64_t p = 1;
        for (const std::int64_t f : block.factors) {
            p *= f;
        }
        product *= p;
    }
    EXPECT_EQ(product, 2 * 5 * 1);
}

TEST(BlockTree, TheSwitchesTurnTheHalvesOff) {
    const Block<std::int64_t> whole = front_end(two_blocks(), false, false, false, true, "m");
    EXPECT_EQ(whole.kind, Kind::leaf);
    EXPECT_FALSE(whole.decomposed);
    EXPECT_EQ(whole.matrix.nnz(), 11);
    const Block<std::int64_t> blocks = front_end(two_blocks(), true, false, false, true, "m");
    ASSERT_EQ(blocks.kind, Kind::product);
    for (const Block<std::int64_t>& block : blocks.children) {
        EXPECT_EQ(block.kind, Kind::leaf);
    }
    const Block<std::int64_t> reduced = front_end(two_blocks(), false, true, false, true, "m");
    EXPECT_EQ(reduced.kind, Kind::reduced);
    EXPECT_FALSE(reduced.decomposed);
}

TEST(BlockTree, NoPerfectMatchingIsAZeroWithHallsWitness) {
    // Rows 0 and 1 both see only column 0.
    const Block<std::int64_t> root = front_end(
        matrix(3, {{0, 0, 1}, {1, 0, 1}, {2, 1, 1}, {2, 2, 1}}), true, true, false, true, "m");
    EXPECT_EQ(root.kind, Kind::zero);
    EXPECT_EQ(root.matching_size, 2);
    EXPECT_EQ(root.hall_rows, (std::vector<vertex_t>{0, 1}));
    EXPECT_EQ(root.hall_cols, (std::vector<vertex_t>{0}));
    // Without the decomposition, the reductions find the empty line.
    const Block<std::int64_t> reduced = front_end(
        matrix(3, {{0, 0, 1}, {1, 0, 1}, {2, 1, 1}, {2, 2, 1}}), false, true, false, true, "m");
    EXPECT_EQ(reduced.kind, Kind::zero);
    EXPECT_GT(reduced.reductions.eliminated, 0);
}

TEST(BlockTree, ReductionsStopAtALineOfThreeOrFourWhereASplitMayBeWeighed) {
    // The 4×4 of ones: every line has four entries, nothing reduces; the least line (4 entries)
    // may be split. With a negative real entry merges are inexact, so no split is offered.
    std::vector<Triplet<std::int64_t>> ones;
    for (vertex_t i = 0; i < 4; ++i) {
        for (vertex_t j = 0; j < 4; ++j) {
            ones.push_back({i, j, 1});
        }
    }
    const Block<std::int64_t> root = front_end(matrix(4, ones), true, true, false, true, "m");
    EXPECT_EQ(root.kind, Kind::leaf);
    EXPECT_TRUE(root.splittable);
    const auto [parts, degree] = split_least_line(root.matrix);
    EXPECT_EQ(degree, 4);
    EXPECT_EQ(parts.first.nnz() + parts.second.nnz(), 16 + 12);  // the line's entries divided
    SparseMatrix<double> signed_ones(4, 4,
                                     {{0, 0, -1.0},
                                      {0, 1, 1.0},
                                      {0, 2, 1.0},
                                      {0, 3, 1.0},
                                      {1, 0, 1.0},
                                      {1, 1, 1.0},
                                      {1, 2, 1.0},
                                      {1, 3, 1.0},
                                      {2, 0, 1.0},
                                      {2, 1, 1.0},
                                      {2, 2, 1.0},
                                      {2, 3, 1.0},
                                      {3, 0, 1.0},
                                      {3, 1, 1.0},
                                      {3, 2, 1.0},
                                      {3, 3, 1.0}});
    EXPECT_FALSE(front_end(signed_ones, true, true, false, true, "m").splittable);
}

}  // namespace
}  // namespace pmcount::plan::detail
