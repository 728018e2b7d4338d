// What a user's run does with a graph or matrix file before any exponential work, for the edge
// list and Matrix Market harnesses: read it under every reading the CLI offers, then what
// count_matchings prints about it, the --dot decomposition, the plan of --explain (the structure
// front end: Dulmage–Mendelsohn or blossom, reductions, the planner) and the writers' round trip.
// Input errors (pmcount::Error) are outcomes; anything else escapes to the fuzzer as a crash, and
// so does a broken invariant (__builtin_trap after a line on stderr):
//   - memory follows the file: no side of the data is larger than the file has bytes;
//   - what the writers write reads back to the same entries.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <type_traits>
#include <variant>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::fuzz {

[[noreturn]] inline void broken(const char* invariant) {
    std::fprintf(stderr, "fuzz invariant broken: %s\n", invariant);
    __builtin_trap();
}

/// Rows and columns of the data itself (Input::rows() may be the declared ones).
inline std::pair<std::int64_t, std::int64_t> shape_of(const Input::Data& data) {
    return std::visit(
        [](const auto& d) -> std::pair<std::int64_t, std::int64_t> {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, BipartiteGraph>) {
                return {d.n_left(), d.n_right()};
            } else if constexpr (std::is_same_v<D, Digraph> || std::is_same_v<D, UndirectedGraph>) {
                return {d.num_vertices(), d.num_vertices()};
            } else {
                return {d.rows(), d.cols()};
            }
        },
        data);
}

/// An entry by data index; values as long double pairs, exact for int64 and double alike.
using Entry = std::tuple<std::int64_t, std::int64_t, long double, long double>;

struct Entries {
    std::int64_t rows = 0;
    std::int64_t cols = 0;
    std::vector<Entry> entries;  // sorted
};

/// The data's entries, each index mapped through `row` / `col`; nothing for an UndirectedGraph
/// (no writer takes one).
template <class RowIndex, class ColIndex>
bool entries_of(const Input::Data& data, RowIndex row, ColIndex col, Entries& out) {
    const bool known = std::visit(
        [&](const auto& d) -> bool {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, UndirectedGraph>) {
                return false;
            } else if constexpr (std::is_same_v<D, BipartiteGraph> || std::is_same_v<D, Digraph>) {
                const BipartiteGraph& g = [&]() -> const BipartiteGraph& {
                    if constexpr (std::is_same_v<D, Digraph>) {
                        return d.as_bipartite();
                    } else {
                        return d;
                    }
                }();
                for (const auto& [u, v] : g.edges()) {
                    out.entries.emplace_back(row(u), col(v), 1.0L, 0.0L);
                }
                return true;
            } else {
                for (const auto& t : d.triplets()) {
                    if constexpr (std::is_same_v<typename D::value_type, std::int64_t>) {
                        out.entries.emplace_back(row(t.row), col(t.col),
                                                 static_cast<long double>(t.value), 0.0L);
                    } else if constexpr (std::is_same_v<typename D::value_type, double>) {
                        out.entries.emplace_back(row(t.row), col(t.col), t.value, 0.0L);
                    } else {
                        out.entries.emplace_back(row(t.row), col(t.col), t.value.real(),
                                                 t.value.imag());
                    }
                }
                return true;
            }
        },
        data);
    std::sort(out.entries.begin(), out.entries.end());
    return known;
}

/// The file `text` (written by a writer from `original`'s data) read back must hold the same
/// entries, indexed as the writer numbered them: a reader that kept only the vertices that occur
/// names the others by their labels.
inline void expect_same_entries(const Input& original, const std::string& text,
                                InputFormat format) {
    ReadOptions options;
    options.format = format;
    const Input back = parse_input(text, "written", options);
    const std::int64_t base = format == InputFormat::matrix_market ? 1 : 0;
    Entries before, after;
    auto same = [](vertex_t v) { return std::int64_t{v}; };
    entries_of(original.data, same, same, before);
    std::tie(before.rows, before.cols) = shape_of(original.data);
    entries_of(
        back.data, [&](vertex_t r) { return back.row_label(r) - base; },
        [&](vertex_t c) { return back.col_label(c) - base; }, after);
    after.rows = back.rows();
    after.cols = back.cols();
    if (before.rows != after.rows || before.cols != after.cols) {
        broken("a written file reads back with another shape");
    }
    if (before.entries != after.entries) {
        broken("a written file reads back with other entries");
    }
}

