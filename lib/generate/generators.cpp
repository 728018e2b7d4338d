// Lattice, complete and random bipartite graphs (see pmcount/generate.hpp).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "io/text.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {

namespace {

using Edge = BipartiteGraph::Edge;

/// Most vertices, and most edges, a generator spec may ask for. Planning takes about 750 bytes
/// and 6 µs per vertex on grids (the 1000×1000 grid, 10^6 vertices: 1.5 GB and 12 s to find
/// that counting it would take days), so 2^22 stays within a few GB.
constexpr std::int64_t kMaxGeneratedSize = std::int64_t{1} << 22;

void require(bool condition, const std::string& problem) {
    if (!condition) {
        throw InvalidArgument(problem);
    }
}

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

/// Uniform integer in [0, bound) by rejection (no modulo bias; same on every platform).
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                                std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t x = rng();
    while (x >= limit) {
        x = rng();
    }
    return x % bound;
}

/// Uniform double in [0, 1) from the top 53 bits.
double uniform_unit(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1p-53;
}

// ---- spec parsing
// ---------------------------------------------------------------------------------

constexpr std::array<std::string_view, 7> kGenerators = {"grid",     "torus",  "hexagon", "aztec",
                                                         "complete", "random", "regular"};

/// The comma- or 'x'-separated fields of a spec's parameters.
std::vector<std::string_view> split_fields(std::string_view text, char separator) {
    std::vector<std::string_view> fields;
    std::size_t start = 0;
    for (;;) {
        const std::size_t end = text.find(separator, start);
        fields.push_back(text.substr(start, end == std::string_view::npos ? end : end - start));
        if (end == std::string_view::npos) {
            return fields;
        }
        start = end + 1;
    }
}

}  // namespace

BipartiteGraph grid_graph(vertex_t rows, vertex_t cols) {
    require(rows >= 0 && cols >= 0, "grid: sides must be non-negative");
    return board_graph(rows, cols, false, [](vertex_t, vertex_t) { return true; });
}

BipartiteGraph torus_graph(vertex_t rows, vertex_t cols) {
    require(rows >= 2 && cols >= 2 && rows % 2 == 0 && cols % 2 == 0,
            "torus: both sides must be even and at least 2 (an odd side has odd cycles)");
    return board_graph(rows, cols, true, [](vertex_t, vertex_t) { return true; });
}

BipartiteGraph aztec_diamond_graph(int k) {
    require(k >= 0 && k <= 20000, "aztec: order must be in [0, 20000]");
    // Cell (r, c) of the 2k×2k board is [x, x+1]×[y, y+1] with x = c − k, y = r − k; inside
    // when |2x + 1| + |2y + 1| ≤ 2k.
    return board_graph(2 * k, 2 * k, false, [k](vertex_t r, vertex_t c) {
        return std::abs(2 * (c - k) + 1) + std::abs(2 * (r - k) + 1) <= 2 * k;
    });
}

BipartiteGraph hexagon_graph(int a, int b, int c) {
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
    std::map<std::pair<int, int>, vertex_t> up, down;
    for (int j = 0; j <= b + c; ++j) {
        for (int i = -c; i <= a; ++i) {
            if (inside(i, j) && inside(i + 1, j) && inside(i, j + 1)) {
                up.emplace(std::pair{i, j}, static_cast<vertex_t>(up.size()));
            }
            if (inside(i + 1, j) && inside(i, j + 1) && inside(i + 1, j + 1)) {
                down.emplace(std::pair{i, j}, static_cast<vertex_t>(down.size()));
            }
        }
    }
    std::vector<Edge> edges;
    for (const auto& [cell, u] : up) {
        const auto [i, j] = cell;
        for (const auto& neighbour : {std::pair{i, j}, std::pair{i - 1, j}, std::pair{i, j - 1}}) {
            if (const auto it = down.find(neighbour); it != down.end()) {
                edges.emplace_back(u, it->second);
            }
        }
    }
    return {static_cast<vertex_t>(up.size()), static_cast<vertex_t>(down.size()), std::move(edges)};
}

