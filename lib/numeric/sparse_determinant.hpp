// Determinants of sparse square matrices by Gaussian elimination with a fill-reducing column
// order, over a field given as a policy: integers modulo a 62-bit prime (Montgomery form), double
// or complex double (library-internal).
//
// Column order: multiple minimum degree (Liu 1985; Boost.Graph's minimum_degree_ordering) on the
// symmetric pattern of A with a perfect matching moved onto the diagonal, i.e. on the graph with
// one node per matched pair (row μ⁻¹(c), column c), joined when A has an entry between the row of
// one pair and the column of the other. For a planar bipartite graph that graph is a contraction
// of a planar graph, hence planar, and minimum degree orders of planar graphs fill like nested
// dissection in practice (O(n log n) entries, O(n^1.5) operations; George & Liu 1989, §8).
//
// Row pivots are chosen while eliminating: the matched row when its entry is usable (nonzero
// modulo p; at least a tenth of the largest in the column in floating point), otherwise the
// shortest usable row (Markowitz's criterion restricted to the column). The elimination keeps
// rows as sorted sparse vectors and, per column, a superset of the rows holding it, so exact
// cancellations and zero pivots modulo p are handled without any symbolic assumption. A run can
// be given the pivot rows of an earlier run (another prime): it follows them while they stay
// usable, so all primes share one fill pattern.
//
// Cost: O(Σ_k r_k·l_k) entry updates, r_k and l_k the lengths of the pivot column and row at
// step k, plus O(E + fill) memory.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "core/stop.hpp"
#include "numeric/elimination_fields.hpp"
#include "numeric/scaled.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/types.hpp"

