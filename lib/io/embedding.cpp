// Rotation-system files (see read_embedding in pmcount/io.hpp).
//
// Phases: (1) the input's vertices as the file numbers them (an undirected graph: one id space)
// and their neighbours; (2) one line per vertex, each neighbour checked against the graph;
// (3) every vertex with an edge has its line. Workspaces: the ids and their index (V), the
// neighbour lists (2E), the rotations (2E).
#include <algorithm>
#include <iterator>
#include <string>
#include <unordered_map>
#include <vector>

#include "io/readers.hpp"
#include "io/text.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"

namespace pmcount {

namespace {

/// The embedding's vertices: a general graph's own; a 2-coloured graph's rows, then columns.
struct Vertices {
    std::vector<std::int64_t> id;
    std::unordered_map<std::int64_t, vertex_t> index;
    std::vector<std::vector<vertex_t>> neighbours;  ///< sorted
};

Vertices vertices_of(const Input& input, const std::string& name) {
    const bool general = input.is_general();
    if (input.isolated || (!general && !input.two_coloured)) {
        throw InvalidInput(
            name, 0,
            std::string("an embedding names the vertices of an undirected graph (an edge list "
                        "without a bipartite or directed header, or a symmetric matrix read "
                        "with --hafnian); ") +
                (input.isolated ? "this input declares vertices it never uses"
                                : "this input numbers its two sides separately"));
    }
    Vertices v;
    const vertex_t rows = input.rows();
    const vertex_t n = general ? rows : rows + input.cols();
    for (vertex_t k = 0; k < n; ++k) {
        v.id.push_back(k < rows ? input.row_label(k) : input.col_label(k - rows));
        v.index.emplace(v.id.back(), k);
    }
    v.neighbours.resize(static_cast<std::size_t>(n));
    const BipartiteGraph pattern = input.pattern();
    for (vertex_t r = 0; r < rows; ++r) {
        for (edge_t e = pattern.left_offsets()[static_cast<std::size_t>(r)];
             e < pattern.left_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = pattern.left_adjacency()[static_cast<std::size_t>(e)];
            if (general) {
                v.neighbours[static_cast<std::size_t>(r)].push_back(c);
            } else {
                v.neighbours[static_cast<std::size_t>(r)].push_back(rows + c);
                v.neighbours[static_cast<std::size_t>(rows + c)].push_back(r);
            }
        }
    }
    for (auto& list : v.neighbours) {
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return v;
}

}  // namespace

Embedding parse_embedding(std::string_view text, const std::string& name, const Input& input) {
    const Vertices v = vertices_of(input, name);
    Embedding embedding;
    embedding.rotation.resize(v.neighbours.size());
    std::vector<std::int64_t> line_of(v.neighbours.size(), 0);
    std::int64_t cells_line = 0;
    io::LineScanner lines(text);
    std::string_view line;
    while (lines.next(line)) {
        const io::Location where{name, lines.line_number()};
        const std::size_t comment = line.find_first_of("#%");
        const std::vector<std::string_view> tokens = io::split_tokens(line.substr(0, comment));
        if (tokens.empty()) {
            continue;
        }
        const std::string_view head = tokens[0];
        if (head == "cells") {
            // The tiling: vertex id q is site q mod SITES of cell q / SITES, cell c = i·COLS + j.
            if (tokens.size() != 4) {
                io::fail(where, "expected 'cells ROWS COLS SITES' (the drawing's tiling)");
            }
            if (cells_line != 0) {
                io::fail(where, "a second 'cells' line (the first is on line " +
                                    std::to_string(cells_line) + ")");
            }
            cells_line = where.line;
            TorusCells cells;
            cells.rows = static_cast<vertex_t>(
                std::min<std::int64_t>(io::parse_count(tokens[1], where, "rows"), 1 << 30));
            cells.cols = static_cast<vertex_t>(
                std::min<std::int64_t>(io::parse_count(tokens[2], where, "cols"), 1 << 30));
            cells.sites = static_cast<vertex_t>(
                std::min<std::int64_t>(io::parse_count(tokens[3], where, "sites"), 1 << 30));
            const auto n = static_cast<std::int64_t>(v.id.size());
            if (static_cast<double>(cells.rows) * cells.cols * cells.sites !=
                static_cast<double>(n)) {
                io::fail(where, std::to_string(cells.rows) + "×" + std::to_string(cells.cols) +
                                    " cells of " + std::to_string(cells.sites) +
                                    " sites are not the graph's " + std::to_string(n) +
                                    " vertices");
            }
            for (const std::int64_t id : v.id) {
                if (id < 0 || id >= n) {
                    io::fail(where, "the tiling numbers vertices 0 … " + std::to_string(n - 1) +
                                        "; the graph has vertex " + std::to_string(id));
                }
                cells.place.push_back(static_cast<vertex_t>(id));
            }
            embedding.cells = std::move(cells);
            continue;
        }
        if (head.size() < 2 || head.back() != ':') {
            io::fail(where,
                     "expected 'VERTEX: NEIGHBOUR NEIGHBOUR ...' (the vertex's neighbours "
                     "in cyclic order), got " +
                         io::quote(head));
        }
        const auto vertex_of = [&](std::string_view token) {
            const std::int64_t id = io::parse_count(token, where, "vertex id");
            const auto it = v.index.find(id);
            if (it == v.index.end()) {
                io::fail(where, "vertex " + std::to_string(id) + " is not in the graph");
            }
            return it->second;
        };
        const vertex_t u = vertex_of(head.substr(0, head.size() - 1));
        auto& u_line = line_of[static_cast<std::size_t>(u)];
        if (u_line != 0) {
            io::fail(where, "vertex " + std::to_string(v.id[static_cast<std::size_t>(u)]) +
                                " has a second rotation (the first is on line " +
                                std::to_string(u_line) + ")");
        }
        u_line = where.line;
        const auto& adjacent = v.neighbours[static_cast<std::size_t>(u)];
        std::vector<vertex_t>& around = embedding.rotation[static_cast<std::size_t>(u)];
        for (auto it = std::next(tokens.begin()); it != tokens.end(); ++it) {
            const vertex_t w = vertex_of(*it);
            const std::string pair = std::to_string(v.id[static_cast<std::size_t>(u)]) + "–" +
                                     std::to_string(v.id[static_cast<std::size_t>(w)]);
            if (!std::binary_search(adjacent.begin(), adjacent.end(), w)) {
                io::fail(where, "the graph has no edge " + pair);
            }
            if (std::find(around.begin(), around.end(), w) != around.end()) {
                io::fail(where, "edge " + pair + " is listed twice");
            }
            around.push_back(w);
        }
        if (around.size() != adjacent.size()) {
            for (const vertex_t w : adjacent) {
                if (std::find(around.begin(), around.end(), w) == around.end()) {
                    io::fail(where, "vertex " + std::to_string(v.id[static_cast<std::size_t>(u)]) +
                                        " has " + std::to_string(adjacent.size()) +
                                        " neighbours and lists " + std::to_string(around.size()) +
                                        " (missing " +
                                        std::to_string(v.id[static_cast<std::size_t>(w)]) + ")");
                }
            }
        }
    }
    for (std::size_t k = 0; k < line_of.size(); ++k) {
        if (line_of[k] == 0 && !v.neighbours[k].empty()) {
            throw InvalidInput(name, 0,
                               "vertex " + std::to_string(v.id[k]) + " (" +
                                   std::to_string(v.neighbours[k].size()) +
                                   " neighbours) has no rotation line");
        }
    }
    return embedding;
}

void read_embedding(const std::string& path, Input& input) {
    std::string name;
    const std::string text = io::read_text(path, name);
    input.embedding = parse_embedding(text, name, input);
}

}  // namespace pmcount
