// BipartiteGraph, Digraph and UndirectedGraph: validation, merging of repeated edges, CSR in
// both directions, the empty graph and self-loops.
#include "pmcount/graph.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "pmcount/error.hpp"

namespace pmcount {
namespace {

std::vector<vertex_t> to_vector(ArrayView<vertex_t> view) {
    return {view.begin(), view.end()};
}

using Ids = std::vector<vertex_t>;

TEST(BipartiteGraph, DefaultIsTheEmptyGraph) {
    const BipartiteGraph g;
    EXPECT_EQ(g.n_left(), 0);
    EXPECT_EQ(g.n_right(), 0);
    EXPECT_EQ(g.num_edges(), 0);
    EXPECT_TRUE(g.is_balanced());
    EXPECT_EQ(g.duplicates_merged(), 0);
    EXPECT_EQ(g.left_offsets(), std::vector<edge_t>{0});
    EXPECT_EQ(g.right_offsets(), std::vector<edge_t>{0});
    EXPECT_TRUE(g.edges().empty());
}

TEST(BipartiteGraph, EmptyEdgeListKeepsIsolatedVertices) {
    const BipartiteGraph g(3, 2, {});
    EXPECT_EQ(g.n_left(), 3);
    EXPECT_EQ(g.n_right(), 2);
    EXPECT_FALSE(g.is_balanced());
    EXPECT_EQ(g.left_offsets(), (std::vector<edge_t>{0, 0, 0, 0}));
    EXPECT_EQ(g.right_offsets(), (std::vector<edge_t>{0, 0, 0}));
    EXPECT_TRUE(g.right_neighbours(2).empty());
    EXPECT_TRUE(g.left_neighbours(1).empty());
}

TEST(BipartiteGraph, CsrInBothDirectionsIsSorted) {
    // Edges given out of order; left 0..2, right 0..3.
    const BipartiteGraph g(3, 4, {{2, 1}, {0, 3}, {1, 0}, {0, 1}, {2, 3}, {0, 0}, {1, 3}});
    EXPECT_EQ(g.num_edges(), 7);
    EXPECT_EQ(g.duplicates_merged(), 0);
    EXPECT_EQ(g.left_offsets(), (std::vector<edge_t>{0, 3, 5, 7}));
    EXPECT_EQ(g.left_adjacency(), (Ids{0, 1, 3, 0, 3, 1, 3}));
    EXPECT_EQ(g.right_offsets(), (std::vector<edge_t>{0, 2, 4, 4, 7}));
    EXPECT_EQ(g.right_adjacency(), (Ids{0, 1, 0, 2, 0, 1, 2}));
    EXPECT_EQ(to_vector(g.right_neighbours(0)), (Ids{0, 1, 3}));
    EXPECT_EQ(to_vector(g.right_neighbours(1)), (Ids{0, 3}));
    EXPECT_EQ(to_vector(g.left_neighbours(3)), (Ids{0, 1, 2}));
    EXPECT_TRUE(g.left_neighbours(2).empty());
    EXPECT_EQ(g.edges(), (std::vector<BipartiteGraph::Edge>{
                             {0, 0}, {0, 1}, {0, 3}, {1, 0}, {1, 3}, {2, 1}, {2, 3}}));
}

TEST(BipartiteGraph, HasEdgeIsExactAndSafeOutsideTheSides) {
    const BipartiteGraph g(2, 3, {{0, 2}, {1, 0}});
    EXPECT_TRUE(g.has_edge(0, 2));
    EXPECT_TRUE(g.has_edge(1, 0));
    EXPECT_FALSE(g.has_edge(0, 0));
    EXPECT_FALSE(g.has_edge(1, 2));
    EXPECT_FALSE(g.has_edge(-1, 0));
    EXPECT_FALSE(g.has_edge(2, 0));
    EXPECT_FALSE(g.has_edge(0, 3));
    EXPECT_FALSE(g.has_edge(0, -1));
}

TEST(BipartiteGraph, RepeatedEdgesAreMergedAndCounted) {
    const BipartiteGraph g(2, 2, {{0, 1}, {1, 1}, {0, 1}, {0, 1}, {1, 1}, {1, 0}});
    EXPECT_EQ(g.num_edges(), 3);
    EXPECT_EQ(g.duplicates_merged(), 3);
    EXPECT_EQ(g.left_adjacency(), (Ids{1, 0, 1}));
    EXPECT_EQ(g.right_adjacency(), (Ids{1, 0, 1}));
    EXPECT_EQ(g.right_offsets(), (std::vector<edge_t>{0, 1, 3}));
}

TEST(BipartiteGraph, OutOfRangeIdsAreRejected) {
    EXPECT_THROW(BipartiteGraph(2, 2, {{2, 0}}), InvalidArgument);
    EXPECT_THROW(BipartiteGraph(2, 2, {{0, 2}}), InvalidArgument);
    EXPECT_THROW(BipartiteGraph(2, 2, {{-1, 0}}), InvalidArgument);
    EXPECT_THROW(BipartiteGraph(2, 2, {{0, -1}}), InvalidArgument);
    EXPECT_THROW(BipartiteGraph(0, 5, {{0, 0}}), InvalidArgument);
    EXPECT_THROW(BipartiteGraph(-1, 2, {}), InvalidArgument);
    EXPECT_THROW(BipartiteGraph(2, -3, {}), InvalidArgument);
    try {
        BipartiteGraph(3, 4, {{1, 1}, {3, 1}});
        ADD_FAILURE() << "no exception";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("(3, 1)"), std::string::npos) << e.what();
    }
}

TEST(Digraph, DefaultIsEmpty) {
    const Digraph d;
    EXPECT_EQ(d.num_vertices(), 0);
    EXPECT_EQ(d.num_arcs(), 0);
    EXPECT_TRUE(d.arcs().empty());
    EXPECT_EQ(d.as_bipartite().n_left(), 0);
}

TEST(Digraph, SelfLoopsAndBothDirections) {
    const Digraph d(3, {{0, 0}, {0, 1}, {1, 0}, {2, 2}, {1, 2}, {2, 0}});
    EXPECT_EQ(d.num_vertices(), 3);
    EXPECT_EQ(d.num_arcs(), 6);
    EXPECT_TRUE(d.has_arc(0, 0));
    EXPECT_TRUE(d.has_arc(2, 2));
    EXPECT_FALSE(d.has_arc(1, 1));
    EXPECT_TRUE(d.has_arc(1, 2));
    EXPECT_FALSE(d.has_arc(2, 1));
    EXPECT_EQ(to_vector(d.successors(0)), (Ids{0, 1}));
    EXPECT_EQ(to_vector(d.successors(1)), (Ids{0, 2}));
    EXPECT_EQ(to_vector(d.successors(2)), (Ids{0, 2}));
    EXPECT_EQ(to_vector(d.predecessors(0)), (Ids{0, 1, 2}));
    EXPECT_EQ(to_vector(d.predecessors(1)), (Ids{0}));
    EXPECT_EQ(to_vector(d.predecessors(2)), (Ids{1, 2}));
    EXPECT_EQ(d.arcs(),
              (std::vector<Digraph::Arc>{{0, 0}, {0, 1}, {1, 0}, {1, 2}, {2, 0}, {2, 2}}));
    const BipartiteGraph& b = d.as_bipartite();
    EXPECT_EQ(b.n_left(), 3);
    EXPECT_EQ(b.n_right(), 3);
    EXPECT_TRUE(b.has_edge(1, 2));
    EXPECT_FALSE(b.has_edge(2, 1));
}

TEST(Digraph, RepeatedArcsAreMergedButOppositeArcsAreNot) {
    const Digraph d(2, {{0, 1}, {1, 0}, {0, 1}, {1, 1}, {1, 1}});
    EXPECT_EQ(d.num_arcs(), 3);
    EXPECT_EQ(d.duplicates_merged(), 2);
}

TEST(Digraph, OutOfRangeArcsAreRejected) {
    EXPECT_THROW(Digraph(2, {{0, 2}}), InvalidArgument);
    EXPECT_THROW(Digraph(2, {{2, 0}}), InvalidArgument);
    EXPECT_THROW(Digraph(2, {{-1, 1}}), InvalidArgument);
    EXPECT_THROW(Digraph(0, {{0, 0}}), InvalidArgument);
    EXPECT_THROW(Digraph(-2, {}), InvalidArgument);
}

TEST(Digraph, IsolatedVerticesHaveNoArcs) {
    const Digraph d(4, {{3, 3}});
    EXPECT_EQ(d.num_vertices(), 4);
    EXPECT_TRUE(d.successors(0).empty());
    EXPECT_TRUE(d.predecessors(2).empty());
    EXPECT_EQ(to_vector(d.successors(3)), (Ids{3}));
}

TEST(UndirectedGraph, DefaultIsTheEmptyGraph) {
    const UndirectedGraph g;
    EXPECT_EQ(g.num_vertices(), 0);
    EXPECT_EQ(g.num_edges(), 0);
    EXPECT_EQ(g.offsets(), std::vector<edge_t>{0});
    EXPECT_TRUE(g.edges().empty());
}

TEST(UndirectedGraph, EachEdgeInBothListsSortedAndMergedOnce) {
    // A triangle 0-1-2 with a pendant vertex 3 on 2 and an isolated vertex 4; {1, 0} repeats
    // {0, 1} in the other orientation.
    const UndirectedGraph g(5, {{2, 1}, {0, 1}, {2, 0}, {3, 2}, {1, 0}});
    EXPECT_EQ(g.num_vertices(), 5);
    EXPECT_EQ(g.num_edges(), 4);
    EXPECT_EQ(g.duplicates_merged(), 1);
    EXPECT_EQ(g.offsets(), (std::vector<edge_t>{0, 2, 4, 7, 8, 8}));
    EXPECT_EQ(g.adjacency(), (Ids{1, 2, 0, 2, 0, 1, 3, 2}));
    EXPECT_EQ(to_vector(g.neighbours(2)), (Ids{0, 1, 3}));
    EXPECT_EQ(g.degree(2), 3);
    EXPECT_EQ(g.degree(4), 0);
    EXPECT_TRUE(g.neighbours(4).empty());
    EXPECT_TRUE(g.has_edge(3, 2));
    EXPECT_TRUE(g.has_edge(2, 3));
    EXPECT_FALSE(g.has_edge(0, 3));
    EXPECT_FALSE(g.has_edge(-1, 0));
    EXPECT_FALSE(g.has_edge(0, 5));
    EXPECT_EQ(g.edges(), (std::vector<UndirectedGraph::Edge>{{0, 1}, {0, 2}, {1, 2}, {2, 3}}));
}

TEST(UndirectedGraph, RejectsSelfLoopsAndIdsOutsideTheVertices) {
    EXPECT_THROW(UndirectedGraph(3, {{0, 1}, {2, 2}}), InvalidArgument);
    EXPECT_THROW(UndirectedGraph(3, {{0, 3}}), InvalidArgument);
    EXPECT_THROW(UndirectedGraph(3, {{-1, 0}}), InvalidArgument);
    EXPECT_THROW(UndirectedGraph(-1, {}), InvalidArgument);
    try {
        UndirectedGraph(3, {{1, 1}});
        FAIL() << "a self-loop was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("self-loop at vertex 1"), std::string::npos);
    }
}

}  // namespace
}  // namespace pmcount
