// Every engine of the public API against the brute-force oracle on seeded random inputs of every
// value kind, n ≤ 9 (the oracle requirement).
#include <gtest/gtest.h>

#include "pmcount/count.hpp"
#include "support/random_matrices.hpp"

namespace pmcount {
namespace {

constexpr Method kEngines[] = {Method::ryser, Method::sparyser, Method::skipper};

CountOptions with(Method method, Precision precision = Precision::automatic) {
    CountOptions o;
    o.method = method;
    o.precision = precision;
    return o;
}

TEST(Oracle, BinaryMatricesAndGraphs) {
    for (std::uint64_t seed = 0; seed < 150; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = test::random_binary(n, 0.2 + 0.06 * static_cast<double>(seed % 12), 1000 + seed);
        const CountResult oracle = permanent(a, with(Method::brute_force));
        ASSERT_TRUE(oracle.is_exact);
        for (const Method m : kEngines) {
            const CountResult r = permanent(a, with(m));
            ASSERT_TRUE(r.is_exact);
            EXPECT_EQ(r.exact, oracle.exact) << to_string(m) << " seed " << seed;
        }
        // The same matrix as a bipartite graph.
        std::vector<BipartiteGraph::Edge> edges;
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                if (a(i, j) != 0) {
                    edges.emplace_back(i, j);
                }
            }
        }
        const CountResult graph = count_perfect_matchings(BipartiteGraph(n, n, edges));
        EXPECT_EQ(graph.exact, oracle.exact) << "seed " << seed;
        EXPECT_EQ(graph.kind, ValueKind::binary);
        // Double arithmetic on a 0-1 matrix is exact up to its estimate.
        // (A zero found from the structure alone is exact in any precision.)
        const CountResult dbl = permanent(a, with(Method::ryser, Precision::double_precision));
        if (dbl.is_exact) {
            EXPECT_TRUE(dbl.exact.is_zero());
            EXPECT_TRUE(oracle.exact.is_zero());
        } else {
            EXPECT_LE(std::fabs(dbl.value - oracle.value), dbl.abs_error + 1e-300);
        }
    }
}

TEST(Oracle, IntegerMatrices) {
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = test::random_integer(n, -20, 20, 0.75, 2000 + seed);
        const CountResult oracle = permanent(a, with(Method::brute_force));
        for (const Method m : kEngines) {
            const CountResult r = permanent(a, with(m));
            EXPECT_EQ(r.exact, oracle.exact) << to_string(m) << " seed " << seed;
            EXPECT_EQ(r.kind, ValueKind::integer);
        }
    }
}

TEST(Oracle, RealMatrices) {
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = test::random_real(n, seed % 2 == 0 ? 0.0 : -2.0, 2.0, 0.8, 3000 + seed);
        const CountResult oracle = permanent(a, with(Method::brute_force));
        for (const Method m : kEngines) {
            for (const Precision p : {Precision::double_precision, Precision::double_double}) {
                const CountResult r = permanent(a, with(m, p));
                EXPECT_LE(std::fabs(r.value - oracle.value), r.abs_error + oracle.abs_error + 1e-300)
                    << to_string(m) << " seed " << seed;
                EXPECT_EQ(r.kind, ValueKind::real);
            }
        }
    }
}

TEST(Oracle, ComplexMatrices) {
    for (std::uint64_t seed = 0; seed < 80; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = test::random_complex(n, 0.8, 4000 + seed);
        const CountResult oracle = permanent(a, with(Method::brute_force));
        for (const Method m : kEngines) {
            const CountResult r = permanent(a, with(m));
            EXPECT_LE(std::abs(r.complex_value - oracle.complex_value),
                      r.abs_error + oracle.abs_error + 1e-300)
                << to_string(m) << " seed " << seed;
            EXPECT_EQ(r.kind, ValueKind::complex);
        }
    }
}

TEST(Oracle, ZeroPermanentsAndEmptyLines) {
    // A zero column: the count layer answers 0 without an engine, with the reason.
    DenseMatrix<std::int64_t> a(6, 6, 1);
    for (int i = 0; i < 6; ++i) {
        a(i, 3) = 0;
    }
    const CountResult r = permanent(a);
    EXPECT_TRUE(r.is_exact);
    EXPECT_TRUE(r.exact.is_zero());
    EXPECT_NE(r.note.find("column 3"), std::string::npos) << r.note;
    // Zero permanent without an empty line: rows 0 and 1 both only reach column 0.
    DenseMatrix<std::int64_t> b(4, 4, 1);
    for (int j = 1; j < 4; ++j) {
        b(0, j) = 0;
        b(1, j) = 0;
    }
    EXPECT_TRUE(permanent(b).exact.is_zero());
    EXPECT_TRUE(permanent(b, with(Method::brute_force)).exact.is_zero());
    // Cancellation to exactly zero with signed integers: perm [[1,1],[1,-1]] = 0.
    EXPECT_TRUE(permanent(DenseMatrix<std::int64_t>(2, 2, {1, 1, 1, -1})).exact.is_zero());
}

}  // namespace
}  // namespace pmcount
