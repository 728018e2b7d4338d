// Graphs whose perfect matchings / cycle covers pmcount counts.
//
// Every type is immutable after construction, validated, and deduplicated: the constructor
// rejects out-of-range ids (InvalidArgument) and merges repeated edges, reporting how many it
// merged. Adjacency lists are sorted.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "pmcount/array_view.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

/// A bipartite graph with left vertices [0, n_left) and right vertices [0, n_right), stored as
/// CSR in both directions. Its biadjacency matrix (rows = left, columns = right) is the 0-1 matrix
/// whose permanent counts the perfect matchings.
class BipartiteGraph {
public:
    using Edge = std::pair<vertex_t, vertex_t>;  // (left, right)

    /// The empty graph with no vertices (it has exactly one perfect matching, the empty one).
    BipartiteGraph() = default;
    /// Builds from an edge list. Duplicate edges are merged (see duplicates_merged()).
    BipartiteGraph(vertex_t n_left, vertex_t n_right, std::vector<Edge> edges);

    vertex_t n_left() const noexcept { return n_left_; }
    vertex_t n_right() const noexcept { return n_right_; }
    edge_t num_edges() const noexcept { return static_cast<edge_t>(left_adjacency_.size()); }
    bool is_balanced() const noexcept { return n_left_ == n_right_; }
    /// Number of repeated edges that the constructor merged.
    edge_t duplicates_merged() const noexcept { return duplicates_merged_; }

    /// Right neighbours of left vertex u, ascending.
    ArrayView<vertex_t> right_neighbours(vertex_t u) const noexcept;
    /// Left neighbours of right vertex v, ascending.
    ArrayView<vertex_t> left_neighbours(vertex_t v) const noexcept;
    bool has_edge(vertex_t u, vertex_t v) const noexcept;

    /// CSR by left vertex: offsets (n_left + 1) and right ids.
    const std::vector<edge_t>& left_offsets() const noexcept { return left_offsets_; }
    const std::vector<vertex_t>& left_adjacency() const noexcept { return left_adjacency_; }
    /// CSR by right vertex (the CSC of the biadjacency matrix).
    const std::vector<edge_t>& right_offsets() const noexcept { return right_offsets_; }
    const std::vector<vertex_t>& right_adjacency() const noexcept { return right_adjacency_; }

    /// All edges as (left, right), sorted.
    std::vector<Edge> edges() const;

private:
    vertex_t n_left_ = 0;
    vertex_t n_right_ = 0;
    edge_t duplicates_merged_ = 0;
    std::vector<edge_t> left_offsets_{0};
    std::vector<vertex_t> left_adjacency_;
    std::vector<edge_t> right_offsets_{0};
    std::vector<vertex_t> right_adjacency_;
};

/// A directed graph on [0, n). A self-loop u→u is allowed: in a cycle cover it is a fixed point.
/// The number of cycle covers is the permanent of the adjacency matrix, i.e. the number of perfect
/// matchings of the bipartite graph (out-copies, in-copies) returned by as_bipartite().
class Digraph {
public:
    using Arc = std::pair<vertex_t, vertex_t>;  // (tail, head)

    Digraph() = default;
    /// Builds from an arc list. Duplicate arcs are merged (see duplicates_merged()).
    Digraph(vertex_t n, std::vector<Arc> arcs);

    vertex_t num_vertices() const noexcept { return adjacency_.n_left(); }
    edge_t num_arcs() const noexcept { return adjacency_.num_edges(); }
    edge_t duplicates_merged() const noexcept { return adjacency_.duplicates_merged(); }
    ArrayView<vertex_t> successors(vertex_t u) const noexcept {
        return adjacency_.right_neighbours(u);
    }
    ArrayView<vertex_t> predecessors(vertex_t v) const noexcept {
        return adjacency_.left_neighbours(v);
    }
    bool has_arc(vertex_t u, vertex_t v) const noexcept { return adjacency_.has_edge(u, v); }
    std::vector<Arc> arcs() const { return adjacency_.edges(); }