/// Writes the data as an edge list and as Matrix Market and reads both back.
inline void round_trip(const Input& input) {
    std::visit(
        [&](const auto& d) {
            using D = std::decay_t<decltype(d)>;
            if constexpr (std::is_same_v<D, UndirectedGraph>) {
                return;
            } else {
                std::ostringstream edge_list, matrix_market;
                if constexpr (!std::is_same_v<D, SparseMatrix<std::complex<double>>>) {
                    write_edge_list(edge_list, d);
                    expect_same_entries(input, edge_list.str(), InputFormat::edge_list);
                }
                if constexpr (std::is_same_v<D, Digraph>) {
                    write_matrix_market(matrix_market, d.as_bipartite());
                } else {
                    write_matrix_market(matrix_market, d);
                }
                expect_same_entries(input, matrix_market.str(), InputFormat::matrix_market);
            }
        },
        input.data);
}

/// Everything after a successful read.
inline void use(const Input& input, std::size_t file_bytes) {
    const auto [rows, cols] = shape_of(input.data);
    if (static_cast<std::uint64_t>(rows) > file_bytes ||
        static_cast<std::uint64_t>(cols) > file_bytes) {
        broken("a side of the data is larger than the file");
    }
    // What count_matchings prints about the input.
    (void)input.kind();
    (void)input.is_general();
    if (rows > 0 && cols > 0) {
        (void)input.row_label(static_cast<vertex_t>(rows - 1));
        (void)input.col_label(static_cast<vertex_t>(cols - 1));
    }
    if (input.rows() < 0 || input.cols() < 0 || input.nnz() < 0) {
        broken("a negative size");
    }
    // --dot
    const BipartiteGraph pattern = input.pattern();
    std::ostringstream dot;
    write_dot(dot, pattern, dulmage_mendelsohn(pattern));
    // --explain: the structure front end and the plan, without counting.
    CountOptions options;
    options.explain_only = true;
    options.threads = 1;
    try {
        (void)count(input, options);
    } catch (const Error&) {
    }
    round_trip(input);
}

/// Plans a dense order-30 count once, so that the planner's one-time measurement of this machine's
/// speed (a dense Ryser probe, 40-60 ms in a plain build, seconds under the sanitizers: the first
/// plan predicted at 0.1 s or more runs it) happens before the fuzzing and not inside one
/// input's time limit. Called from LLVMFuzzerInitialize.
inline void warm_up() {
    DenseMatrix<std::int64_t> ones(30, 30);
    for (vertex_t i = 0; i < 30; ++i) {
        for (vertex_t j = 0; j < 30; ++j) {
            ones(i, j) = 1;
        }
    }
    CountOptions options;
    options.explain_only = true;
    options.threads = 1;
    (void)permanent(ones, options);
}

/// Reads `text` under every reading the CLI offers (default, --perfect-matchings,
/// --sum-duplicates, bipartite, --cycle-covers, --hafnian) and uses what it reads.
inline void exercise(std::string_view text, InputFormat format) {
    struct Reading {
        GraphInterpretation interpretation;
        bool pattern_only;
        bool sum_duplicates;
    };
    static constexpr Reading kReadings[] = {
        {GraphInterpretation::automatic, false, false},
        {GraphInterpretation::automatic, true, false},
        {GraphInterpretation::automatic, false, true},
        {GraphInterpretation::bipartite, false, false},
        {GraphInterpretation::directed, false, false},
        {GraphInterpretation::general, false, false},
    };
    for (const Reading& reading : kReadings) {
        ReadOptions options;
        options.format = format;
        options.interpretation = reading.interpretation;
        options.pattern_only = reading.pattern_only;
        options.sum_duplicates = reading.sum_duplicates;
        Input input;
        try {
            input = parse_input(text, "fuzz", options);
        } catch (const Error&) {
            continue;
        }
        use(input, text.size());
    }
}

}  // namespace pmcount::fuzz
