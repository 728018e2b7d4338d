// allowed_edges against the union of all perfect matchings, listed one by one.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <numeric>

#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "structure/general.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::structure {
namespace {

using test::Rng;

std::set<UndirectedGraph::Edge> edge_set(const UndirectedGraph& g) {
    const auto edges = g.edges();
    return {edges.begin(), edges.end()};
}

/// A graph with a perfect matching: a random perfect matching plus random extra edges (or a
/// random graph that happens to have one).
UndirectedGraph random_matchable(vertex_t n, std::uint64_t per_mille, Rng& rng) {
    std::vector<vertex_t> id(static_cast<std::size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    rng.shuffle(id);
    test::Edges edges = test::random_graph(n, per_mille, rng).edges();
    for (vertex_t i = 0; i + 1 < n; i += 2) {
        edges.emplace_back(id[static_cast<std::size_t>(i)], id[static_cast<std::size_t>(i) + 1]);
    }
    return {n, edges};
}

/// Another perfect matching of g: the blossom algorithm on g with shuffled ids, mapped back.
std::vector<vertex_t> shuffled_perfect_matching(const UndirectedGraph& g, Rng& rng) {
    const vertex_t n = g.num_vertices();
    std::vector<vertex_t> to_new(static_cast<std::size_t>(n)), to_old(static_cast<std::size_t>(n));
    std::iota(to_new.begin(), to_new.end(), 0);
    rng.shuffle(to_new);
    for (vertex_t v = 0; v < n; ++v) {
        to_old[static_cast<std::size_t>(to_new[static_cast<std::size_t>(v)])] = v;
    }
    test::Edges edges;
    for (const auto& [u, v] : g.edges()) {
        edges.emplace_back(to_new[static_cast<std::size_t>(u)],
                           to_new[static_cast<std::size_t>(v)]);
    }
    const GeneralMatching m = maximum_matching(UndirectedGraph(n, edges));
    std::vector<vertex_t> mate(static_cast<std::size_t>(n));
    for (vertex_t v = 0; v < n; ++v) {
        const vertex_t w = m.mate[static_cast<std::size_t>(to_new[static_cast<std::size_t>(v)])];
        mate[static_cast<std::size_t>(v)] = to_old[static_cast<std::size_t>(w)];
    }
    return mate;
}

TEST(AllowedEdges, UnionOfAllPerfectMatchingsOnRandomGraphs) {
    int with_forbidden = 0, with_alternatives = 0, checked = 0;
    for (std::uint64_t seed = 0; seed < 500; ++seed) {
        Rng rng(seed);
        const auto n = static_cast<vertex_t>(2 * (1 + rng.below(7)));
        UndirectedGraph g =
            seed % 4 == 0 ? test::random_cactus(n, rng) : random_matchable(n, 50 + seed % 350, rng);
        const GeneralMatching m = maximum_matching(g);
        if (!m.is_perfect()) {
            continue;
        }
        ++checked;
        const auto expected = test::brute_allowed_edges(g);
        const UndirectedGraph allowed = allowed_edges(g, m.mate);
        ASSERT_EQ(allowed.num_vertices(), g.num_vertices());
        EXPECT_EQ(edge_set(allowed), expected) << "seed " << seed;
        // The answer does not depend on the perfect matching given.
        EXPECT_EQ(edge_set(allowed_edges(g, shuffled_perfect_matching(g, rng))), expected)
            << "seed " << seed;
        with_forbidden += expected.size() < static_cast<std::size_t>(g.num_edges()) ? 1 : 0;
        with_alternatives += expected.size() > static_cast<std::size_t>(n / 2) ? 1 : 0;
    }
    EXPECT_GT(checked, 300);
    EXPECT_GT(with_forbidden, 100);
    EXPECT_GT(with_alternatives, 100);
}

TEST(AllowedEdges, NamedGraphs) {
    const auto allowed_of = [](const UndirectedGraph& g) {
        return edge_set(allowed_edges(g, maximum_matching(g).mate));
    };
    EXPECT_EQ(allowed_edges(UndirectedGraph(), {}).num_vertices(), 0);
    EXPECT_EQ(allowed_of(UndirectedGraph(2, {{0, 1}})), (std::set<UndirectedGraph::Edge>{{0, 1}}));
    // Path 0-1-2-3: the middle edge is in no perfect matching.
    EXPECT_EQ(allowed_of(test::path_graph(4)), (std::set<UndirectedGraph::Edge>{{0, 1}, {2, 3}}));
    // Two triangles joined by the bridge 2–3, which every perfect matching uses.
    const UndirectedGraph triangles(6, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}, {5, 3}});
    EXPECT_EQ(allowed_of(triangles), (std::set<UndirectedGraph::Edge>{{0, 1}, {2, 3}, {4, 5}}));
    // Every edge of a bridgeless cubic graph (Petersen), of K_6 and of an even cycle is allowed.
    for (const UndirectedGraph& g :
         {test::petersen_graph(), test::complete_graph(6), test::cycle_graph(8)}) {
        EXPECT_EQ(allowed_of(g), edge_set(g));
    }
}

