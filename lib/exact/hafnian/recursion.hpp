// Björklund's recursion for the hafnian, written once for every arithmetic (A. Björklund,
// "Counting perfect matchings as fast as Ryser", SODA 2012, Algorithm 2; see also A. Björklund,
// B. Gupt and N. Quesada, "A faster hafnian formula for complex matrices and its benchmarking on a
// supercomputer", ACM JEA 24, 2019).
//
// The vertices are taken in pairs (0, 1), (2, 3), …; m = n/2. A node of the recursion holds s
// vertices (the first two are its next pair), for every j > k among them a polynomial b_jk(λ), a
// polynomial g(λ) and a sign w. The root has b_jk = a_jk, g = 1, w = +1, and
//
//   solve(b, g, w) = w · [λ^m] g                                        when no vertex is left,
//   solve(b, g, w) = solve(b without the pair, g, −w)                   (exclude the pair)
//                  + solve(c, g·(1 + λ·b_10), w)                        (include it)
//   with c_jk = b_jk + λ·(b_j0·b_k1 + b_k0·b_j1) on the other vertices,
//
// all polynomials truncated at degree m. The include branch contracts the pair: c_jk gains the
// walks j – 0 = 1 – k and j – 1 = 0 – k through it, g the closed walks; λ counts the pair
// visits. A subset S of included pairs thus sums walk systems over S weighted by λ^visits, and the
// signs (−1)^(m − |S|) sieve out, at degree m, every system but those visiting each pair exactly
// once: the perfect matchings. Only ring operations: it runs modulo any integer.
//
// Truncation: g needs degrees 0..m, the entries only 0..m − 1 — every use of an entry multiplies
// it by λ, so its degree-m coefficient never reaches [λ^m]. The last pair is summed directly:
// solve = w·[λ^(m−1)] g·b_10.
//
// Cost: the 2^d nodes at depth d (s = n − 2d vertices) each form (s − 2)(s − 3)/2 entries from
// two truncated products (m(m − 1) multiply-adds) and g·(1 + λ·b_10): ≈ 4.7·m²·2^m multiply-adds
// in all, O(n²·2^(n/2)) — a factor n/10 below the power-trace formula's O(n³·2^(n/2)). Most of
// it lies in the deep levels: small tables, full polynomials.
//
// Error (floating arithmetics): all coefficients of the recursion are polynomials in the entries
// with nonnegative coefficients, and every monomial of a leaf value has at most 2m + 1 factors.
// A monomial picks up one rounding per product and at most 2m + 1 per sum on each of the ≤ m
// levels it passes (each coefficient sums ≤ 2m − 1 products and its old value), so its computed
// value is within (8m² + 64)·u of its own size, and the leaf's error within that factor of the
// same leaf computed on |A| (hafnian.hpp: hafnian_error_factor). That bound is what double-double
// states. It is useless for double: the leaves alternate in sign and their magnitudes exceed the
// hafnian by up to 10^14 at n = 64, while their rounding errors mostly cancel. So the double
// arithmetics carry each coefficient's first-order error alongside it (hafnian.cpp:
// DoubleArith), and the error of the sum is summed with its signs like the value.
//
// Layout: a table holds, for the vertices [0, size) of some node, the entries (j, k), j > k, in
// row-major lower-triangular order (index j(j − 1)/2 + k), each as m coefficients. A child that
// excludes a pair uses its parent's table from offset + 2: no copy. A child that includes it gets
// a new table, in the buffer of its depth (one buffer per depth: a depth-first walk reuses it).
//
// Parallelism: the pairs 0..split − 1 fix a chunk (bit split − 1 − d of the chunk index: pair d
// included), and a walker runs the chunk's subtree. Consecutive chunks share long prefixes, so a
// walker keeps its path and recomputes it only below the first pair that differs. A walker polls
// for a stop (run::StopPoll, a leaf counted as m²/16 steps: every millisecond or so at order 64)
// and abandons its chunk when one is asked for (run::run_chunks drops that chunk).
//
// Arith supplies: Elem (a coefficient), Wide (an unreduced sum of products), Leaves (the sum of
// the leaf values), zero(), wide(Elem), mac(Wide&, Elem, Elem) (acc += a·b), narrow(Wide),
// leaf(Leaves&, Wide dot, int sign) (adds sign·narrow(dot)).
#pragma once

#include <cstdint>
#include <vector>

#include "run/session.hpp"

namespace pmcount::exact::hafnian {

template <class Arith>
class Recursion {
public:
    using Elem = typename Arith::Elem;
    using Wide = typename Arith::Wide;
    using Leaves = typename Arith::Leaves;

    /// A walker for matrices of order n (even, ≥ 2); `one` is g's constant term at the root.
    Recursion(const Arith& arith, int n, Elem one)
        : arith_(arith),
          n_(n),
          m_(n / 2),
          one_(one),
          tables_(static_cast<std::size_t>(m_)),
          gs_(static_cast<std::size_t>(m_)),
          wide_(static_cast<std::size_t>(m_) + 1) {
        for (int d = 0; d < m_; ++d) {
            const auto s = static_cast<std::size_t>(n_ - 2 * d);
            tables_[static_cast<std::size_t>(d)].assign(s * (s - 1) / 2 * m(), arith_.zero());
            gs_[static_cast<std::size_t>(d)].assign(m() + 1, arith_.zero());
        }
    }

    /// The root: entry(i, j) for i > j as the constant coefficients.
    template <class Entry>
    void load_root(Entry entry) {
        std::vector<Elem>& table = tables_[0];
        for (int i = 1; i < n_; ++i) {
            for (int j = 0; j < i; ++j) {
                table[index(i, j) * m()] = entry(i, j);
            }
        }
        gs_[0][0] = one_;
        path_.clear();
    }

