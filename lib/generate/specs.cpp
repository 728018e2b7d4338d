// Generator specs (see pmcount/generate.hpp): "name:parameters" parsed into a bipartite or a
// general graph, with its embedding where the generator draws one, for the command line, the
// Python package and count() alike.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "core/stop.hpp"
#include "generate/generator_common.hpp"
#include "io/text.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {

namespace {

using generators::kMaxGeneratedEdges;

constexpr std::array<std::string_view, 7> kBipartiteGenerators = {
    "grid", "torus", "hexagon", "aztec", "complete", "random", "regular"};
constexpr std::array<std::string_view, 10> kGeneralGenerators = {
    "tri",   "tri-torus",   "hex-torus", "kagome",    "kagome-torus",
    "cubic", "cubic-torus", "fcc",       "fcc-torus", "regular-general"};

template <std::size_t N>
bool named(const std::array<std::string_view, N>& names, std::string_view text) {
    const std::size_t colon = text.find(':');
    return colon != std::string_view::npos &&
           std::find(names.begin(), names.end(), text.substr(0, colon)) != names.end();
}

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

bool is_generator_spec(std::string_view text) {
    return named(kBipartiteGenerators, text) || named(kGeneralGenerators, text);
}

bool is_general_generator_spec(std::string_view text) {
    return named(kGeneralGenerators, text);
}

namespace {

/// A generated graph, bipartite or general, with its embedding where the generator gives one.
struct Generated {
    std::variant<BipartiteGraph, UndirectedGraph> graph;
    std::optional<Embedding> embedding;
};

Generated generate(std::string_view spec) {
    return detail::stop_boundary([&]() -> Generated {
        const std::string source(spec);
        const io::Location where{source, 0};
        if (!is_generator_spec(spec)) {
            io::fail(where,
                     "not a generator spec (grid:RxC, torus:RxC, hexagon:A,B,C, aztec:K, "
                     "complete:N, random:N,P[,SEED], regular:N,D[,SEED], tri:RxC, "
                     "tri-torus:RxC, hex-torus:RxC, kagome:RxC, kagome-torus:RxC, cubic:LxMxN, "
                     "cubic-torus:LxMxN, fcc:LxMxN, fcc-torus:LxMxN, regular-general:N,D[,SEED])");
        }
        const std::size_t colon = spec.find(':');
        const std::string_view name = spec.substr(0, colon);
        const std::string_view params = spec.substr(colon + 1);
        const bool board = name == "grid" || name == "torus" || name == "tri" ||
                           name == "tri-torus" || name == "hex-torus" || name == "kagome" ||
                           name == "kagome-torus";
        const bool solid =
            name == "cubic" || name == "cubic-torus" || name == "fcc" || name == "fcc-torus";
        const std::vector<std::string_view> f = split_fields(params, board || solid ? 'x' : ',');
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
        // Refuse a graph too large before building it (a spec is a few bytes; the graph it names
        // may not fit in memory), computed in floating point so that nothing overflows.
        const auto within_limits = [&](double side, double edges) {
            if (side > static_cast<double>(kMaxVertices) ||
                edges > static_cast<double>(kMaxGeneratedEdges)) {
                char buffer[200];
                std::snprintf(
                    buffer, sizeof buffer,
                    "the graph would have %.3g vertices a side and %.3g edges; at most %lld "
                    "vertices a side and %lld edges are supported",
                    side, edges, static_cast<long long>(kMaxVertices),
                    static_cast<long long>(kMaxGeneratedEdges));
                io::fail(where, buffer);
            }
        };
        try {
            if (board) {
                expect(2, 2, "ROWSxCOLS, e.g. grid:8x8");
                const vertex_t rows = size(f[0], "rows"), cols = size(f[1], "columns");
                const double cells = static_cast<double>(rows) * cols;
                within_limits(std::ceil(cells / 2), 2 * cells);
                if (name == "grid") {
                    return {grid_graph(rows, cols), std::nullopt};
                }
                if (name == "tri" || name == "tri-torus") {
                    within_limits(cells, 3 * cells);
                    const bool periodic = name == "tri-torus";
                    Generated g{triangular_graph(rows, cols, periodic), std::nullopt};
                    if (periodic && rows >= 3 && cols >= 3) {
                        g.embedding = triangular_torus_embedding(rows, cols);
                    }
                    return g;
                }
                if (name == "hex-torus") {
                    Generated g{brick_wall_torus_graph(rows, cols), std::nullopt};
                    if (cols >= 4) {
                        g.embedding = brick_wall_torus_embedding(rows, cols);
                    }
                    return g;
                }
                if (name == "kagome" || name == "kagome-torus") {
                    within_limits(3 * cells, 6 * cells);
                    const bool periodic = name == "kagome-torus";
                    Generated g{kagome_graph(rows, cols, periodic), std::nullopt};
                    if (periodic) {
                        g.embedding = kagome_torus_embedding(rows, cols);
                    }
                    return g;
                }
                Generated torus{torus_graph(rows, cols), std::nullopt};
                if (rows >= 4 && cols >= 4) {
                    torus.embedding = torus_embedding(rows, cols);
                }
                return torus;
            }
            if (name == "hexagon") {
                expect(3, 3, "A,B,C, e.g. hexagon:3,4,5");
                const vertex_t a = size(f[0], "side"), b = size(f[1], "side"),
                               c = size(f[2], "side");
                const double faces = static_cast<double>(a) * b + static_cast<double>(b) * c +
                                     static_cast<double>(c) * a;
                const double rim = static_cast<double>(a) + b + c;
                within_limits(faces + rim, 3 * faces + 3 * rim);
                return {hexagon_graph(a, b, c), std::nullopt};
            }
            if (name == "aztec") {
                expect(1, 1, "the order, e.g. aztec:10");
                const vertex_t order = size(f[0], "order");
                const double k = order;
                within_limits(k * (k + 1), 4 * k * k);
                return {aztec_diamond_graph(order), std::nullopt};
            }
            if (name == "complete") {
                expect(1, 1, "N, e.g. complete:8");
                const vertex_t n = size(f[0], "n");
                within_limits(n, static_cast<double>(n) * n);
                return {complete_bipartite_graph(n), std::nullopt};
            }
            if (name == "random") {
                expect(2, 3, "N,P[,SEED], e.g. random:30,0.2,7");
                const vertex_t n = size(f[0], "n");
                const double p = io::parse_double(f[1], where, "p");
                within_limits(n, static_cast<double>(n) * n * std::clamp(p, 0.0, 1.0));
                return {random_bipartite_graph(n, p, seed(2)), std::nullopt};
            }
            if (solid) {
                expect(3, 3, "LxMxN, e.g. fcc:4x4x4");
                const vertex_t l = size(f[0], "L"), m = size(f[1], "M"), n = size(f[2], "N");
                const double cells = static_cast<double>(l) * m * n;
                const bool periodic = name == "cubic-torus" || name == "fcc-torus";
                if (name == "cubic" || name == "cubic-torus") {
                    within_limits(cells, 3 * cells);
                    return {cubic_graph(l, m, n, periodic), std::nullopt};
                }
                within_limits(4 * cells, 24 * cells);
                return {fcc_graph(l, m, n, periodic), std::nullopt};
            }
            if (name == "regular-general") {
                expect(2, 3, "N,D[,SEED], e.g. regular-general:40,3,7");
                const vertex_t n = size(f[0], "n"), degree = size(f[1], "degree");
                within_limits(n, static_cast<double>(n) * degree / 2);
                return {random_regular_graph(n, degree, seed(2)), std::nullopt};
            }
            expect(2, 3, "N,D[,SEED], e.g. regular:30,3,7");
            const vertex_t n = size(f[0], "n"), degree = size(f[1], "degree");
            within_limits(n, static_cast<double>(n) * degree);
            return {random_regular_bipartite_graph(n, degree, seed(2)), std::nullopt};
        } catch (const InvalidArgument& e) {
            io::fail(where, e.what());
        }
    });
}

}  // namespace

BipartiteGraph generate_graph(std::string_view spec) {
    if (is_general_generator_spec(spec)) {
        io::fail({std::string(spec), 0},
                 "a general graph, not a bipartite one (generate_undirected_graph reads it)");
    }
    return std::get<BipartiteGraph>(generate(spec).graph);
}

UndirectedGraph generate_undirected_graph(std::string_view spec) {
    Generated g = generate(spec);
    if (auto* general = std::get_if<UndirectedGraph>(&g.graph)) {
        return std::move(*general);
    }
    const BipartiteGraph& b = std::get<BipartiteGraph>(g.graph);
    std::vector<UndirectedGraph::Edge> edges;
    edges.reserve(static_cast<std::size_t>(b.num_edges()));
    for (const auto& [u, v] : b.edges()) {
        edges.emplace_back(u, b.n_left() + v);
    }
    return {b.n_left() + b.n_right(), std::move(edges)};
}

Input generated_input(std::string_view spec) {
    Input input;
    input.source = std::string(spec);
    input.format = InputFormat::edge_list;
    Generated g = generate(spec);
    std::visit([&](auto& graph) { input.data = std::move(graph); }, g.graph);
    input.embedding = std::move(g.embedding);
    return input;
}

}  // namespace pmcount
