// split_at_cut_vertices against brute force: blocks from their definition (two edges are in one
// block iff no vertex separates them), the parity rule applied to the components of G − v found
// by union–find, perfect matchings counted over all pairings, and the Tutte witness recounted.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <iostream>
#include <map>
#include <string>

#include "structure/general.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::structure {
namespace {

using test::Rng;
using Pieces = std::vector<std::vector<vertex_t>>;

/// Block of each edge (index into g.edges()): e and f share a block iff for every vertex c their
/// ends other than c are connected in G − c.
std::vector<int> brute_edge_blocks(const UndirectedGraph& g) {
    const auto edges = g.edges();
    const vertex_t n = g.num_vertices();
    std::vector<std::vector<int>> component_without(static_cast<std::size_t>(n));
    for (vertex_t c = 0; c < n; ++c) {
        std::vector<char> removed(static_cast<std::size_t>(n), 0);
        removed[static_cast<std::size_t>(c)] = 1;
        int count = 0;
        component_without[static_cast<std::size_t>(c)] = test::brute_components(g, removed, count);
    }
    const auto end_without = [](const UndirectedGraph::Edge& e, vertex_t c) {
        return e.first == c ? e.second : e.first;
    };
    std::vector<int> block(edges.size(), -1);
    int blocks = 0;
    for (std::size_t e = 0; e < edges.size(); ++e) {
        if (block[e] >= 0) {
            continue;
        }
        block[e] = blocks;
        for (std::size_t f = e + 1; f < edges.size(); ++f) {
            bool together = true;
            for (vertex_t c = 0; c < n && together; ++c) {
                const auto& comp = component_without[static_cast<std::size_t>(c)];
                together = comp[static_cast<std::size_t>(end_without(edges[e], c))] ==
                           comp[static_cast<std::size_t>(end_without(edges[f], c))];
            }
            if (together) {
                block[f] = blocks;
            }
        }
        ++blocks;
    }
    return block;
}

struct Expected {
    bool feasible = true;
    Pieces pieces;
    vertex_t witness = -1;
    Pieces odd_components;
};

Pieces sorted_groups(const std::vector<int>& group_of, const std::vector<char>& keep) {
    std::map<int, std::vector<vertex_t>> groups;
    for (std::size_t v = 0; v < group_of.size(); ++v) {
        if (keep[v] != 0) {
            groups[group_of[v]].push_back(static_cast<vertex_t>(v));
        }
    }
    Pieces out;
    for (auto& [id, members] : groups) {
        out.push_back(std::move(members));
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// The documented rule, computed from scratch: components of G − v by union–find, blocks by
/// brute_edge_blocks, each component rooted at its smallest vertex.
Expected brute_split(const UndirectedGraph& g) {
    const vertex_t n = g.num_vertices();
    const auto edges = g.edges();
    Expected x;
    int count = 0;
    const std::vector<int> component =
        test::brute_components(g, std::vector<char>(static_cast<std::size_t>(n), 0), count);
    std::vector<int> component_size(static_cast<std::size_t>(count), 0);
    std::vector<vertex_t> component_root(static_cast<std::size_t>(count), n);
    for (vertex_t v = 0; v < n; ++v) {
        const auto k = static_cast<std::size_t>(component[static_cast<std::size_t>(v)]);
        ++component_size[k];
        component_root[k] = std::min(component_root[k], v);
    }
    x.odd_components = sorted_groups(component, std::vector<char>(static_cast<std::size_t>(n), 1));
    x.odd_components.erase(std::remove_if(x.odd_components.begin(), x.odd_components.end(),
                                          [](const auto& c) { return c.size() % 2 == 0; }),
                           x.odd_components.end());
    if (!x.odd_components.empty()) {
        x.feasible = false;
        return x;
    }
    const std::vector<int> edge_block = brute_edge_blocks(g);
    const auto block_of_edge = [&](vertex_t u, vertex_t v) {
        const auto it = std::lower_bound(edges.begin(), edges.end(),
                                         UndirectedGraph::Edge{std::min(u, v), std::max(u, v)});
        return edge_block[static_cast<std::size_t>(it - edges.begin())];
    };
    std::vector<int> assigned(static_cast<std::size_t>(n), -1);
    for (vertex_t v = 0; v < n && x.feasible; ++v) {
        std::vector<char> removed(static_cast<std::size_t>(n), 0);
        removed[static_cast<std::size_t>(v)] = 1;
        int parts = 0;
        const std::vector<int> without = test::brute_components(g, removed, parts);
        std::vector<int> size(static_cast<std::size_t>(parts), 0);
        for (const int p : without) {
            if (p >= 0) {
                ++size[static_cast<std::size_t>(p)];
            }
        }
        const vertex_t root =
            component_root[static_cast<std::size_t>(component[static_cast<std::size_t>(v)])];
        const int parent_part = root == v ? -1 : without[static_cast<std::size_t>(root)];
        std::vector<int> odd_children;
        for (int p = 0; p < parts; ++p) {
            if (p != parent_part && size[static_cast<std::size_t>(p)] % 2 == 1) {
                odd_children.push_back(p);
            }
        }
        if (odd_children.size() >= 2) {
            x.feasible = false;
            x.witness = v;
            std::vector<char> keep(static_cast<std::size_t>(n), 0);
            for (vertex_t u = 0; u < n; ++u) {
                const int p = without[static_cast<std::size_t>(u)];
                keep[static_cast<std::size_t>(u)] =
                    p >= 0 && size[static_cast<std::size_t>(p)] % 2 == 1;
            }
            x.odd_components = sorted_groups(without, keep);
            break;
        }
        const int into = odd_children.empty() ? parent_part : odd_children.front();
        for (const vertex_t u : g.neighbours(v)) {
            if (without[static_cast<std::size_t>(u)] == into) {
                assigned[static_cast<std::size_t>(v)] = block_of_edge(u, v);
                break;
            }
        }
    }
    if (x.feasible) {
        x.pieces = sorted_groups(assigned, std::vector<char>(static_cast<std::size_t>(n), 1));
    }
    return x;
}

void expect_split(const UndirectedGraph& g, const CutVertexSplit& s, const char* what) {
    const Expected x = brute_split(g);
    ASSERT_EQ(s.feasible, x.feasible) << what;
    EXPECT_EQ(s.pieces, x.pieces) << what;
    EXPECT_EQ(s.witness, x.witness) << what;
    EXPECT_EQ(s.odd_components, x.odd_components) << what;
    test::PerfectMatchingCounter whole(g);
    if (!s.feasible) {
        EXPECT_EQ(whole.count_all(), 0u) << what;
        const std::size_t tutte = s.witness < 0 ? 0 : 1;
        EXPECT_GT(s.odd_components.size(), tutte) << what;
        return;
    }
    std::uint64_t product = 1;
    for (const auto& piece : s.pieces) {
        EXPECT_EQ(piece.size() % 2, 0u) << what;
        const UndirectedGraph h = induced_subgraph(g, piece);
        product *= test::PerfectMatchingCounter(h).count_all();
    }
    EXPECT_EQ(product, whole.count_all()) << what;
}

TEST(SplitAtCutVertices, MatchesTheRuleAndTheCountsOnRandomGraphs) {
    int split_into_several = 0, infeasible_by_cut_vertex = 0, feasible_without_matching = 0;
    for (std::uint64_t seed = 0; seed < 1000; ++seed) {
        Rng rng(20000 + seed);
        // Mostly even orders: odd ones stop at the first parity check.
        const auto n = static_cast<vertex_t>(seed % 5 == 0 ? rng.below(17) : 2 * rng.below(9));
        UndirectedGraph g;
        switch (seed % 4) {
            case 0:
            case 1:
                g = test::random_cactus(n, rng);
                break;
            case 2:
                g = test::random_graph(n, 120 + seed % 250, rng);
                break;
            default:  // two cactus components
                g = test::disjoint_union(
                    {test::random_cactus(n / 2, rng), test::random_cactus(n - n / 2, rng)});
        }
        const CutVertexSplit s = split_at_cut_vertices(g);
        const std::string what = "seed " + std::to_string(seed);
        expect_split(g, s, what.c_str());
        split_into_several += s.pieces.size() > 1 ? 1 : 0;
        infeasible_by_cut_vertex += s.witness >= 0 ? 1 : 0;
        feasible_without_matching +=
            s.feasible && test::PerfectMatchingCounter(g).count_all() == 0 ? 1 : 0;
    }
    EXPECT_GT(split_into_several, 300);
    EXPECT_GT(infeasible_by_cut_vertex, 60);
    EXPECT_GT(feasible_without_matching, 15);
}

TEST(SplitAtCutVertices, NamedGraphs) {
    struct Case {
        const char* name;
        UndirectedGraph g;
        bool feasible;
        Pieces pieces;
        vertex_t witness;
        Pieces odd_components;
    };
    const std::vector<Case> cases = {
        {"empty", UndirectedGraph(), true, {}, -1, {}},
        {"isolated vertex", UndirectedGraph(1, {}), false, {}, -1, {{0}}},
        {"single edge", UndirectedGraph(2, {{0, 1}}), true, {{0, 1}}, -1, {}},
        {"path of 4", test::path_graph(4), true, {{0, 1}, {2, 3}}, -1, {}},
        {"path of 6, ids reversed",
         UndirectedGraph(6, {{5, 4}, {4, 3}, {3, 2}, {2, 1}, {1, 0}}),
         true,
         {{0, 1}, {2, 3}, {4, 5}},
         -1,
         {}},
        {"star K_{1,3}",
         UndirectedGraph(4, {{0, 1}, {0, 2}, {0, 3}}),
         false,
         {},
         0,
         {{1}, {2}, {3}}},
        {"triangle with a pendant",
         UndirectedGraph(4, {{0, 1}, {1, 2}, {2, 0}, {2, 3}}),
         true,
         {{0, 1}, {2, 3}},
         -1,
         {}},
        {"two disjoint triangles",
         test::disjoint_union({test::cycle_graph(3), test::cycle_graph(3)}),
         false,
         {},
         -1,
         {{0, 1, 2}, {3, 4, 5}}},
        // Two triangles sharing vertex 0, plus a pendant 5 at 1: below 0 hang {1, 2, 5} (odd) and
        // {3, 4} (even), so 0 is matched into the first triangle; 1 goes to its pendant.
        {"bowtie with a pendant",
         UndirectedGraph(6, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {3, 4}, {4, 0}, {1, 5}}),
         true,
         {{0, 2}, {1, 5}, {3, 4}},
         -1,
         {}},
        {"Petersen (biconnected)",
         test::petersen_graph(),
         true,
         {{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}},
         -1,
         {}},
        {"6-cycle", test::cycle_graph(6), true, {{0, 1, 2, 3, 4, 5}}, -1, {}},
    };
    for (const Case& c : cases) {
        const CutVertexSplit s = split_at_cut_vertices(c.g);
        EXPECT_EQ(s.feasible, c.feasible) << c.name;
        EXPECT_EQ(s.pieces, c.pieces) << c.name;
        EXPECT_EQ(s.witness, c.witness) << c.name;
        EXPECT_EQ(s.odd_components, c.odd_components) << c.name;
        expect_split(c.g, s, c.name);
    }
}

TEST(SplitAtCutVertices, LargeGraphsWithoutRecursion) {
    // A path of 10^6 vertices (every edge a block, half of them forced), a 300x300 triangular
    // lattice (one block), a 200000-vertex cactus and a corona (every pendant edge forced, each
    // tree edge in no piece). Prints the times.
    Rng rng(8);
    struct Case {
        const char* name;
        UndirectedGraph g;
    };
    std::vector<Case> cases;
    cases.push_back({"path of 10^6", test::path_graph(1000000)});
    cases.push_back({"triangular 300x300", test::triangular_lattice(300, 300, 4)});
    cases.push_back({"cactus of 200000", test::random_cactus(200000, rng)});
    test::Edges corona;  // a random tree on 100000 vertices with a pendant at each vertex
    const vertex_t half = 100000;
    for (vertex_t v = 1; v < half; ++v) {
        corona.emplace_back(static_cast<vertex_t>(rng.below(static_cast<std::uint64_t>(v))), v);
    }
    for (vertex_t v = 0; v < half; ++v) {
        corona.emplace_back(v, half + v);
    }
    cases.push_back({"corona of a random tree", UndirectedGraph(2 * half, corona)});
    for (const Case& c : cases) {
        const auto start = std::chrono::steady_clock::now();
        const CutVertexSplit s = split_at_cut_vertices(c.g);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::cout << "[ timing   ] split_at_cut_vertices, " << c.name << ": "
                  << (s.feasible ? std::to_string(s.pieces.size()) + " pieces"
                                 : "infeasible at " + std::to_string(s.witness))
                  << " in " << seconds << " s\n";
        std::vector<char> seen(static_cast<std::size_t>(c.g.num_vertices()), 0);
        for (const auto& piece : s.pieces) {
            EXPECT_EQ(piece.size() % 2, 0u);
            for (const vertex_t v : piece) {
                EXPECT_EQ(seen[static_cast<std::size_t>(v)]++, 0);
            }
        }
        if (s.feasible) {
            EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), c.g.num_vertices());
        }
    }
    EXPECT_EQ(split_at_cut_vertices(cases[0].g).pieces.size(), 500000u);
    EXPECT_EQ(split_at_cut_vertices(cases[1].g).pieces.size(), 1u);
    EXPECT_EQ(split_at_cut_vertices(cases[3].g).pieces.size(), static_cast<std::size_t>(half));
}

}  // namespace
}  // namespace pmcount::structure
