// Lattice, complete and random bipartite graphs (see pmcount/generate.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/stop.hpp"
#include "generate/generator_common.hpp"
#include "generate/uniform.hpp"
#include "io/text.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {

namespace {

using Edge = BipartiteGraph::Edge;
using generators::kGenerating;
using generators::PairCounts;
using generators::require;

/// Numbers the cells of a rows×cols board row-major within their colour ((r + c) even: left) and
/// joins each kept cell to its right and lower neighbours (and, on a torus, across the edges).
/// `keep(r, c)` selects the cells of the region.
template <class Keep>
BipartiteGraph board_graph(vertex_t rows, vertex_t cols, bool wrap, Keep keep) {
    const auto cell = [cols](vertex_t r, vertex_t c) {
        return static_cast<std::size_t>(r) * static_cast<std::size_t>(cols) +
               static_cast<std::size_t>(c);
    };
    std::vector<vertex_t> id(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols), -1);
    vertex_t n_left = 0, n_right = 0;
    for (vertex_t r = 0; r < rows; ++r) {
        pmcount::detail::throw_if_stopped(kGenerating);
        for (vertex_t c = 0; c < cols; ++c) {
            if (keep(r, c)) {
                id[cell(r, c)] = (r + c) % 2 == 0 ? n_left++ : n_right++;
            }
        }
    }
    std::vector<Edge> edges;
    edges.reserve(2 * id.size());
    const auto join = [&](vertex_t r1, vertex_t c1, vertex_t r2, vertex_t c2) {
        const vertex_t a = id[cell(r1, c1)], b = id[cell(r2, c2)];
        if (a < 0 || b < 0) {
            return;
        }
        edges.push_back((r1 + c1) % 2 == 0 ? Edge{a, b} : Edge{b, a});
    };
    for (vertex_t r = 0; r < rows; ++r) {
        pmcount::detail::throw_if_stopped(kGenerating);
        for (vertex_t c = 0; c < cols; ++c) {
            if (c + 1 < cols || (wrap && cols > 1)) {
                join(r, c, r, (c + 1) % cols);
            }
            if (r + 1 < rows || (wrap && rows > 1)) {
                join(r, c, (r + 1) % rows, c);
            }
        }
    }
    return {n_left, n_right, std::move(edges)};
}

using seeded::uniform_below;
using seeded::uniform_unit;

/// random:N,P draws one number per pair up to this order (2^24 draws, ~0.1 s), so that every
/// graph drawn before gaps were drawn instead stays the same; beyond it, one per edge.
constexpr vertex_t kPairStreamMaxOrder = 4096;

}  // namespace

BipartiteGraph grid_graph(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(rows >= 0 && cols >= 0, "grid: sides must be non-negative");
        return board_graph(rows, cols, false, [](vertex_t, vertex_t) { return true; });
    });
}

BipartiteGraph torus_graph(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(rows >= 2 && cols >= 2 && rows % 2 == 0 && cols % 2 == 0,
                "torus: both sides must be even and at least 2 (an odd side has odd cycles)");
        return board_graph(rows, cols, true, [](vertex_t, vertex_t) { return true; });
    });
}

Embedding torus_embedding(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> Embedding {
        require(rows >= 4 && cols >= 4 && rows % 2 == 0 && cols % 2 == 0,
                "torus embedding: both sides must be even and at least 4");
        // board_graph's numbering: row-major within each colour, left ((r + c) even) first.
        const auto cells = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
        const auto left = static_cast<vertex_t>(cells / 2);
        const auto vertex = [&](vertex_t r, vertex_t c) {
            r = (r + rows) % rows;
            c = (c + cols) % cols;
            const vertex_t rank = (r * cols + c) / 2;  // cells of its colour before it
            return (r + c) % 2 == 0 ? rank : left + rank;
        };
        Embedding e;
        e.rotation.resize(cells);
        e.cells = TorusCells{rows, cols, 1, std::vector<vertex_t>(cells)};
        for (vertex_t r = 0; r < rows; ++r) {
            pmcount::detail::throw_if_stopped(kGenerating);
            for (vertex_t c = 0; c < cols; ++c) {
                e.rotation[static_cast<std::size_t>(vertex(r, c))] = {
                    vertex(r, c + 1), vertex(r + 1, c), vertex(r, c - 1), vertex(r - 1, c)};
                e.cells->place[static_cast<std::size_t>(vertex(r, c))] = r * cols + c;
            }
        }
        return e;
    });
}

