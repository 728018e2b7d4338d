// Structure of a graph. Bipartite graphs: maximum matching (Hopcroft–Karp) and the coarse and
// fine Dulmage–Mendelsohn decomposition. General graphs: maximum matching (Edmonds' blossom
// algorithm) with a Tutte set when no perfect matching exists. Usable on their own, e.g. from a
// graph pipeline that only wants the block triangular form or a matching.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pmcount/decomposition.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

/// Maximum-cardinality matching by Hopcroft–Karp, O(E·√V), started from a greedy matching unless
/// greedy_start is false. Deterministic.
Matching maximum_matching(const BipartiteGraph& graph, bool greedy_start = true);

/// Coarse and fine Dulmage–Mendelsohn decomposition: Hopcroft–Karp, then the strongly connected
/// components (Tarjan, iterative) of the square part with matching edges oriented row→column and
/// the others column→row. O(E·√V). (io.hpp's write_dot draws it.)
DMDecomposition dulmage_mendelsohn(const BipartiteGraph& graph);

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
