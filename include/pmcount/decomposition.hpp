// What a bipartite graph's structure is made of: a maximum matching (with Hall's witness where it
// is not perfect) and the coarse and fine Dulmage–Mendelsohn decomposition. structure.hpp
// computes them; other parts read them (io.hpp's write_dot draws a decomposition) without
// depending on how they are computed.
#pragma once

#include <vector>

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

}  // namespace pmcount
