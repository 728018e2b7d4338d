// General (non-bipartite) graphs for the oracle tests, and their counts computed independently of
// pmcount: closed forms (double factorials, Lucas numbers), a brute force over pairings, and a
// transfer matrix for triangular-lattice strips.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <type_traits>
#include <utility>
#include <vector>

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
/// plus the diagonal (r, c) – (r+1, c+1) of every cell. Planar, not bipartite.
inline Edges triangular_edges(int rows, int cols) {
    Edges e;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c) {
            const int v = r * cols + c;
            if (c + 1 < cols) {
                e.emplace_back(v, v + 1);
            }
            if (r + 1 < rows) {
                e.emplace_back(v, v + cols);
            }
            if (r + 1 < rows && c + 1 < cols) {
                e.emplace_back(v, v + cols + 1);
            }
        }
    }
    return e;
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

}  // namespace pmcount::test