    /// Adds the leaves of chunk `chunk` of the split at depth `split` (0 ≤ split < m) to leaves.
    void run_chunk(std::uint64_t chunk, int split, Leaves& leaves) {
        int from = 0;
        if (static_cast<int>(path_.size()) == split + 1 && split > 0) {
            const std::uint64_t differ = chunk ^ last_chunk_;
            from = differ == 0 ? split : split - 1 - (63 - __builtin_clzll(differ));
        } else {
            path_.assign(static_cast<std::size_t>(split) + 1, Node{});
            path_[0] = {tables_[0].data(), n_, 0, 1, gs_[0].data()};
        }
        for (int d = from; d < split; ++d) {
            const bool included = ((chunk >> (split - 1 - d)) & 1U) != 0;
            const Node& parent = path_[static_cast<std::size_t>(d)];
            path_[static_cast<std::size_t>(d) + 1] =
                included ? include(parent, d) : exclude(parent);
        }
        last_chunk_ = chunk;
        stopped_ = false;
        descend(path_[static_cast<std::size_t>(split)], split, leaves);
    }

private:
    struct Node {
        const Elem* table = nullptr;
        int size = 0;    ///< vertices of the table
        int offset = 0;  ///< the node's vertices are the table's [offset, size)
        int sign = 1;
        const Elem* g = nullptr;
    };

    std::size_t m() const noexcept { return static_cast<std::size_t>(m_); }
    static std::size_t index(int j, int k) noexcept {
        return static_cast<std::size_t>(j) * static_cast<std::size_t>(j - 1) / 2 +
               static_cast<std::size_t>(k);
    }
    /// The coefficients of entry (j, k), j > k, of the node (node-local vertices).
    const Elem* entry(const Node& node, int j, int k) const noexcept {
        return node.table + index(node.offset + j, node.offset + k) * m();
    }

    static Node exclude(const Node& node) noexcept {
        return {node.table, node.size, node.offset + 2, -node.sign, node.g};
    }

    /// The include child of a node at depth d: its table and g in depth d + 1's buffers.
    Node include(const Node& node, int d) {
        const int s = node.size - node.offset;
        const auto mm = static_cast<int>(m());
        Elem* c = tables_[static_cast<std::size_t>(d) + 1].data();
        Elem* e = gs_[static_cast<std::size_t>(d) + 1].data();
        Wide* w = wide_.data();
        // e = g·(1 + λ·b_10), degrees 0..m.
        const Elem* b10 = entry(node, 1, 0);
        for (int t = 0; t <= mm; ++t) {
            w[t] = arith_.wide(node.g[t]);
        }
        for (int u = 0; u < mm; ++u) {
            const Elem gu = node.g[u];
            for (int t = u + 1; t <= mm; ++t) {
                arith_.mac(w[t], gu, b10[t - 1 - u]);
            }
        }
        for (int t = 0; t <= mm; ++t) {
            e[t] = arith_.narrow(w[t]);
        }
        // c_jk = b_jk + λ·(u_j·v_k + u_k·v_j), degrees 0..m − 1, child vertex j is node vertex j
        // + 2.
        for (int j = 2; j < s; ++j) {
            const Elem* uj = entry(node, j, 0);
            const Elem* vj = entry(node, j, 1);
            for (int k = 2; k < j; ++k) {
                const Elem* uk = entry(node, k, 0);
                const Elem* vk = entry(node, k, 1);
                const Elem* src = entry(node, j, k);
                for (int t = 0; t < mm; ++t) {
                    w[t] = arith_.wide(src[t]);
                }
                for (int a = 0; a + 1 < mm; ++a) {
                    const Elem uja = uj[a], uka = uk[a];
                    for (int t = a + 1; t < mm; ++t) {
                        arith_.mac(w[t], uja, vk[t - 1 - a]);
                        arith_.mac(w[t], uka, vj[t - 1 - a]);
                    }
                }
                Elem* out = c + index(j - 2, k - 2) * m();
                for (int t = 0; t < mm; ++t) {
                    out[t] = arith_.narrow(w[t]);
                }
            }
        }
        return {c, s - 2, 0, node.sign, e};
    }

    void descend(const Node& node, int d, Leaves& leaves) {
        if (node.size - node.offset == 2) {
            // The last pair: w·[λ^(m−1)] g·b_10.
            const Elem* b10 = entry(node, 1, 0);
            const auto mm = static_cast<int>(m());
            Wide dot = arith_.wide(arith_.zero());
            for (int u = 0; u < mm; ++u) {
                arith_.mac(dot, node.g[u], b10[mm - 1 - u]);
            }
            arith_.leaf(leaves, dot, node.sign);
            stopped_ = stop_(static_cast<std::int64_t>(mm) * mm / 16 + 1);
            return;
        }
        descend(exclude(node), d + 1, leaves);
        if (!stopped_) {
            descend(include(node, d), d + 1, leaves);
        }
    }

    const Arith& arith_;
    int n_;
    int m_;
    Elem one_;
    std::vector<std::vector<Elem>> tables_;  ///< [d]: the include child's table at depth d
    std::vector<std::vector<Elem>> gs_;      ///< [d]: its g
    std::vector<Wide> wide_;                 ///< the coefficients being summed
    std::vector<Node> path_;                 ///< the nodes of the current chunk's prefix
    std::uint64_t last_chunk_ = 0;
    run::StopPoll stop_;
    bool stopped_ = false;  ///< a stop was asked for: the chunk is being abandoned
};

}  // namespace pmcount::exact::hafnian
