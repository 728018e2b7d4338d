// connected_components, two_colouring and induced_subgraph against union–find components, a
// search over all 2-colourings, and adjacency tests pair by pair.
#include "structure/general.hpp"

#include <gtest/gtest.h>

#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::structure {
namespace {

using test::Rng;

UndirectedGraph random_small_graph(std::uint64_t seed, vertex_t max_n) {
    Rng rng(seed);
    const auto n = static_cast<vertex_t>(rng.below(static_cast<std::uint64_t>(max_n) + 1));
    return seed % 3 == 0 ? test::random_cactus(n, rng)
                         : test::random_graph(n, 30 + seed % 250, rng);
}

TEST(ConnectedComponents, MatchUnionFindOnRandomGraphs) {
    int several = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const UndirectedGraph g = random_small_graph(seed, 30);
        const Components c = connected_components(g);
        int count = 0;
        const std::vector<int> expected = test::brute_components(
            g, std::vector<char>(static_cast<std::size_t>(g.num_vertices()), 0), count);
        ASSERT_EQ(c.id.size(), expected.size());
        for (std::size_t v = 0; v < expected.size(); ++v) {
            EXPECT_EQ(c.id[v], expected[v]) << "seed " << seed << " vertex " << v;
        }
        EXPECT_EQ(c.count, count);
        several += count > 1 ? 1 : 0;
    }
    EXPECT_GT(several, 100);
}

TEST(ConnectedComponents, EdgeCases) {
    EXPECT_EQ(connected_components(UndirectedGraph()).count, 0);
    EXPECT_TRUE(connected_components(UndirectedGraph()).id.empty());
    const Components isolated = connected_components(UndirectedGraph(3, {}));
    EXPECT_EQ(isolated.count, 3);
    EXPECT_EQ(isolated.id, (std::vector<vertex_t>{0, 1, 2}));
    const Components mixed = connected_components(UndirectedGraph(5, {{4, 1}, {3, 0}}));
    EXPECT_EQ(mixed.id, (std::vector<vertex_t>{0, 1, 2, 0, 1}));
    EXPECT_EQ(mixed.count, 3);
    // A 10^6-vertex path: the search is iterative.
    EXPECT_EQ(connected_components(test::path_graph(1000000)).count, 1);
}

/// Whether any assignment of two colours is proper (exhaustive, n ≤ 16).
bool brute_bipartite(const UndirectedGraph& g) {
    const auto edges = g.edges();
    for (std::uint32_t colour = 0; colour < (1u << g.num_vertices()); ++colour) {
        bool proper = true;
        for (const auto& [u, v] : edges) {
            proper = proper && ((colour >> u) & 1u) != ((colour >> v) & 1u);
        }
        if (proper) {
            return true;
        }
    }
    return false;
}

TEST(TwoColouring, ProperExactlyWhenSomeColouringIs) {
    int bipartite = 0, not_bipartite = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        const UndirectedGraph g = random_small_graph(100 + seed, 14);
        const auto colour = two_colouring(g);
        ASSERT_EQ(colour.has_value(), brute_bipartite(g)) << "seed " << seed;
        if (!colour) {
            ++not_bipartite;
            continue;
        }
        ++bipartite;
        ASSERT_EQ(colour->size(), static_cast<std::size_t>(g.num_vertices()));
        for (const auto& [u, v] : g.edges()) {
            EXPECT_NE((*colour)[static_cast<std::size_t>(u)],
                      (*colour)[static_cast<std::size_t>(v)]);
        }
        const Components c = connected_components(g);
        std::vector<char> seen(static_cast<std::size_t>(c.count), 0);
        for (vertex_t v = 0; v < g.num_vertices(); ++v) {
            EXPECT_LE((*colour)[static_cast<std::size_t>(v)], 1);
            char& first = seen[static_cast<std::size_t>(c.id[static_cast<std::size_t>(v)])];
            if (first == 0) {
                EXPECT_EQ((*colour)[static_cast<std::size_t>(v)], 0) << "smallest of its component";
                first = 1;
            }
        }
    }
    EXPECT_GT(bipartite, 100);
    EXPECT_GT(not_bipartite, 100);
}

