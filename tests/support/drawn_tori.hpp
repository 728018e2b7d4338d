// Tori drawn with their tiling, for the engines that use the translations (the Pfaffians by
// Fourier transform, the frontier DP's trace): the library's generators by name, and their
// symmetric matrices with a weight per edge.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "pmcount/generate.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::test {

/// A torus graph with its drawing and tiling: "tri", "hex" (brick wall), "kagome" or "square"
/// (the bipartite torus as a general graph, left vertex i is i and right j is num_left + j).
struct Drawn {
    UndirectedGraph graph;
    Embedding embedding;
};

inline Drawn lattice(const std::string& name, vertex_t rows, vertex_t cols) {
    if (name == "tri") {
        return {triangular_graph(rows, cols, true), triangular_torus_embedding(rows, cols)};
    }
    if (name == "hex") {
        return {brick_wall_torus_graph(rows, cols), brick_wall_torus_embedding(rows, cols)};
    }
    if (name == "kagome") {
        return {kagome_graph(rows, cols, true), kagome_torus_embedding(rows, cols)};
    }
    // The square torus as a general graph: left vertex i is i, right j is num_left + j.
    const BipartiteGraph b = torus_graph(rows, cols);
    std::vector<UndirectedGraph::Edge> edges;
    for (const auto& [l, r] : b.edges()) {
        edges.emplace_back(l, b.n_left() + r);
    }
    return {UndirectedGraph(b.n_left() + b.n_right(), edges), torus_embedding(rows, cols)};
}

/// The symmetric matrix of the graph with weight(u, v) on edge {u, v}.
template <class Weight>
SparseMatrix<std::int64_t> matrix_of(const UndirectedGraph& g, Weight weight) {
    std::vector<Triplet<std::int64_t>> entries;
    for (const auto& [u, v] : g.edges()) {
        const std::int64_t w = weight(u, v);
        entries.push_back({u, v, w});
        entries.push_back({v, u, w});
    }
    return {g.num_vertices(), g.num_vertices(), std::move(entries)};
}

inline SparseMatrix<std::int64_t> ones(const UndirectedGraph& g) {
    return matrix_of(g, [](vertex_t, vertex_t) { return 1; });
}

}  // namespace pmcount::test