    /// Row u, column v ⇔ arc u→v.
    const BipartiteGraph& as_bipartite() const noexcept { return adjacency_; }

private:
    BipartiteGraph adjacency_;
};

/// A simple undirected graph on [0, n): any graph, bipartite or not. Its perfect matchings are
/// counted by the hafnian of its adjacency matrix (or, when it is bipartite, by the permanent of
/// its biadjacency matrix). A self-loop is rejected (InvalidArgument): no perfect matching can
/// use one. Each edge {u, v} is stored in both adjacency lists.
class UndirectedGraph {
public:
    using Edge = std::pair<vertex_t, vertex_t>;  // {u, v}; edges() lists them with u < v

    /// The graph with no vertices (one perfect matching, the empty one).
    UndirectedGraph() = default;
    /// Builds from an edge list in any orientation; {u, v} and {v, u} are the same edge, and
    /// repeats are merged (see duplicates_merged()).
    UndirectedGraph(vertex_t n, std::vector<Edge> edges);

    vertex_t num_vertices() const noexcept { return n_; }
    /// Undirected edges (each counted once).
    edge_t num_edges() const noexcept { return static_cast<edge_t>(adjacency_.size() / 2); }
    /// Number of repeated edges that the constructor merged.
    edge_t duplicates_merged() const noexcept { return duplicates_merged_; }
    vertex_t degree(vertex_t v) const noexcept {
        return static_cast<vertex_t>(offsets_[static_cast<std::size_t>(v) + 1] -
                                     offsets_[static_cast<std::size_t>(v)]);
    }

    /// Neighbours of v, ascending.
    ArrayView<vertex_t> neighbours(vertex_t v) const noexcept;
    bool has_edge(vertex_t u, vertex_t v) const noexcept;

    /// CSR: offsets (n + 1) and neighbour ids, each edge appearing once per endpoint.
    const std::vector<edge_t>& offsets() const noexcept { return offsets_; }
    const std::vector<vertex_t>& adjacency() const noexcept { return adjacency_; }

    /// All edges as {u, v} with u < v, sorted.
    std::vector<Edge> edges() const;

private:
    vertex_t n_ = 0;
    edge_t duplicates_merged_ = 0;
    std::vector<edge_t> offsets_{0};
    std::vector<vertex_t> adjacency_;
};

/// A graph drawn without crossings on a closed orientable surface (sphere, torus, ...), as its
/// rotation system: rotation[v] lists the neighbours of vertex v in the cyclic order in which
/// their edges leave v, every vertex turning the same way. The faces are what one traces by
/// arriving at v from u and leaving along the edge to the neighbour after u in rotation[v]; the
/// genus g of each connected component follows from Euler's formula V − E + F = 2 − 2g. Any
/// rotation system describes some surface; a graph of genus g has its perfect matchings as a
/// signed sum of 4^g Pfaffians (count_perfect_matchings with an embedding).
///
/// Vertices are those of the graph it embeds: a general graph's own; a bipartite graph's left
/// vertex i is i and its right vertex j is num_left() + j.
/// A torus drawing tiled by a rows×cols grid of translates of one cell of `sites` vertices:
/// vertex v is site s of cell (i, j) when place[v] = sites·(i·cols + j) + s (place empty: v
/// itself), and translating every vertex by whole cells maps the graph, its weights and its
/// rotations onto themselves, possibly only by two cells at a time (the brick wall's).
/// The generators' tori carry it; counting uses it to factor the torus's four Pfaffians by
/// Fourier transform (one small determinant per wave vector), after checking that it holds: a
/// tiling that does not fit is ignored, never trusted.
struct TorusCells {
    vertex_t rows = 0;
    vertex_t cols = 0;
    vertex_t sites = 0;
    std::vector<vertex_t> place;
};

struct Embedding {
    std::vector<std::vector<vertex_t>> rotation;
    std::optional<TorusCells> cells;  ///< the translations that map the drawing onto itself
};

}  // namespace pmcount
