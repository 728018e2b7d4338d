// Seeded general graphs and brute-force oracles for the general-graph structure tests.
//
// Random choices use std::mt19937_64 with our own integer transforms (no <random> distributions,
// whose output differs between standard libraries), so a seed gives the same graph everywhere.
// The oracles are independent of lib/structure: dynamic programming over vertex subsets and plain
// enumeration of perfect matchings.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "pmcount/graph.hpp"

namespace pmcount::test {

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

using Edges = std::vector<UndirectedGraph::Edge>;

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
    Edges edges = path_graph(n).edges();
    edges.emplace_back(n - 1, 0);
    return {n, edges};
}

inline UndirectedGraph complete_graph(vertex_t n) {
    Edges edges;
    for (vertex_t u = 0; u < n; ++u) {
        for (vertex_t v = u + 1; v < n; ++v) {
            edges.emplace_back(u, v);
        }
    }
    return {n, edges};
}

/// Outer 5-cycle 0..4, spokes i–(i+5), inner pentagram 5..9.
inline UndirectedGraph petersen_graph() {
    Edges edges;
    for (vertex_t i = 0; i < 5; ++i) {
        edges.emplace_back(i, (i + 1) % 5);
        edges.emplace_back(i, i + 5);
        edges.emplace_back(5 + i, 5 + (i + 2) % 5);
    }
    return {10, edges};
}

/// rows × cols grid with the diagonal (r, c)–(r+1, c+1) in every cell, vertex ids permuted by a
/// seeded shuffle (identity when seed is 0), so that the greedy start leaves work to do.
inline UndirectedGraph triangular_lattice(vertex_t rows, vertex_t cols, std::uint64_t seed) {
    std::vector<vertex_t> id(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols));
    std::iota(id.begin(), id.end(), 0);
    if (seed != 0) {
        Rng rng(seed);
        rng.shuffle(id);
    }
    const auto at = [&](vertex_t r, vertex_t c) {
        return id[static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
                  static_cast<std::size_t>(c)];
    };
    Edges edges;
    for (vertex_t r = 0; r < rows; ++r) {
        for (vertex_t c = 0; c < cols; ++c) {
            if (c + 1 < cols) {
                edges.emplace_back(at(r, c), at(r, c + 1));
            }
            if (r + 1 < rows) {
                edges.emplace_back(at(r, c), at(r + 1, c));
            }
            if (r + 1 < rows && c + 1 < cols) {
                edges.emplace_back(at(r, c), at(r + 1, c + 1));
            }
        }
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
