// The structure front end of a permanent, with no cost decisions: the block tree that
// Hopcroft–Karp and the fine Dulmage–Mendelsohn decomposition (btf_order in SuiteSparse's terms:
// a transversal, then strongly connected components) and the Forbert–Marx reductions leave. The
// planner (builder.hpp) walks the tree and adds what costs decide: each leaf's engine, and
// whether a split of a line (Forbert–Marx rule 3), weighed where the reductions stopped, pays.
// Library-internal.
#pragma once

#include <complex>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/stop.hpp"
#include "pmcount/decomposition.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/structure.hpp"
#include "reduce/forbert_marx.hpp"

namespace pmcount::plan::detail {

/// What an interrupted planner was doing (pmcount::detail::throw_if_stopped: at every node of the
/// plan and every few thousand reductions).
constexpr const char* kPlanning = "planning the count";

template <class T>
constexpr bool kIntegral = std::is_same_v<T, std::int64_t>;
template <class T>
constexpr bool kComplex = std::is_same_v<T, std::complex<double>>;

/// The bipartite graph of the nonzero entries (stored zeros never help a matching).
template <class T>
BipartiteGraph nonzero_pattern(const SparseMatrix<T>& a) {
    std::vector<BipartiteGraph::Edge> edges;
    edges.reserve(static_cast<std::size_t>(a.nnz()));
    for (const auto& t : a.triplets()) {
        if (t.value != T{}) {
            edges.emplace_back(t.row, t.col);
        }
    }
    // Each pass over millions of entries takes a tenth of a second: a poll between them.
    pmcount::detail::throw_if_stopped(kPlanning);
    return {a.rows(), a.cols(), std::move(edges)};
}

/// Rows and columns of fine block b of `dm`, with the entries of `a` inside the block.
template <class T>
SparseMatrix<T> block_matrix(const SparseMatrix<T>& a, const DMDecomposition& dm, int b) {
    const auto k = static_cast<std::size_t>(b);
    const vertex_t first_row = dm.row_block_start[k], first_col = dm.col_block_start[k];
    const vertex_t order = dm.row_block_start[k + 1] - first_row;
    std::vector<vertex_t> local_col(static_cast<std::size_t>(a.cols()), -1);
    for (vertex_t c = 0; c < order; ++c) {
        local_col[static_cast<std::size_t>(dm.col_order[static_cast<std::size_t>(first_col + c)])] =
            c;
    }
    std::vector<Triplet<T>> entries;
    for (vertex_t r = 0; r < order; ++r) {
        const vertex_t row = dm.row_order[static_cast<std::size_t>(first_row + r)];
        for (edge_t e = a.row_offsets()[static_cast<std::size_t>(row)];
             e < a.row_offsets()[static_cast<std::size_t>(row) + 1]; ++e) {
            const vertex_t c =
                local_col[static_cast<std::size_t>(a.col_indices()[static_cast<std::size_t>(e)])];
            const T& value = a.values()[static_cast<std::size_t>(e)];
            if (c >= 0 && value != T{}) {
                entries.push_back({r, c, value});
            }
        }
    }
    return {order, order, std::move(entries)};
}

/// Floating merges are exact enough only for nonnegative real matrices (see forbert_marx.hpp).
template <class T>
bool merges_allowed(const SparseMatrix<T>& a) {
    if constexpr (kIntegral<T>) {
        return true;
    } else if constexpr (kComplex<T>) {
        return false;
    } else {
        return std::all_of(a.values().begin(), a.values().end(), [](double v) { return v >= 0; });
    }
}

/// A node of the block tree.
template <class T>
struct Block {
    enum class Kind {
        zero,     ///< no perfect matching: Hall's condition fails, or a line emptied while reducing
        product,  ///< Dulmage–Mendelsohn blocks (children), whose permanents multiply
        reduced,  ///< reductions ran: `factors` times the permanent of the one child
        leaf,     ///< irreducible and reduced as far as the rules go: an engine counts `matrix`
    };
    Kind kind = Kind::leaf;
    std::string origin;  ///< "block 2 of 3", "matrix 40×40, reduced", …
    /// leaf: the block; reduced: the matrix the reductions left, before its own decomposition
    /// (where a split is weighed).
    SparseMatrix<T> matrix;
    std::vector<T> factors;              ///< reduced: the entries the eliminations multiplied out
    reduce::ReductionCounts reductions;  ///< reduced, and a zero a reduction emptied a line of
    vertex_t reduced_from = 0;           ///< the order the reductions started from
    /// leaf, reduced: the reductions stopped at a line of 3 or 4 nonzeros of a matrix whose
    /// merges are exact, so a split of that line (the least one of `matrix`) may be weighed.
    bool splittable = false;
    std::vector<Block> children;  ///< product: the blocks in order; reduced: the reduced tree

