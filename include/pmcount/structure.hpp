// Structure of a graph. Bipartite graphs: maximum matching (Hopcroft–Karp) and the coarse and
// fine Dulmage–Mendelsohn decomposition. General graphs: maximum matching (Edmonds' blossom
// algorithm) with a Tutte set when no perfect matching exists. Usable on their own, e.g. from a
// graph pipeline that only wants the block triangular form or a matching.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <vector>

#include "pmcount/graph.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

/// A maximum matching. row_match[u] is the right vertex matched to left vertex u (−1 if none);
/// col_match[v] the left vertex matched to right vertex v.
struct Matching {
    std::vector<vertex_t> row_match;
    std::vector<vertex_t> col_match;
    vertex_t size = 0;
    /// When some left vertex is unmatched: a set S of left vertices with |N(S)| < |S| (Hall's
    /// condition fails, so no matching covers the left side), ascending. Empty otherwise.
    std::vector<vertex_t> hall_violator;
    /// The right neighbours N(S) of hall_violator, ascending (|N(S)| = |S| − unmatched in S).
    std::vector<vertex_t> hall_neighbours;

    /// Every left and every right vertex matched.
    bool is_perfect() const noexcept {
        return size == static_cast<vertex_t>(row_match.size()) &&
               size == static_cast<vertex_t>(col_match.size());
    }
};

/// Maximum-cardinality matching by Hopcroft–Karp, O(E·√V), started from a greedy matching unless
/// greedy_start is false. Deterministic.
Matching maximum_matching(const BipartiteGraph& graph, bool greedy_start = true);

/// Dulmage–Mendelsohn decomposition (in the shape of SuiteSparse's cs_dmperm).
///
/// Coarse: left vertices split into [0, rr[1]) horizontal (the underdetermined part, reachable by
/// alternating paths from unmatched right vertices), [rr[1], rr[2]) square, [rr[2], rr[3])
/// vertical (reachable from unmatched left vertices); likewise right vertices with cc. After
/// permuting rows by row_order and columns by col_order the biadjacency matrix is block upper
/// triangular: no entry lies below the diagonal blocks.
///
/// Fine: the square part splits into irreducible square blocks, block k owning permuted rows
/// [row_block_start[k], row_block_start[k+1]) and columns [col_block_start[k], …+1) (the two
/// ranges have equal length), in topological order: an entry joining two different blocks goes
/// from an earlier block's row to a later block's column. Such entries lie in no perfect
/// matching. When the graph has a perfect matching, perm(A) is the product of the blocks'
/// permanents.
struct DMDecomposition {
    Matching matching;
    std::vector<vertex_t> row_order;  ///< permuted position → left vertex
    std::vector<vertex_t> col_order;  ///< permuted position → right vertex
    vertex_t rr[4] = {0, 0, 0, 0};    ///< coarse row boundaries (horizontal, square, vertical)
    vertex_t cc[4] = {0, 0, 0, 0};    ///< coarse column boundaries
    std::vector<vertex_t> row_block_start;  ///< fine blocks of the square part (size blocks+1)
    std::vector<vertex_t> col_block_start;
    std::vector<int> row_block;  ///< fine block of each left vertex (−1 outside the square part)
    std::vector<int> col_block;  ///< fine block of each right vertex
    /// Edges inside the square part that join two different fine blocks.
    edge_t dropped_edges = 0;

    int num_blocks() const noexcept { return static_cast<int>(row_block_start.size()) - 1; }
    bool has_perfect_matching() const noexcept { return matching.is_perfect(); }
};

/// Coarse and fine Dulmage–Mendelsohn decomposition: Hopcroft–Karp, then the strongly connected
/// components (Tarjan, iterative) of the square part with matching edges oriented row→column and
/// the others column→row. O(E·√V).
DMDecomposition dulmage_mendelsohn(const BipartiteGraph& graph);

/// Graphviz DOT drawing of a decomposition: one cluster per fine block, matched edges bold,
/// edges between blocks (dropped from every perfect matching) dashed.
void write_dot(std::ostream& out, const BipartiteGraph& graph, const DMDecomposition& dm);

/// A maximum matching of a general graph. mate[v] is the vertex matched to v (−1 if none).
struct GeneralMatching {
    std::vector<vertex_t> mate;
    vertex_t size = 0;  ///< matched edges
    /// When some vertex is unmatched: a Tutte set (barrier) A, ascending, such that G − A has
    /// more odd components than |A| — the certificate that no perfect matching exists
    /// (Tutte 1947). By the Tutte–Berge formula odd_components − |A| = the number of unmatched
    /// vertices. Empty (and odd_components 0) when the matching is perfect; it can also be empty
    /// when the matching is not perfect (a graph with an odd component has the empty barrier).
    std::vector<vertex_t> tutte_set;
    vertex_t odd_components = 0;  ///< odd components of G − tutte_set

    bool is_perfect() const noexcept { return 2 * static_cast<std::size_t>(size) == mate.size(); }
};

/// Maximum-cardinality matching of a general graph by Edmonds' blossom algorithm, started from a
/// greedy matching; the Tutte set is the A of the Gallai–Edmonds decomposition read off the
/// final search. Deterministic.
GeneralMatching maximum_matching(const UndirectedGraph& graph);

/// The part of the Gallai–Edmonds decomposition holding a vertex (Lovász & Plummer, "Matching
/// Theory", Thm 3.2.1).
enum class GallaiEdmondsPart : std::uint8_t {
    d,  ///< missed by some maximum matching
    a,  ///< not in D, adjacent to D
    c,  ///< the rest: matched within C by every maximum matching
};

/// Gallai–Edmonds decomposition with the maximum matching it was read from. Every maximum
/// matching matches A into distinct components of G[D], each of which is odd and factor-critical
/// (near-perfectly matched), and matches C perfectly within itself. With a perfect matching every
/// vertex is in C.
struct GallaiEdmonds {
    GeneralMatching matching;             ///< its tutte_set is A
    std::vector<GallaiEdmondsPart> part;  ///< per vertex
};

/// maximum_matching, keeping the decomposition (same cost).
GallaiEdmonds gallai_edmonds(const UndirectedGraph& graph);

/// The two sides of a bipartite undirected graph: `left` and `right` list the vertices of each
/// side in ascending order (the smallest vertex of each component on the left), and `graph` is
/// the same graph with left vertex i = left[i] and right vertex j = right[j].
struct Bipartition {
    std::vector<vertex_t> left;
    std::vector<vertex_t> right;
    BipartiteGraph graph;
};

/// The bipartition of a graph by breadth-first 2-colouring, O(V + E); nullopt when the graph has
/// an odd cycle.
std::optional<Bipartition> bipartition(const UndirectedGraph& graph);

}  // namespace pmcount
