// The frontier DP's trace on a torus against the frontier sweep without the tiling, the sparse
// Pfaffians of the drawing and brute force: triangular, brick-wall, kagome and square tori of odd
// and even sides, both directions of transfer, weights that repeat in every cell (signed, and
// other than 1); the orbit counts; thread independence; tilings refused (weights or edges not
// invariant, edges across two layers, layers too wide); the planner's choice under --method
// frontier (the trace on the triangular torus, the sweep where the trace would lose).
#include "exact/frontier/frontier_torus.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <tuple>

#include "exact/brute_force.hpp"
#include "exact/frontier/frontier.hpp"
#include "exact/planar/pfaffian.hpp"
#include "exact/planar/surface.hpp"
#include "pmcount/count.hpp"
#include "support/drawn_tori.hpp"
#include "support/engine_run.hpp"

namespace pmcount::exact {
namespace {

using test::Drawn;
using test::lattice;
using test::matrix_of;
using test::ones;
using test::threads;

/// The trace, which must apply; `description` receives the transfer's.
BigInt trace(const SparseMatrix<std::int64_t>& a, const Embedding& embedding, int thread_count,
             std::string* description = nullptr) {
    const std::optional<TorusTransfer> t = torus_transfer(a, *embedding.cells);
    if (!t) {
        ADD_FAILURE() << "the tiling was refused";
        return BigInt(-1);
    }
    if (description != nullptr) {
        *description = t->description;
    }
    // Through the engine's entry point, as the planner calls it: the embedding selects the trace.
    run::EngineRun run = threads(thread_count);
    run.embedding = &embedding;
    const ExactOutcome out = frontier_hafnian_exact(a, run);
    EXPECT_NE(out.arithmetic.find("trace of the transfer matrix"), std::string::npos)
        << out.arithmetic;
    EXPECT_EQ(out.value, frontier_torus_exact(a, *t, threads(1)).value);
    return out.value;
}

/// The sparse Pfaffians of the drawing (no tiling).
BigInt pfaffians(const SparseMatrix<std::int64_t>& a, const Embedding& embedding) {
    Embedding plain = embedding;
    plain.cells.reset();
    return surface_pfaffian_exact(a, plain, threads(2)).value;
}

TEST(FrontierTorus, LatticesMatchTheSweepAndThePfaffians) {
    struct Case {
        const char* name;
        vertex_t rows, cols;
    };
    const std::vector<Case> cases{
        {"tri", 3, 4},    {"tri", 4, 3},    {"tri", 4, 4},    {"tri", 3, 6},    {"tri", 6, 5},
        {"tri", 5, 6},    {"tri", 7, 4},    {"tri", 8, 8},    {"hex", 6, 6},    {"hex", 6, 8},
        {"hex", 8, 6},    {"kagome", 4, 4}, {"kagome", 3, 4}, {"kagome", 4, 3}, {"square", 4, 4},
        {"square", 6, 6}, {"square", 4, 6}, {"square", 8, 6}, {"square", 6, 10}};
    for (const Case& c : cases) {
        const Drawn d = lattice(c.name, c.rows, c.cols);
        const auto a = ones(d.graph);
        const std::string where =
            std::string(c.name) + " " + std::to_string(c.rows) + "×" + std::to_string(c.cols);
        std::string description;
        const BigInt got = trace(a, d.embedding, 2, &description);
        EXPECT_EQ(got, frontier_hafnian_exact(a, threads(2)).value) << where << ": " << description;
        EXPECT_EQ(got, pfaffians(a, d.embedding)) << where;
        EXPECT_GT(got.sign(), 0) << where;
    }
    // The brick wall's 2×2 cells leave a 4×4 torus 2 cells a side: no transfer.
    const Drawn hex = lattice("hex", 4, 4);
    EXPECT_FALSE(torus_transfer(ones(hex.graph), *hex.embedding.cells).has_value());
}

TEST(FrontierTorus, SmallToriMatchBruteForce) {
    // Brute force over the pairings of ≤ 16 vertices, an oracle that shares nothing with the DP.
    for (const auto& [name, rows, cols] : std::vector<std::tuple<std::string, vertex_t, vertex_t>>{
             {"tri", 3, 4}, {"tri", 4, 3}, {"tri", 4, 4}, {"tri", 3, 5}}) {
        const Drawn d = lattice(name, rows, cols);
        ASSERT_LE(d.graph.num_vertices(), 16) << name;
        const auto a = ones(d.graph);
        EXPECT_EQ(trace(a, d.embedding, 1), hafnian_brute_force_exact(a.to_dense())) << name;
    }
}

TEST(FrontierTorus, WeightsThatRepeatInEveryCellSignedOrNot) {
    // A weight per direction of the triangular lattice (other than 1: the Montgomery lanes) and
    // per pair of sites of the kagome one, negative ones included.
    std::mt19937_64 rng(35);
    for (int trial = 0; trial < 12; ++trial) {
        const bool tri = trial % 2 == 0;
        const vertex_t rows = tri ? 4 + static_cast<vertex_t>(rng() % 3) : 3;
        const vertex_t cols = tri ? 3 + static_cast<vertex_t>(rng() % 4) : 4;
        const Drawn d = lattice(tri ? "tri" : "kagome", rows, cols);
        std::vector<std::int64_t> w(16);
        for (auto& x : w) {
            x = static_cast<std::int64_t>(rng() % 9) - 4;
            x = x == 0 ? 3 : x;
        }
        const auto weight = [&](vertex_t u, vertex_t v) -> std::int64_t {
            if (!tri) {
                return w[static_cast<std::size_t>(3 * std::min(u % 3, v % 3) +
                                                  std::max(u % 3, v % 3))];
            }
            const vertex_t di = ((v / cols - u / cols) % rows + rows) % rows;
            const vertex_t dj = ((v % cols - u % cols) % cols + cols) % cols;
            return w[static_cast<std::size_t>((di == 0 ? 0 : 1) + (dj == 0 ? 0 : 2))];
        };
        const auto a = matrix_of(d.graph, weight);
        EXPECT_EQ(trace(a, d.embedding, 2), frontier_hafnian_exact(a, threads(2)).value)
            << "trial " << trial;
    }
    // Large weights: the count needs more primes than the 0-1 one.
    const Drawn d = lattice("tri", 4, 5);
    const auto big =
        matrix_of(d.graph, [](vertex_t, vertex_t) { return (std::int64_t{1} << 40) + 3; });
    EXPECT_EQ(trace(big, d.embedding, 2), frontier_hafnian_exact(big, threads(2)).value);
}

TEST(FrontierTorus, OrbitsAndDirections) {
    // Binary necklaces: 14 of length 6, 352 of length 12 (OEIS A000031).
    const auto representatives = [](const char* name, vertex_t rows, vertex_t cols) {
        const Drawn d = lattice(name, rows, cols);
        const std::optional<TorusTransfer> t = torus_transfer(ones(d.graph), *d.embedding.cells);
        return t ? t->representatives : 0;
    };
    EXPECT_EQ(representatives("tri", 8, 6), 14u);
    EXPECT_EQ(representatives("tri", 6, 8), 14u);  // across the columns: layers of 6
    EXPECT_EQ(representatives("tri", 12, 12), 352u);
    const Drawn d = lattice("tri", 9, 4);
    const std::optional<TorusTransfer> t = torus_transfer(ones(d.graph), *d.embedding.cells);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->layer_size, 4);
    EXPECT_EQ(t->layers, 9);
    EXPECT_NE(t->description.find("across 9 rows"), std::string::npos) << t->description;
    // An odd number of vertices: no perfect matching.
    const Drawn odd = lattice("tri", 3, 5);
    EXPECT_EQ(trace(ones(odd.graph), odd.embedding, 1), BigInt(0));
}

TEST(FrontierTorus, TheThreadCountDoesNotChangeTheValue) {
    const Drawn d = lattice("tri", 6, 8);
    for (const std::int64_t w : {1, -3}) {
        const auto a = matrix_of(d.graph, [w](vertex_t, vertex_t) { return w; });
        EXPECT_EQ(trace(a, d.embedding, 1), trace(a, d.embedding, 3)) << w;
    }
}

TEST(FrontierTorus, TilingsThatDoNotHoldAreRefused) {
    const Drawn d = lattice("tri", 6, 6);
    const auto a = ones(d.graph);
    ASSERT_TRUE(torus_transfer(a, *d.embedding.cells).has_value());
    // One weight changed: not invariant; the engine then sweeps.
    const auto bumped =
        matrix_of(d.graph, [](vertex_t u, vertex_t v) { return u == 0 && v == 1 ? 2 : 1; });
    EXPECT_FALSE(torus_transfer(bumped, *d.embedding.cells).has_value());
    run::EngineRun run = threads(1);
    run.embedding = &d.embedding;
    const ExactOutcome swept = frontier_hafnian_exact(bumped, run);
    EXPECT_EQ(swept.arithmetic.find("trace"), std::string::npos) << swept.arithmetic;
    EXPECT_EQ(swept.value, pfaffians(bumped, d.embedding));
    // One edge gone.
    std::vector<UndirectedGraph::Edge> edges = d.graph.edges();
    edges.erase(edges.begin() + 5);
    EXPECT_FALSE(
        torus_transfer(ones(UndirectedGraph(d.graph.num_vertices(), edges)), *d.embedding.cells)
            .has_value());
    // Edges two cells apart in both directions (a knight's torus on 5×5 cells): no layering.
    std::vector<UndirectedGraph::Edge> knight;
    for (vertex_t i = 0; i < 5; ++i) {
        for (vertex_t j = 0; j < 5; ++j) {
            knight.emplace_back(5 * i + j, 5 * ((i + 2) % 5) + (j + 1) % 5);
            knight.emplace_back(5 * i + j, 5 * ((i + 1) % 5) + (j + 2) % 5);
        }
    }
    EXPECT_FALSE(
        torus_transfer(ones(UndirectedGraph(25, knight)), TorusCells{5, 5, 1, {}}).has_value());
    // Layers too wide for the dense states: 30 sites each way.
    const Drawn wide = lattice("tri", 30, 30);
    EXPECT_FALSE(torus_transfer(ones(wide.graph), *wide.embedding.cells).has_value());
    // A wide torus that is short the other way: layers across its 3 columns.
    const Drawn strip = lattice("tri", 30, 3);
    const std::optional<TorusTransfer> t =
        torus_transfer(ones(strip.graph), *strip.embedding.cells);
    ASSERT_TRUE(t.has_value());
    EXPECT_EQ(t->layer_size, 3);
}

TEST(FrontierTorus, ThePlannerTakesTheTraceWhereItIsFaster) {
    CountOptions options;
    options.method = Method::frontier;
    options.threads = 2;
    // The triangular torus: the sweep's frontier is two rows wide (width 17, 2^16 states a step
    // against the trace's 2^9): the trace is chosen, and the count equals the Pfaffians'.
    const Drawn tri = lattice("tri", 8, 8);
    const CountResult counted = count_perfect_matchings(tri.graph, tri.embedding, options);
    EXPECT_NE(counted.arithmetic.find("trace of the transfer matrix"), std::string::npos)
        << counted.arithmetic;
    EXPECT_EQ(counted.exact, pfaffians(ones(tri.graph), tri.embedding));
    // The brick wall repeats only under two-cell steps: grouped 2×2, its trace loses to the
    // sweep, which the planner keeps.
    const Drawn hex = lattice("hex", 8, 8);
    const CountResult swept = count_perfect_matchings(hex.graph, hex.embedding, options);
    EXPECT_EQ(swept.arithmetic.find("trace"), std::string::npos) << swept.arithmetic;
    EXPECT_EQ(swept.exact, pfaffians(ones(hex.graph), hex.embedding));
}

}  // namespace
}  // namespace pmcount::exact
