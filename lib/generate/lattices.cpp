// Lattices that are not bipartite, and random regular general graphs (see pmcount/generate.hpp;
// the pictures are in docs/lattices.md).
#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/stop.hpp"
#include "generate/generator_common.hpp"
#include "generate/uniform.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {

namespace {

using Edge = UndirectedGraph::Edge;
using generators::kGenerating;
using generators::PairCounts;
using generators::require;

/// `i` taken mod `side` (a periodic lattice's index).
vertex_t wrap(std::int64_t i, vertex_t side) {
    const std::int64_t r = i % side;
    return static_cast<vertex_t>(r < 0 ? r + side : r);
}

/// The sides of a lattice `name`: nonnegative, each at least 2 when periodic (a side of 1 would
/// join a site to itself), and at most kMaxVertices sites in all.
void check_sides(const char* name, std::initializer_list<vertex_t> sides, bool periodic,
                 vertex_t sites_per_cell = 1) {
    double sites = sites_per_cell;
    for (const vertex_t side : sides) {
        require(side >= 0, std::string(name) + ": sides must be nonnegative");
        require(!periodic || side >= 2,
                std::string(name) + ": a periodic lattice needs every side at least 2");
        sites *= side;
    }
    require(sites <= static_cast<double>(kMaxVertices),
            std::string(name) + ": more than 2^24 vertices");
}

/// A joint of a lattice of rows×cols cells with `sites` sites each: site `from` of cell (i, j) to
/// site `to` of cell (i + di, j + dj).
struct Bond {
    int di, dj, from, to;
};

/// The lattice whose every cell has the bonds `bonds` (those that leave an open lattice are
/// dropped; a periodic one wraps them). Site s of cell (i, j) is sites·(i·cols + j) + s.
UndirectedGraph cell_lattice(vertex_t rows, vertex_t cols, int sites, bool periodic,
                             const std::vector<Bond>& bonds) {
    std::vector<Edge> edges;
    edges.reserve(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * bonds.size());
    for (vertex_t i = 0; i < rows; ++i) {
        pmcount::detail::throw_if_stopped(kGenerating);
        for (vertex_t j = 0; j < cols; ++j) {
            for (const Bond& b : bonds) {
                std::int64_t ti = std::int64_t{i} + b.di, tj = std::int64_t{j} + b.dj;
                if (!periodic && (ti < 0 || ti >= rows || tj < 0 || tj >= cols)) {
                    continue;
                }
                ti = wrap(ti, rows);
                tj = wrap(tj, cols);
                edges.emplace_back(sites * (i * cols + j) + b.from,
                                   static_cast<vertex_t>(sites * (ti * cols + tj) + b.to));
            }
        }
    }
    return {sites * rows * cols, std::move(edges)};
}

/// A drawing on the torus from each site's neighbours in counter-clockwise order (`around(i, j,
/// s)`, cells unwrapped); InvalidArgument when a side is so short that a rotation would list a
/// neighbour twice or the site itself (the graph then merged those edges: no rotation system).
template <class Around>
Embedding torus_drawing(const char* name, vertex_t rows, vertex_t cols, int sites, Around around) {
    Embedding e;
    e.rotation.resize(static_cast<std::size_t>(sites) * static_cast<std::size_t>(rows) *
                      static_cast<std::size_t>(cols));
    e.cells = TorusCells{rows, cols, sites, {}};  // cell_lattice's numbering
    const auto id = [&](std::int64_t i, std::int64_t j, int s) {
        return static_cast<vertex_t>(sites * (wrap(i, rows) * cols + wrap(j, cols)) + s);
    };
    for (vertex_t i = 0; i < rows; ++i) {
        pmcount::detail::throw_if_stopped(kGenerating);
        for (vertex_t j = 0; j < cols; ++j) {
            for (int s = 0; s < sites; ++s) {
                std::vector<vertex_t>& r = e.rotation[static_cast<std::size_t>(id(i, j, s))];
                for (const auto& [di, dj, t] : around(s, i + j)) {
                    r.push_back(id(std::int64_t{i} + di, std::int64_t{j} + dj, t));
                }
                std::vector<vertex_t> sorted = r;
                std::sort(sorted.begin(), sorted.end());
                require(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end() &&
                            !std::binary_search(sorted.begin(), sorted.end(), id(i, j, s)),
                        std::string(name) +
                            " embedding: a side is too short for a simple graph on the torus");
            }
        }
    }
    return e;
}

struct Step {
    int di, dj, site;
};

// Kagome sites.
constexpr int kA = 0, kB = 1, kC = 2;

}  // namespace

