// Reductions of a weighted symmetric matrix that preserve its hafnian: the pairing analogue of the
// Forbert–Marx rules (forbert_marx.hpp). haf(A) = Σ over perfect matchings M of the graph of A of
// Π_{uv ∈ M} a_uv; the diagonal never enters. Expanding along vertex v,
// haf(A) = Σ_u a_vu · haf(A − v − u), which gives, for a vertex v with
//   one neighbour u         → haf(A) = a_vu · haf(A − u − v)   (every perfect matching uses uv);
//   two neighbours a, b     → haf(A) = a_va·haf(A − v − a) + a_vb·haf(A − v − b) = haf(A′), A′
//                             having one vertex x in place of v, a, b with
//                             a′_xy = a_vb·a_ay + a_va·a_by for every other y (expand each term
//                             once more along b, resp. a; the edge ab can serve neither: with v
//                             matched to a, b is still to be matched, and vice versa);
//   three or four neighbours → haf(A) = haf(A₁) + haf(A₂), A₁ keeping the first two edges at v,
//                             A₂ the others (every perfect matching uses exactly one edge at v):
//                             both parts then reduce by the rules above.
// The first two rules remove two vertices each; a split makes two problems that each lose two at
// once.
//
// Exactness: integer entries stay integers (the contraction's sums of products are checked for
// int64 overflow with combine(); on overflow nothing is contracted). A floating contraction rounds
// each new entry, two nonnegative products and their sum, to a relative error ≤ 2u (u = 2⁻⁵³);
// for a nonnegative matrix every term of the hafnian uses at most one entry of x's row, so haf
// moves by a relative 2u at most per contraction (k contractions: (1 + 2u)^k − 1 ≈ 2ku). Signed
// reals could cancel and complex entries have no order, so they get only the exact rules
// (eliminations; splits are never useful without contractions): contract() refuses them.
//
// Storage: per vertex a sorted list of (neighbour, weight), each entry stored at both ends; a
// lazy min-heap of (degree, vertex) finds a vertex of least degree in O(log n). A step costs
// O(Σ degrees of the vertices it touches · log).
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <functional>
#include <queue>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"
#include "reduce/forbert_marx.hpp"

namespace pmcount::reduce {

template <class T>
class WorkSymmetric {
public:
    using Entry = std::pair<vertex_t, T>;

    /// From a symmetric matrix (a_ij = a_ji for every i ≠ j; the diagonal is ignored, zero
    /// entries dropped). Throws DimensionMismatch when a is not square, InvalidArgument when it is
    /// not symmetric. O(nnz · log).
    explicit WorkSymmetric(const SparseMatrix<T>& a) : n_(a.rows()) {
        if (!a.is_square()) {
            throw DimensionMismatch("WorkSymmetric: the matrix is " + std::to_string(a.rows()) +
                                    "×" + std::to_string(a.cols()) + ", not square");
        }
        adjacency_.assign(static_cast<std::size_t>(n_), {});
        for (const auto& t : a.triplets()) {
            if (t.row == t.col || t.value == T{}) {
                continue;
            }
            if (a.at(t.col, t.row) != t.value) {
                throw InvalidArgument("WorkSymmetric: entry (" + std::to_string(t.row) + ", " +
                                      std::to_string(t.col) + ") differs from (" +
                                      std::to_string(t.col) + ", " + std::to_string(t.row) + ")");
            }
            adjacency_[static_cast<std::size_t>(t.row)].push_back({t.col, t.value});
            if constexpr (std::is_same_v<T, double>) {
                contractible_ = contractible_ && t.value > 0.0;
            }
        }
        if constexpr (std::is_same_v<T, std::complex<double>>) {
            contractible_ = false;
        }
        for (auto& list : adjacency_) {
            std::sort(list.begin(), list.end(), by_vertex);
        }
        live_.assign(static_cast<std::size_t>(n_), 1);
        order_ = n_;
        for (vertex_t v = 0; v < n_; ++v) {
            push(v);
        }
    }

    /// Live vertices.
    vertex_t order() const noexcept { return order_; }
    /// Whether contract() is exact enough to apply (see the file comment): integer matrices, and
    /// real matrices whose entries are all nonnegative.
    bool can_contract() const noexcept { return contractible_; }
    /// Rules applied to this matrix: eliminated (one neighbour), merged (two neighbours
    /// contracted), split. The parts of a split start from zero, so the counts of a whole tree of
    /// splits add up.
    const ReductionCounts& counts() const noexcept { return counts_; }

    /// A live vertex of least degree as (degree, vertex); degree −1 when none is live. Degree 0
    /// means haf = 0 (that vertex cannot be matched).
    std::pair<int, vertex_t> min_vertex() {
        while (!heap_.empty()) {
            const auto [degree, v] = heap_.top();
            if (live_[static_cast<std::size_t>(v)] != 0 &&
                static_cast<int>(neighbours(v).size()) == degree) {
                return {degree, v};
            }
            heap_.pop();
        }
        return {-1, 0};
    }

    /// Live neighbours of v with their weights, by vertex.
    const std::vector<Entry>& neighbours(vertex_t v) const {
        return adjacency_[static_cast<std::size_t>(v)];
    }

