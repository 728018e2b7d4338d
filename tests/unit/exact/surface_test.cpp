// Pfaffians on surfaces: perfect matchings of graphs embedded on the torus (and of subgraphs of
// such graphs, whose genus may drop to 0) against the hafnian engine and a count over all
// pairings; square tori of both parities, triangular and brick-wall tori; signed integer and
// real weights; every sign of the four orientations exercised (components of genus 1 side by
// side); random rotation systems (genus 0 to 2 counted, above refused) and tori with a rotation
// out of order (genus 2, beside a torus); embeddings that do not fit the graph rejected.
#include "exact/planar/surface.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <set>

#include "exact/brute_force.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "exact/planar/pfaffian.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "support/engine_run.hpp"

namespace pmcount::exact {
namespace {

using test::threads;

/// A graph on a rows×cols board wrapped both ways, vertex (r, c) = r·cols + c, with its
/// rotation system: `steps` lists the neighbour offsets in one cyclic order around every vertex
/// (square tori of odd sides, which the generators refuse).
struct EmbeddedGraph {
    vertex_t n = 0;
    std::vector<UndirectedGraph::Edge> edges;
    Embedding embedding;
};

EmbeddedGraph wrapped_board(int rows, int cols, const std::vector<std::pair<int, int>>& steps) {
    EmbeddedGraph g;
    g.n = rows * cols;
    g.embedding.rotation.resize(static_cast<std::size_t>(g.n));
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const vertex_t v = r * cols + c;
            for (const auto& [dr, dc] : steps) {
                const int r2 = (r + dr + rows) % rows, c2 = (c + dc + cols) % cols;
                const vertex_t w = r2 * cols + c2;
                g.embedding.rotation[static_cast<std::size_t>(v)].push_back(w);
                if (v < w) {
                    g.edges.emplace_back(v, w);
                }
            }
        }
    }
    return g;
}

/// Square lattice: right, down, left, up (every vertex clockwise in the usual drawing).
EmbeddedGraph square_torus(int rows, int cols) {
    return wrapped_board(rows, cols, {{0, 1}, {1, 0}, {0, -1}, {-1, 0}});
}

/// A generated torus (pmcount/generate.hpp) with its drawing.
EmbeddedGraph drawn(const UndirectedGraph& graph, Embedding embedding) {
    return {graph.num_vertices(), graph.edges(), std::move(embedding)};
}

/// Triangular lattice: (i, j) joined to (i, j+1), (i+1, j) and (i+1, j+1).
EmbeddedGraph triangular_torus(int rows, int cols) {
    return drawn(triangular_graph(rows, cols, true), triangular_torus_embedding(rows, cols));
}

/// Brick wall (even sides): horizontal edges everywhere, vertical (i, j)–(i+1, j) when i + j is
/// even.
EmbeddedGraph brick_torus(int rows, int cols) {
    return drawn(brick_wall_torus_graph(rows, cols), brick_wall_torus_embedding(rows, cols));
}

template <class W>
SparseMatrix<W> weighted(const EmbeddedGraph& g, const std::function<W()>& weight) {
    std::vector<Triplet<W>> entries;
    for (const auto& [u, v] : g.edges) {
        const W w = weight();
        entries.push_back({u, v, w});
        entries.push_back({v, u, w});
    }
    return {g.n, g.n, std::move(entries)};
}

BigInt oracle(const SparseMatrix<std::int64_t>& a) {
    const DenseMatrix<std::int64_t> dense = a.to_dense();
    return a.rows() <= 16 ? hafnian_brute_force_exact(dense)
                          : hafnian_exact(dense, threads(2)).value;
}

TEST(SurfacePfaffian, SquareToriOfEitherParityMatchTheHafnian) {
    int counted = 0;
    for (int rows = 3; rows <= 6; ++rows) {
        for (int cols = rows; cols <= 6; ++cols) {
            const EmbeddedGraph g = square_torus(rows, cols);
            const auto a = weighted<std::int64_t>(g, [] { return 1; });
            EXPECT_EQ(surface_genus(UndirectedGraph(g.n, g.edges), g.embedding).total, 1);
            const BigInt got = surface_pfaffian_exact(a, g.embedding, threads(2)).value;
            EXPECT_EQ(got, oracle(a)) << rows << "×" << cols;
            counted += got.sign() > 0 ? 1 : 0;
        }
    }
    EXPECT_GE(counted, 6);  // 4×4: 272, and every torus with an even number of sites has some
}

