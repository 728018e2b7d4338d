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
// Loops (the loop hafnian lhaf(A), whose terms also pair a vertex with itself at weight a_jj:
// the diagonal as loops): a node also holds, for every vertex j, a polynomial l_j(λ), the walks
// from j through contracted pairs that end in a loop (the root: l_j = a_jj). Including a pair
// extends them, l'_j = l_j + λ·(b_j0·l_1 + b_j1·l_0), and the pair can also close a path whose
// two ends are loops, so g gains g·λ·l_0·l_1 as well: g·(1 + λ·(b_10 + l_0·l_1)). The union of
// a loop matching and the fixed pairs is a set of cycles and of paths between two loops; the
// same sieve keeps the systems that visit every pair once (Björklund, Gupt and Quesada, §5, the
// loop hafnian by the same recursion). The last pair sums w·[λ^(m−1)] g·(b_10 + l_0·l_1). An odd
// order is padded by a vertex with a loop of weight 1 and no edge (hafnian.cpp).
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
// Lanes: run_chunk_in_lanes hands a chunk's four grandchildren to a second walker whose Elem holds
// four coefficients (hafnian.cpp's ComplexLanes, DoubleLanes), one per subtree, so each
// multiply-add is one vector operation; its leaves are recorded and replayed lane by lane into
// the chunk's sums, which are then those of run_chunk bit for bit.
//
// Arith supplies: Elem (a coefficient), Wide (an unreduced sum of products), Leaves (the sum of
// the leaf values), zero(), wide(Elem), mac(Wide&, Elem, Elem) (acc += a·b), narrow(Wide),
// leaf(Leaves&, Wide dot, int sign) (adds sign·narrow(dot)).
#pragma once

#include <cstdint>
#include <vector>

#include "run/session.hpp"

namespace pmcount::exact::hafnian {

/// Subtrees per lane walker in run_chunk_in_lanes: a chunk's four grandchildren.
inline constexpr int kSubtreeLanes = 4;

template <class Arith>
class Recursion {
public:
    using Lanes = Arith;
    using Elem = typename Arith::Elem;
    using Wide = typename Arith::Wide;
    using Leaves = typename Arith::Leaves;

    /// A walker for matrices of order n (even, ≥ 2); `one` is g's constant term at the root;
    /// `loops`: the diagonal enters as loops (the loop hafnian).
    Recursion(const Arith& arith, int n, Elem one, bool loops = false)
        : Recursion(arith, n, n / 2, one, loops) {}

    /// A walker for the subtree below a node of `size` vertices of a matrix of order 2·degree:
    /// polynomials of `degree` coefficients (load_lane fills its root, descend_root walks it).
    Recursion(const Arith& arith, int size, int degree, Elem one, bool loops)
        : arith_(arith),
          n_(size),
          m_(degree),
          one_(one),
          loops_(loops),
          tables_(static_cast<std::size_t>(size / 2)),
          ls_(static_cast<std::size_t>(size / 2)),
          gs_(static_cast<std::size_t>(size / 2)),
          wide_(static_cast<std::size_t>(m_) + 1),
          h_(static_cast<std::size_t>(m_)) {
        for (int d = 0; d < n_ / 2; ++d) {
            const auto s = static_cast<std::size_t>(n_ - 2 * d);
            tables_[static_cast<std::size_t>(d)].assign(s * (s - 1) / 2 * m(), arith_.zero());
            if (loops_) {
                ls_[static_cast<std::size_t>(d)].assign(s * m(), arith_.zero());
            }
            gs_[static_cast<std::size_t>(d)].assign(m() + 1, arith_.zero());
        }
    }

    /// The root: entry(i, j) for i > j as the constant coefficients (and entry(i, i), the loops,
    /// when the walker has them).
    template <class Entry>
    void load_root(Entry entry) {
        std::vector<Elem>& table = tables_[0];
        for (int i = 1; i < n_; ++i) {
            for (int j = 0; j < i; ++j) {
                table[index(i, j) * m()] = entry(i, j);
            }
        }
        for (int i = 0; loops_ && i < n_; ++i) {
            ls_[0][static_cast<std::size_t>(i) * m()] = entry(i, i);
        }
        gs_[0][0] = one_;
        path_.clear();
    }

    /// Adds the leaves of chunk `chunk` of the split at depth `split` (0 ≤ split < m) to leaves.
    void run_chunk(std::uint64_t chunk, int split, Leaves& leaves) {
        stopped_ = false;
        descend(chunk_root(chunk, split), split, leaves);
    }

