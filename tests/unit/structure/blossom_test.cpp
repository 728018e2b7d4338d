// Edmonds' blossom algorithm (maximum_matching, gallai_edmonds on an UndirectedGraph) against
// brute-force maximum matchings, an independent recount of the odd components of G − A, and the
// Gallai–Edmonds sets computed from their definition.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <numeric>

#include "pmcount/structure.hpp"
#include "support/general_graphs.hpp"

namespace pmcount {
namespace {

using test::Rng;

/// mate is a matching of g (symmetric, along edges) with `size` edges.
void expect_valid_matching(const UndirectedGraph& g, const GeneralMatching& m) {
    ASSERT_EQ(m.mate.size(), static_cast<std::size_t>(g.num_vertices()));
    vertex_t matched = 0;
    for (vertex_t v = 0; v < g.num_vertices(); ++v) {
        const vertex_t u = m.mate[static_cast<std::size_t>(v)];
        if (u >= 0) {
            ++matched;
            EXPECT_TRUE(g.has_edge(u, v)) << v << "–" << u;
            EXPECT_EQ(m.mate[static_cast<std::size_t>(u)], v);
        }
    }
    EXPECT_EQ(matched, 2 * m.size);
}

/// The Tutte set leaves exactly odd_components odd components, and Tutte–Berge holds.
void expect_tutte_witness(const UndirectedGraph& g, const GeneralMatching& m) {
    const vertex_t n = g.num_vertices();
    if (m.is_perfect()) {
        EXPECT_TRUE(m.tutte_set.empty());
        EXPECT_EQ(m.odd_components, 0);
        return;
    }
    EXPECT_TRUE(std::is_sorted(m.tutte_set.begin(), m.tutte_set.end()));
    std::vector<char> removed(static_cast<std::size_t>(n), 0);
    for (const vertex_t a : m.tutte_set) {
        removed[static_cast<std::size_t>(a)] = 1;
    }
    int count = 0;
    const std::vector<int> id = test::brute_components(g, removed, count);
    std::vector<int> sizes(static_cast<std::size_t>(count), 0);
    for (const int c : id) {
        if (c >= 0) {
            ++sizes[static_cast<std::size_t>(c)];
        }
    }
    const auto odd = static_cast<vertex_t>(
        std::count_if(sizes.begin(), sizes.end(), [](int s) { return s % 2 == 1; }));
    EXPECT_EQ(odd, m.odd_components);
    EXPECT_EQ(odd - static_cast<vertex_t>(m.tutte_set.size()), n - 2 * m.size);
}

/// Size of the matching that the documented greedy start finds (to see the searches exercised).
vertex_t greedy_size(const UndirectedGraph& g) {
    std::vector<char> used(static_cast<std::size_t>(g.num_vertices()), 0);
    vertex_t size = 0;
    for (vertex_t v = 0; v < g.num_vertices(); ++v) {
        for (const vertex_t u : g.neighbours(v)) {
            if (used[static_cast<std::size_t>(v)] == 0 && used[static_cast<std::size_t>(u)] == 0) {
                used[static_cast<std::size_t>(v)] = used[static_cast<std::size_t>(u)] = 1;
                ++size;
            }
        }
    }
    return size;
}

UndirectedGraph without_edges_at(const UndirectedGraph& g, vertex_t v) {
    test::Edges edges;
    for (const auto& e : g.edges()) {
        if (e.first != v && e.second != v) {
            edges.push_back(e);
        }
    }
    return {g.num_vertices(), edges};
}

TEST(Blossom, MaximumOnRandomGraphsWithTutteWitness) {
    int improved_on_greedy = 0, imperfect = 0, nonempty_barrier = 0;
    for (std::uint64_t seed = 0; seed < 800; ++seed) {
        Rng rng(seed);
        const auto n = static_cast<vertex_t>(rng.below(17));
        const UndirectedGraph g = seed % 3 == 0 ? test::random_cactus(n, rng)
                                                : test::random_graph(n, 40 + seed % 300, rng);
        const GeneralMatching m = maximum_matching(g);
        ASSERT_EQ(m.size, test::brute_matching_size(g)) << "seed " << seed;
        expect_valid_matching(g, m);
        expect_tutte_witness(g, m);
        improved_on_greedy += m.size > greedy_size(g) ? 1 : 0;
        imperfect += m.is_perfect() ? 0 : 1;
        nonempty_barrier += m.tutte_set.empty() ? 0 : 1;
    }
    EXPECT_GT(improved_on_greedy, 100);  // the searches, not the greedy start, did the work
    EXPECT_GT(imperfect, 200);
    EXPECT_GT(nonempty_barrier, 100);
}

TEST(Blossom, GallaiEdmondsSetsMatchTheirDefinition) {
    int in_a = 0, in_c = 0;
    for (std::uint64_t seed = 0; seed < 400; ++seed) {
        Rng rng(5000 + seed);
        const auto n = static_cast<vertex_t>(1 + rng.below(14));
        const UndirectedGraph g = seed % 2 == 0 ? test::random_cactus(n, rng)
                                                : test::random_graph(n, 80 + seed % 200, rng);
        const GallaiEdmonds ge = gallai_edmonds(g);
        const int nu = test::brute_matching_size(g);
        ASSERT_EQ(ge.matching.size, nu);
        // D: vertices some maximum matching misses, i.e. ν(G − v) = ν(G).
        std::vector<GallaiEdmondsPart> expected(static_cast<std::size_t>(n), GallaiEdmondsPart::c);
        for (vertex_t v = 0; v < n; ++v) {
            if (test::brute_matching_size(without_edges_at(g, v)) == nu) {
                expected[static_cast<std::size_t>(v)] = GallaiEdmondsPart::d;
            }
        }
        std::vector<vertex_t> a;
        for (vertex_t v = 0; v < n; ++v) {
            if (expected[static_cast<std::size_t>(v)] == GallaiEdmondsPart::d) {
                continue;
            }
            for (const vertex_t u : g.neighbours(v)) {
                if (expected[static_cast<std::size_t>(u)] == GallaiEdmondsPart::d) {
                    expected[static_cast<std::size_t>(v)] = GallaiEdmondsPart::a;
                    a.push_back(v);
                    break;
                }
            }
        }
        EXPECT_EQ(ge.part, expected) << "seed " << seed;
        EXPECT_EQ(ge.matching.tutte_set, a) << "seed " << seed;
        in_a += static_cast<int>(a.size());
        in_c +=
            static_cast<int>(std::count(expected.begin(), expected.end(), GallaiEdmondsPart::c));
    }
    EXPECT_GT(in_a, 100);
    EXPECT_GT(in_c, 100);
}

TEST(Blossom, SmallNamedGraphs) {
    struct Case {
        const char* name;
        UndirectedGraph g;
        vertex_t size;
        std::vector<vertex_t> tutte_set;
        vertex_t odd_components;
    };
    const std::vector<Case> cases = {
        {"empty", UndirectedGraph(), 0, {}, 0},
        {"isolated vertex", UndirectedGraph(1, {}), 0, {}, 1},
        {"single edge", UndirectedGraph(2, {{0, 1}}), 1, {}, 0},
        {"edge plus isolated vertex", UndirectedGraph(3, {{0, 2}}), 1, {}, 1},
        {"triangle", test::cycle_graph(3), 1, {}, 1},
        {"triangle with a pendant", UndirectedGraph(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}), 2, {}, 0},
        {"star K_{1,3}", UndirectedGraph(4, {{0, 1}, {0, 2}, {0, 3}}), 1, {0}, 3},
        {"two triangles",
         test::disjoint_union({test::cycle_graph(3), test::cycle_graph(3)}),
         2,
         {},
         2},
        {"odd path", test::path_graph(7), 3, {1, 3, 5}, 4},
        {"path of 4", test::path_graph(4), 2, {}, 0},
        {"5-cycle", test::cycle_graph(5), 2, {}, 1},
        {"6-cycle", test::cycle_graph(6), 3, {}, 0},
        {"Petersen", test::petersen_graph(), 5, {}, 0},
        {"K_7", test::complete_graph(7), 3, {}, 1},
        {"K_8", test::complete_graph(8), 4, {}, 0},
        // Two triangles and two pendants at vertex 0: A = {0}, the pendants are the odd
        // components of G − A, the triangles' far edges are C.
        {"bowtie with two pendants",
         UndirectedGraph(7, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {3, 4}, {4, 0}, {0, 5}, {0, 6}}),
         3,
         {0},
         2},
    };
    for (const Case& c : cases) {
        const GeneralMatching m = maximum_matching(c.g);
        EXPECT_EQ(m.size, c.size) << c.name;
        EXPECT_EQ(m.tutte_set, c.tutte_set) << c.name;
        EXPECT_EQ(m.odd_components, c.odd_components) << c.name;
        expect_valid_matching(c.g, m);
        expect_tutte_witness(c.g, m);
    }
}

