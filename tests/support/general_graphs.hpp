// General (non-bipartite) graphs for the tests, and answers computed independently of pmcount:
// closed forms (double factorials, Lucas numbers), a brute force over pairings, a transfer matrix
// for triangular-lattice strips; seeded random graphs (G(n, p), cacti, unions) and brute-force
// oracles for the structure algorithms (maximum matching size, allowed edges, components) by
// dynamic programming over vertex subsets and plain enumeration.
//
// Random choices use std::mt19937_64 with our own integer transforms (no <random> distributions,
// whose output differs between standard libraries), so a seed gives the same graph everywhere.
#pragma once

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include "pmcount/generate.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::test {

using boost::multiprecision::cpp_int;
using Edges = std::vector<UndirectedGraph::Edge>;

/// (2m − 1)!! = 1·3·5·…·(2m − 1): the perfect matchings of K_2m.
inline cpp_int double_factorial_odd(int m) {
    cpp_int f = 1;
    for (int k = 3; k < 2 * m; k += 2) {
        f *= k;
    }
    return f;
}

/// Lucas numbers L(0) = 2, L(1) = 1, L(n) = L(n−1) + L(n−2).
inline cpp_int lucas(int n) {
    cpp_int a = 2, b = 1;
    for (int i = 0; i < n; ++i) {
        cpp_int c = a + b;
        a = b;
        b = c;
    }
    return a;
}

inline Edges complete_edges(int n) {
    Edges e;
    for (int u = 0; u < n; ++u) {
        for (int v = u + 1; v < n; ++v) {
            e.emplace_back(u, v);
        }
    }
    return e;
}

inline Edges cycle_edges(int n) {
    Edges e;
    for (int u = 0; u < n; ++u) {
        e.emplace_back(u, (u + 1) % n);
    }
    return e;
}

/// The ladder P_n × K_2: rails 0..n−1 and n..2n−1, rungs i – n+i. Perfect matchings: the domino
/// tilings of a 2×n strip, Fibonacci F(n + 1).
inline Edges ladder_edges(int n) {
    Edges e;
    for (int i = 0; i < n; ++i) {
        e.emplace_back(i, n + i);
        if (i + 1 < n) {
            e.emplace_back(i, i + 1);
            e.emplace_back(n + i, n + i + 1);
        }
    }
    return e;
}

/// The prism C_n × K_2 (n ≥ 3). Perfect matchings: L(n) + 2 for even n, L(n) for odd n.
inline Edges prism_edges(int n) {
    Edges e;
    for (int i = 0; i < n; ++i) {
        e.emplace_back(i, n + i);
        e.emplace_back(i, (i + 1) % n);
        e.emplace_back(n + i, n + (i + 1) % n);
    }
    return e;
}

/// The Möbius ladder M_n: the cycle C_2n with the n chords i – i+n (n ≥ 2; M_2 = K_4, M_3 =
/// K_{3,3}). Perfect matchings: L(n) + 2 for odd n, L(n) for even n.
inline Edges moebius_edges(int n) {
    Edges e = cycle_edges(2 * n);
    for (int i = 0; i < n; ++i) {
        e.emplace_back(i, n + i);
    }
    return e;
}

inline Edges petersen_edges() {
    Edges e;
    for (int i = 0; i < 5; ++i) {
        e.emplace_back(i, (i + 1) % 5);
        e.emplace_back(i, 5 + i);
        e.emplace_back(5 + i, 5 + (i + 2) % 5);
    }
    return e;
}

/// A triangular-lattice patch of `rows` × `cols` vertices (vertex r·cols + c): the grid graph
/// plus the diagonal (r, c) – (r+1, c+1) of every cell (the library's tri:RxC). Planar, not
/// bipartite.
inline Edges triangular_edges(int rows, int cols) {
    return triangular_graph(rows, cols, false).edges();
}

/// Perfect matchings of a triangular patch by a transfer matrix over row-major vertex order: the
/// state is the set of the next cols + 1 vertices already matched (every edge reaches at most
/// cols + 1 vertices ahead; cols ≤ 62). Independent of pmcount's engines.
inline cpp_int triangular_matchings(int rows, int cols) {
    const int n = rows * cols;
    std::map<std::uint64_t, cpp_int> states{{0, 1}};
    for (int v = 0; v < n; ++v) {
        const int r = v / cols, c = v % cols;
        std::map<std::uint64_t, cpp_int> next;
        for (const auto& [mask, ways] : states) {
            if ((mask & 1) != 0) {  // v was matched earlier
                next[mask >> 1] += ways;
                continue;
            }
            // Match v to a later neighbour: right (+1), down (+cols), down-right (+cols+1).
            const int offsets[] = {1, cols, cols + 1};
            const bool allowed[] = {c + 1 < cols, r + 1 < rows, r + 1 < rows && c + 1 < cols};
            for (int k = 0; k < 3; ++k) {
                const int d = offsets[k];
                if (allowed[k] && (mask & (std::uint64_t{1} << d)) == 0) {
                    next[(mask | (std::uint64_t{1} << d)) >> 1] += ways;
                }
            }
        }
        states = std::move(next);
    }
    const auto it = states.find(0);
    return it == states.end() ? cpp_int(0) : it->second;
}