    /// run_chunk with the chunk's subtree walked four grandchildren at a time, one per lane of
    /// `lanes` (a walker of the lane arithmetic for size − 4 vertices and this walker's degree,
    /// whose Arith has set(Elem&, lane, scalar Elem), negated(scalar Elem), 4 lanes, Leaves that
    /// record the leaves in order and replay(leaves, lane, scalar Leaves&)): the four are the
    /// subtree's exclude–exclude, exclude–include, include–exclude and include–include nodes two
    /// levels down, and their leaves are added to `leaves` in that order, one by one — the same
    /// values, bit for bit, as run_chunk. For a chunk of at least three levels (m − split ≥ 3).
    template <class LaneWalker>
    void run_chunk_in_lanes(std::uint64_t chunk, int split, Leaves& leaves, LaneWalker& lanes) {
        // The grandchildren, each copied into its lane before the next include reuses buffers.
        const Node top = chunk_root(chunk, split);
        const Node e = exclude(top);
        lanes.load_lane(0, view(exclude(e)));
        lanes.load_lane(1, view(include(e, split + 1)));
        const Node i = include(top, split);
        lanes.load_lane(2, view(exclude(i)));
        lanes.load_lane(3, view(include(i, split + 1)));
        typename LaneWalker::Leaves each{};
        lanes.descend_root(each);
        // Lane by lane, leaf by leaf: the sums of the scalar walk, bit for bit.
        for (int l = 0; l < kSubtreeLanes; ++l) {
            LaneWalker::Lanes::replay(each, l, leaves);
        }
    }

    /// A node's data as another walker reads it (load_lane).
    struct View {
        const Elem* table = nullptr;  ///< entry (j, k), j > k: table + ((offset + j)(offset + j
                                      ///< − 1)/2 + offset + k)·degree
        int size = 0;
        int offset = 0;
        int sign = 1;
        const Elem* g = nullptr;
        const Elem* loops = nullptr;
    };

    /// Lane l of this walker's root: the node `v` of a scalar walker of the same degree, whose
    /// vertices [offset, size) are this walker's; a negative sign goes into g (exactly).
    template <class ScalarView>
    void load_lane(int l, const ScalarView& v) {
        const std::size_t md = m();
        std::vector<Elem>& table = tables_[0];
        for (int j = 1; j < n_; ++j) {
            for (int k = 0; k < j; ++k) {
                const auto* src = v.table + index(v.offset + j, v.offset + k) * md;
                Elem* dst = table.data() + index(j, k) * md;
                for (std::size_t t = 0; t < md; ++t) {
                    Arith::set(dst[t], l, src[t]);
                }
            }
        }
        for (int j = 0; loops_ && j < n_; ++j) {
            const auto* src = v.loops + static_cast<std::size_t>(v.offset + j) * md;
            Elem* dst = ls_[0].data() + static_cast<std::size_t>(j) * md;
            for (std::size_t t = 0; t < md; ++t) {
                Arith::set(dst[t], l, src[t]);
            }
        }
        for (std::size_t t = 0; t <= md; ++t) {
            auto value = v.g[t];
            if (v.sign < 0) {
                value = Arith::negated(value);
            }
            Arith::set(gs_[0][t], l, value);
        }
    }

    /// Walks the whole tree below the root that load_lane filled, its leaves into `leaves`.
    void descend_root(Leaves& leaves) {
        stopped_ = false;
        descend({tables_[0].data(), n_, 0, 1, gs_[0].data(), ls_[0].data()}, 0, leaves);
    }

private:
    struct Node {
        const Elem* table = nullptr;
        int size = 0;    ///< vertices of the table
        int offset = 0;  ///< the node's vertices are the table's [offset, size)
        int sign = 1;
        const Elem* g = nullptr;
        const Elem* loops = nullptr;  ///< l_j of the table's vertex j at loops + j·m (loops only)
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

    /// l_j of the node's vertex j (loops only).
    const Elem* loop(const Node& node, int j) const noexcept {
        return node.loops + static_cast<std::size_t>(node.offset + j) * m();
    }

    static Node exclude(const Node& node) noexcept {
        return {node.table, node.size, node.offset + 2, -node.sign, node.g, node.loops};
    }