BipartiteGraph aztec_diamond_graph(int k) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(k >= 0 && k <= 20000, "aztec: order must be in [0, 20000]");
        // Cell (r, c) of the 2k×2k board is [x, x+1]×[y, y+1] with x = c − k, y = r − k; inside
        // when |2x + 1| + |2y + 1| ≤ 2k.
        return board_graph(2 * k, 2 * k, false, [k](vertex_t r, vertex_t c) {
            return std::abs(2 * (c - k) + 1) + std::abs(2 * (r - k) + 1) <= 2 * k;
        });
    });
}

BipartiteGraph hexagon_graph(int a, int b, int c) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(a >= 0 && b >= 0 && c >= 0 && a + b + c <= 20000,
                "hexagon: sides must be non-negative (and sum to at most 20000)");
        // Lattice point (i, j) = i·e1 + j·e2 with e1 = (1, 0), e2 = (½, √3/2). The hexagon has the
        // corners (0,0), (a,0), (a,b), (a−c,b+c), (−c,b+c), (−c,c): sides a, b, c, a, b, c along
        // e1, e2, e2−e1, −e1, −e2, e1−e2, i.e. j ≥ 0, i ≤ a, i + j ≤ a + b, j ≤ b + c, i ≥ −c,
        // i + j ≥ 0. Up-triangle (i, j) has corners (i,j), (i+1,j), (i,j+1); down-triangle (i, j)
        // has (i+1,j), (i,j+1), (i+1,j+1). Up (i, j) shares an edge with down (i, j), (i−1, j) and
        // (i, j−1).
        const auto inside = [a, b, c](int i, int j) {
            return j >= 0 && i <= a && i + j <= a + b && j <= b + c && i >= -c && i + j >= 0;
        };
        // The hexagon is convex, so the triangles of row j that lie in it are an interval of i:
        // numbered row by row (then by i), each row is its first number and its interval, and a
        // neighbour is found in O(1). The scan of row j covers every i a corner may need.
        struct Triangles {
            std::vector<int> lo, hi;  // per row j; empty when hi < lo
            std::vector<vertex_t> first;
            vertex_t total = 0;
            vertex_t id(int i, int j) const {
                const auto r = static_cast<std::size_t>(j);
                return j < 0 || r >= lo.size() || i < lo[r] || i > hi[r] ? -1
                                                                         : first[r] + (i - lo[r]);
            }
        };
        const auto rows = static_cast<std::size_t>(b + c + 1);
        const auto triangles = [&](auto is_triangle) {
            Triangles t;
            t.lo.assign(rows, 0);
            t.hi.assign(rows, -1);
            t.first.assign(rows, 0);
            for (int j = 0; j <= b + c; ++j) {
                pmcount::detail::throw_if_stopped(kGenerating);
                const auto r = static_cast<std::size_t>(j);
                t.first[r] = t.total;
                for (int i = std::max(-c, -j - 1); i <= std::min(a, a + b - j); ++i) {
                    if (is_triangle(i, j)) {
                        t.lo[r] = t.hi[r] < t.lo[r] ? i : t.lo[r];
                        t.hi[r] = i;
                    }
                }
                t.total += std::max(0, t.hi[r] - t.lo[r] + 1);
            }
            return t;
        };
        const Triangles up = triangles(
            [&](int i, int j) { return inside(i, j) && inside(i + 1, j) && inside(i, j + 1); });
        const Triangles down = triangles([&](int i, int j) {
            return inside(i + 1, j) && inside(i, j + 1) && inside(i + 1, j + 1);
        });
        std::vector<Edge> edges;
        edges.reserve(3 * static_cast<std::size_t>(up.total));
        for (int j = 0; j <= b + c; ++j) {
            pmcount::detail::throw_if_stopped(kGenerating);
            for (int i = up.lo[static_cast<std::size_t>(j)];
                 i <= up.hi[static_cast<std::size_t>(j)]; ++i) {
                const vertex_t u = up.id(i, j);
                for (const auto& [ni, nj] :
                     {std::pair{i, j}, std::pair{i - 1, j}, std::pair{i, j - 1}}) {
                    if (const vertex_t v = down.id(ni, nj); v >= 0) {
                        edges.emplace_back(u, v);
                    }
                }
            }
        }
        return {up.total, down.total, std::move(edges)};
    });
}

