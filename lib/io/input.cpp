// read_input / parse_input: format detection and the Input accessors.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <vector>

#include "core/memory.hpp"
#include "io/readers.hpp"
#include "io/text.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"

namespace pmcount {

namespace {

bool starts_like_matrix_market(std::string_view text) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) {
        return false;
    }
    constexpr std::string_view kBanner = "%%matrixmarket";
    const std::string_view head = text.substr(start, kBanner.size());
    if (head.size() != kBanner.size()) {
        return false;
    }
    for (std::size_t i = 0; i < head.size(); ++i) {
        if (std::tolower(static_cast<unsigned char>(head[i])) != kBanner[i]) {
            return false;
        }
    }
    return true;
}

bool has_matrix_market_extension(const std::string& name) {
    std::string extension = std::filesystem::path(name).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return extension == ".mtx";
}

}  // namespace

Input parse_input(std::string_view text, const std::string& source_name,
                  const ReadOptions& options) {
    // A UTF-8 byte order mark (editors on Windows write one) is not part of the first line.
    constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
    if (text.substr(0, kByteOrderMark.size()) == kByteOrderMark) {
        text.remove_prefix(kByteOrderMark.size());
    }
    if (text.find('\0') != std::string_view::npos) {
        // Binary data: name the line of the first NUL byte.
        const std::size_t nul = text.find('\0');
        const auto line =
            1 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(nul), '\n');
        throw InvalidInput(source_name, line, "binary data (NUL byte): not a text file");
    }
    InputFormat format = options.format;
    if (format == InputFormat::automatic) {
        // A .mtx file without its banner is a broken Matrix Market file (the Matrix Market
        // reader says so on line 1), not an edge list whose size line would count as an edge.
        format = starts_like_matrix_market(text) || has_matrix_market_extension(source_name)
                     ? InputFormat::matrix_market
                     : InputFormat::edge_list;
    }
    return format == InputFormat::matrix_market ? io::read_matrix_market(text, source_name, options)
                                                : io::read_edge_list(text, source_name, options);
}

namespace {

/// The whole stream as text, refusing what cannot be an input before memory runs out: a line of
/// more than kMaxLineBytes (e.g. /dev/zero) or a stream larger than the memory budget (an
/// endless pipe).
std::string read_all(std::istream& in, const std::string& name) {
    constexpr std::size_t kMaxLineBytes = std::size_t{1} << 24;
    const auto max_bytes = static_cast<std::size_t>(pmcount::detail::memory_budget_bytes());
    std::string text;
    std::vector<char> chunk(std::size_t{1} << 20);
    std::size_t line_start = 0;
    std::int64_t lines = 1;
    while (in) {
        in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        if (got == 0) {
            break;
        }
        const std::size_t old_size = text.size();
        text.append(chunk.data(), got);
        for (std::size_t i = old_size; i < text.size(); ++i) {
            if (text[i] == '\n') {
                ++lines;
                line_start = i + 1;
            }
        }
        if (text.size() - line_start > kMaxLineBytes) {
            throw InvalidInput(name, lines, "line longer than 16 MiB: not a graph or matrix file");
        }
        if (text.size() > max_bytes) {
            throw InvalidInput(name, 0,
                               "larger than half of this machine's memory (" +
                                   std::to_string(max_bytes >> 20) + " MiB)");
        }
    }
    return text;
}

}  // namespace

std::string io::read_text(const std::string& path, std::string& name) {
    std::string text;
    name = path;
    if (path == "-") {
        name = "<stdin>";
        text = read_all(std::cin, name);
    } else {
        std::error_code ignored;
        if (std::filesystem::is_directory(path, ignored)) {
            // An ifstream opens a directory and reads nothing: say what it is, not "empty file".
            throw InvalidInput(path, 0, "is a directory, not a file");
        }
        errno = 0;
        std::ifstream file(path, std::ios::binary);
        if (!file) {
            const int error = errno;
            throw InvalidInput(
                path, 0,
                "cannot open file" + (error != 0 ? ": " + std::string(std::strerror(error)) : ""));
        }
        text = read_all(file, path);
        if (file.bad()) {
            throw InvalidInput(path, 0, "read error");
        }
    }
    return text;
}

Input read_input(const std::string& path, const ReadOptions& options) {
    std::string name;
    const std::string text = io::read_text(path, name);
    return parse_input(text, name, options);
}

ValueKind Input::kind() const noexcept {
    switch (data.index()) {
        case 2:
            return ValueKind::integer;
        case 3:
            return ValueKind::real;
        case 4:
            return ValueKind::complex;
        default:
            return ValueKind::binary;
    }
}

namespace {

struct Shape {
    vertex_t rows;
    vertex_t cols;
    edge_t nnz;
};

Shape shape_of(const Input::Data& data) noexcept {
    return std::visit(
        [](const auto& d) -> Shape {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, BipartiteGraph>) {
                return {d.n_left(), d.n_right(), d.num_edges()};
            } else if constexpr (std::is_same_v<D, Digraph>) {
                return {d.num_vertices(), d.num_vertices(), d.num_arcs()};
            } else if constexpr (std::is_same_v<D, UndirectedGraph>) {
                // The adjacency matrix: each edge is two entries.
                return {d.num_vertices(), d.num_vertices(), 2 * d.num_edges()};
            } else {
                return {d.rows(), d.cols(), d.nnz()};
            }
        },
        data);
}

}  // namespace

BipartiteGraph Input::pattern() const {
    return std::visit(
        [](const auto& d) -> BipartiteGraph {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, BipartiteGraph>) {
                return d;
            } else if constexpr (std::is_same_v<D, Digraph>) {
                return d.as_bipartite();
            } else if constexpr (std::is_same_v<D, UndirectedGraph>) {
                std::vector<BipartiteGraph::Edge> edges;
                for (vertex_t u = 0; u < d.num_vertices(); ++u) {
                    for (const vertex_t v : d.neighbours(u)) {
                        edges.emplace_back(u, v);
                    }
                }
                return {d.num_vertices(), d.num_vertices(), std::move(edges)};
            } else {
                std::vector<BipartiteGraph::Edge> edges;
                for (const auto& t : d.triplets()) {
                    if (t.value != typename D::value_type{}) {
                        edges.emplace_back(t.row, t.col);
                    }
                }
                return {d.rows(), d.cols(), std::move(edges)};
            }
        },
        data);
}

std::int64_t Input::row_label(vertex_t row) const {
    if (!left_ids.empty()) {
        return left_ids[static_cast<std::size_t>(row)];
    }
    return format == InputFormat::matrix_market ? row + std::int64_t{1} : row;
}

std::int64_t Input::col_label(vertex_t col) const {
    if (!right_ids.empty()) {
        return right_ids[static_cast<std::size_t>(col)];
    }
    return format == InputFormat::matrix_market ? col + std::int64_t{1} : col;
}

bool Input::is_general() const noexcept {
    return hafnian || std::holds_alternative<UndirectedGraph>(data);
}

vertex_t Input::rows() const noexcept {
    return isolated ? isolated->rows : shape_of(data).rows;
}
vertex_t Input::cols() const noexcept {
    return isolated ? isolated->cols : shape_of(data).cols;
}
edge_t Input::nnz() const noexcept {
    return shape_of(data).nnz;
}

}  // namespace pmcount