TEST(TwoColouring, NamedGraphs) {
    EXPECT_EQ(two_colouring(UndirectedGraph()), std::vector<std::uint8_t>{});
    EXPECT_EQ(two_colouring(UndirectedGraph(2, {})), (std::vector<std::uint8_t>{0, 0}));
    EXPECT_EQ(two_colouring(test::path_graph(4)), (std::vector<std::uint8_t>{0, 1, 0, 1}));
    EXPECT_EQ(two_colouring(test::cycle_graph(6)), (std::vector<std::uint8_t>{0, 1, 0, 1, 0, 1}));
    EXPECT_FALSE(two_colouring(test::cycle_graph(7)));
    EXPECT_FALSE(two_colouring(test::petersen_graph()));
    EXPECT_FALSE(two_colouring(test::complete_graph(3)));
    // An odd cycle in the second of two components.
    EXPECT_FALSE(two_colouring(test::disjoint_union({test::path_graph(5), test::cycle_graph(5)})));
    EXPECT_TRUE(two_colouring(test::triangular_lattice(1, 50, 0)));
    EXPECT_FALSE(two_colouring(test::triangular_lattice(2, 2, 0)));
}

TEST(Bipartition, SidesAndEdgesAreTheGraphsOwn) {
    EXPECT_FALSE(bipartition(test::cycle_graph(7)));
    // Two components, the second listed from a high vertex: the smallest of each goes left.
    const UndirectedGraph g(7, {{6, 4}, {4, 5}, {0, 1}, {1, 2}, {2, 3}, {3, 0}});
    const std::optional<Bipartition> sides = bipartition(g);
    ASSERT_TRUE(sides);
    EXPECT_EQ(sides->left, (std::vector<vertex_t>{0, 2, 4}));
    EXPECT_EQ(sides->right, (std::vector<vertex_t>{1, 3, 5, 6}));
    ASSERT_EQ(sides->graph.num_edges(), g.num_edges());
    for (const auto& [l, r] : sides->graph.edges()) {
        EXPECT_TRUE(g.has_edge(sides->left[static_cast<std::size_t>(l)],
                               sides->right[static_cast<std::size_t>(r)]));
    }
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const UndirectedGraph h = random_small_graph(900 + seed, 16);
        EXPECT_EQ(bipartition(h).has_value(), two_colouring(h).has_value()) << "seed " << seed;
    }
}

TEST(InducedSubgraph, KeepsExactlyTheEdgesAmongTheChosenVertices) {
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const UndirectedGraph g = random_small_graph(700 + seed, 20);
        Rng rng(seed);
        std::vector<vertex_t> chosen;
        for (vertex_t v = 0; v < g.num_vertices(); ++v) {
            if (rng.chance(600)) {
                chosen.push_back(v);
            }
        }
        rng.shuffle(chosen);
        const UndirectedGraph h = induced_subgraph(g, chosen);
        ASSERT_EQ(h.num_vertices(), static_cast<vertex_t>(chosen.size()));
        for (std::size_t i = 0; i < chosen.size(); ++i) {
            for (std::size_t j = 0; j < chosen.size(); ++j) {
                EXPECT_EQ(h.has_edge(static_cast<vertex_t>(i), static_cast<vertex_t>(j)),
                          g.has_edge(chosen[i], chosen[j]));
            }
        }
    }
    EXPECT_EQ(induced_subgraph(test::path_graph(3), {}).num_vertices(), 0);
    EXPECT_THROW(induced_subgraph(test::path_graph(3), {0, 1, 0}), InvalidArgument);
    EXPECT_THROW(induced_subgraph(test::path_graph(3), {3}), InvalidArgument);
    EXPECT_THROW(induced_subgraph(test::path_graph(3), {-1}), InvalidArgument);
}

}  // namespace
}  // namespace pmcount::structure
