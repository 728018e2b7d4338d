// Forbert–Marx rules: each preserves the permanent (checked by brute force on random matrices).
#include "reduce/forbert_marx.hpp"

#include <gtest/gtest.h>

#include <random>

#include "exact/brute_force.hpp"

namespace pmcount::reduce {
namespace {

SparseMatrix<std::int64_t> random_sparse(vertex_t n, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::uniform_int_distribution<std::int64_t> value(-3, 3);
    std::vector<Triplet<std::int64_t>> entries;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            const std::int64_t v = value(rng);
            if (coin(rng) && v != 0) {
                entries.push_back({i, j, v});
            }
        }
    }
    return {n, n, entries};
}

BigInt perm_of(const WorkMatrix<std::int64_t>& w) {
    std::vector<vertex_t> rows, cols;
    return exact::brute_force_exact(w.extract(rows, cols).to_dense());
}

TEST(ForbertMarx, EveryRulePreservesThePermanent) {
    int eliminations = 0, merges = 0, splits = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const vertex_t n = 2 + static_cast<vertex_t>(seed % 8);
        const auto a = random_sparse(n, 0.25 + 0.05 * static_cast<double>(seed % 6), seed);
        const BigInt expected = exact::brute_force_exact(a.to_dense());
        WorkMatrix<std::int64_t> w(a);
        BigInt factor = 1;
        std::vector<std::pair<WorkMatrix<std::int64_t>, BigInt>> pending;
        // Apply rules until none applies, following both parts of a split.
        BigInt total = 0;
        pending.emplace_back(w, 1);
        while (!pending.empty()) {
            auto [work, f] = pending.back();
            pending.pop_back();
            bool done = false;
            while (!done) {
                const auto [degree, side, line] = work.min_line();
                if (degree < 0) {
                    total += f;  // everything eliminated: perm of the empty matrix is 1
                    done = true;
                } else if (degree == 0) {
                    done = true;  // an empty line: contributes 0
                } else if (degree == 1) {
                    f *= BigInt(work.eliminate(side, line));
                    ++eliminations;
                } else if (degree == 2 && work.merge(side, line)) {
                    ++merges;
                } else if (degree <= 4) {
                    auto [first, second] = work.split(side, line);
                    pending.emplace_back(std::move(first), f);
                    pending.emplace_back(std::move(second), f);
                    ++splits;
                    done = true;
                } else {
                    total += f * perm_of(work);
                    done = true;
                }
            }
        }
        EXPECT_EQ(total, expected) << "seed " << seed;
    }
    EXPECT_GT(eliminations, 100);
    EXPECT_GT(merges, 100);
    EXPECT_GT(splits, 50);
}

TEST(ForbertMarx, MergeRefusesIntegerOverflow) {
    const std::int64_t big = std::int64_t{1} << 62;
    // Row 0 has two entries (big at column 0, big at column 1); merging multiplies big·big.
    const SparseMatrix<std::int64_t> a(2, 2, {{0, 0, big}, {0, 1, big}, {1, 0, big}, {1, 1, 3}});
    WorkMatrix<std::int64_t> w(a);
    EXPECT_FALSE(w.merge(0, 0));
    EXPECT_EQ(w.order(), 2);  // unchanged
    EXPECT_EQ(perm_of(w), exact::brute_force_exact(a.to_dense()));
}

TEST(ForbertMarx, MergeWorksOnColumnsToo) {
    // Column 2 has entries 2 (row 0) and 5 (row 1): merge rows 0 and 1.
    const SparseMatrix<std::int64_t> a(
        3, 3,
        {{0, 0, 1}, {0, 1, 1}, {0, 2, 2}, {1, 0, 3}, {1, 1, 1}, {1, 2, 5}, {2, 0, 1}, {2, 1, 4}});
    WorkMatrix<std::int64_t> w(a);
    ASSERT_EQ(w.line(1, 2).size(), 2u);
    ASSERT_TRUE(w.merge(1, 2));
    EXPECT_EQ(w.order(), 2);
    EXPECT_EQ(perm_of(w), exact::brute_force_exact(a.to_dense()));
}

}  // namespace
}  // namespace pmcount::reduce