TEST(Blossom, AugmentsThroughAContractedBlossom) {
    // 5-cycle 0..4 with a pendant 5 at 0. Greedy matches 0–1 and 2–3; the only augmenting path
    // from 4 is 4–3–2–1–0–5, which enters the blossom at its base 4 and leaves it at 0, a vertex
    // that was inner before the blossom 4-0-1-2-3 closed.
    const UndirectedGraph g(6, {{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {0, 5}});
    EXPECT_EQ(greedy_size(g), 2);
    const GeneralMatching m = maximum_matching(g);
    EXPECT_TRUE(m.is_perfect());
    EXPECT_EQ(m.mate, (std::vector<vertex_t>{5, 2, 1, 4, 3, 0}));
}

TEST(Blossom, DeterministicAndIndependentOfRepetition) {
    Rng rng(77);
    const UndirectedGraph g = test::random_graph(300, 15, rng);
    const GeneralMatching first = maximum_matching(g);
    const GeneralMatching second = maximum_matching(g);
    EXPECT_EQ(first.mate, second.mate);
    EXPECT_EQ(first.tutte_set, second.tutte_set);
    expect_valid_matching(g, first);
    expect_tutte_witness(g, first);
}

TEST(Blossom, LongPathsNeedNoRecursion) {
    // A shuffled path of 200001 vertices: greedy leaves many exposed vertices that long
    // augmenting paths (flipped by rematch's explicit stack) must join; one stays exposed.
    const vertex_t n = 200001;
    std::vector<vertex_t> id(static_cast<std::size_t>(n));
    std::iota(id.begin(), id.end(), 0);
    Rng rng(3);
    rng.shuffle(id);
    test::Edges edges;
    for (vertex_t v = 0; v + 1 < n; ++v) {
        edges.emplace_back(id[static_cast<std::size_t>(v)], id[static_cast<std::size_t>(v) + 1]);
    }
    const UndirectedGraph g(n, edges);
    const GeneralMatching m = maximum_matching(g);
    EXPECT_EQ(m.size, n / 2);
    expect_valid_matching(g, m);
    EXPECT_TRUE(m.tutte_set.size() == static_cast<std::size_t>(n / 2));  // every second vertex
    EXPECT_EQ(m.odd_components, n / 2 + 1);
}

TEST(Blossom, TriangularLatticesWithShuffledIds) {
    // Grid plus one diagonal per cell, the ids shuffled so that the greedy start is poor. The odd
    // patches have no perfect matching: a Hungarian tree and a Gallai–Edmonds search over the
    // whole graph follow. Prints the time of each.
    struct Patch {
        vertex_t rows, cols;
    };
    for (const Patch p : {Patch{100, 100}, Patch{101, 101}, Patch{300, 300}, Patch{301, 301}}) {
        const UndirectedGraph g = test::triangular_lattice(p.rows, p.cols, 11);
        const auto start = std::chrono::steady_clock::now();
        const GeneralMatching m = maximum_matching(g);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "[ timing   ] triangular " << p.rows << "x" << p.cols << " ("
                  << g.num_vertices() << " vertices, " << g.num_edges()
                  << " edges): greedy matched " << greedy_size(g) << ", maximum " << m.size
                  << " in " << seconds << " s\n";
        EXPECT_EQ(m.size, g.num_vertices() / 2);
        expect_valid_matching(g, m);
        expect_tutte_witness(g, m);
    }
}

}  // namespace
}  // namespace pmcount