UndirectedGraph triangular_graph(vertex_t rows, vertex_t cols, bool periodic) {
    return detail::stop_boundary([&]() -> UndirectedGraph {
        check_sides(periodic ? "tri-torus" : "tri", {rows, cols}, periodic);
        return cell_lattice(rows, cols, 1, periodic, {{0, 1, 0, 0}, {1, 0, 0, 0}, {1, 1, 0, 0}});
    });
}

Embedding triangular_torus_embedding(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> Embedding {
        check_sides("tri-torus", {rows, cols}, true);
        // (i, j) drawn at (x, y) = (j, i): right, the diagonal up-right, up, left, down-left, down.
        return torus_drawing("tri-torus", rows, cols, 1, [](int, vertex_t) {
            return std::array<Step, 6>{
                {{0, 1, 0}, {1, 1, 0}, {1, 0, 0}, {0, -1, 0}, {-1, -1, 0}, {-1, 0, 0}}};
        });
    });
}

UndirectedGraph brick_wall_torus_graph(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> UndirectedGraph {
        check_sides("hex-torus", {rows, cols}, true);
        require(rows % 2 == 0 && cols % 2 == 0, "hex-torus: both sides must be even");
        std::vector<Edge> edges;
        edges.reserve(static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) * 3 / 2);
        for (vertex_t i = 0; i < rows; ++i) {
            pmcount::detail::throw_if_stopped(kGenerating);
            for (vertex_t j = 0; j < cols; ++j) {
                edges.emplace_back(i * cols + j, i * cols + wrap(j + 1, cols));
                if ((i + j) % 2 == 0) {
                    edges.emplace_back(i * cols + j, wrap(i + 1, rows) * cols + j);
                }
            }
        }
        return {rows * cols, std::move(edges)};
    });
}

Embedding brick_wall_torus_embedding(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> Embedding {
        require(rows % 2 == 0 && cols % 2 == 0, "hex-torus: both sides must be even");
        check_sides("hex-torus", {rows, cols}, true);
        // Right, up (from (i + j) even), left, down (from odd).
        return torus_drawing("hex-torus", rows, cols, 1, [](int, vertex_t parity) {
            std::vector<Step> around{{0, 1, 0}};
            if (parity % 2 == 0) {
                around.push_back({1, 0, 0});
            }
            around.push_back({0, -1, 0});
            if (parity % 2 == 1) {
                around.push_back({-1, 0, 0});
            }
            return around;
        });
    });
}

UndirectedGraph kagome_graph(vertex_t rows, vertex_t cols, bool periodic) {
    return detail::stop_boundary([&]() -> UndirectedGraph {
        check_sides(periodic ? "kagome-torus" : "kagome", {rows, cols}, periodic, 3);
        // Up-triangles in the cell; down-triangles B(i, j), A(i, j+1), C(i−1, j+1), each edge
        // from the cell of its first end.
        return cell_lattice(rows, cols, 3, periodic,
                            {{0, 0, kA, kB},
                             {0, 0, kA, kC},
                             {0, 0, kB, kC},
                             {0, 1, kB, kA},
                             {-1, 0, kA, kC},
                             {-1, 1, kB, kC}});
    });
}

Embedding kagome_torus_embedding(vertex_t rows, vertex_t cols) {
    return detail::stop_boundary([&]() -> Embedding {
        check_sides("kagome-torus", {rows, cols}, true, 3);
        // Directions (a₁ at 0°, a₂ at 60°): A sees B at 0°, C at 60°, B of the cell to its left
        // at 180°, C of the cell below at 240°; B sees A of the next cell at 0°, C at 120°, A at
        // 180°, C(i−1, j+1) at 300°; C sees A(i+1, j) at 60°, B(i+1, j−1) at 120°, A at 240°,
        // B at 300°.
        return torus_drawing("kagome-torus", rows, cols, 3, [](int site, vertex_t) {
            switch (site) {
                case kA:
                    return std::array<Step, 4>{{{0, 0, kB}, {0, 0, kC}, {0, -1, kB}, {-1, 0, kC}}};
                case kB:
                    return std::array<Step, 4>{{{0, 1, kA}, {0, 0, kC}, {0, 0, kA}, {-1, 1, kC}}};
                default:
                    return std::array<Step, 4>{{{1, 0, kA}, {1, -1, kB}, {0, 0, kA}, {0, 0, kB}}};
            }
        });
    });
}