    /// Rule 1: v has one neighbour u. Removes v and u; returns a_vu, the factor haf(A) carries.
    T eliminate(vertex_t v) {
        const auto [u, a] = neighbours(v).front();
        remove_vertex(v);
        remove_vertex(u);
        order_ -= 2;
        ++counts_.eliminated;
        return a;
    }

    /// Rule 2: v has two neighbours a < b. Replaces v, a, b by one vertex x in a's slot with
    /// a′_xy = a_vb·a_ay + a_va·a_by. False (nothing changed) when !can_contract() or an integer
    /// entry would overflow.
    bool contract(vertex_t v) {
        if (!contractible_) {
            return false;
        }
        const auto [a, alpha] = neighbours(v)[0];
        const auto [b, beta] = neighbours(v)[1];
        std::vector<Entry> merged;
        const auto& la = neighbours(a);
        const auto& lb = neighbours(b);
        std::size_t p = 0, q = 0;
        while (p < la.size() || q < lb.size()) {
            const vertex_t ya = p < la.size() ? la[p].first : n_;
            const vertex_t yb = q < lb.size() ? lb[q].first : n_;
            const vertex_t y = std::min(ya, yb);
            const T from_a = ya == y ? la[p++].second : T{};
            const T from_b = yb == y ? lb[q++].second : T{};
            if (y == v || y == a || y == b) {
                continue;
            }
            T value{};
            if (!combine(beta, from_a, alpha, from_b, value)) {
                return false;
            }
            if (value != T{}) {
                merged.push_back({y, value});
            }
        }
        remove_vertex(v);
        remove_vertex(b);
        for (const auto& [y, w] : neighbours(a)) {
            erase_entry(y, a);
        }
        for (const auto& [y, w] : merged) {
            insert_entry(y, {a, w});
        }
        adjacency_[static_cast<std::size_t>(a)] = std::move(merged);
        push(a);
        order_ -= 2;
        ++counts_.merged;
        return true;
    }

    /// Rule 3: v has three or more neighbours. Splits the edges at v after its first two into two
    /// matrices whose hafnians add up to this one's; both copies keep every other edge.
    std::pair<WorkSymmetric, WorkSymmetric> split(vertex_t v) {
        ++counts_.split;
        WorkSymmetric first = *this, second = *this;
        first.counts_ = second.counts_ = ReductionCounts{};
        const auto& entries = neighbours(v);
        for (std::size_t e = 0; e < entries.size(); ++e) {
            WorkSymmetric& drop_from = e < 2 ? second : first;
            drop_from.erase_entry(v, entries[e].first);
            drop_from.erase_entry(entries[e].first, v);
        }
        return {std::move(first), std::move(second)};
    }

    /// The live part as a symmetric SparseMatrix (both (i, j) and (j, i) stored, no diagonal),
    /// with original[i] the slot of its vertex i in the input (a contracted vertex keeps the slot
    /// of its smaller neighbour a).
    SparseMatrix<T> extract(std::vector<vertex_t>& original) const {
        std::vector<vertex_t> index(static_cast<std::size_t>(n_), -1);
        original.clear();
        for (vertex_t v = 0; v < n_; ++v) {
            if (live_[static_cast<std::size_t>(v)] != 0) {
                index[static_cast<std::size_t>(v)] = static_cast<vertex_t>(original.size());
                original.push_back(v);
            }
        }
        std::vector<Triplet<T>> entries;
        for (const vertex_t v : original) {
            for (const auto& [u, w] : neighbours(v)) {
                entries.push_back(
                    {index[static_cast<std::size_t>(v)], index[static_cast<std::size_t>(u)], w});
            }
        }
        const auto m = static_cast<vertex_t>(original.size());
        return SparseMatrix<T>(m, m, std::move(entries));
    }

private:
    static bool by_vertex(const Entry& x, const Entry& y) { return x.first < y.first; }

    void push(vertex_t v) { heap_.emplace(static_cast<int>(neighbours(v).size()), v); }

    /// Removes u from v's list (if present).
    void erase_entry(vertex_t v, vertex_t u) {
        auto& list = adjacency_[static_cast<std::size_t>(v)];
        const auto it = std::lower_bound(list.begin(), list.end(), Entry{u, T{}}, by_vertex);
        if (it != list.end() && it->first == u) {
            list.erase(it);
            push(v);
        }
    }

    void insert_entry(vertex_t v, Entry entry) {
        auto& list = adjacency_[static_cast<std::size_t>(v)];
        list.insert(std::lower_bound(list.begin(), list.end(), entry, by_vertex), entry);
        push(v);
    }

    /// Removes v and its entries from its neighbours' lists.
    void remove_vertex(vertex_t v) {
        for (const auto& [u, w] : neighbours(v)) {
            erase_entry(u, v);
        }
        adjacency_[static_cast<std::size_t>(v)].clear();
        live_[static_cast<std::size_t>(v)] = 0;
    }

    using HeapItem = std::pair<int, vertex_t>;
    vertex_t n_;
    vertex_t order_ = 0;
    bool contractible_ = true;
    ReductionCounts counts_;
    std::vector<std::vector<Entry>> adjacency_;
    std::vector<char> live_;
    std::priority_queue<HeapItem, std::vector<HeapItem>, std::greater<HeapItem>> heap_;
};

}  // namespace pmcount::reduce