    // What the Dulmage–Mendelsohn decomposition of this node's matrix found, where it ran:
    bool decomposed = false;
    vertex_t matching_size = 0;
    std::vector<vertex_t> hall_rows, hall_cols;  ///< zero: Hall's witness
    edge_t dropped_entries = 0;
    std::vector<vertex_t> block_orders;
};

/// The block tree of perm(a) (square). `decompose`, `reductions`: the front end's two halves,
/// as CountOptions::dulmage_mendelsohn and CountOptions::reductions turn them on; `irreducible`: a
/// is known to be one fine block (no decomposition); `reduce`: try the reductions here (false right
/// after they ran to exhaustion on this very matrix: the reduced matrix is decomposed, and its
/// blocks reduced, but not reduced again itself). Cancellable (kPlanning).
template <class T>
Block<T> front_end(const SparseMatrix<T>& a, bool decompose, bool reductions, bool irreducible,
                   bool reduce, std::string origin) {
    pmcount::detail::throw_if_stopped(kPlanning);
    Block<T> node;
    if (a.rows() > 0 && decompose && !irreducible) {
        const DMDecomposition dm = dulmage_mendelsohn(nonzero_pattern(a));
        pmcount::detail::throw_if_stopped(kPlanning);
        node.decomposed = true;
        node.matching_size = dm.matching.size;
        if (!dm.has_perfect_matching()) {
            node.kind = Block<T>::Kind::zero;
            node.hall_rows = dm.matching.hall_violator;
            node.hall_cols = dm.matching.hall_neighbours;
            node.origin = std::move(origin) + ": no perfect matching (maximum matching " +
                          std::to_string(dm.matching.size) + " of " + std::to_string(a.rows()) +
                          ")";
            return node;
        }
        node.dropped_entries = dm.dropped_edges;
        for (int b = 0; b < dm.num_blocks(); ++b) {
            const auto k = static_cast<std::size_t>(b);
            node.block_orders.push_back(dm.row_block_start[k + 1] - dm.row_block_start[k]);
        }
        if (dm.num_blocks() > 1) {
            node.kind = Block<T>::Kind::product;
            node.origin = origin + ": " + std::to_string(dm.num_blocks()) +
                          " Dulmage–Mendelsohn blocks, " + std::to_string(dm.dropped_edges) +
                          " entries dropped";
            for (int b = 0; b < dm.num_blocks(); ++b) {
                node.children.push_back(front_end(
                    block_matrix(a, dm, b), decompose, reductions, true, true,
                    "block " + std::to_string(b + 1) + " of " + std::to_string(dm.num_blocks())));
            }
            return node;
        }
    }
    node.origin = std::move(origin);
    node.kind = Block<T>::Kind::leaf;
    if (a.rows() == 0 || !reductions || !reduce) {
        node.matrix = a;
        return node;
    }
    reduce::WorkMatrix<T> work(a);
    const bool merge = merges_allowed(a);
    std::vector<vertex_t> rows, cols;
    for (std::int64_t step = 0;; ++step) {
        if ((step & 0xfff) == 0) {
            pmcount::detail::throw_if_stopped(kPlanning);
        }
        const auto [degree, side, line] = work.min_line();
        if (degree < 0) {
            break;  // everything eliminated
        }
        if (degree == 0) {
            node.kind = Block<T>::Kind::zero;
            node.origin += ": a line became empty while reducing";
            node.reduced_from = a.rows();
            return node;
        }
        if (degree == 1) {
            node.factors.push_back(work.eliminate(side, line));
            ++node.reductions.eliminated;
            continue;
        }
        if (degree == 2 && merge && work.merge(side, line)) {
            ++node.reductions.merged;
            continue;
        }
        node.splittable = merge && degree >= 3 && degree <= 4;
        break;
    }
    node.reduced_from = a.rows();
    if (!node.reductions.any()) {
        node.matrix = a;
        return node;
    }
    node.kind = Block<T>::Kind::reduced;
    node.matrix = work.extract(rows, cols);
    // The reduced matrix may split into blocks again; it is not reduced a second time.
    node.children.push_back(
        front_end(node.matrix, decompose, reductions, false, false, node.origin + ", reduced"));
    return node;
}

/// The two matrices whose permanents add up to perm(a) when the least line of `a` (a leaf's or
/// a reduced node's matrix with `splittable` set) is split after its first two entries, and
/// that line's nonzeros.
template <class T>
std::pair<std::pair<SparseMatrix<T>, SparseMatrix<T>>, int> split_least_line(
    const SparseMatrix<T>& a) {
    reduce::WorkMatrix<T> work(a);
    const auto [degree, side, line] = work.min_line();
    auto [first, second] = work.split(side, line);
    std::vector<vertex_t> rows, cols;
    SparseMatrix<T> part1 = first.extract(rows, cols);
    SparseMatrix<T> part2 = second.extract(rows, cols);
    return {{std::move(part1), std::move(part2)}, degree};
}

}  // namespace pmcount::plan::detail
