// The frontier engine against the brute-force oracle (random sparse matrices with signed
// weights, n ≤ 9; weights near 2^63), dense Ryser (non-planar sparse matrices, n ≤ 22; frontiers
// wider than 22 slots), products of blocks (many-limb signed values) and the planar engine
// (grids); widths of known orders; thread invariance; floating point against Ryser. Hafnians
// of general graphs (the same DP without the balance of sides) against the sum over pairings
// and the hafnian engine, exact, real and complex.
#include "exact/frontier/frontier.hpp"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "exact/brute_force.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "exact/planar/planar.hpp"
#include "exact/ryser/ryser.hpp"
#include "pmcount/count.hpp"
#include "pmcount/generate.hpp"
#include "support/engine_run.hpp"
#include "support/random_matrices.hpp"

namespace pmcount::exact {
namespace {

using test::threads;

SparseMatrix<std::int64_t> ones(const BipartiteGraph& g) {
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& [u, v] : g.edges()) {
        entries.push_back({u, v, 1});
    }
    return {g.n_left(), g.n_right(), std::move(entries)};
}

/// A seeded symmetric matrix with an empty diagonal: a random general graph on n vertices, each
/// edge present with probability `density`, its weight from `weight(rng)`.
template <class T, class Weight>
SparseMatrix<T> random_symmetric(int n, double density, std::uint64_t seed, Weight weight) {
    std::mt19937_64 rng(seed);
    std::vector<Triplet<T>> entries;
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            if (static_cast<double>(rng() % 1000) < density * 1000) {
                const T w = weight(rng);
                entries.push_back({i, j, w});
                entries.push_back({j, i, w});
            }
        }
    }
    return {n, n, std::move(entries)};
}

TEST(FrontierHafnian, AgreesWithThePairingsAndTheHafnianEngine) {
    // 240 seeded general graphs: 0-1 and signed integer weights, 2–16 vertices (pairings) and
    // 18–24 (the hafnian engine), densities 0.2–0.8.
    for (std::uint64_t seed = 0; seed < 240; ++seed) {
        const int n = static_cast<int>(seed < 160 ? 2 + 2 * (seed % 8) : 18 + 2 * (seed % 4));
        const double density = 0.2 + 0.2 * static_cast<double>(seed % 4);
        const bool binary = seed % 2 == 0;
        const auto a = random_symmetric<std::int64_t>(n, density, seed, [&](std::mt19937_64& r) {
            return binary ? std::int64_t{1} : static_cast<std::int64_t>(r() % 9) - 4;
        });
        const BigInt expected = n <= 16 ? hafnian_brute_force_exact(a.to_dense())
                                        : hafnian_exact(a.to_dense(), threads(2)).value;
        EXPECT_EQ(frontier_hafnian_exact(a, threads(1 + seed % 2)).value, expected)
            << "seed " << seed << ", n = " << n;
    }
}

TEST(FrontierHafnian, RealAndComplexWithinTheirBound) {
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        const int n = 4 + 2 * static_cast<int>(seed % 6);
        const auto real = random_symmetric<double>(n, 0.6, seed, [](std::mt19937_64& r) {
            return static_cast<double>(r() % 2000) / 1000.0 - 0.7;
        });
        const FloatOutcome x = frontier_hafnian_real(real, threads(2));
        const double got = std::ldexp(x.mantissa.real(), static_cast<int>(x.exponent2));
        const double error = std::ldexp(x.abs_error_mantissa, static_cast<int>(x.exponent2));
        const double truth = hafnian_brute_force(real.to_dense());
        EXPECT_LE(std::fabs(got - truth), error + 1e-300) << "seed " << seed;
        const auto complex =
            random_symmetric<std::complex<double>>(n, 0.6, seed, [](std::mt19937_64& r) {
                return std::complex<double>(static_cast<double>(r() % 200) / 100.0 - 1.0,
                                            static_cast<double>(r() % 200) / 100.0 - 1.0);
            });
        const FloatOutcome z = frontier_hafnian_complex(complex, threads(1));
        const std::complex<double> zt = hafnian_brute_force(complex.to_dense());
        const std::complex<double> zg(std::ldexp(z.mantissa.real(), static_cast<int>(z.exponent2)),
                                      std::ldexp(z.mantissa.imag(), static_cast<int>(z.exponent2)));
        EXPECT_LE(std::abs(zg - zt),
                  std::ldexp(z.abs_error_mantissa, static_cast<int>(z.exponent2)) + 1e-300)
            << "seed " << seed;
    }
}

