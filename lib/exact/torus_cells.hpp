// A symmetric matrix checked against the torus tiling its drawing came with (TorusCells,
// graph.hpp): every vertex's cell and site, and every edge's class — its ends' sites and the
// cells between them, up to translation — each class present in every cell with one weight.
// Shared by the engines that use the translations: the Pfaffians by Fourier transform
// (planar/torus_fourier.hpp) and the frontier DP's trace of the row transfer matrix
// (frontier/frontier_torus.hpp). Library-internal.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::exact {

/// The nonzero entries above the diagonal of a symmetric matrix as a graph (edges u < v, in
/// graph.edges() order) with their weights; an empty graph when the matrix is not symmetric.
struct WeightedEdges {
    UndirectedGraph graph;
    std::vector<std::int64_t> values;
};
WeightedEdges weighted_edges(const SparseMatrix<std::int64_t>& a);

/// One class of edges: site `from` of cell (i, j) to site `to` of cell (i + di, j + dj), for
/// every cell, with weight `weight`. Of the two ways to write a class, (from, to, di, dj) is the
/// lexicographically smaller.
struct CellClass {
    vertex_t from, to, di, dj;
    std::int64_t weight;
};

/// The tiling grouped into cells of fa×fb original cells.
struct CellTiling {
    vertex_t rows = 0, cols = 0, sites = 0;  ///< of the grouped cells
    std::vector<vertex_t> row, col, site;    ///< per vertex
    std::vector<CellClass> classes;
    std::vector<int> edge_class;               ///< per edge of WeightedEdges::graph
    std::vector<std::int8_t> direction;        ///< per edge: +1 when u → v is its class's way
    std::vector<char> cross_rows, cross_cols;  ///< per edge: wraps from the last row (column)

    /// sites·(i·cols + j) + s of vertex v: its place in the grid's own numbering.
    vertex_t place(vertex_t v) const {
        const auto x = static_cast<std::size_t>(v);
        return sites * (row[x] * cols + col[x]) + site[x];
    }
};

/// The tiling of `cells` grouped fa×fb, or nullopt when it does not fit the graph: the places
/// are not a permutation, a side has fewer than 3 (grouped) cells, an edge spans half a side or
/// more (its class would be ambiguous), or a class is missing from some cell or changes weight.
/// O(V + E log E).
std::optional<CellTiling> cell_tiling(const WeightedEdges& edges, const TorusCells& cells,
                                      vertex_t fa, vertex_t fb);

}  // namespace pmcount::exact