TEST(AllowedEdges, RefusesWhatIsNotAPerfectMatching) {
    const UndirectedGraph g = test::path_graph(4);
    EXPECT_THROW(allowed_edges(g, {1, 0, 3}), InvalidArgument);       // wrong length
    EXPECT_THROW(allowed_edges(g, {1, 0, -1, -1}), InvalidArgument);  // not perfect
    EXPECT_THROW(allowed_edges(g, {1, 2, 3, 0}), InvalidArgument);    // not symmetric
    EXPECT_THROW(allowed_edges(g, {3, 2, 1, 0}), InvalidArgument);    // 0–3 is no edge
    EXPECT_THROW(allowed_edges(g, {1, 0, 3, 4}), InvalidArgument);    // out of range
    EXPECT_NO_THROW(allowed_edges(g, {1, 0, 3, 2}));
}

TEST(AllowedEdges, LargerGraphsTimed) {
    // Prints the time against the bound V·(V + 2E). On a triangular lattice every search stops
    // early; on a corona (a pendant at each vertex of a random tree) the perfect matching is
    // unique and each search ends at once; a random matching plus sparse extra edges has many
    // forbidden edges and long searches.
    struct Case {
        const char* name;
        UndirectedGraph g;
    };
    Rng rng(42);
    test::Edges corona;
    const vertex_t half = 20000;
    for (vertex_t v = 1; v < half; ++v) {
        corona.emplace_back(static_cast<vertex_t>(rng.below(static_cast<std::uint64_t>(v))), v);
    }
    for (vertex_t v = 0; v < half; ++v) {
        corona.emplace_back(v, half + v);
    }
    test::Edges sparse;  // a random perfect matching of 10^4 vertices plus 5000 random edges
    const vertex_t n = 10000;
    std::vector<vertex_t> id(static_cast<std::size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    rng.shuffle(id);
    for (vertex_t i = 0; i < n; i += 2) {
        sparse.emplace_back(id[static_cast<std::size_t>(i)], id[static_cast<std::size_t>(i) + 1]);
    }
    for (int k = 0; k < n / 2; ++k) {
        const auto u = static_cast<vertex_t>(rng.below(n));
        const auto v = static_cast<vertex_t>(rng.below(n));
        if (u != v) {
            sparse.emplace_back(u, v);
        }
    }
    // Two k×k square grids and 4000 edges from black squares of the first to white squares of
    // the second: no perfect matching uses one (as between Dulmage–Mendelsohn blocks), and each
    // search from a black square of the first grid explores all of it before it knows that.
    const vertex_t k = 100;
    test::Edges grids;
    const auto square = [&](vertex_t grid, vertex_t r, vertex_t c) {
        return grid * k * k + r * k + c;
    };
    for (vertex_t grid = 0; grid < 2; ++grid) {
        for (vertex_t r = 0; r < k; ++r) {
            for (vertex_t c = 0; c < k; ++c) {
                if (c + 1 < k) {
                    grids.emplace_back(square(grid, r, c), square(grid, r, c + 1));
                }
                if (r + 1 < k) {
                    grids.emplace_back(square(grid, r, c), square(grid, r + 1, c));
                }
            }
        }
    }
    const auto grid_edges = static_cast<edge_t>(grids.size());
    for (int e = 0; e < 4000; ++e) {
        const auto r1 = static_cast<vertex_t>(rng.below(k)),
                   r2 = static_cast<vertex_t>(rng.below(k));
        const auto c1 = static_cast<vertex_t>(rng.below(k / 2)),
                   c2 = static_cast<vertex_t>(rng.below(k / 2));
        grids.emplace_back(square(0, r1, 2 * c1 + r1 % 2), square(1, r2, 2 * c2 + 1 - r2 % 2));
    }
    std::vector<Case> cases;
    cases.push_back({"triangular 100x100", test::triangular_lattice(100, 100, 3)});
    cases.push_back({"triangular 300x300", test::triangular_lattice(300, 300, 3)});
    cases.push_back({"corona of a random tree", UndirectedGraph(2 * half, corona)});
    cases.push_back({"random perfect matching + n/2 edges", UndirectedGraph(n, sparse)});
    cases.push_back({"two 100x100 grids + 4000 one-way edges", UndirectedGraph(2 * k * k, grids)});
    for (const Case& c : cases) {
        const GeneralMatching m = maximum_matching(c.g);
        ASSERT_TRUE(m.is_perfect()) << c.name;
        const auto start = std::chrono::steady_clock::now();
        const UndirectedGraph allowed = allowed_edges(c.g, m.mate);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "[ timing   ] allowed_edges, " << c.name << " (" << c.g.num_vertices()
                  << " vertices, " << c.g.num_edges() << " edges, bound "
                  << allowed_edges_work_bound(c.g) << "): " << allowed.num_edges() << " allowed in "
                  << seconds << " s\n";
        EXPECT_GE(allowed.num_edges(), c.g.num_vertices() / 2);
        if (c.g.num_vertices() == 2 * half) {
            EXPECT_EQ(allowed.num_edges(), half);  // the corona's pendant edges only
        }
        if (c.g.num_vertices() == 2 * k * k) {
            EXPECT_EQ(allowed.num_edges(), grid_edges);  // every grid edge, no joining edge
        }
        for (vertex_t v = 0; v < c.g.num_vertices(); ++v) {
            EXPECT_TRUE(allowed.has_edge(v, m.mate[static_cast<std::size_t>(v)]));
        }
    }
}

}  // namespace
}  // namespace pmcount::structure
