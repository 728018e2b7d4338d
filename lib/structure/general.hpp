// Structure of general (not necessarily bipartite) graphs for the planner: components, a
// bipartiteness test, the edges that lie in some perfect matching, and the factorisation of the
// perfect-matching count over the blocks of a graph. Each function is linear in the graph except
// allowed_edges (one alternating search per vertex).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pmcount/graph.hpp"
#include "pmcount/types.hpp"

namespace pmcount::structure {

/// Connected components of a graph.
struct Components {
    /// Component of each vertex, numbered 0, 1, … in the order of their smallest vertices (so
    /// vertex 0 is in component 0). An isolated vertex is a component of its own.
    std::vector<vertex_t> id;
    vertex_t count = 0;  ///< 0 for the empty graph
};

/// Breadth-first search from each vertex not yet reached. O(V + E).
Components connected_components(const UndirectedGraph& graph);

/// A proper 2-colouring (colour 0 or 1 per vertex; the smallest vertex of each component gets 0),
/// or nullopt when the graph has an odd cycle. The empty graph gets an empty colouring, an edgeless
/// graph all zeros. Breadth-first search, O(V + E).
std::optional<std::vector<std::uint8_t>> two_colouring(const UndirectedGraph& graph);

/// The subgraph induced by `vertices` (distinct, any order), vertex i of the result being
/// vertices[i]. Throws InvalidArgument on an id out of range or repeated. O(|vertices| + Σ deg).
UndirectedGraph induced_subgraph(const UndirectedGraph& graph,
                                 const std::vector<vertex_t>& vertices);

/// The edges of `graph` that lie in at least one perfect matching, as a graph on the same
/// vertices (each matching edge of perfect_mate among them). perfect_mate must be a perfect
/// matching of graph (perfect_mate[v] = v's partner), else InvalidArgument.
///
/// A non-matching edge uv lies in a perfect matching iff G − u − v has one, iff v is outer in an
/// alternating search of G − u from u's partner (the only vertex G − u leaves exposed): one
/// search per vertex decides every edge at it, and stops as soon as all of them are found outer.
/// Cost: at most V searches of O(E·α(V)) each, bounded by allowed_edges_work_bound(); vertices
/// whose edges were all decided from the other ends are skipped, and on graphs where most edges
/// are allowed the searches stop early (see the measurements in tests/unit/structure).
UndirectedGraph allowed_edges(const UndirectedGraph& graph,
                              const std::vector<vertex_t>& perfect_mate);

/// An upper bound on the adjacency entries that allowed_edges() scans: V · (V + 2E). Lets the
/// planner decide whether the call pays before making it.
double allowed_edges_work_bound(const UndirectedGraph& graph);

/// The factorisation of the perfect-matching count over the blocks (biconnected components).
///
/// A vertex c with child blocks in the block–cut tree (each component rooted at its smallest
/// vertex) must be matched into the unique child block below which an odd number of vertices
/// hang; with none it is matched into its parent block, with two or more no perfect matching
/// exists ({c} is a Tutte set). Then every perfect matching of G is the union of perfect
/// matchings of the pieces G[piece_B], piece_B being the vertices of block B that are matched
/// into B, so PM(G) = Π_B PM(G[piece_B]).
struct CutVertexSplit {
    /// False when the parity rule already shows that G has no perfect matching.
    bool feasible = true;
    /// When feasible: the nonempty pieces, a partition of the vertices into sets of even size,
    /// each ascending, ordered by their smallest vertex. A piece is a whole block when no cut
    /// vertex of the block goes elsewhere; it need not be connected (a cycle block can lose two
    /// cut vertices); a piece of two vertices is a forced edge (a bridge, or a pendant edge).
    /// The empty graph has no pieces.
    std::vector<std::vector<vertex_t>> pieces;
    /// When infeasible: a Tutte set T with more odd components of G − T than |T|. T = ∅
    /// (witness = −1) when some connected component of G has an odd number of vertices (an
    /// isolated vertex included); otherwise T = {witness}, the smallest vertex c such that G − c
    /// has three or more odd components (i.e. two or more odd child subtrees, whatever the root).
    vertex_t witness = -1;
    /// When infeasible: the odd components of G − T, each ascending, ordered by smallest vertex.
    std::vector<std::vector<vertex_t>> odd_components;
};

/// Blocks by Hopcroft and Tarjan's depth-first search, iterative (no recursion: 10^6 vertices are
/// fine), then the parity rule above. O(V + E).
CutVertexSplit split_at_cut_vertices(const UndirectedGraph& graph);

}  // namespace pmcount::structure
