// AlternatingForest on its own: searches from many roots at once (augmenting paths between two
// trees), exclusion of vertices, and the stop callback, against brute-force matching sizes.
#include "structure/alternating_forest.hpp"

#include <gtest/gtest.h>

#include "support/general_graphs.hpp"

namespace pmcount::structure {
namespace {

using test::Rng;

std::vector<vertex_t> exposed_vertices(const std::vector<vertex_t>& mate) {
    std::vector<vertex_t> exposed;
    for (std::size_t v = 0; v < mate.size(); ++v) {
        if (mate[v] < 0) {
            exposed.push_back(static_cast<vertex_t>(v));
        }
    }
    return exposed;
}

bool is_matching(const UndirectedGraph& g, const std::vector<vertex_t>& mate) {
    for (vertex_t v = 0; v < g.num_vertices(); ++v) {
        const vertex_t u = mate[static_cast<std::size_t>(v)];
        if (u >= 0 && (!g.has_edge(u, v) || mate[static_cast<std::size_t>(u)] != v)) {
            return false;
        }
    }
    return true;
}

TEST(AlternatingForest, ForestsFromAllExposedVerticesReachAMaximumMatching) {
    int between_trees = 0;
    for (std::uint64_t seed = 0; seed < 500; ++seed) {
        Rng rng(9000 + seed);
        const auto n = static_cast<vertex_t>(2 + rng.below(15));
        const UndirectedGraph g = test::random_graph(n, 100 + seed % 400, rng);
        // A random maximal-ish start: edges in shuffled order, each taken if both ends are free.
        std::vector<vertex_t> mate(static_cast<std::size_t>(n), -1);
        auto edges = g.edges();
        rng.shuffle(edges);
        for (const auto& [u, v] : edges) {
            if (mate[static_cast<std::size_t>(u)] < 0 && mate[static_cast<std::size_t>(v)] < 0 &&
                rng.chance(700)) {
                mate[static_cast<std::size_t>(u)] = v;
                mate[static_cast<std::size_t>(v)] = u;
            }
        }
        AlternatingForest forest(g);
        while (true) {
            const auto roots = exposed_vertices(mate);
            const std::size_t before = roots.size();
            if (!forest.grow(mate, roots, nullptr)) {
                break;
            }
            ASSERT_TRUE(is_matching(g, mate)) << "seed " << seed;
            ASSERT_EQ(exposed_vertices(mate).size(), before - 2) << "seed " << seed;
            between_trees += 1;
            forest.clear();
        }
        EXPECT_EQ(static_cast<int>(n - exposed_vertices(mate).size()) / 2,
                  test::brute_matching_size(g))
            << "seed " << seed;
        forest.clear();
    }
    EXPECT_GT(between_trees, 300);
}

TEST(AlternatingForest, TwoTreesJoinedThroughABlossom) {
    // Roots 0 and 5; matched 1–2, 3–4, 6–7. Tree 0 grows 0 → 1 → 2 → 3 → 4 and closes the blossom
    // 2-3-4 (3, inner until then, turns outer); tree 5 grows 5 → 6 → 7, and 7's edge to 3 joins
    // the trees: the path 0=1–2=4–3=7–6=5 leaves the blossom through its bridge 4–2.
    const UndirectedGraph g(8, {{0, 1}, {1, 2}, {2, 3}, {2, 4}, {3, 4}, {3, 7}, {7, 6}, {6, 5}});
    std::vector<vertex_t> mate{-1, 2, 1, 4, 3, -1, 7, 6};
    AlternatingForest forest(g);
    const std::vector<vertex_t> roots{0, 5};
    ASSERT_TRUE(forest.grow(mate, roots, nullptr));
    EXPECT_EQ(mate, (std::vector<vertex_t>{1, 0, 4, 7, 2, 6, 5, 3}));
}

TEST(AlternatingForest, ExcludedVerticesAreNeverEntered) {
    // Path 0-1-2-3 with 1–2 matched: from 0 the only augmenting path ends at 3; excluding 3
    // leaves none, and the search labels 0, 1, 2 only.
    const UndirectedGraph g = test::path_graph(4);
    std::vector<vertex_t> mate{-1, 2, 1, -1};
    std::vector<char> excluded{0, 0, 0, 1};
    AlternatingForest forest(g);
    const vertex_t root = 0;
    EXPECT_FALSE(forest.grow(mate, {&root, 1}, &excluded));
    EXPECT_EQ(forest.touched(), (std::vector<vertex_t>{0, 1, 2}));
    EXPECT_EQ(forest.label(1), AlternatingForest::Label::inner);
    EXPECT_EQ(forest.label(2), AlternatingForest::Label::outer);
    EXPECT_EQ(forest.label(3), AlternatingForest::Label::unlabelled);
    forest.clear();
    excluded[3] = 0;
    EXPECT_TRUE(forest.grow(mate, {&root, 1}, &excluded));
    EXPECT_EQ(mate, (std::vector<vertex_t>{1, 0, 3, 2}));
}

TEST(AlternatingForest, StopsWhenTheCallbackSaysSo) {
    // A long path matched 1–2, 3–4, ...; from 0 the outer vertices appear as 2, 4, 6, ...
    const UndirectedGraph g = test::path_graph(11);
    std::vector<vertex_t> mate{-1, 2, 1, 4, 3, 6, 5, 8, 7, 10, 9};
    AlternatingForest forest(g);
    const vertex_t root = 0;
    std::vector<vertex_t> seen;
    EXPECT_FALSE(forest.grow(mate, {&root, 1}, nullptr, [&](vertex_t v) {
        seen.push_back(v);
        return v == 4;
    }));
    EXPECT_EQ(seen, (std::vector<vertex_t>{0, 2, 4}));
    EXPECT_EQ(forest.label(6), AlternatingForest::Label::unlabelled);
}

}  // namespace
}  // namespace pmcount::structure