TEST(SurfacePfaffian, TriangularAndBrickToriMatchTheHafnian) {
    for (const auto& [rows, cols] :
         std::vector<std::pair<int, int>>{{3, 4}, {4, 4}, {4, 5}, {4, 6}, {5, 6}}) {
        const EmbeddedGraph tri = triangular_torus(rows, cols);
        const auto a = weighted<std::int64_t>(tri, [] { return 1; });
        EXPECT_EQ(surface_pfaffian_exact(a, tri.embedding, threads(2)).value, oracle(a))
            << "triangular " << rows << "×" << cols;
    }
    for (const auto& [rows, cols] :
         std::vector<std::pair<int, int>>{{4, 4}, {4, 6}, {6, 6}, {4, 8}}) {
        const EmbeddedGraph brick = brick_torus(rows, cols);
        const auto a = weighted<std::int64_t>(brick, [] { return 1; });
        EXPECT_EQ(surface_genus(UndirectedGraph(brick.n, brick.edges), brick.embedding).total, 1);
        EXPECT_EQ(surface_pfaffian_exact(a, brick.embedding, threads(2)).value, oracle(a))
            << "brick wall " << rows << "×" << cols;
    }
}

TEST(SurfacePfaffian, SignedWeightsAndDeletedEdgesMatchTheHafnian) {
    // Deleting edges keeps a rotation system (genus 1 or less): the planar case on the way.
    std::mt19937_64 rng(35);
    int planar = 0;
    for (int trial = 0; trial < 60; ++trial) {
        const int rows = 3 + static_cast<int>(rng() % 4), cols = 4 + static_cast<int>(rng() % 3);
        const bool triangular = trial % 2 == 1;
        const double keep = trial < 20 ? 1.0 : 0.55 + 0.4 * static_cast<double>(rng() % 100) / 100;
        const EmbeddedGraph full =
            triangular ? triangular_torus(rows, cols) : square_torus(rows, cols);
        EmbeddedGraph g = full;
        g.edges.clear();
        std::vector<std::int64_t> w;
        for (const auto& e : full.edges) {
            if (static_cast<double>(rng() % 1000) < keep * 1000) {
                g.edges.push_back(e);
            }
        }
        std::vector<Triplet<std::int64_t>> entries;
        for (const auto& [u, v] : g.edges) {
            const std::int64_t x = static_cast<std::int64_t>(rng() % 11) - 5;
            entries.push_back({u, v, x});
            entries.push_back({v, u, x});
        }
        const SparseMatrix<std::int64_t> a(g.n, g.n, std::move(entries));
        planar += surface_genus(UndirectedGraph(g.n, g.edges), g.embedding).total == 0 ? 1 : 0;
        EXPECT_EQ(surface_pfaffian_exact(a, g.embedding, threads(1)).value, oracle(a))
            << "trial " << trial;
    }
    EXPECT_GE(planar, 1);
}

TEST(SurfacePfaffian, ComponentsOfGenusOneMultiply) {
    // Two triangular 3×4 tori side by side: 16 orientations, signs the products of each
    // torus's own. (On square tori the Arf-invariant-1 Pfaffian vanishes: they would not see
    // a wrong sign.)
    const EmbeddedGraph t = triangular_torus(3, 4);
    EmbeddedGraph two;
    two.n = 2 * t.n;
    two.embedding.rotation = t.embedding.rotation;
    for (const auto& around : t.embedding.rotation) {
        std::vector<vertex_t> shifted;
        for (const vertex_t w : around) {
            shifted.push_back(w + t.n);
        }
        two.embedding.rotation.push_back(shifted);
    }
    std::vector<Triplet<std::int64_t>> entries;
    for (int copy = 0; copy < 2; ++copy) {
        for (const auto& [u, v] : t.edges) {
            entries.push_back({u + copy * t.n, v + copy * t.n, 1});
            entries.push_back({v + copy * t.n, u + copy * t.n, 1});
        }
    }
    const SparseMatrix<std::int64_t> a(two.n, two.n, std::move(entries));
    const BigInt one = oracle(weighted<std::int64_t>(t, [] { return 1; }));
    EXPECT_EQ(surface_pfaffian_exact(a, two.embedding, threads(2)).value, one * one);
}

