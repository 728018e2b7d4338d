// Forbert–Marx reductions of a square sparse matrix (H. Forbert and D. Marx, "Calculation of the
// permanent of a sparse positive matrix", Comput. Phys. Commun. 150, 2003; SUPERMAN Alg. 4).
//
// A line (row or column) i with
//   one nonzero a_ij        → perm(A) = a_ij · perm(A without line i and line j);
//   two nonzeros α at j, β at k
//                           → perm(A) = perm(A'), A' = A without line i, lines j and k of the
//                             other side replaced by the single line α·(line k) + β·(line j)
//                             (expand along line i: α·perm(A₋ᵢ₋ⱼ) + β·perm(A₋ᵢ₋ₖ), and perm is
//                             linear in the merged line);
//   three or four nonzeros  → perm(A) = perm(A₁) + perm(A₂), A₁ keeping the first two entries of
//                             line i, A₂ the others (perm is linear in line i): both parts then
//                             reduce by the rules above.
// Each of the first two rules removes one row and one column; a split makes two problems of the
// same order that each lose one at once.
//
// Exactness: integer entries stay integers (α·x + β·y is checked for int64 overflow; on
// overflow the merge is not done). Floating merges round, so they are only applied to
// nonnegative real matrices, where perm is monotone in every entry and a relative error u in
// each merged entry changes perm by a relative u at most; signed and complex matrices get only
// the exact rules (one nonzero, splits are never useful without merges).
//
// Storage: both sides as sorted lists of (index, value), kept consistent, so every rule is
// written once for a side s and its transpose 1 − s. A lazy min-heap of (degree, side, line)
// finds a line of least degree in O(log n). A step costs O(Σ degrees of the lines it touches).
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <queue>
#include <tuple>
#include <utility>
#include <vector>

#include "pmcount/matrix.hpp"

namespace pmcount::reduce {

/// Counts of the rules applied.
struct ReductionCounts {
    int eliminated = 0;  ///< lines with one nonzero multiplied out
    int merged = 0;      ///< lines with two nonzeros merged away
    int split = 0;       ///< lines with three or four nonzeros split in two
    ReductionCounts& operator+=(const ReductionCounts& o) {
        eliminated += o.eliminated;
        merged += o.merged;
        split += o.split;
        return *this;
    }
    bool any() const noexcept { return eliminated + merged + split > 0; }
};

/// Whether α·x + β·y can be formed without losing exactness (integers: no overflow).
template <class T>
bool combine(const T& alpha, const T& x, const T& beta, const T& y, T& out) noexcept {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        std::int64_t p, q;
        return !__builtin_mul_overflow(alpha, x, &p) && !__builtin_mul_overflow(beta, y, &q) &&
               !__builtin_add_overflow(p, q, &out);
    } else {
        out = alpha * x + beta * y;
        return true;
    }
}

template <class T>
class WorkMatrix {
public:
    using Entry = std::pair<vertex_t, T>;

    explicit WorkMatrix(const SparseMatrix<T>& a) : n_(a.rows()) {
        for (auto& side : lines_) {
            side.assign(static_cast<std::size_t>(n_), {});
        }
        for (const auto& t : a.triplets()) {
            if (t.value != T{}) {
                lines_[0][static_cast<std::size_t>(t.row)].push_back({t.col, t.value});
                lines_[1][static_cast<std::size_t>(t.col)].push_back({t.row, t.value});
            }
        }
        for (auto& side : lines_) {
            for (auto& line : side) {
                std::sort(line.begin(), line.end(), by_index);
            }
        }
        live_[0].assign(static_cast<std::size_t>(n_), 1);
        live_[1].assign(static_cast<std::size_t>(n_), 1);
        order_ = n_;
        for (int s = 0; s < 2; ++s) {
            for (vertex_t i = 0; i < n_; ++i) {
                push(s, i);
            }
        }
    }

    /// Live rows (= live columns).
    vertex_t order() const noexcept { return order_; }

    /// A live line of least degree as (degree, side, index); degree −1 when none is live.
    std::tuple<int, int, vertex_t> min_line() {
        while (!heap_.empty()) {
            const auto [degree, side, i] = heap_.top();
            if (live_[side][static_cast<std::size_t>(i)] != 0 &&
                static_cast<int>(line(side, i).size()) == degree) {
                return {degree, side, i};
            }
            heap_.pop();
        }
        return {-1, 0, 0};
    }

    const std::vector<Entry>& line(int side, vertex_t i) const {
        return lines_[side][static_cast<std::size_t>(i)];
    }

    /// Rule 1: line i of `side` has one entry; removes it and its partner, returns the entry.
    T eliminate(int side, vertex_t i) {
        const auto [j, a] = line(side, i).front();
        remove_line(side, i);
        remove_line(1 - side, j);
        --order_;
        return a;
    }

