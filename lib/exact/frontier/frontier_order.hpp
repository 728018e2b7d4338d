// The frontier engine's graph side (frontier.cpp runs the DP on it; frontier.hpp explains the
// recurrence): phases (1)-(3) of the engine, the weighted adjacency of all V = n_left + n_right
// vertices, the narrowest of the candidate orders, and its step plan. Library-internal.
#pragma once

#include <cstdint>
#include <vector>

#include "exact/frontier/frontier.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::exact::frontier {

/// Both sides as one graph: vertex x < n_left is row x, otherwise column x − n_left. Each
/// adjacency entry carries the CSR position of its matrix entry (the weight). A general graph
/// (a hafnian's symmetric matrix) has n_left = all its vertices and `general` set.
struct Adjacency {
    vertex_t n_left = 0;
    bool general = false;
    std::vector<edge_t> offsets;
    std::vector<vertex_t> neighbours;
    std::vector<edge_t> entry;

    vertex_t size() const { return static_cast<vertex_t>(offsets.size()) - 1; }
    edge_t begin(vertex_t x) const { return offsets[static_cast<std::size_t>(x)]; }
    edge_t end(vertex_t x) const { return offsets[static_cast<std::size_t>(x) + 1]; }
};

/// Phase (3): each frontier vertex gets a slot (a bit of the 64-bit state mask) when it enters
/// the frontier and frees it when processed.
struct StepPlan {
    std::vector<std::uint64_t>
        vertex_bit;  ///< per step: the processed vertex's bit, 0 if off the frontier
    /// Per step: the bits of the vertices that enter the frontier (take a slot) at this step. No
    /// state before the step holds them; a slot may have served another vertex earlier.
    std::vector<std::uint64_t> entering;
    std::vector<edge_t> forward_offsets;     ///< per step: its unprocessed neighbours …
    std::vector<std::uint64_t> forward_bit;  ///< … their bits
    std::vector<edge_t> forward_entry;       ///< … and the matrix entry of the edge
};

/// What the DP runs on: the matrix's adjacency, the narrowest order found and its step plan.
struct Prepared {
    Adjacency adj;
    FrontierOrder order;
    StepPlan plan;
};

/// The adjacency of a square matrix's nonzero entries, its narrowest order and step plan;
/// DimensionMismatch for a non-square matrix, ProblemTooLarge beyond kMaxFrontierWidth. T is
/// std::int64_t, double or std::complex<double>.
template <class T>
Prepared prepare(const SparseMatrix<T>& a);

/// The same for the hafnian of a symmetric matrix with an empty diagonal: the graph of its
/// nonzero entries off the diagonal (each edge's weight the entry above the diagonal).
template <class T>
Prepared prepare_hafnian(const SparseMatrix<T>& a);

/// The same with `order`, found before for the graph of a's off-diagonal entries (frontier_order
/// of that UndirectedGraph): the order search is not repeated.
Prepared prepare_hafnian(const SparseMatrix<std::int64_t>& a, const FrontierOrder& order);

}  // namespace pmcount::exact::frontier
