// The torus's Pfaffians by Fourier transform against the sparse Pfaffians of the same drawing
// (its tiling removed), the hafnian and Kasteleyn's closed form: square, triangular, brick-wall
// and kagome tori, sides odd and even, weights that repeat in every cell (signed), cells that
// have to be grouped; tilings that do not hold (weights or edges not invariant, a scrambled
// placement) are refused and counted the sparse way; the GF(2) orientation and the sign checks
// on their own.
#include "exact/planar/torus_fourier.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "exact/frontier/frontier.hpp"
#include "exact/planar/pfaffian.hpp"
#include "exact/planar/surface.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/structure.hpp"
#include "support/drawn_tori.hpp"
#include "support/engine_run.hpp"

namespace pmcount::exact {
namespace {

using test::Drawn;
using test::lattice;
using test::matrix_of;
using test::ones;
using test::threads;

/// The sparse Pfaffians of the same drawing (no tiling given).
BigInt sparse(const SparseMatrix<std::int64_t>& a, const Embedding& embedding) {
    Embedding plain = embedding;
    plain.cells.reset();
    return surface_pfaffian_exact(a, plain, threads(2)).value;
}

/// The Fourier path, which must apply.
BigInt fourier(const SparseMatrix<std::int64_t>& a, const Embedding& embedding) {
    EXPECT_TRUE(torus_grid(a, embedding).has_value());
    const std::optional<ExactOutcome> out = torus_fourier_exact(a, embedding, threads(2));
    if (!out) {
        ADD_FAILURE() << "the Fourier path refused the tiling";
        return BigInt(-1);
    }
    EXPECT_NE(out->arithmetic.find("Fourier"), std::string::npos);
    return out->value;
}

TEST(TorusFourier, LatticesMatchTheSparsePfaffiansAndTheHafnian) {
    struct Case {
        const char* name;
        vertex_t rows, cols;
        int sites;  // of the grid the transform runs over
    };
    // Triangular 1 site a cell, grouped in pairs; the brick wall's cells in 2×2 (its drawing is
    // invariant only under steps of two cells along a side); kagome's 3 sites grouped to 6; the
    // square lattice's single site has no translation-invariant Kasteleyn orientation: 2.
    const std::vector<Case> cases{{"tri", 3, 6, 2},    {"tri", 6, 3, 2},    {"tri", 4, 6, 2},
                                  {"tri", 6, 7, 2},    {"tri", 5, 8, 2},    {"tri", 8, 8, 2},
                                  {"hex", 6, 6, 4},    {"hex", 6, 8, 4},    {"hex", 10, 6, 4},
                                  {"kagome", 3, 6, 6}, {"kagome", 6, 6, 6}, {"kagome", 4, 6, 6},
                                  {"square", 6, 6, 2}, {"square", 6, 8, 2}, {"square", 10, 6, 2}};
    for (const Case& c : cases) {
        const Drawn d = lattice(c.name, c.rows, c.cols);
        const auto a = ones(d.graph);
        const std::optional<TorusGrid> grid = torus_grid(a, d.embedding);
        ASSERT_TRUE(grid.has_value()) << c.name << " " << c.rows << "×" << c.cols;
        EXPECT_EQ(grid->sites, c.sites) << c.name;
        const BigInt got = fourier(a, d.embedding);
        EXPECT_EQ(got, sparse(a, d.embedding)) << c.name << " " << c.rows << "×" << c.cols;
        EXPECT_EQ(got, frontier_hafnian_exact(a, threads(2)).value)
            << c.name << " " << c.rows << "×" << c.cols;
        EXPECT_GT(got.sign(), 0) << c.name;
    }
}

TEST(TorusFourier, WeightsThatRepeatInEveryCellSignedOrNot) {
    // A weight per direction of the triangular lattice and per pair of sites of the kagome one,
    // negative ones included: the Pfaffians cancel in earnest and the signs must all be right.
    std::mt19937_64 rng(35);
    for (int trial = 0; trial < 12; ++trial) {
        const bool tri = trial % 2 == 0;
        const vertex_t rows = tri ? 4 + 2 * static_cast<vertex_t>(rng() % 2) : 3;
        const vertex_t cols = 6;
        const Drawn d = lattice(tri ? "tri" : "kagome", rows, cols);
        std::vector<std::int64_t> w(16);
        for (auto& x : w) {
            x = static_cast<std::int64_t>(rng() % 9) - 4;
            x = x == 0 ? 3 : x;
        }
        const auto weight = [&](vertex_t u, vertex_t v) -> std::int64_t {
            if (!tri) {  // by the two sites' kinds, unordered
                return w[static_cast<std::size_t>(3 * std::min(u % 3, v % 3) +
                                                  std::max(u % 3, v % 3))];
            }
            const vertex_t du = ((v / cols - u / cols) % rows + rows) % rows;
            const vertex_t dj = ((v % cols - u % cols) % cols + cols) % cols;
            return w[static_cast<std::size_t>((du == 0 ? 0 : 1) + (dj == 0 ? 0 : 2))];
        };
        const auto a = matrix_of(d.graph, weight);
        const BigInt got = fourier(a, d.embedding);
        EXPECT_EQ(got, sparse(a, d.embedding)) << "trial " << trial;
        EXPECT_EQ(got, frontier_hafnian_exact(a, threads(2)).value) << "trial " << trial;
    }
}

TEST(TorusFourier, SquareTorusMatchesKasteleynsFormula) {
    for (const vertex_t side : {16, 32, 64}) {
        const Drawn d = lattice("square", side, side + 2);
        const BigInt got = fourier(ones(d.graph), d.embedding);
        const long double expected = log_torus_tilings(side, side + 2);
        const long double log_got = std::log(std::stold(got.to_string()));
        EXPECT_NEAR(static_cast<double>(log_got / expected), 1.0, 1e-12) << side;
    }
    // 4×4: 272, where the grouped grid would be too small (sides of 3 cells at least): sparse.
    const Drawn small = lattice("square", 4, 4);
    EXPECT_FALSE(torus_grid(ones(small.graph), small.embedding).has_value());
    EXPECT_EQ(surface_pfaffian_exact(ones(small.graph), small.embedding, threads(1)).value,
              BigInt(272));
}

TEST(TorusFourier, TilingsThatDoNotHoldAreRefused) {
    const Drawn d = lattice("tri", 6, 6);
    const auto a = ones(d.graph);
    ASSERT_TRUE(torus_grid(a, d.embedding).has_value());
    // One weight changed: no longer invariant.
    const auto bumped =
        matrix_of(d.graph, [](vertex_t u, vertex_t v) { return u == 0 && v == 1 ? 2 : 1; });
    EXPECT_FALSE(torus_grid(bumped, d.embedding).has_value());
    EXPECT_EQ(surface_pfaffian_exact(bumped, d.embedding, threads(1)).value,
              frontier_hafnian_exact(bumped, threads(1)).value);
    // One edge gone: its class no longer in every cell.
    std::vector<UndirectedGraph::Edge> edges = d.graph.edges();
    edges.erase(edges.begin() + 5);
    const auto fewer = ones(UndirectedGraph(d.graph.num_vertices(), edges));
    EXPECT_FALSE(torus_grid(fewer, d.embedding).has_value());
    EXPECT_EQ(surface_pfaffian_exact(fewer, d.embedding, threads(1)).value,
              frontier_hafnian_exact(fewer, threads(1)).value);
    // A placement that is no translation: two vertices swapped.
    const auto with_cells = [&](vertex_t rows, std::vector<vertex_t> place) {
        return Embedding{d.embedding.rotation, TorusCells{rows, 6, 1, std::move(place)}};
    };
    std::vector<vertex_t> place(36);
    for (vertex_t v = 0; v < 36; ++v) {
        place[static_cast<std::size_t>(v)] = v;
    }
    EXPECT_TRUE(torus_grid(a, with_cells(6, place)).has_value());
    std::swap(place[0], place[7]);
    EXPECT_FALSE(torus_grid(a, with_cells(6, place)).has_value());
    // Placements out of range or repeated, a grid of the wrong size.
    place[0] = 1;
    EXPECT_FALSE(torus_grid(a, with_cells(6, place)).has_value());
    place[0] = 36;
    EXPECT_FALSE(torus_grid(a, with_cells(6, place)).has_value());
    const Embedding wrong_size = with_cells(4, {});
    EXPECT_FALSE(torus_grid(a, wrong_size).has_value());
    EXPECT_EQ(surface_pfaffian_exact(a, wrong_size, threads(1)).value, sparse(a, d.embedding));
}

TEST(TorusFourier, OrientationByClassesAndTheSignChecks) {
    // The square lattice's one-site cell: every face has two edges of each class, walked once
    // each way, so no choice makes it odd.
    const Drawn d = lattice("square", 6, 6);
    const UndirectedGraph& g = d.graph;
    const std::vector<UndirectedGraph::Edge> edges = g.edges();
    std::vector<int> one_class(edges.size());
    std::vector<std::int8_t> direction(edges.size());
    for (std::size_t e = 0; e < edges.size(); ++e) {
        const auto [u, v] = edges[e];
        // Horizontal or vertical by the cells (place) of the two ends.
        const vertex_t pu = d.embedding.cells->place[static_cast<std::size_t>(u)];
        const vertex_t pv = d.embedding.cells->place[static_cast<std::size_t>(v)];
        const bool horizontal = pu / 6 == pv / 6;
        one_class[e] = horizontal ? 0 : 1;
        const vertex_t step =
            horizontal ? ((pv % 6 - pu % 6) + 6) % 6 : ((pv / 6 - pu / 6) + 6) % 6;
        direction[e] = step == 1 ? 1 : -1;
    }
    EXPECT_FALSE(class_kasteleyn_orientation(g, d.embedding, one_class, direction, 2).has_value());
    // One class per edge: any Kasteleyn orientation qualifies, and the solution is one.
    std::vector<int> own(edges.size());
    for (std::size_t e = 0; e < own.size(); ++e) {
        own[e] = static_cast<int>(e);
    }
    const std::vector<std::int8_t> forward(edges.size(), 1);
    const auto small = lattice("tri", 3, 4);
    const std::vector<UndirectedGraph::Edge> small_edges = small.graph.edges();
    std::vector<int> small_own(small_edges.size());
    for (std::size_t e = 0; e < small_own.size(); ++e) {
        small_own[e] = static_cast<int>(e);
    }
    const auto solved = class_kasteleyn_orientation(small.graph, small.embedding, small_own,
                                                    std::vector<std::int8_t>(small_edges.size(), 1),
                                                    static_cast<int>(small_own.size()));
    ASSERT_TRUE(solved.has_value());
    const GeneralMatching m = maximum_matching(small.graph);
    ASSERT_TRUE(m.is_perfect());
    // surface_signs: one orientation is not four; four copies of one class are refused; an
    // orientation with an even face is refused.
    EXPECT_FALSE(surface_signs(small.graph, small.embedding, m.mate, {*solved}).has_value());
    EXPECT_FALSE(
        surface_signs(small.graph, small.embedding, m.mate, {*solved, *solved, *solved, *solved})
            .has_value());
    const SurfaceOrientations good = surface_orientations(small.graph, small.embedding, m.mate);
    const auto signs = surface_signs(small.graph, small.embedding, m.mate, good.orientations);
    ASSERT_TRUE(signs.has_value());
    EXPECT_EQ(*signs, good.signs);
    std::vector<std::vector<std::int8_t>> broken = good.orientations;
    broken[2][0] = static_cast<std::int8_t>(-broken[2][0]);
    EXPECT_FALSE(surface_signs(small.graph, small.embedding, m.mate, broken).has_value());
}

}  // namespace
}  // namespace pmcount::exact