    /// Rule 2: line i of `side` has two entries (j, α), (k, β); replaces lines j, k of the other
    /// side by α·(line k) + β·(line j), stored as line j. False (nothing changed) if an integer
    /// combination would overflow.
    bool merge(int side, vertex_t i) {
        const int other = 1 - side;
        const auto [j, alpha] = line(side, i)[0];
        const auto [k, beta] = line(side, i)[1];
        // The merged line, over the other side's lines except i.
        std::vector<Entry> merged;
        const auto& lj = line(other, j);
        const auto& lk = line(other, k);
        std::size_t p = 0, q = 0;
        while (p < lj.size() || q < lk.size()) {
            const vertex_t a = p < lj.size() ? lj[p].first : n_;
            const vertex_t b = q < lk.size() ? lk[q].first : n_;
            const vertex_t r = std::min(a, b);
            const T xj = a == r ? lj[p++].second : T{};
            const T xk = b == r ? lk[q++].second : T{};
            if (r == i) {
                continue;
            }
            T value;
            if (!combine(alpha, xk, beta, xj, value)) {
                return false;
            }
            if (value != T{}) {
                merged.push_back({r, value});
            }
        }
        remove_line(side, i);
        remove_line(other, k);
        --order_;
        // Replace line j: drop its old entries from the crossing lines, insert the new ones.
        for (const auto& [r, x] : line(other, j)) {
            erase_entry(side, r, j);
        }
        for (const auto& [r, value] : merged) {
            insert_entry(side, r, {j, value});
        }
        lines_[other][static_cast<std::size_t>(j)] = std::move(merged);
        push(other, j);
        return true;
    }

    /// Rule 3: splits line i of `side` after its first two entries into two matrices whose
    /// permanents add up to this one's.
    std::pair<WorkMatrix, WorkMatrix> split(int side, vertex_t i) const {
        WorkMatrix first = *this, second = *this;
        const auto& entries = line(side, i);
        for (std::size_t e = 0; e < entries.size(); ++e) {
            WorkMatrix& drop_from = e < 2 ? second : first;
            drop_from.erase_entry(side, i, entries[e].first);
            drop_from.erase_entry(1 - side, entries[e].first, i);
            drop_from.push(1 - side, entries[e].first);
        }
        first.push(side, i);
        second.push(side, i);
        return {std::move(first), std::move(second)};
    }

    /// The live part as a SparseMatrix, with the original row and column of each index.
    SparseMatrix<T> extract(std::vector<vertex_t>& rows, std::vector<vertex_t>& cols) const {
        std::vector<vertex_t> row_index(static_cast<std::size_t>(n_), -1);
        std::vector<vertex_t> col_index(static_cast<std::size_t>(n_), -1);
        rows.clear();
        cols.clear();
        for (vertex_t i = 0; i < n_; ++i) {
            if (live_[0][static_cast<std::size_t>(i)] != 0) {
                row_index[static_cast<std::size_t>(i)] = static_cast<vertex_t>(rows.size());
                rows.push_back(i);
            }
            if (live_[1][static_cast<std::size_t>(i)] != 0) {
                col_index[static_cast<std::size_t>(i)] = static_cast<vertex_t>(cols.size());
                cols.push_back(i);
            }
        }
        std::vector<Triplet<T>> entries;
        for (const vertex_t i : rows) {
            for (const auto& [j, v] : line(0, i)) {
                entries.push_back({row_index[static_cast<std::size_t>(i)],
                                   col_index[static_cast<std::size_t>(j)], v});
            }
        }
        return SparseMatrix<T>(static_cast<vertex_t>(rows.size()), static_cast<vertex_t>(cols.size()),
                               std::move(entries));
    }

private:
    static bool by_index(const Entry& a, const Entry& b) { return a.first < b.first; }

    void push(int side, vertex_t i) {
        heap_.emplace(static_cast<int>(line(side, i).size()), side, i);
    }

    void erase_entry(int side, vertex_t i, vertex_t index) {
        auto& l = lines_[side][static_cast<std::size_t>(i)];
        const auto it = std::lower_bound(l.begin(), l.end(), Entry{index, T{}}, by_index);
        if (it != l.end() && it->first == index) {
            l.erase(it);
            push(side, i);
        }
    }

    void insert_entry(int side, vertex_t i, Entry entry) {
        auto& l = lines_[side][static_cast<std::size_t>(i)];
        l.insert(std::lower_bound(l.begin(), l.end(), entry, by_index), entry);
        push(side, i);
    }

    /// Removes line i of `side` and its entries from the crossing lines.
    void remove_line(int side, vertex_t i) {
        for (const auto& [j, v] : line(side, i)) {
            erase_entry(1 - side, j, i);
        }
        lines_[side][static_cast<std::size_t>(i)].clear();
        live_[side][static_cast<std::size_t>(i)] = 0;
    }

    using HeapItem = std::tuple<int, int, vertex_t>;
    vertex_t n_;
    vertex_t order_ = 0;
    std::vector<std::vector<Entry>> lines_[2];
    std::vector<char> live_[2];
    std::priority_queue<HeapItem, std::vector<HeapItem>, std::greater<HeapItem>> heap_;
};

}  // namespace pmcount::reduce
