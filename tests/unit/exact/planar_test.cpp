// The planar engine: Kasteleyn signs checked against the brute-force oracle on random planar
// bipartite graphs (n ≤ 9, 0-1 and signed integer weights, shuffled labels) and against dense
// Ryser up to n = 30; non-planar patterns (K_{3,3}) rejected; floating point against Ryser.
#include "exact/planar/planar.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <numeric>
#include <random>

#include "exact/brute_force.hpp"
#include "exact/planar/kasteleyn.hpp"
#include "exact/ryser/ryser.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "support/engine_run.hpp"

namespace pmcount::exact {
namespace {

using test::threads;

/// A random subgraph of `base` (each edge kept with probability keep) with shuffled row and
/// column labels; weights 1, or uniform in [−3, 3] \ {0} when `signed_weights`.
SparseMatrix<std::int64_t> random_planar(const BipartiteGraph& base, double keep,
                                         bool signed_weights, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<vertex_t> row(static_cast<std::size_t>(base.n_left())),
        col(static_cast<std::size_t>(base.n_right()));
    std::iota(row.begin(), row.end(), 0);
    std::iota(col.begin(), col.end(), 0);
    std::shuffle(row.begin(), row.end(), rng);
    std::shuffle(col.begin(), col.end(), rng);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::uniform_int_distribution<int> weight(1, 3);
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& [u, v] : base.edges()) {
        if (unit(rng) < keep) {
            const std::int64_t w = signed_weights ? weight(rng) * (unit(rng) < 0.5 ? -1 : 1) : 1;
            entries.push_back(
                {row[static_cast<std::size_t>(u)], col[static_cast<std::size_t>(v)], w});
        }
    }
    return {base.n_left(), base.n_right(), std::move(entries)};
}

TEST(Planar, RejectsK33ThatOtherEnginesCount) {
    const SparseMatrix<std::int64_t> k33(DenseMatrix<std::int64_t>(3, 3, 1));
    EXPECT_FALSE(is_planar(k33.pattern()));
    EXPECT_THROW(planar_exact(k33, threads(1)), InvalidArgument);
    EXPECT_THROW(planar_real(SparseMatrix<double>(DenseMatrix<double>(3, 3, 1.0)), threads(1)),
                 InvalidArgument);
    EXPECT_EQ(ryser_exact(k33.to_dense(), true, threads(1)).value, BigInt(6));
    // K_{3,3} minus an edge is planar: 6 − 2 = 4 perfect matchings.
    DenseMatrix<std::int64_t> minus(3, 3, 1);
    minus(0, 0) = 0;
    EXPECT_EQ(planar_exact(SparseMatrix<std::int64_t>(minus), threads(1)).value, BigInt(4));
}

TEST(Planar, DenseGraphsAreRejectedByEulersBoundAtOnce) {
    // More than 2V − 4 edges: not planar, decided without copying K_{2000,2000}'s 4·10^6 edges
    // into Boost's graph (seconds and a gigabyte). The limit is generous for a loaded machine.
    const BipartiteGraph dense = complete_bipartite_graph(2000);
    const auto start = std::chrono::steady_clock::now();
    EXPECT_FALSE(is_planar(dense));
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 0.5);
    // At the bound itself the test decides: K_{2,2} (4 = 2·4 − 4 edges) is planar.
    EXPECT_TRUE(is_planar(complete_bipartite_graph(2)));
}

TEST(Planar, SignsAgreeWithBruteForceOnRandomPlanarGraphs) {
    const BipartiteGraph bases[] = {grid_graph(3, 6),       grid_graph(4, 4),
                                    grid_graph(2, 9),       hexagon_graph(2, 2, 1),
                                    hexagon_graph(1, 2, 3), aztec_diamond_graph(2)};
    int nonzero = 0;
    for (std::uint64_t seed = 0; seed < 240; ++seed) {
        const BipartiteGraph& base = bases[seed % 6];
        const double keep = 0.6 + 0.4 * static_cast<double>(seed % 5) / 4.0;
        const SparseMatrix<std::int64_t> a = random_planar(base, keep, seed % 2 == 1, seed);
        const BigInt expected = brute_force_exact(a.to_dense());
        EXPECT_EQ(planar_exact(a, threads(1 + static_cast<int>(seed % 2))).value, expected)
            << "seed " << seed;
        nonzero += expected.is_zero() ? 0 : 1;
    }
    EXPECT_GT(nonzero, 120);  // most instances have perfect matchings: the signs are exercised
}

TEST(Planar, AgreesWithRyserUpToOrder30) {
    const BipartiteGraph bases[] = {grid_graph(5, 8), grid_graph(6, 7), hexagon_graph(3, 3, 2),
                                    grid_graph(4, 11), grid_graph(6, 10)};
    for (std::uint64_t seed = 0; seed < 5; ++seed) {
        // Keep n = 30 sparse enough for Ryser's zero tracking to finish in about a second.
        const SparseMatrix<std::int64_t> a =
            random_planar(bases[seed], seed == 4 ? 0.8 : 0.9, seed % 2 == 0, 100 + seed);
        const ExactOutcome expected = ryser_exact(a.to_dense(), seed % 2 == 1, threads(2));
        EXPECT_EQ(planar_exact(a, threads(2)).value, expected.value) << "seed " << seed;
    }
}

TEST(Planar, CountsWithoutPerfectMatchingAreZero) {
    DenseMatrix<std::int64_t> a(4, 4, 0);
    a(0, 0) = a(1, 0) = a(2, 1) = a(3, 2) = a(3, 3) = 1;
    EXPECT_EQ(planar_exact(SparseMatrix<std::int64_t>(a), threads(1)).value, BigInt(0));
    EXPECT_EQ(planar_exact(SparseMatrix<std::int64_t>(0, 0, {}), threads(1)).value, BigInt(1));
    EXPECT_EQ(planar_exact(SparseMatrix<std::int64_t>(1, 1, {{0, 0, -7}}), threads(1)).value,
              BigInt(-7));
    EXPECT_EQ(
        planar_exact(SparseMatrix<std::int64_t>(2, 2, {{0, 0, 2}, {1, 1, 3}}), threads(1)).value,
        BigInt(6));
}

TEST(Planar, FloatingPointAgreesWithRyser) {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> weight(-1.0, 2.0);
    for (const auto& base : {grid_graph(6, 6), hexagon_graph(2, 3, 3)}) {
        std::vector<Triplet<double>> entries;
        for (const auto& [u, v] : base.edges()) {
            entries.push_back({u, v, weight(rng)});
        }
        const SparseMatrix<double> a(base.n_left(), base.n_right(), std::move(entries));
        const FloatOutcome expected =
            ryser_real(a.to_dense(), Precision::double_precision, threads(1));
        const FloatOutcome got = planar_real(a, threads(1));
        const double e = std::ldexp(expected.mantissa.real(), static_cast<int>(expected.exponent2));
        const double g = std::ldexp(got.mantissa.real(), static_cast<int>(got.exponent2));
        EXPECT_NEAR(g, e, 1e-11 * std::abs(e));
        EXPECT_LT(got.abs_error_mantissa, 1e-10 * std::abs(got.mantissa));
    }
}

}  // namespace
}  // namespace pmcount::exact