/// Σ over the perfect matchings of Π a_uv of a symmetric matrix (diagonal ignored): pair the
/// lowest free vertex with every later free vertex, memoised on the free set (n ≤ 24).
inline cpp_int pairings_count(const DenseMatrix<std::int64_t>& a) {
    const int n = a.rows();
    std::map<std::uint32_t, cpp_int> memo;
    std::function<cpp_int(std::uint32_t)> count = [&](std::uint32_t free) -> cpp_int {
        if (free == 0) {
            return 1;
        }
        if (const auto it = memo.find(free); it != memo.end()) {
            return it->second;
        }
        const int u = __builtin_ctz(free);
        const std::uint32_t rest = free & ~(1U << u);
        cpp_int total = 0;
        for (std::uint32_t bits = rest; bits != 0; bits &= bits - 1) {
            const int v = __builtin_ctz(bits);
            if (a(u, v) != 0) {
                total += cpp_int(a(u, v)) * count(rest & ~(1U << v));
            }
        }
        memo.emplace(free, total);
        return total;
    };
    return n % 2 != 0 ? cpp_int(0) : count(n == 32 ? ~0U : (1U << n) - 1);
}

inline DenseMatrix<std::int64_t> adjacency(int n, const Edges& edges, std::int64_t weight = 1) {
    DenseMatrix<std::int64_t> a(n, n, 0);
    for (const auto& [u, v] : edges) {
        a(u, v) = a(v, u) = weight;
    }
    return a;
}

/// A symmetric integer matrix with an empty diagonal: each off-diagonal pair nonzero with
/// probability `density`, values uniform in [lo, hi] \ {0} (the nonzero pattern is the graph).
inline DenseMatrix<std::int64_t> random_symmetric_integer(int n, double density, std::int64_t lo,
                                                          std::int64_t hi, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    DenseMatrix<std::int64_t> a(n, n, 0);
    for (int u = 0; u < n; ++u) {
        for (int v = u + 1; v < n; ++v) {
            if (static_cast<double>(rng() >> 11) * 0x1p-53 < density) {
                std::int64_t x = 0;
                while (x == 0) {
                    x = lo +
                        static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(hi - lo + 1));
                }
                a(u, v) = a(v, u) = x;
            }
        }
    }
    return a;
}

/// A symmetric real (or complex) matrix with an empty diagonal, entries uniform in [lo, hi).
template <class T>
DenseMatrix<T> random_symmetric_float(int n, double lo, double hi, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    auto uniform = [&] { return lo + (hi - lo) * static_cast<double>(rng() >> 11) * 0x1p-53; };
    DenseMatrix<T> a(n, n, T{});
    for (int u = 0; u < n; ++u) {
        for (int v = u + 1; v < n; ++v) {
            if constexpr (std::is_same_v<T, double>) {
                a(u, v) = a(v, u) = uniform();
            } else {
                const double re = uniform();
                a(u, v) = a(v, u) = T(re, uniform());
            }
        }
    }
    return a;
}

// ---- seeded graphs and brute-force oracles for the structure algorithms ----

/// A seeded source of integers.
class Rng {
public:
    explicit Rng(std::uint64_t seed) : engine_(seed) {}
    /// Uniform in [0, n), n ≥ 1: rejects the draws below 2^64 mod n, so every residue is equally
    /// likely.
    std::uint64_t below(std::uint64_t n) {
        const std::uint64_t threshold = (0 - n) % n;
        std::uint64_t x = engine_();
        while (x < threshold) {
            x = engine_();
        }
        return x % n;
    }
    std::int64_t between(std::int64_t lo, std::int64_t hi) {
        return lo + static_cast<std::int64_t>(below(static_cast<std::uint64_t>(hi - lo + 1)));
    }
    /// True with probability per_mille / 1000.
    bool chance(std::uint64_t per_mille) { return below(1000) < per_mille; }
    /// Uniform in [0, 1) with 53 random bits.
    double unit() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
    template <class T>
    void shuffle(std::vector<T>& v) {
        for (std::size_t i = v.size(); i > 1; --i) {
            std::swap(v[i - 1], v[static_cast<std::size_t>(below(i))]);
        }
    }

private:
    std::mt19937_64 engine_;
};