UndirectedGraph cubic_graph(vertex_t l, vertex_t m, vertex_t n, bool periodic) {
    return detail::stop_boundary([&]() -> UndirectedGraph {
        check_sides(periodic ? "cubic-torus" : "cubic", {l, m, n}, periodic);
        const auto id = [&](std::int64_t x, std::int64_t y, std::int64_t z) {
            return static_cast<vertex_t>((wrap(x, l) * m + wrap(y, m)) * n + wrap(z, n));
        };
        std::vector<Edge> edges;
        edges.reserve(3 * static_cast<std::size_t>(l) * static_cast<std::size_t>(m) *
                      static_cast<std::size_t>(n));
        for (vertex_t x = 0; x < l; ++x) {
            for (vertex_t y = 0; y < m; ++y) {
                pmcount::detail::throw_if_stopped(kGenerating);
                for (vertex_t z = 0; z < n; ++z) {
                    if (periodic || x + 1 < l) {
                        edges.emplace_back(id(x, y, z), id(x + 1, y, z));
                    }
                    if (periodic || y + 1 < m) {
                        edges.emplace_back(id(x, y, z), id(x, y + 1, z));
                    }
                    if (periodic || z + 1 < n) {
                        edges.emplace_back(id(x, y, z), id(x, y, z + 1));
                    }
                }
            }
        }
        return {l * m * n, std::move(edges)};
    });
}

UndirectedGraph fcc_graph(vertex_t l, vertex_t m, vertex_t n, bool periodic) {
    return detail::stop_boundary([&]() -> UndirectedGraph {
        check_sides(periodic ? "fcc-torus" : "fcc", {l, m, n}, periodic, 4);
        // Doubled coordinates: site b of cell (x, y, z) at 2(x, y, z) + basis[b], every
        // coordinate sum even; neighbours at (±1, ±1, 0) and its permutations.
        static constexpr std::array<std::array<int, 3>, 4> basis = {
            {{0, 0, 0}, {1, 1, 0}, {1, 0, 1}, {0, 1, 1}}};
        const std::array<vertex_t, 3> side = {l, m, n};
        const auto id = [&](std::array<std::int64_t, 3> p) -> std::int64_t {
            std::array<std::int64_t, 3> cell{};
            int b = 0;
            for (int k = 0; k < 3; ++k) {
                const std::int64_t extent = 2 * std::int64_t{side[static_cast<std::size_t>(k)]};
                if (!periodic && (p[k] < 0 || p[k] >= extent)) {
                    return -1;
                }
                p[k] = ((p[k] % extent) + extent) % extent;
                cell[k] = p[k] / 2;
            }
            for (int k = 0; k < 4; ++k) {
                const auto& q = basis[static_cast<std::size_t>(k)];
                if (p[0] % 2 == q[0] && p[1] % 2 == q[1] && p[2] % 2 == q[2]) {
                    b = k;
                }
            }
            return 4 * ((cell[0] * m + cell[1]) * n + cell[2]) + b;
        };
        std::vector<std::array<int, 3>> offsets;
        for (const int a : {-1, 1}) {
            for (const int c : {-1, 1}) {
                offsets.push_back({a, c, 0});
                offsets.push_back({a, 0, c});
                offsets.push_back({0, a, c});
            }
        }
        std::vector<Edge> edges;
        edges.reserve(24 * static_cast<std::size_t>(l) * static_cast<std::size_t>(m) *
                      static_cast<std::size_t>(n));
        for (vertex_t x = 0; x < l; ++x) {
            for (vertex_t y = 0; y < m; ++y) {
                pmcount::detail::throw_if_stopped(kGenerating);
                for (vertex_t z = 0; z < n; ++z) {
                    for (const auto& q : basis) {
                        const std::array<std::int64_t, 3> p = {2 * x + q[0], 2 * y + q[1],
                                                               2 * z + q[2]};
                        const std::int64_t u = id(p);
                        for (const auto& o : offsets) {
                            const std::int64_t v = id({p[0] + o[0], p[1] + o[1], p[2] + o[2]});
                            if (v > u) {  // each edge once (a short periodic side: repeats merge)
                                edges.emplace_back(static_cast<vertex_t>(u),
                                                   static_cast<vertex_t>(v));
                            }
                        }
                    }
                }
            }
        }
        return {4 * l * m * n, std::move(edges)};
    });
}

