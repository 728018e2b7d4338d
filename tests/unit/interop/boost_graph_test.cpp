// The Boost.Graph adapter: automatic and explicit bipartitions, vertex numbering, odd cycles,
// listS vertex storage, directed graphs' cycle covers checked against brute force, merging of
// parallel edges, and that pmcount's own graph types still reach the native overloads.
#include "pmcount/interop/boost_graph.hpp"

#include <gtest/gtest.h>

#include <boost/graph/adjacency_list.hpp>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {
namespace {

using Undirected = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
using Directed = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Bidirectional = boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS>;
using ListGraph = boost::adjacency_list<boost::listS, boost::listS, boost::undirectedS,
                                        boost::property<boost::vertex_index_t, int>>;
using Ids = std::vector<vertex_t>;

Undirected cycle(int n) {
    Undirected g(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        boost::add_edge(static_cast<std::size_t>(i), static_cast<std::size_t>((i + 1) % n), g);
    }
    return g;
}

/// Exact count as a decimal string, failing the test when the result is not exact.
std::string exact_count(const CountResult& r) {
    EXPECT_TRUE(r.is_exact);
    return r.exact.to_string();
}

TEST(BoostGraph, EvenCycleHasTwoPerfectMatchings) {
    const Undirected g = cycle(8);
    EXPECT_EQ(exact_count(count_perfect_matchings(g)), "2");

    const ConvertedBipartiteGraph converted = to_bipartite_graph(g);
    // Vertex 0 starts its component, so it and every even vertex are left.
    EXPECT_EQ(converted.left_vertex_index, (Ids{0, 2, 4, 6}));
    EXPECT_EQ(converted.right_vertex_index, (Ids{1, 3, 5, 7}));
    EXPECT_EQ(converted.graph.num_edges(), 8);
    EXPECT_EQ(converted.graph.duplicates_merged(), 0);
    // Edge {2, 3} is left 1 – right 1; edge {7, 0} is left 0 – right 3.
    EXPECT_TRUE(converted.graph.has_edge(1, 1));
    EXPECT_TRUE(converted.graph.has_edge(0, 3));
    EXPECT_FALSE(converted.graph.has_edge(0, 2));
}

TEST(BoostGraph, CompleteBipartiteWithExplicitPartition) {
    // K_{3,3} with the sides interleaved: even vertices left, odd right.
    Undirected g(6);
    for (std::size_t u = 0; u < 6; u += 2) {
        for (std::size_t v = 1; v < 6; v += 2) {
            boost::add_edge(u, v, g);
        }
    }
    const std::vector<int> side = {0, 1, 0, 1, 0, 1};
    const auto side_map =
        boost::make_iterator_property_map(side.begin(), get(boost::vertex_index, g));
    EXPECT_EQ(exact_count(count_perfect_matchings(g, side_map)), "6");

    const ConvertedBipartiteGraph converted = to_bipartite_graph(g, side_map);
    EXPECT_EQ(converted.left_vertex_index, (Ids{0, 2, 4}));
    EXPECT_EQ(converted.right_vertex_index, (Ids{1, 3, 5}));
    EXPECT_EQ(converted.graph.num_edges(), 9);

    // The explicit partition is honoured even where the automatic one would differ: putting
    // vertex 0 on the right swaps which side is which.
    const std::vector<int> swapped = {1, 0, 1, 0, 1, 0};
    const ConvertedBipartiteGraph other = to_bipartite_graph(
        g, boost::make_iterator_property_map(swapped.begin(), get(boost::vertex_index, g)));
    EXPECT_EQ(other.left_vertex_index, (Ids{1, 3, 5}));
    EXPECT_EQ(other.right_vertex_index, (Ids{0, 2, 4}));
}

TEST(BoostGraph, BundledBoolPropertyIsAPartitionMap) {
    struct Vertex {
        bool right = false;
    };
    using Bundled = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS, Vertex>;
    // Path 0 – 1 – 2 – 3 with sides L R L R: one perfect matching, {0,1} and {2,3}.
    Bundled g(4);
    boost::add_edge(0, 1, g);
    boost::add_edge(1, 2, g);
    boost::add_edge(2, 3, g);
    g[1].right = true;
    g[3].right = true;
    EXPECT_EQ(exact_count(count_perfect_matchings(g, get(&Vertex::right, g))), "1");
    // With sides L L R R the edge {0, 1} joins two left vertices.
    g[1].right = false;
    g[2].right = true;
    EXPECT_THROW(to_bipartite_graph(g, get(&Vertex::right, g)), InvalidArgument);
}

TEST(BoostGraph, GridGraphIsColouredAutomatically) {
    // 4×4 grid: 36 domino tilings of the 4×4 square.
    constexpr std::size_t k = 4;
    Undirected g(k * k);
    for (std::size_t r = 0; r < k; ++r) {
        for (std::size_t c = 0; c < k; ++c) {
            if (c + 1 < k) {
                boost::add_edge(r * k + c, r * k + c + 1, g);
            }
            if (r + 1 < k) {
                boost::add_edge(r * k + c, (r + 1) * k + c, g);
            }
        }
    }
    const CountResult r = count_perfect_matchings(g);
    EXPECT_EQ(exact_count(r), "36");
    EXPECT_EQ(r.kind, ValueKind::binary);
    // Counted as the general graph of its 16 vertices, whose one component is bipartite: the
    // plan is the 8×8 permanent of its sides.
    EXPECT_EQ(r.stats.n, 16);
    EXPECT_TRUE(r.structure.general);
    EXPECT_NE(r.structure.plan_text.find("bipartite: permanent 8×8"), std::string::npos)
        << r.structure.plan_text;
    EXPECT_EQ(exact_count(count_perfect_matchings(to_bipartite_graph(g).graph)), "36");
}

TEST(BoostGraph, DisconnectedGraphCountsTheProductOfItsComponents) {
    // Two disjoint 6-cycles, the second numbered backwards: 2 × 2 = 4.
    Undirected g(12);
    for (std::size_t i = 0; i < 6; ++i) {
        boost::add_edge(i, (i + 1) % 6, g);
        boost::add_edge(11 - i, 11 - (i + 1) % 6, g);
    }
    EXPECT_EQ(exact_count(count_perfect_matchings(g)), "4");
    // Each component's first vertex (0 and 6) is left.
    EXPECT_EQ(to_bipartite_graph(g).left_vertex_index, (Ids{0, 2, 4, 6, 8, 10}));

    // A 6-cycle plus a 4-cycle plus an edge: 2 × 2 × 1.
    Undirected h(12);
    for (std::size_t i = 0; i < 6; ++i) {
        boost::add_edge(i, (i + 1) % 6, h);
    }
    for (std::size_t i = 0; i < 4; ++i) {
        boost::add_edge(6 + i, 6 + (i + 1) % 4, h);
    }
    boost::add_edge(10, 11, h);
    EXPECT_EQ(exact_count(count_perfect_matchings(h)), "4");
}

TEST(BoostGraph, UnbalancedAndEmptyGraphs) {
    // A path on 3 vertices has 2 left and 1 right vertex: 0 with a note.
    Undirected path(3);
    boost::add_edge(0, 1, path);
    boost::add_edge(1, 2, path);
    const CountResult r = count_perfect_matchings(path);
    EXPECT_EQ(exact_count(r), "0");
    EXPECT_FALSE(r.note.empty());

    // The graph with no vertices has one perfect matching, the empty one.
    EXPECT_EQ(exact_count(count_perfect_matchings(Undirected())), "1");
    // An isolated vertex is a left vertex with no edge.
    const ConvertedBipartiteGraph single = to_bipartite_graph(Undirected(1));
    EXPECT_EQ(single.graph.n_left(), 1);
    EXPECT_EQ(single.graph.n_right(), 0);
}

TEST(BoostGraph, TriangleIsNotBipartite) {
    const Undirected g = cycle(3);
    try {
        to_bipartite_graph(g);
        FAIL() << "expected NotBipartite";
    } catch (const NotBipartite& e) {
        EXPECT_EQ(e.file(), "<boost graph>");
        EXPECT_EQ(e.line(), 0);
        ASSERT_EQ(e.odd_cycle().size(), 3U);
        const std::set<std::int64_t> on_cycle(e.odd_cycle().begin(), e.odd_cycle().end());
        EXPECT_EQ(on_cycle, (std::set<std::int64_t>{0, 1, 2}));
    }
    // Counting takes any graph: a triangle has no perfect matching, K4 (cycle plus chords) has 3.
    EXPECT_EQ(exact_count(count_perfect_matchings(g)), "0");
    Undirected k4 = cycle(4);
    boost::add_edge(0, 2, k4);
    boost::add_edge(1, 3, k4);
    EXPECT_EQ(exact_count(count_perfect_matchings(k4)), "3");
    const UndirectedGraph converted = to_undirected_graph(k4);
    EXPECT_EQ(converted.num_vertices(), 4);
    EXPECT_EQ(converted.num_edges(), 6);
}

TEST(BoostGraph, OddCycleIsACycleOfTheGraph) {
    // A 6-cycle 0..5 with a pendant 5-cycle 5 – 6 – 7 – 8 – 9 – 5 and a chord {0, 3} (even).
    Undirected g(10);
    for (std::size_t i = 0; i < 6; ++i) {
        boost::add_edge(i, (i + 1) % 6, g);
    }
    boost::add_edge(0, 3, g);
    boost::add_edge(5, 6, g);
    boost::add_edge(6, 7, g);
    boost::add_edge(7, 8, g);
    boost::add_edge(8, 9, g);
    boost::add_edge(9, 5, g);
    try {
        to_bipartite_graph(g);
        FAIL() << "expected NotBipartite";
    } catch (const NotBipartite& e) {
        const std::vector<std::int64_t>& c = e.odd_cycle();
        ASSERT_EQ(c.size() % 2, 1U);
        EXPECT_EQ(std::set<std::int64_t>(c.begin(), c.end()).size(), c.size()) << "simple cycle";
        for (std::size_t i = 0; i < c.size(); ++i) {
            const auto u = static_cast<std::size_t>(c[i]);
            const auto v = static_cast<std::size_t>(c[(i + 1) % c.size()]);
            EXPECT_TRUE(boost::edge(u, v, g).second) << u << " - " << v;
        }
    }
}

TEST(BoostGraph, SelfLoopIsAnOddCycleOfLengthOne) {
    Undirected g(2);
    boost::add_edge(0, 1, g);
    boost::add_edge(1, 1, g);
    try {
        to_bipartite_graph(g);
        FAIL() << "expected NotBipartite";
    } catch (const NotBipartite& e) {
        EXPECT_EQ(e.odd_cycle(), (std::vector<std::int64_t>{1}));
    }
    // As a general graph a self-loop is an error: no perfect matching can use it.
    EXPECT_THROW(count_perfect_matchings(g), InvalidArgument);
}

TEST(BoostGraph, SameSideEdgeIsRejectedWithItsVertexIndices) {
    // Square 0 – 1 – 2 – 3 – 0 with sides L R R L: edges {1, 2} and {3, 0} join equal sides.
    const Undirected g = cycle(4);
    const std::vector<int> side = {0, 1, 1, 0};
    const auto side_map =
        boost::make_iterator_property_map(side.begin(), get(boost::vertex_index, g));
    try {
        to_bipartite_graph(g, side_map);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        // Vertex 0's edges are read first.
        EXPECT_NE(std::string(e.what()).find("vertices 0 and 3 joins two left vertices"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(count_perfect_matchings(g, side_map), InvalidArgument);
}

TEST(BoostGraph, ListStorageUsesTheVertexIndexProperty) {
    // A 6-cycle (2 perfect matchings) on listS storage, indices assigned in reverse order of
    // insertion.
    ListGraph g;
    std::vector<ListGraph::vertex_descriptor> v;
    for (int i = 0; i < 6; ++i) {
        v.push_back(boost::add_vertex(g));
        boost::put(boost::vertex_index, g, v.back(), 5 - i);
    }
    for (std::size_t i = 0; i < 6; ++i) {
        boost::add_edge(v[i], v[(i + 1) % 6], g);
    }
    EXPECT_EQ(exact_count(count_perfect_matchings(g)), "2");
    const ConvertedBipartiteGraph converted = to_bipartite_graph(g);
    // vertices(g) runs in insertion order: indices 5, 4, 3, 2, 1, 0, alternating sides.
    EXPECT_EQ(converted.left_vertex_index, (Ids{5, 3, 1}));
    EXPECT_EQ(converted.right_vertex_index, (Ids{4, 2, 0}));

    // Explicit partition through the same index map.
    const std::vector<int> side = {1, 0, 1, 0, 1, 0};  // by vertex_index: odd indices left
    const auto side_map =
        boost::make_iterator_property_map(side.begin(), get(boost::vertex_index, g));
    EXPECT_EQ(exact_count(count_perfect_matchings(g, side_map)), "2");
}

TEST(BoostGraph, UnfilledVertexIndexIsRejected) {
    ListGraph g;
    const auto a = boost::add_vertex(g);
    const auto b = boost::add_vertex(g);
    boost::add_edge(a, b, g);
    // Both indices are still 0.
    EXPECT_THROW(to_bipartite_graph(g), InvalidArgument);
    boost::put(boost::vertex_index, g, b, 2);  // out of range for 2 vertices
    EXPECT_THROW(to_bipartite_graph(g), InvalidArgument);
    boost::put(boost::vertex_index, g, b, 1);
    EXPECT_EQ(exact_count(count_perfect_matchings(g)), "1");
}

/// Cycle covers of g by brute force over the permutations of its adjacency matrix (an engine
/// independent of the Ryser one that count_cycle_covers runs).
template <class G>
std::string brute_force_cycle_covers(const G& g) {
    const auto n = static_cast<vertex_t>(boost::num_vertices(g));
    DenseMatrix<std::int64_t> adjacency(n, n, 0);
    for (auto [it, end] = boost::edges(g); it != end; ++it) {
        adjacency(static_cast<vertex_t>(boost::source(*it, g)),
                  static_cast<vertex_t>(boost::target(*it, g))) = 1;
    }
    CountOptions options;
    options.method = Method::brute_force;
    return exact_count(permanent(adjacency, options));
}

TEST(BoostGraph, DirectedCycleWithLoopsHasTwoCycleCovers) {
    // 0 → 1 → 2 → 3 → 4 → 0 with a loop at every vertex: all loops, or the 5-cycle.
    Directed g(5);
    for (std::size_t i = 0; i < 5; ++i) {
        boost::add_edge(i, (i + 1) % 5, g);
        boost::add_edge(i, i, g);
    }
    const CountResult r = count_cycle_covers(g);
    EXPECT_EQ(exact_count(r), "2");
    EXPECT_EQ(brute_force_cycle_covers(g), "2");

    const Digraph d = to_digraph(g);
    EXPECT_EQ(d.num_vertices(), 5);
    EXPECT_EQ(d.num_arcs(), 10);
    EXPECT_TRUE(d.has_arc(4, 0));
    EXPECT_FALSE(d.has_arc(0, 4));
    EXPECT_TRUE(d.has_arc(3, 3));

    // Without the loop at 2 only the 5-cycle is left.
    boost::remove_edge(2, 2, g);
    EXPECT_EQ(exact_count(count_cycle_covers(g)), "1");
}

TEST(BoostGraph, DirectedGraphMatchesBruteForce) {
    // The 5-cycle, its reverse arcs 1 → 0 and 3 → 2, chords 0 → 2 and 4 → 1, loops at 0, 2, 4.
    Bidirectional g(5);
    for (std::size_t i = 0; i < 5; ++i) {
        boost::add_edge(i, (i + 1) % 5, g);
    }
    for (const auto& [u, v] : std::vector<std::pair<std::size_t, std::size_t>>{
             {1, 0}, {3, 2}, {0, 2}, {4, 1}, {0, 0}, {2, 2}, {4, 4}}) {
        boost::add_edge(u, v, g);
    }
    // By hand, splitting on where 1 goes: 1 → 0 gives (0 1)(2 3)(4) and (0 2 3 4 1); 1 → 2
    // gives (0)(1 2 3 4) and the 5-cycle. Nothing else: 2 → 1 and 3 → 0 are absent. So 4.
    EXPECT_EQ(brute_force_cycle_covers(g), "4");
    EXPECT_EQ(exact_count(count_cycle_covers(g)), "4");
}

TEST(BoostGraph, ParallelArcsAreMerged) {
    Directed g(2);
    boost::add_edge(0, 1, g);
    boost::add_edge(0, 1, g);
    boost::add_edge(0, 1, g);
    boost::add_edge(1, 0, g);
    const Digraph d = to_digraph(g);
    EXPECT_EQ(d.num_arcs(), 2);
    EXPECT_EQ(d.duplicates_merged(), 2);
    EXPECT_EQ(exact_count(count_cycle_covers(g)), "1");

    // Read as undirected edges with a partition, the opposite arcs are one edge too.
    const std::vector<int> side = {0, 1};
    const ConvertedBipartiteGraph b = to_bipartite_graph(
        g, boost::make_iterator_property_map(side.begin(), get(boost::vertex_index, g)));
    EXPECT_EQ(b.graph.num_edges(), 1);
    EXPECT_EQ(b.graph.duplicates_merged(), 3);
}

TEST(BoostGraph, DirectedGraphWithPartitionCountsItsUnderlyingGraph) {
    // Directed 4-cycle 0 → 1 → 2 → 3 → 0, sides by parity: as undirected, a 4-cycle (2).
    Directed g(4);
    for (std::size_t i = 0; i < 4; ++i) {
        boost::add_edge(i, (i + 1) % 4, g);
    }
    const std::vector<int> side = {0, 1, 0, 1};
    const auto side_map =
        boost::make_iterator_property_map(side.begin(), get(boost::vertex_index, g));
    EXPECT_EQ(exact_count(count_perfect_matchings(g, side_map)), "2");
    // Arc 3 → 0 starts at a right vertex and still becomes edge (left 0, right 1).
    EXPECT_TRUE(to_bipartite_graph(g, side_map).graph.has_edge(0, 1));
}

TEST(BoostGraph, NativeTypesStillReachTheNativeOverloads) {
    const BipartiteGraph k22(2, 2, {{0, 0}, {0, 1}, {1, 0}, {1, 1}});
    EXPECT_EQ(exact_count(count_perfect_matchings(k22)), "2");
    CountOptions options;
    options.threads = 1;
    // Two arguments: must not deduce CountOptions as a partition map.
    EXPECT_EQ(exact_count(count_perfect_matchings(k22, options)), "2");
    const Digraph loops(2, {{0, 0}, {1, 1}, {0, 1}, {1, 0}});
    EXPECT_EQ(exact_count(count_cycle_covers(loops, options)), "2");

    // And a Boost graph with explicit options picks the automatic colouring overload.
    EXPECT_EQ(exact_count(count_perfect_matchings(cycle(4), options)), "2");
}

}  // namespace
}  // namespace pmcount