/// G(n, p) with p = per_mille / 1000.
inline UndirectedGraph random_graph(vertex_t n, std::uint64_t per_mille, Rng& rng) {
    Edges edges;
    for (vertex_t u = 0; u < n; ++u) {
        for (vertex_t v = u + 1; v < n; ++v) {
            if (rng.chance(per_mille)) {
                edges.emplace_back(u, v);
            }
        }
    }
    return {n, edges};
}

/// A connected graph with many cut vertices: starting from one vertex, repeatedly hangs a new
/// cycle of length 2 to 5 (length 2 = a pendant edge) or a small random dense block on an
/// existing vertex, until n vertices exist; then shuffles the ids.
inline UndirectedGraph random_cactus(vertex_t n, Rng& rng) {
    Edges edges;
    vertex_t count = n > 0 ? 1 : 0;
    while (count < n) {
        const auto at = static_cast<vertex_t>(rng.below(static_cast<std::uint64_t>(count)));
        const auto extra = std::min<vertex_t>(n - count, static_cast<vertex_t>(1 + rng.below(4)));
        std::vector<vertex_t> ring{at};
        for (vertex_t k = 0; k < extra; ++k) {
            ring.push_back(count++);
        }
        if (rng.chance(250) && ring.size() >= 4) {
            for (std::size_t i = 0; i < ring.size(); ++i) {  // a denser block: path plus chords
                for (std::size_t j = i + 1; j < ring.size(); ++j) {
                    if (j == i + 1 || rng.chance(500)) {
                        edges.emplace_back(ring[i], ring[j]);
                    }
                }
            }
            edges.emplace_back(ring.front(), ring.back());
        } else {
            for (std::size_t i = 0; i + 1 < ring.size(); ++i) {
                edges.emplace_back(ring[i], ring[i + 1]);
            }
            if (ring.size() >= 3) {
                edges.emplace_back(ring.back(), ring.front());
            }
        }
    }
    std::vector<vertex_t> relabel(static_cast<std::size_t>(n));
    std::iota(relabel.begin(), relabel.end(), 0);
    rng.shuffle(relabel);
    for (auto& [u, v] : edges) {
        u = relabel[static_cast<std::size_t>(u)];
        v = relabel[static_cast<std::size_t>(v)];
    }
    return {n, edges};
}

/// The union of `parts` on disjoint vertex ranges, in order.
inline UndirectedGraph disjoint_union(const std::vector<UndirectedGraph>& parts) {
    Edges edges;
    vertex_t offset = 0;
    for (const UndirectedGraph& g : parts) {
        for (const auto& [u, v] : g.edges()) {
            edges.emplace_back(u + offset, v + offset);
        }
        offset += g.num_vertices();
    }
    return {offset, edges};
}

inline UndirectedGraph path_graph(vertex_t n) {
    Edges edges;
    for (vertex_t v = 0; v + 1 < n; ++v) {
        edges.emplace_back(v, v + 1);
    }
    return {n, edges};
}

inline UndirectedGraph cycle_graph(vertex_t n) {
    return {n, cycle_edges(n)};
}

inline UndirectedGraph complete_graph(vertex_t n) {
    return {n, complete_edges(n)};
}

/// Outer 5-cycle 0..4, spokes i–(i+5), inner pentagram 5..9.
inline UndirectedGraph petersen_graph() {
    return {10, petersen_edges()};
}