UndirectedGraph random_regular_graph(vertex_t n, int d, std::uint64_t seed) {
    return detail::stop_boundary([&]() -> UndirectedGraph {
        require(n >= 0 && n <= 10000000, "regular-general: n must be in [0, 10^7]");
        require(d >= 0 && (n == 0 ? d == 0 : d < n),
                "regular-general: the degree must be in [0, n − 1]");
        require((static_cast<std::int64_t>(n) * d) % 2 == 0,
                "regular-general: n·degree must be even (each edge has two ends)");
        if (2 * static_cast<std::int64_t>(d) > n) {
            // Switches of a dense graph are mostly refused: the complement of the
            // (n − 1 − d)-regular graph of the same seed, in O(n²) = O(n·d) time.
            const UndirectedGraph sparse = random_regular_graph(n, n - 1 - d, seed);
            std::vector<Edge> edges;
            edges.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(d) / 2);
            std::vector<char> adjacent(static_cast<std::size_t>(n), 0);
            for (vertex_t u = 0; u < n; ++u) {
                pmcount::detail::throw_if_stopped(kGenerating);
                for (const vertex_t v : sparse.neighbours(u)) {
                    adjacent[static_cast<std::size_t>(v)] = 1;
                }
                for (vertex_t v = u + 1; v < n; ++v) {
                    if (adjacent[static_cast<std::size_t>(v)] == 0) {
                        edges.emplace_back(u, v);
                    }
                }
                for (const vertex_t v : sparse.neighbours(u)) {
                    adjacent[static_cast<std::size_t>(v)] = 0;
                }
            }
            return {n, std::move(edges)};
        }
        std::mt19937_64 rng(seed);
        const std::size_t stubs = static_cast<std::size_t>(n) * static_cast<std::size_t>(d);
        const std::size_t m = stubs / 2;
        const auto key = [n](vertex_t u, vertex_t v) {
            return static_cast<std::uint64_t>(std::min(u, v)) * static_cast<std::uint64_t>(n) +
                   static_cast<std::uint64_t>(std::max(u, v));
        };
        std::vector<vertex_t> end(stubs);
        std::uint64_t attempts = 0;
        for (bool simple = false; !simple;) {
            // Configuration model: the stubs (d copies of each vertex) in a uniformly random
            // order, edge e joining stubs 2e and 2e + 1.
            for (std::size_t t = 0; t < stubs; ++t) {
                end[t] = static_cast<vertex_t>(t / static_cast<std::size_t>(d));
            }
            for (std::size_t t = stubs; t > 1; --t) {  // Fisher–Yates
                if ((t & 0xffff) == 0) {
                    pmcount::detail::throw_if_stopped(kGenerating);
                }
                std::swap(end[t - 1], end[seeded::uniform_below(rng, t)]);
            }
            const auto edge_key = [&](std::size_t e) { return key(end[2 * e], end[2 * e + 1]); };
            PairCounts present(m);
            for (std::size_t e = 0; e < m; ++e) {
                present.add(edge_key(e), 1);
            }
            // Switch away loops and repeated edges: a bad edge ab and a random edge cd become
            // ac and bd (cd drawn in either direction) when neither is a loop nor present; each
            // accepted switch lowers the number of bad edges. A small graph can be stuck
            // (no switch helps): after 2^20 + 64m refusals in a row it starts again.
            simple = true;
            std::uint64_t refused = 0;
            for (std::size_t e = 0; e < m && simple; ++e) {
                while (end[2 * e] == end[2 * e + 1] || present.count(edge_key(e)) > 1) {
                    if ((++attempts & 0xffff) == 0) {
                        pmcount::detail::throw_if_stopped(kGenerating);
                    }
                    if (++refused > (std::uint64_t{1} << 20) + 64 * m) {
                        simple = false;
                        break;
                    }
                    const std::size_t f = seeded::uniform_below(rng, m);
                    const std::size_t flip = seeded::uniform_below(rng, 2);
                    const vertex_t a = end[2 * e], b = end[2 * e + 1];
                    const vertex_t c = end[2 * f + flip], other = end[2 * f + (flip ^ 1)];
                    if (f == e || a == c || b == other || key(a, c) == key(b, other) ||
                        present.count(key(a, c)) != 0 || present.count(key(b, other)) != 0) {
                        continue;
                    }
                    present.add(edge_key(e), -1);
                    present.add(edge_key(f), -1);
                    end[2 * e + 1] = c;
                    end[2 * f] = b;
                    end[2 * f + 1] = other;
                    present.add(edge_key(e), 1);
                    present.add(edge_key(f), 1);
                    refused = 0;
                }
            }
        }
        std::vector<Edge> edges;
        edges.reserve(m);
        for (std::size_t e = 0; e < m; ++e) {
            edges.emplace_back(end[2 * e], end[2 * e + 1]);
        }
        return {n, std::move(edges)};
    });
}

}  // namespace pmcount