BipartiteGraph complete_bipartite_graph(vertex_t n) {
    require(n >= 0 && n <= 100000, "complete: n must be in [0, 100000]");
    std::vector<Edge> edges;
    edges.reserve(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (vertex_t u = 0; u < n; ++u) {
        for (vertex_t v = 0; v < n; ++v) {
            edges.emplace_back(u, v);
        }
    }
    return {n, n, std::move(edges)};
}

BipartiteGraph random_bipartite_graph(vertex_t n, double p, std::uint64_t seed) {
    require(n >= 0 && n <= 100000, "random: n must be in [0, 100000]");
    require(p >= 0 && p <= 1, "random: p must be in [0, 1]");
    std::mt19937_64 rng(seed);
    std::vector<Edge> edges;
    for (vertex_t u = 0; u < n; ++u) {
        for (vertex_t v = 0; v < n; ++v) {
            if (uniform_unit(rng) < p) {
                edges.emplace_back(u, v);
            }
        }
    }
    return {n, n, std::move(edges)};
}

BipartiteGraph random_regular_bipartite_graph(vertex_t n, int d, std::uint64_t seed) {
    require(n >= 0 && n <= 10000000, "regular: n must be in [0, 10^7]");
    require(d >= 0 && d <= n, "regular: degree must be in [0, n]");
    if (d == n) {
        return complete_bipartite_graph(n);  // the only n-regular one; switching cannot reach it
    }
    std::mt19937_64 rng(seed);
    // Configuration model: left copy t (vertex t / d) meets right copy right[t] (vertex right[t] /
    // d).
    const std::size_t m = static_cast<std::size_t>(n) * static_cast<std::size_t>(d);
    std::vector<vertex_t> right(m);
    for (std::size_t t = 0; t < m; ++t) {
        right[t] = static_cast<vertex_t>(t / static_cast<std::size_t>(d));
    }
    for (std::size_t t = m; t > 1; --t) {  // Fisher–Yates
        std::swap(right[t - 1], right[uniform_below(rng, t)]);
    }
    const auto left_of = [d](std::size_t t) {
        return static_cast<vertex_t>(t / static_cast<std::size_t>(d));
    };
    std::multiset<std::pair<vertex_t, vertex_t>> present;
    for (std::size_t t = 0; t < m; ++t) {
        present.emplace(left_of(t), right[t]);
    }
    // Switch away repeated edges: pick a copy t of a repeat and a random partner s; swapping
    // their right ends is accepted when neither new edge exists yet. Each accepted switch lowers
    // the number of repeats by at least one.
    for (std::size_t t = 0; t < m; ++t) {
        while (present.count({left_of(t), right[t]}) > 1) {
            const std::size_t s = uniform_below(rng, m);
            const std::pair<vertex_t, vertex_t> e1{left_of(t), right[s]}, e2{left_of(s), right[t]};
            if (left_of(s) == left_of(t) || right[s] == right[t] || present.count(e1) != 0 ||
                present.count(e2) != 0) {
                continue;
            }
            present.erase(present.find({left_of(t), right[t]}));
            present.erase(present.find({left_of(s), right[s]}));
            std::swap(right[s], right[t]);
            present.insert(e1);
            present.insert(e2);
        }
    }
    std::vector<Edge> edges;
    edges.reserve(m);
    for (std::size_t t = 0; t < m; ++t) {
        edges.emplace_back(left_of(t), right[t]);
    }
    return {n, n, std::move(edges)};
}

bool is_generator_spec(std::string_view text) {
    const std::size_t colon = text.find(':');
    return colon != std::string_view::npos && std::find(kGenerators.begin(), kGenerators.end(),
                                                        text.substr(0, colon)) != kGenerators.end();
}

BipartiteGraph generate_graph(std::string_view spec) {
    const std::string source(spec);
    const io::Location where{source, 0};
    if (!is_generator_spec(spec)) {
        io::fail(where,
                 "not a generator spec (grid:RxC, torus:RxC, hexagon:A,B,C, aztec:K, "
                 "complete:N, random:N,P[,SEED], regular:N,D[,SEED])");
    }
    const std::size_t colon = spec.find(':');
    const std::string_view name = spec.substr(0, colon);
    const std::string_view params = spec.substr(colon + 1);
    const bool board = name == "grid" || name == "torus";
    const std::vector<std::string_view> f = split_fields(params, board ? 'x' : ',');
    const auto expect = [&](std::size_t lo, std::size_t hi, const char* form) {
        if (f.size() < lo || f.size() > hi) {
            io::fail(where, std::string("expected ") + form);
        }
    };
    const auto size = [&](std::string_view token, const char* what) {
        const std::int64_t v = io::parse_count(token, where, what);
        if (v > std::numeric_limits<vertex_t>::max()) {
            io::fail(where, std::string(what) + " too large");
        }
        return static_cast<vertex_t>(v);
    };
    const auto seed = [&](std::size_t index) -> std::uint64_t {
        return f.size() > index
                   ? static_cast<std::uint64_t>(io::parse_count(f[index], where, "seed"))
                   : 1;
    };
    // Refuse a graph too large before building it (a spec is a few bytes; the graph it names may
    // not fit in memory), computed in floating point so that nothing overflows.
    const auto within_limits = [&](double vertices, double edges) {
        const double limit = static_cast<double>(kMaxGeneratedSize);
        if (vertices > limit || edges > limit) {
            char buffer[160];
            std::snprintf(buffer, sizeof buffer,
                          "the graph would have %.3g vertices and %.3g edges; at most %lld of "
                          "each are supported",
                          vertices, edges, static_cast<long long>(kMaxGeneratedSize));
            io::fail(where, buffer);
        }
    };
    try {
        if (board) {
            expect(2, 2, "ROWSxCOLS, e.g. grid:8x8");
            const vertex_t rows = size(f[0], "rows"), cols = size(f[1], "columns");
            const double cells = static_cast<double>(rows) * cols;
            within_limits(cells, 2 * cells);
            return name == "grid" ? grid_graph(rows, cols) : torus_graph(rows, cols);
        }
        if (name == "hexagon") {
            expect(3, 3, "A,B,C, e.g. hexagon:3,4,5");
            const vertex_t a = size(f[0], "side"), b = size(f[1], "side"), c = size(f[2], "side");
            const double faces = static_cast<double>(a) * b + static_cast<double>(b) * c +
                                 static_cast<double>(c) * a;
            const double rim = static_cast<double>(a) + b + c;
            within_limits(2 * faces + 2 * rim, 3 * faces + 3 * rim);
            return hexagon_graph(a, b, c);
        }
        if (name == "aztec") {
            expect(1, 1, "the order, e.g. aztec:10");
            const vertex_t order = size(f[0], "order");
            const double k = order;
            within_limits(2 * k * (k + 1), 4 * k * k);
            return aztec_diamond_graph(order);
        }
        if (name == "complete") {
            expect(1, 1, "N, e.g. complete:8");
            const vertex_t n = size(f[0], "n");
            within_limits(2.0 * n, static_cast<double>(n) * n);
            return complete_bipartite_graph(n);
        }
        if (name == "random") {
            expect(2, 3, "N,P[,SEED], e.g. random:30,0.2,7");
            const vertex_t n = size(f[0], "n");
            const double p = io::parse_double(f[1], where, "p");
            within_limits(2.0 * n, static_cast<double>(n) * n * std::clamp(p, 0.0, 1.0));
            return random_bipartite_graph(n, p, seed(2));
        }
        expect(2, 3, "N,D[,SEED], e.g. regular:30,3,7");
        const vertex_t n = size(f[0], "n"), degree = size(f[1], "degree");
        within_limits(2.0 * n, static_cast<double>(n) * degree);
        return random_regular_bipartite_graph(n, degree, seed(2));
    } catch (const InvalidArgument& e) {
        io::fail(where, e.what());
    }
}

Input generated_input(std::string_view spec) {
    Input input;
    input.source = std::string(spec);
    input.format = InputFormat::edge_list;
    input.data = generate_graph(spec);
    return input;
}

}  // namespace pmcount