/// triangular_edges(rows, cols) with the vertex ids permuted by a seeded shuffle (identity when
/// seed is 0), so that the greedy start leaves work to do.
inline UndirectedGraph triangular_lattice(vertex_t rows, vertex_t cols, std::uint64_t seed) {
    std::vector<vertex_t> id(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    std::iota(id.begin(), id.end(), 0);
    if (seed != 0) {
        Rng rng(seed);
        rng.shuffle(id);
    }
    Edges edges = triangular_edges(rows, cols);
    for (auto& [u, v] : edges) {
        u = id[static_cast<std::size_t>(u)];
        v = id[static_cast<std::size_t>(v)];
    }
    return {rows * cols, edges};
}

/// Size of a maximum matching by dynamic programming over vertex subsets: the lowest vertex of a
/// set is either left exposed or matched to a neighbour in the set. n ≤ 20.
inline int brute_matching_size(const UndirectedGraph& g) {
    const vertex_t n = g.num_vertices();
    std::vector<int> best(std::size_t{1} << n, 0);
    for (std::uint32_t set = 1; set < (1u << n); ++set) {
        const int v = __builtin_ctz(set);
        const std::uint32_t rest = set & ~(1u << v);
        int b = best[rest];
        for (const vertex_t u : g.neighbours(v)) {
            if ((rest >> u) & 1u) {
                b = std::max(b, 1 + best[rest & ~(1u << u)]);
            }
        }
        best[set] = b;
    }
    return best.back();
}

/// Number of perfect matchings of g[set] (bit v of set = vertex v), memoised. n ≤ 24.
class PerfectMatchingCounter {
public:
    explicit PerfectMatchingCounter(const UndirectedGraph& g) : g_(g) {}
    std::uint64_t count(std::uint32_t set) {
        if (set == 0) {
            return 1;
        }
        if (const auto it = memo_.find(set); it != memo_.end()) {
            return it->second;
        }
        const int v = __builtin_ctz(set);
        const std::uint32_t rest = set & ~(1u << v);
        std::uint64_t total = 0;
        for (const vertex_t u : g_.neighbours(v)) {
            if ((rest >> u) & 1u) {
                total += count(rest & ~(1u << u));
            }
        }
        memo_.emplace(set, total);
        return total;
    }
    std::uint64_t count_all() { return count((1u << g_.num_vertices()) - 1); }

private:
    const UndirectedGraph& g_;
    std::map<std::uint32_t, std::uint64_t> memo_;
};

/// Every perfect matching, listed one by one; returns the edges {u < v} used by at least one.
inline std::set<UndirectedGraph::Edge> brute_allowed_edges(const UndirectedGraph& g) {
    const vertex_t n = g.num_vertices();
    std::set<UndirectedGraph::Edge> allowed;
    std::vector<vertex_t> mate(static_cast<std::size_t>(n), -1);
    // Explicit recursion over the lowest exposed vertex; each frame remembers the next neighbour.
    std::vector<std::pair<vertex_t, std::size_t>> frames;
    const auto lowest_exposed = [&]() {
        for (vertex_t v = 0; v < n; ++v) {
            if (mate[static_cast<std::size_t>(v)] < 0) {
                return v;
            }
        }
        return n;
    };
    const auto descend = [&]() {
        const vertex_t v = lowest_exposed();
        if (v == n) {
            for (vertex_t u = 0; u < n; ++u) {
                if (u < mate[static_cast<std::size_t>(u)]) {
                    allowed.emplace(u, mate[static_cast<std::size_t>(u)]);
                }
            }
            return false;
        }
        frames.emplace_back(v, 0);
        return true;
    };
    descend();
    while (!frames.empty()) {
        auto& [v, next] = frames.back();
        const auto nb = g.neighbours(v);
        if (next > 0) {  // undo the previous choice
            const vertex_t u = nb[next - 1];
            mate[static_cast<std::size_t>(u)] = mate[static_cast<std::size_t>(v)] = -1;
        }
        while (next < nb.size() && mate[static_cast<std::size_t>(nb[next])] >= 0) {
            ++next;
        }
        if (next == nb.size()) {
            frames.pop_back();
            continue;
        }
        const vertex_t u = nb[next++];
        mate[static_cast<std::size_t>(u)] = v;
        mate[static_cast<std::size_t>(v)] = u;
        descend();
    }
    return allowed;
}

/// Components of g − removed by union–find (−1 for removed vertices), numbered from 0.
inline std::vector<int> brute_components(const UndirectedGraph& g, const std::vector<char>& removed,
                                         int& count) {
    const vertex_t n = g.num_vertices();
    std::vector<vertex_t> parent(static_cast<std::size_t>(n));
    std::iota(parent.begin(), parent.end(), 0);
    const auto find = [&](vertex_t v) {
        while (parent[static_cast<std::size_t>(v)] != v) {
            parent[static_cast<std::size_t>(v)] =
                parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
            v = parent[static_cast<std::size_t>(v)];
        }
        return v;
    };
    for (const auto& [u, v] : g.edges()) {
        if (removed[static_cast<std::size_t>(u)] == 0 &&
            removed[static_cast<std::size_t>(v)] == 0) {
            parent[static_cast<std::size_t>(find(u))] = find(v);
        }
    }
    std::vector<int> id(static_cast<std::size_t>(n), -1), root_id(static_cast<std::size_t>(n), -1);
    count = 0;
    for (vertex_t v = 0; v < n; ++v) {
        if (removed[static_cast<std::size_t>(v)] != 0) {
            continue;
        }
        int& r = root_id[static_cast<std::size_t>(find(v))];
        if (r < 0) {
            r = count++;
        }
        id[static_cast<std::size_t>(v)] = r;
    }
    return id;
}

}  // namespace pmcount::test