BipartiteGraph complete_bipartite_graph(vertex_t n) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(n >= 0 && n <= 100000, "complete: n must be in [0, 100000]");
        std::vector<Edge> edges;
        edges.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
        for (vertex_t u = 0; u < n; ++u) {
            pmcount::detail::throw_if_stopped(kGenerating);
            for (vertex_t v = 0; v < n; ++v) {
                edges.emplace_back(u, v);
            }
        }
        return {n, n, std::move(edges)};
    });
}

BipartiteGraph random_bipartite_graph(vertex_t n, double p, std::uint64_t seed) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(n >= 0 && n <= kMaxVertices, "random: n must be in [0, 2^24]");
        require(p >= 0 && p <= 1, "random: p must be in [0, 1]");
        std::mt19937_64 rng(seed);
        std::vector<Edge> edges;
        if (n <= kPairStreamMaxOrder) {
            // One draw per pair, row by row (at most 2^24 draws, ~0.1 s).
            for (vertex_t u = 0; u < n; ++u) {
                pmcount::detail::throw_if_stopped(kGenerating);
                for (vertex_t v = 0; v < n; ++v) {
                    if (uniform_unit(rng) < p) {
                        edges.emplace_back(u, v);
                    }
                }
            }
            return {n, n, std::move(edges)};
        }
        if (p == 1) {
            return complete_bipartite_graph(n);
        }
        // The gaps between consecutive edges among the n² pairs in row-major order are independent
        // geometric variables, P(gap ≥ j) = (1 − p)^j: the gap is ⌊ln U / ln(1 − p)⌋ for U uniform
        // in (0, 1]. One draw per edge (and one to end), so the time is linear in the output.
        const std::int64_t pairs = static_cast<std::int64_t>(n) * n;
        const double log_q = std::log1p(-p);
        for (std::int64_t k = -1;;) {
            if ((edges.size() & 0xffff) == 0) {
                pmcount::detail::throw_if_stopped(kGenerating);
            }
            const double gap = std::floor(std::log(1 - uniform_unit(rng)) / log_q);
            if (!(gap < static_cast<double>(pairs - 1 - k))) {  // (also p = 0: −0 / −0 is NaN)
                break;
            }
            k += static_cast<std::int64_t>(gap) + 1;
            edges.emplace_back(static_cast<vertex_t>(k / n), static_cast<vertex_t>(k % n));
        }
        return {n, n, std::move(edges)};
    });
}