TEST(FrontierHafnian, StripsAreNarrowAndToriTwiceAsWide) {
    // A triangular strip of 3 rows: width 4 (a row and one more); a torus of 4 rows at most three
    // rows' worth (two columns and the seam back to the first); counts against the Pfaffians on
    // the torus.
    const UndirectedGraph strip = triangular_graph(3, 40, false);
    EXPECT_LE(frontier_order(strip).width, 4);
    const UndirectedGraph torus = triangular_graph(4, 30, true);
    const FrontierOrder order = frontier_order(torus);
    EXPECT_LE(order.width, 12);
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& [u, v] : torus.edges()) {
        entries.push_back({u, v, 1});
        entries.push_back({v, u, 1});
    }
    const SparseMatrix<std::int64_t> a(torus.num_vertices(), torus.num_vertices(),
                                       std::move(entries));
    const CountResult drawn =
        count_perfect_matchings(torus, triangular_torus_embedding(4, 30), CountOptions{});
    EXPECT_EQ(frontier_hafnian_exact(a, threads(2)).value, drawn.exact);
}

TEST(Frontier, AgreesWithBruteForce) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const double density = 0.25 + 0.5 * static_cast<double>(seed % 4) / 3.0;
        const DenseMatrix<std::int64_t> a = seed % 2 == 0
                                                ? test::random_binary(n, density, seed)
                                                : test::random_integer(n, -4, 4, density, seed);
        EXPECT_EQ(frontier_exact(SparseMatrix<std::int64_t>(a), threads(1)).value,
                  brute_force_exact(a))
            << "seed " << seed;
    }
    EXPECT_EQ(frontier_exact(SparseMatrix<std::int64_t>(0, 0, {}), threads(1)).value, BigInt(1));
}

TEST(Frontier, AgreesWithRyserOnNonPlanarMatrices) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        const int n = 16 + static_cast<int>(seed);
        const DenseMatrix<std::int64_t> a = test::random_integer(n, -3, 5, 0.2, 50 + seed);
        EXPECT_EQ(frontier_exact(SparseMatrix<std::int64_t>(a), threads(2)).value,
                  ryser_exact(a, false, threads(2)).value)
            << "seed " << seed;
    }
    const SparseMatrix<std::int64_t> k33(DenseMatrix<std::int64_t>(3, 3, 1));
    EXPECT_EQ(frontier_exact(k33, threads(1)).value, BigInt(6));
}

TEST(Frontier, GridsAgreeWithPlanarAndKnowTheirWidth) {
    for (const auto& [m, n] :
         {std::pair{4, 9}, std::pair{6, 6}, std::pair{8, 30}, std::pair{3, 40}}) {
        const SparseMatrix<std::int64_t> a = ones(grid_graph(m, n));
        EXPECT_EQ(frontier_exact(a, threads(2)).value, planar_exact(a, threads(1)).value)
            << m << "x" << n;
        // A strip of width m has an order of frontier width m (row by row along the long side).
        EXPECT_LE(frontier_order(grid_graph(m, n)).width, std::min(m, n) + 1) << m << "x" << n;
    }
}

TEST(Frontier, CompleteBipartiteGraphs) {
    EXPECT_EQ(frontier_exact(ones(complete_bipartite_graph(13)), threads(2)).value,
              BigInt(6227020800));
    EXPECT_LE(frontier_order(complete_bipartite_graph(13)).width, 14);
}

// Frontiers wider than 22 slots (masks beyond the old direct-indexed table; the sorted state
// lists have no width-dependent path) against Ryser.
TEST(Frontier, WideFrontiersAgreeWithRyser) {
    for (std::uint64_t seed = 0; seed < 3; ++seed) {
        const DenseMatrix<std::int64_t> a = test::random_integer(20, -2, 3, 0.85, 90 + seed);
        const SparseMatrix<std::int64_t> sparse(a);
        EXPECT_GT(frontier_order(sparse.pattern()).slots, 22) << "seed " << seed;
        EXPECT_EQ(frontier_exact(sparse, threads(2)).value, ryser_exact(a, false, threads(2)).value)
            << "seed " << seed;
    }
}

