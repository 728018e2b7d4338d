// Hopcroft–Karp against an independent augmenting-path matcher, and its Hall witness.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <functional>
#include <set>

#include "pmcount/structure.hpp"

namespace pmcount {
namespace {

BipartiteGraph random_graph(vertex_t left, vertex_t right, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t u = 0; u < left; ++u) {
        for (vertex_t v = 0; v < right; ++v) {
            if (coin(rng)) {
                edges.emplace_back(u, v);
            }
        }
    }
    return {left, right, edges};
}

/// Kuhn's simple augmenting-path algorithm, O(VE): the reference size of a maximum matching.
vertex_t kuhn_matching_size(const BipartiteGraph& g) {
    std::vector<vertex_t> match(static_cast<std::size_t>(g.n_right()), -1);
    vertex_t size = 0;
    for (vertex_t u = 0; u < g.n_left(); ++u) {
        std::vector<char> seen(static_cast<std::size_t>(g.n_right()), 0);
        std::function<bool(vertex_t)> augment = [&](vertex_t x) {
            for (const vertex_t v : g.right_neighbours(x)) {
                if (seen[static_cast<std::size_t>(v)] != 0) {
                    continue;
                }
                seen[static_cast<std::size_t>(v)] = 1;
                if (match[static_cast<std::size_t>(v)] < 0 ||
                    augment(match[static_cast<std::size_t>(v)])) {
                    match[static_cast<std::size_t>(v)] = x;
                    return true;
                }
            }
            return false;
        };
        size += augment(u) ? 1 : 0;
    }
    return size;
}

void expect_valid(const BipartiteGraph& g, const Matching& m) {
    vertex_t count = 0;
    for (vertex_t u = 0; u < g.n_left(); ++u) {
        const vertex_t v = m.row_match[static_cast<std::size_t>(u)];
        if (v >= 0) {
            ++count;
            EXPECT_TRUE(g.has_edge(u, v));
            EXPECT_EQ(m.col_match[static_cast<std::size_t>(v)], u);
        }
    }
    EXPECT_EQ(count, m.size);
    for (vertex_t v = 0; v < g.n_right(); ++v) {
        const vertex_t u = m.col_match[static_cast<std::size_t>(v)];
        if (u >= 0) {
            EXPECT_EQ(m.row_match[static_cast<std::size_t>(u)], v);
        }
    }
}

TEST(HopcroftKarp, MaximumOnRandomGraphsWithAndWithoutGreedyStart) {
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        const vertex_t left = 1 + static_cast<vertex_t>(seed % 23);
        const vertex_t right = 1 + static_cast<vertex_t>((seed * 7) % 23);
        const BipartiteGraph g = random_graph(left, right, 0.02 + 0.01 * static_cast<double>(seed % 20), seed);
        const vertex_t reference = kuhn_matching_size(g);
        for (const bool greedy : {true, false}) {
            const Matching m = maximum_matching(g, greedy);
            EXPECT_EQ(m.size, reference) << "seed " << seed;
            expect_valid(g, m);
        }
    }
}

TEST(HopcroftKarp, HallWitnessHasTooFewNeighbours) {
    int witnesses = 0;
    for (std::uint64_t seed = 0; seed < 300; ++seed) {
        const vertex_t n = 2 + static_cast<vertex_t>(seed % 15);
        const BipartiteGraph g = random_graph(n, n, 0.12, 1000 + seed);
        const Matching m = maximum_matching(g);
        if (m.size == n) {
            EXPECT_TRUE(m.hall_violator.empty());
            EXPECT_TRUE(m.is_perfect());
            continue;
        }
        ++witnesses;
        ASSERT_FALSE(m.hall_violator.empty());
        std::set<vertex_t> neighbours;
        for (const vertex_t u : m.hall_violator) {
            for (const vertex_t v : g.right_neighbours(u)) {
                neighbours.insert(v);
            }
        }
        EXPECT_EQ(std::vector<vertex_t>(neighbours.begin(), neighbours.end()), m.hall_neighbours);
        EXPECT_LT(neighbours.size(), m.hall_violator.size()) << "seed " << seed;
    }
    EXPECT_GT(witnesses, 50);  // the test exercises the witness often
}

TEST(HopcroftKarp, EmptyAndUnbalancedGraphs) {
    const Matching empty = maximum_matching(BipartiteGraph());
    EXPECT_EQ(empty.size, 0);
    EXPECT_TRUE(empty.is_perfect());
    // 3 left vertices all adjacent only to right vertex 0.
    const Matching star = maximum_matching(BipartiteGraph(3, 2, {{0, 0}, {1, 0}, {2, 0}}));
    EXPECT_EQ(star.size, 1);
    EXPECT_EQ(star.hall_violator, (std::vector<vertex_t>{0, 1, 2}));
    EXPECT_EQ(star.hall_neighbours, (std::vector<vertex_t>{0}));
}

TEST(HopcroftKarp, LargeSparseGraphQuickly) {
    // A 200000-vertex cycle-plus-chords graph: needs the iterative searches (no recursion).
    const vertex_t n = 200000;
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t u = 0; u < n; ++u) {
        edges.emplace_back(u, (u + 1) % n);
        edges.emplace_back(u, (u + 7) % n);
    }
    const Matching m = maximum_matching(BipartiteGraph(n, n, edges), false);
    EXPECT_EQ(m.size, n);
}

}  // namespace
}  // namespace pmcount