BipartiteGraph random_regular_bipartite_graph(vertex_t n, int d, std::uint64_t seed) {
    return detail::stop_boundary([&]() -> BipartiteGraph {
        require(n >= 0 && n <= 10000000, "regular: n must be in [0, 10^7]");
        require(d >= 0 && d <= n, "regular: degree must be in [0, n]");
        if (d == n) {
            return complete_bipartite_graph(
                n);  // the only n-regular one; switching cannot reach it
        }
        if (2 * static_cast<std::int64_t>(d) > n) {
            // Switches of a dense graph are mostly refused (a new edge is already there with
            // probability about d/n): count the complement instead, which is (n − d)-regular, in
            // O(n²) = O(n·d) time.
            const BipartiteGraph sparse = random_regular_bipartite_graph(n, n - d, seed);
            std::vector<Edge> edges;
            edges.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(d));
            std::vector<char> adjacent(static_cast<std::size_t>(n), 0);
            for (vertex_t u = 0; u < n; ++u) {
                pmcount::detail::throw_if_stopped(kGenerating);
                for (const vertex_t v : sparse.right_neighbours(u)) {
                    adjacent[static_cast<std::size_t>(v)] = 1;
                }
                for (vertex_t v = 0; v < n; ++v) {
                    if (adjacent[static_cast<std::size_t>(v)] == 0) {
                        edges.emplace_back(u, v);
                    }
                    adjacent[static_cast<std::size_t>(v)] = 0;
                }
            }
            return {n, n, std::move(edges)};
        }
        pmcount::detail::throw_if_stopped(kGenerating);
        std::mt19937_64 rng(seed);
        // Configuration model: left copy t (vertex t / d) meets right copy right[t] (vertex
        // right[t] / d).
        const std::size_t m = static_cast<std::size_t>(n) * static_cast<std::size_t>(d);
        std::vector<vertex_t> right(m);
        for (std::size_t t = 0; t < m; ++t) {
            right[t] = static_cast<vertex_t>(t / static_cast<std::size_t>(d));
        }
        for (std::size_t t = m; t > 1; --t) {  // Fisher–Yates
            if ((t & 0xffff) == 0) {
                pmcount::detail::throw_if_stopped(kGenerating);
            }
            std::swap(right[t - 1], right[uniform_below(rng, t)]);
        }
        const auto left_of = [d](std::size_t t) {
            return static_cast<vertex_t>(t / static_cast<std::size_t>(d));
        };
        const auto pair = [n](vertex_t u, vertex_t v) {
            return static_cast<std::uint64_t>(u) * static_cast<std::uint64_t>(n) +
                   static_cast<std::uint64_t>(v);
        };
        PairCounts present(m);
        for (std::size_t t = 0; t < m; ++t) {
            if ((t & 0xffff) == 0) {
                pmcount::detail::throw_if_stopped(kGenerating);
            }
            present.add(pair(left_of(t), right[t]), 1);
        }
        // Switch away repeated edges: pick a copy t of a repeat and a random partner s; swapping
        // their right ends is accepted when neither new edge exists yet. Each accepted switch
        // lowers the number of repeats by at least one; with d ≤ n/2 a switch is accepted with
        // probability about (1 − d/n)² ≥ 1/4.
        std::uint64_t attempts = 0;
        for (std::size_t t = 0; t < m; ++t) {
            while (present.count(pair(left_of(t), right[t])) > 1) {
                if ((++attempts & 0xffff) == 0) {
                    pmcount::detail::throw_if_stopped(kGenerating);
                }
                const std::size_t s = uniform_below(rng, m);
                const std::uint64_t e1 = pair(left_of(t), right[s]),
                                    e2 = pair(left_of(s), right[t]);
                if (left_of(s) == left_of(t) || right[s] == right[t] || present.count(e1) != 0 ||
                    present.count(e2) != 0) {
                    continue;
                }
                present.add(pair(left_of(t), right[t]), -1);
                present.add(pair(left_of(s), right[s]), -1);
                std::swap(right[s], right[t]);
                present.add(e1, 1);
                present.add(e2, 1);
            }
        }
        std::vector<Edge> edges;
        edges.reserve(m);
        for (std::size_t t = 0; t < m; ++t) {
            edges.emplace_back(left_of(t), right[t]);
        }
        return {n, n, std::move(edges)};
    });
}

}  // namespace pmcount