namespace pmcount::numeric {

/// Elimination order of the columns and the row each column prefers as pivot.
struct PivotOrder {
    std::vector<vertex_t> columns;
    std::vector<vertex_t> preferred_row;
};

/// Minimum degree order of the matched pairs of `pattern` (square, with the perfect matching
/// col_match: column c ↔ row col_match[c]). O(fill) time in practice.
PivotOrder minimum_degree_order(const BipartiteGraph& pattern,
                                const std::vector<vertex_t>& col_match);

template <class V>
struct EliminationResult {
    bool singular = false;  ///< no usable pivot in some column: the determinant is 0
    /// det = sign · Π pivots (pivots in elimination order).
    int sign = 1;
    std::vector<V> pivots;
    std::vector<vertex_t> pivot_rows;  ///< row chosen at each step
    /// Largest magnitude of any entry written (floating point: the growth factor's numerator).
    double largest_entry = 0;
};

/// Eliminates `rows` (consumed) in the given column order. `follow`: pivot rows of an earlier
/// run to reuse while usable (may be empty). O(updates) as in the file comment.
template <class Field>
EliminationResult<typename Field::Value> eliminate(const Field& field,
                                                   SparseRows<typename Field::Value> rows,
                                                   const PivotOrder& order,
                                                   const std::vector<vertex_t>& follow) {
    using V = typename Field::Value;
    // Pivot candidates below this fraction of the column's largest magnitude are avoided in
    // floating point (threshold partial pivoting, as in UMFPACK's default 0.1).
    constexpr double kThreshold = 0.1;
    const auto n = rows.size();
    EliminationResult<V> out;
    std::vector<std::vector<vertex_t>> col_rows(n);
    for (std::size_t r = 0; r < n; ++r) {
        for (const auto& e : rows[r]) {
            col_rows[static_cast<std::size_t>(e.col)].push_back(static_cast<vertex_t>(r));
            out.largest_entry = std::max(out.largest_entry, Field::magnitude(e.value));
        }
    }
    std::vector<char> active(n, 1);
    std::vector<vertex_t> row_to_col(n, -1);
    std::vector<SparseEntry<V>> merged;
    struct Candidate {
        vertex_t row;
        V value;
    };
    std::vector<Candidate> candidates;
    const auto value_at = [&rows](vertex_t r, vertex_t c, V& value) {
        const auto& row = rows[static_cast<std::size_t>(r)];
        const auto it =
            std::lower_bound(row.begin(), row.end(), c,
                             [](const SparseEntry<V>& e, vertex_t col) { return e.col < col; });
        if (it == row.end() || it->col != c) {
            return false;
        }
        value = it->value;
        return true;
    };
    detail::StopPoll<> stop;  // a 10^6-vertex grid's elimination takes minutes
    for (std::size_t k = 0; k < n; ++k) {
        const vertex_t c = order.columns[k];
        auto& holders = col_rows[static_cast<std::size_t>(c)];
        std::sort(holders.begin(), holders.end());
        holders.erase(std::unique(holders.begin(), holders.end()), holders.end());
        candidates.clear();
        double column_max = 0;
        for (const vertex_t r : holders) {
            V value;
            if (active[static_cast<std::size_t>(r)] != 0 && value_at(r, c, value)) {
                candidates.push_back({r, value});
                column_max = std::max(column_max, Field::magnitude(value));
            }
        }
        if (column_max == 0) {
            out.singular = true;
            return out;
        }
        const double usable = kThreshold * column_max;
        const auto is_usable = [&](const Candidate& cand) {
            return Field::magnitude(cand.value) >= usable;
        };
        const Candidate* pivot = nullptr;
        const vertex_t wanted =
            k < follow.size() ? follow[k] : order.preferred_row[static_cast<std::size_t>(c)];
        for (const Candidate& cand : candidates) {
            if (cand.row == wanted && is_usable(cand)) {
                pivot = &cand;
            }
        }
        if (pivot == nullptr) {
            for (const Candidate& cand : candidates) {
                if (!is_usable(cand)) {
                    continue;
                }
                const auto length = rows[static_cast<std::size_t>(cand.row)].size();
                if (pivot == nullptr ||
                    length < rows[static_cast<std::size_t>(pivot->row)].size() ||
                    (length == rows[static_cast<std::size_t>(pivot->row)].size() &&
                     Field::magnitude(cand.value) > Field::magnitude(pivot->value))) {
                    pivot = &cand;
                }
            }
        }
        const vertex_t p = pivot->row;
        const V pivot_inverse = field.inverse(pivot->value);
        out.pivots.push_back(pivot->value);
        out.pivot_rows.push_back(p);
        row_to_col[static_cast<std::size_t>(p)] = c;
        active[static_cast<std::size_t>(p)] = 0;
        const auto& pivot_row = rows[static_cast<std::size_t>(p)];
        // The updates below merge the pivot row into every other candidate's.
        if (stop(static_cast<std::int64_t>(candidates.size() * pivot_row.size()) + 1)) {
            detail::throw_if_stopped("eliminating (a sparse determinant)");
        }
        for (const Candidate& cand : candidates) {
            if (cand.row == p) {
                continue;
            }
            auto& row = rows[static_cast<std::size_t>(cand.row)];
            const V factor = field.mul(cand.value, pivot_inverse);
            // row ← row − factor · pivot_row, dropping column c (eliminated in both).
            merged.clear();
            auto a = row.begin();
            auto b = pivot_row.begin();
            while (a != row.end() || b != pivot_row.end()) {
                if (b == pivot_row.end() || (a != row.end() && a->col < b->col)) {
                    if (a->col != c) {
                        merged.push_back(*a);
                    }
                    ++a;
                } else if (a == row.end() || b->col < a->col) {
                    if (b->col != c) {
                        const V v = field.negate(field.mul(factor, b->value));
                        merged.push_back({b->col, v});
                        col_rows[static_cast<std::size_t>(b->col)].push_back(cand.row);
                        out.largest_entry = std::max(out.largest_entry, Field::magnitude(v));
                    }
                    ++b;
                } else {
                    if (a->col != c) {
                        const V v = field.sub(a->value, field.mul(factor, b->value));
                        merged.push_back({a->col, v});
                        out.largest_entry = std::max(out.largest_entry, Field::magnitude(v));
                    }
                    ++a;
                    ++b;
                }
            }
            row.swap(merged);
        }
        rows[static_cast<std::size_t>(p)] = {};
        holders = {};
    }
    // det = sgn(σ) Π pivots for σ: pivot row ↦ its column (rows and columns both 0..n−1).
    out.sign = permutation_sign(row_to_col);
    return out;
}

}  // namespace pmcount::numeric