    /// The chunk's root at depth `split`: the path from the root, recomputed only below the first
    /// pair where it differs from the last chunk's.
    const Node& chunk_root(std::uint64_t chunk, int split) {
        int from = 0;
        if (static_cast<int>(path_.size()) == split + 1 && split > 0) {
            const std::uint64_t differ = chunk ^ last_chunk_;
            from = differ == 0 ? split : split - 1 - (63 - __builtin_clzll(differ));
        } else {
            path_.assign(static_cast<std::size_t>(split) + 1, Node{});
            path_[0] = {tables_[0].data(), n_, 0, 1, gs_[0].data(), ls_[0].data()};
        }
        for (int d = from; d < split; ++d) {
            const bool included = ((chunk >> (split - 1 - d)) & 1U) != 0;
            const Node& parent = path_[static_cast<std::size_t>(d)];
            path_[static_cast<std::size_t>(d) + 1] =
                included ? include(parent, d) : exclude(parent);
        }
        last_chunk_ = chunk;
        return path_[static_cast<std::size_t>(split)];
    }

    static View view(const Node& node) noexcept {
        return {node.table, node.size, node.offset, node.sign, node.g, node.loops};
    }

    /// h = b_10 (+ l_0·l_1 with loops), degrees 0..m − 1: what closes at the node's first pair.
    const Elem* closing(const Node& node) {
        const Elem* b10 = entry(node, 1, 0);
        if (!loops_) {
            return b10;
        }
        const auto mm = static_cast<int>(m());
        const Elem* l0 = loop(node, 0);
        const Elem* l1 = loop(node, 1);
        Wide* w = wide_.data();
        for (int t = 0; t < mm; ++t) {
            w[t] = arith_.wide(b10[t]);
        }
        for (int a = 0; a < mm; ++a) {
            for (int t = a; t < mm; ++t) {
                arith_.mac(w[t], l0[a], l1[t - a]);
            }
        }
        for (int t = 0; t < mm; ++t) {
            h_[static_cast<std::size_t>(t)] = arith_.narrow(w[t]);
        }
        return h_.data();
    }

    /// The include child of a node at depth d: its table and g in depth d + 1's buffers.
    Node include(const Node& node, int d) {
        const int s = node.size - node.offset;
        const auto mm = static_cast<int>(m());
        Elem* c = tables_[static_cast<std::size_t>(d) + 1].data();
        Elem* e = gs_[static_cast<std::size_t>(d) + 1].data();
        Wide* w = wide_.data();
        // e = g·(1 + λ·h), h = b_10 (+ l_0·l_1), degrees 0..m.
        const Elem* b10 = closing(node);
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
        // l'_j = l_j + λ·(b_j0·l_1 + b_j1·l_0), degrees 0..m − 1.
        Elem* l = loops_ ? ls_[static_cast<std::size_t>(d) + 1].data() : nullptr;
        if (loops_) {
            const Elem* l0 = loop(node, 0);
            const Elem* l1 = loop(node, 1);
            for (int j = 2; j < s; ++j) {
                const Elem* uj = entry(node, j, 0);
                const Elem* vj = entry(node, j, 1);
                const Elem* src = loop(node, j);
                for (int t = 0; t < mm; ++t) {
                    w[t] = arith_.wide(src[t]);
                }
                for (int a = 0; a + 1 < mm; ++a) {
                    for (int t = a + 1; t < mm; ++t) {
                        arith_.mac(w[t], uj[a], l1[t - 1 - a]);
                        arith_.mac(w[t], vj[a], l0[t - 1 - a]);
                    }
                }
                Elem* out = l + static_cast<std::size_t>(j - 2) * m();
                for (int t = 0; t < mm; ++t) {
                    out[t] = arith_.narrow(w[t]);
                }
            }
        }
        return {c, s - 2, 0, node.sign, e, l};
    }

    void descend(const Node& node, int d, Leaves& leaves) {
        if (node.size - node.offset == 2) {
            // The last pair: w·[λ^(m−1)] g·h.
            const Elem* b10 = closing(node);
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
    bool loops_;
    std::vector<std::vector<Elem>> tables_;  ///< [d]: the include child's table at depth d
    std::vector<std::vector<Elem>> ls_;      ///< [d]: its l_j (loops only)
    std::vector<std::vector<Elem>> gs_;      ///< [d]: its g
    std::vector<Wide> wide_;                 ///< the coefficients being summed
    std::vector<Elem> h_;                    ///< closing()'s b_10 + l_0·l_1
    std::vector<Node> path_;                 ///< the nodes of the current chunk's prefix
    std::uint64_t last_chunk_ = 0;
    run::StopPoll stop_;
    bool stopped_ = false;  ///< a stop was asked for: the chunk is being abandoned
};

}  // namespace pmcount::exact::hafnian