/// Two neighbours of v swapped in its rotation: the same graph drawn on a surface of higher genus
/// (one face more or fewer around v).
Embedding swapped(Embedding drawing, vertex_t v) {
    auto& around = drawing.rotation[static_cast<std::size_t>(v)];
    std::swap(around[0], around[1]);
    return drawing;
}

/// Two drawings side by side: the second's vertices follow the first's.
EmbeddedGraph side_by_side(const EmbeddedGraph& x, const EmbeddedGraph& y) {
    EmbeddedGraph both = x;
    both.n = x.n + y.n;
    for (const auto& around : y.embedding.rotation) {
        std::vector<vertex_t> shifted;
        for (const vertex_t w : around) {
            shifted.push_back(w + x.n);
        }
        both.embedding.rotation.push_back(shifted);
    }
    for (const auto& [u, v] : y.edges) {
        both.edges.emplace_back(u + x.n, v + x.n);
    }
    return both;
}

TEST(SurfacePfaffian, RandomRotationSystemsOfGenusUpToTwoMatchTheHafnian) {
    // Any rotation system is a drawing on some surface: random ones of random graphs give genus
    // 0, 1, 2 and above; up to 2 the 4^g Pfaffians (signed weights) equal the hafnian, above it
    // the drawing is refused.
    std::mt19937_64 rng(2);
    std::vector<int> seen(4, 0);
    for (int trial = 0; trial < 160; ++trial) {
        const vertex_t n = 6 + 2 * static_cast<vertex_t>(rng() % 5);
        const std::size_t target = static_cast<std::size_t>(n) * (5 + rng() % 6) / 4;
        std::set<std::pair<vertex_t, vertex_t>> edges;
        for (vertex_t v = 0; v + 1 < n; v += 2) {  // a perfect matching, so most counts are > 0
            edges.emplace(v, v + 1);
        }
        while (edges.size() < target) {
            const auto u = static_cast<vertex_t>(rng() % static_cast<std::uint64_t>(n));
            const auto v = static_cast<vertex_t>(rng() % static_cast<std::uint64_t>(n));
            if (u != v) {
                edges.emplace(std::min(u, v), std::max(u, v));
            }
        }
        EmbeddedGraph g;
        g.n = n;
        g.edges.assign(edges.begin(), edges.end());
        g.embedding.rotation.resize(static_cast<std::size_t>(n));
        std::vector<Triplet<std::int64_t>> entries;
        for (const auto& [u, v] : g.edges) {
            g.embedding.rotation[static_cast<std::size_t>(u)].push_back(v);
            g.embedding.rotation[static_cast<std::size_t>(v)].push_back(u);
            const std::int64_t x = static_cast<std::int64_t>(rng() % 8) - 3;  // no zero: the
            entries.push_back({u, v, x == 0 ? 5 : x});  // drawing's genus is the pattern's
            entries.push_back({v, u, x == 0 ? 5 : x});
        }
        for (auto& around : g.embedding.rotation) {
            std::shuffle(around.begin(), around.end(), rng);
        }
        const SparseMatrix<std::int64_t> a(n, n, std::move(entries));
        const int genus = surface_genus(UndirectedGraph(g.n, g.edges), g.embedding).largest;
        ++seen[static_cast<std::size_t>(std::min(genus, 3))];
        if (genus > kMaxComponentGenus) {
            EXPECT_THROW(surface_pfaffian_exact(a, g.embedding, threads(1)), InvalidArgument);
            continue;
        }
        EXPECT_EQ(surface_pfaffian_exact(a, g.embedding, threads(1)).value, oracle(a))
            << "trial " << trial << ", genus " << genus;
    }
    for (std::size_t genus = 0; genus < seen.size(); ++genus) {
        EXPECT_GE(seen[genus], 8) << "drawings of genus " << genus;
    }
}