// Many-limb values of both signs: a block-diagonal matrix of random signed blocks, whose
// permanent is the product of the blocks' (Ryser), exercises limb growth and the
// two's-complement sums over thousands of steps.
TEST(Frontier, ManyLimbSignedValuesAgreeWithBlockProducts) {
    constexpr int kBlocks = 24, kSize = 8;
    std::vector<Triplet<std::int64_t>> entries;
    BigInt expected(1);
    for (int b = 0; b < kBlocks; ++b) {
        const DenseMatrix<std::int64_t> block =
            test::random_integer(kSize, -1000, 1000, 0.8, 300 + static_cast<std::uint64_t>(b));
        expected *= ryser_exact(block, false, threads(1)).value;
        for (int r = 0; r < kSize; ++r) {
            for (int c = 0; c < kSize; ++c) {
                if (block(r, c) != 0) {
                    entries.push_back({b * kSize + r, b * kSize + c, block(r, c)});
                }
            }
        }
    }
    const SparseMatrix<std::int64_t> a(kBlocks * kSize, kBlocks * kSize, std::move(entries));
    EXPECT_GT(expected.magnitude().size(), 8U);
    EXPECT_EQ(frontier_exact(a, threads(2)).value, expected);
    EXPECT_EQ(frontier_exact(a, threads(1)).value, expected);
}

// Weights near the int64 limit: every product of a limb by a weight carries a full word.
TEST(Frontier, HugeWeightsAgreeWithBruteForce) {
    for (std::uint64_t seed = 0; seed < 6; ++seed) {
        DenseMatrix<std::int64_t> a = test::random_integer(6, -3, 3, 0.8, 500 + seed);
        for (int r = 0; r < a.rows(); ++r) {
            for (int c = 0; c < a.cols(); ++c) {
                a(r, c) *= std::int64_t{1} << 61;
            }
        }
        EXPECT_EQ(frontier_exact(SparseMatrix<std::int64_t>(a), threads(1)).value,
                  brute_force_exact(a))
            << "seed " << seed;
    }
}

TEST(Frontier, ResultDoesNotDependOnThreads) {
    const SparseMatrix<std::int64_t> a(test::random_integer(24, -9, 9, 0.15, 3));
    EXPECT_EQ(frontier_exact(a, threads(1)).value, frontier_exact(a, threads(2)).value);
}

TEST(Frontier, AWidthCapAbandonsOnlyTheGreedyCandidatesPastIt) {
    const BipartiteGraph grid = grid_graph(12, 40);
    const FrontierOrder free = frontier_order(grid);
    EXPECT_EQ(free.width, 12);
    // A cap at the found width changes nothing; one below it leaves the other candidates,
    // which are no narrower.
    const FrontierOrder at = frontier_order(grid, free.width);
    EXPECT_EQ(at.width, free.width);
    EXPECT_EQ(at.order, free.order);
    const FrontierOrder below = frontier_order(grid, 4);
    EXPECT_STRNE(below.heuristic, "greedy");
    EXPECT_GE(below.width, free.width);
    EXPECT_EQ(below.order.size(), free.order.size());
}

TEST(Frontier, AnExceptionInTheCallingThreadReachesTheCaller) {
    // The forward pass runs on the calling thread and the backward pass on another; an
    // exception in the forward one (here a progress callback that cancels, elsewhere an
    // allocation that fails) must join the other thread and reach the caller, not end the
    // program (a joinable std::thread destroyed during unwinding calls std::terminate).
    run::EngineRun run = threads(2);
    run.progress_interval_s = 0;
    run.progress = [](const Progress&) { throw std::runtime_error("cancelled"); };
    EXPECT_THROW(frontier_exact(ones(torus_graph(8, 10)), run), std::runtime_error);
}

TEST(Frontier, FloatingPointAgreesWithRyser) {
    for (std::uint64_t seed = 0; seed < 4; ++seed) {
        const DenseMatrix<double> a = test::random_real(14, -1.0, 2.0, 0.3, 70 + seed);
        const FloatOutcome expected = ryser_real(a, Precision::double_precision, threads(1));
        const FloatOutcome got = frontier_real(SparseMatrix<double>(a), threads(1));
        const double e = std::ldexp(expected.mantissa.real(), static_cast<int>(expected.exponent2));
        const double g = std::ldexp(got.mantissa.real(), static_cast<int>(got.exponent2));
        const double bound = std::ldexp(got.abs_error_mantissa, static_cast<int>(got.exponent2));
        EXPECT_NEAR(g, e, std::max(1e-13 * std::abs(e), 2 * bound)) << "seed " << seed;
        EXPECT_LT(bound, 1e-9 * std::abs(g) + 1e-300);
    }
}

}  // namespace
}  // namespace pmcount::exact