TEST(SurfacePfaffian, ToriWithARotationOutOfOrderAreDrawnOnTheDoubleTorus) {
    // One swap at a vertex of degree 6 or 4 raises the genus to 2 (16 Pfaffians): the same
    // count. A genus-2 drawing beside a torus: 64 orientations, the counts multiply.
    const EmbeddedGraph tri = triangular_torus(4, 6), square = square_torus(4, 5);
    for (const EmbeddedGraph* g : {&tri, &square}) {
        EmbeddedGraph twisted = *g;
        twisted.embedding = swapped(g->embedding, 5);
        const auto a = weighted<std::int64_t>(twisted, [] { return 1; });
        EXPECT_EQ(surface_genus(UndirectedGraph(g->n, g->edges), twisted.embedding).total, 2);
        EXPECT_EQ(surface_pfaffian_exact(a, twisted.embedding, threads(2)).value, oracle(a));
        // Two swaps far apart: genus 3, refused.
        const Embedding three = swapped(twisted.embedding, 17);
        EXPECT_EQ(surface_genus(UndirectedGraph(g->n, g->edges), three).total, 3);
        EXPECT_THROW(surface_pfaffian_exact(a, three, threads(1)), InvalidArgument);
    }
    EmbeddedGraph small = triangular_torus(3, 4);
    small.embedding = swapped(small.embedding, 2);
    const EmbeddedGraph both = side_by_side(small, triangular_torus(3, 4));
    ASSERT_EQ(surface_genus(UndirectedGraph(both.n, both.edges), both.embedding).total, 3);
    std::mt19937_64 rng(5);
    const auto a =
        weighted<std::int64_t>(both, [&] { return static_cast<std::int64_t>(rng() % 5) - 1; });
    EXPECT_EQ(surface_pfaffian_exact(a, both.embedding, threads(2)).value, oracle(a));
}

TEST(SurfacePfaffian, FloatingWithinItsEstimate) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 2.0);
    EmbeddedGraph double_torus = triangular_torus(4, 4);  // genus 2: 16 Pfaffians
    double_torus.embedding = swapped(double_torus.embedding, 6);
    for (const EmbeddedGraph& g :
         {triangular_torus(4, 4), square_torus(4, 4), square_torus(3, 4), double_torus}) {
        const auto a = weighted<double>(g, [&] { return u(rng); });
        const FloatOutcome out = surface_pfaffian_real(a, g.embedding);
        const double value = std::ldexp(out.mantissa.real(), static_cast<int>(out.exponent2));
        const double error = std::ldexp(out.abs_error_mantissa, static_cast<int>(out.exponent2));
        const double truth = hafnian_brute_force(a.to_dense());
        EXPECT_LE(std::fabs(value - truth), error + 1e-13 * std::fabs(truth)) << value;
        EXPECT_LT(error, 1e-10 * std::fabs(truth));  // a few hundred pivots: not a loose figure
        EXPECT_EQ(surface_genus(UndirectedGraph(g.n, g.edges), g.embedding).total,
                  g.embedding.rotation == double_torus.embedding.rotation ? 2 : 1);
    }
}

TEST(SurfacePfaffian, EmbeddingsThatDoNotFitAreRejected) {
    const EmbeddedGraph g = square_torus(4, 4);
    const auto a = weighted<std::int64_t>(g, [] { return 1; });
    Embedding short_one = g.embedding;
    short_one.rotation.pop_back();
    EXPECT_THROW(surface_pfaffian_exact(a, short_one, threads(1)), InvalidArgument);
    Embedding missing = g.embedding;
    missing.rotation[3].pop_back();
    EXPECT_THROW(surface_pfaffian_exact(a, missing, threads(1)), InvalidArgument);
    Embedding repeated = g.embedding;
    repeated.rotation[3].push_back(repeated.rotation[3].front());
    EXPECT_THROW(surface_pfaffian_exact(a, repeated, threads(1)), InvalidArgument);
    Embedding outside = g.embedding;
    outside.rotation[5].push_back(99);
    EXPECT_THROW(surface_pfaffian_exact(a, outside, threads(1)), InvalidArgument);
}

}  // namespace
}  // namespace pmcount::exact
