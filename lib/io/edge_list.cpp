// Edge-list reader. Phases: (1) scan lines: header, comments, `u v [weight]` records;
// (2) decide the reading (bipartite header, digraph, or undirected graph: 2-coloured into sides
// when it can be, a general graph otherwise); (3) map ids to rows and columns; (4) hand the
// entries to EntryCollector.
#include <algorithm>
#include <cctype>
#include <numeric>
#include <optional>

#include "io/entries.hpp"
#include "io/readers.hpp"
#include "io/text.hpp"
#include "pmcount/error.hpp"

namespace pmcount::io {

namespace {

enum class Header { none, bipartite, directed, undirected };

struct Record {
    std::int64_t u;
    std::int64_t v;
    std::int64_t line;
    bool integer_weight = false;
    std::int64_t integer = 0;
    double real = 0;
};

struct Scan {
    Header header = Header::none;
    std::int64_t header_line = 0;
    std::int64_t sizes[2] = {0, 0};
    std::vector<Record> records;
    bool weighted = false;
    std::int64_t first_record_line = 0;
    // The first integer weight beyond int64 (line 0: none): the weights are then read as reals.
    std::int64_t beyond_int64_line = 0;
    std::string beyond_int64_token;
};

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

/// A `# bipartite L R`, `# directed N` or `# undirected N` header; other comments are ignored.
/// A known keyword followed by something size-like (a number of any form, or `L=2`) commits the
/// line to being a header, so a malformed one is an error rather than a silently different
/// graph; `# directed graph of …` stays a comment.
void scan_comment(std::string_view comment, const Location& where, Scan& scan) {
    const auto tokens = split_tokens(comment);
    auto size_like = [](std::string_view t) {
        const char c = t.empty() ? ' ' : t.front();
        return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' ||
               t.find('=') != std::string_view::npos;
    };
    if (tokens.size() < 2 || !size_like(tokens[1])) {
        return;
    }
    const std::string word = lower(tokens[0]);
    Header kind;
    std::size_t numbers;
    const char* form;
    if (word == "bipartite") {
        kind = Header::bipartite, numbers = 2, form = "# bipartite L R";
    } else if (word == "directed") {
        kind = Header::directed, numbers = 1, form = "# directed N";
    } else if (word == "undirected") {
        kind = Header::undirected, numbers = 1, form = "# undirected N";
    } else {
        return;
    }
    if (tokens.size() != numbers + 1) {
        fail(where, "malformed header: expected '" + std::string(form) + "'");
    }
    if (scan.header != Header::none) {
        fail(where, "second header; the first is on line " + std::to_string(scan.header_line));
    }
    if (!scan.records.empty()) {
        fail(where, "header after the first edge (line " + std::to_string(scan.first_record_line) +
                        "); put it first");
    }
    scan.header = kind;
    scan.header_line = where.line;
    for (std::size_t k = 0; k < numbers; ++k) {
        const std::int64_t size = parse_count(tokens[k + 1], where, "header size");
        if (size > kMaxDeclaredVertices) {
            fail(where, "header size " + std::to_string(size) + " exceeds the supported " +
                            std::to_string(kMaxDeclaredVertices) + " vertices");
        }
        scan.sizes[k] = size;
    }
}

void scan_record(std::string_view data, const Location& where, Scan& scan) {
    const auto tokens = split_tokens(data);
    if (tokens.empty()) {
        return;
    }
    if (tokens.size() < 2) {
        fail(where, "too few fields (1): expected 'u v' or 'u v weight'");
    }
    if (tokens.size() > 3) {
        fail(where, "too many fields (" + std::to_string(tokens.size()) +
                        "): expected 'u v' or 'u v weight'");
    }
    const bool weighted = tokens.size() == 3;
    if (scan.records.empty()) {
        scan.weighted = weighted;
        scan.first_record_line = where.line;
    } else if (weighted != scan.weighted) {
        fail(where, std::string(weighted ? "has a weight" : "has no weight") + " but line " +
                        std::to_string(scan.first_record_line) +
                        (scan.weighted ? " has one" : " has none") +
                        ": give every edge a weight or none");
    }
    Record r{parse_count(tokens[0], where, "vertex id"), parse_count(tokens[1], where, "vertex id"),
             where.line};
    if (weighted) {
        if (is_integer_token(tokens[2])) {
            r.integer_weight = true;
            const std::optional<std::int64_t> value =
                parse_int64_if_fits(tokens[2], where, "weight");
            r.integer = value.value_or(0);
            if (!value && scan.beyond_int64_line == 0) {
                scan.beyond_int64_line = where.line;
                scan.beyond_int64_token = std::string(tokens[2]);
            }
            // Parsed again as a double, not converted, so that "-0" keeps its sign in a real file
            // (and a weight beyond int64 has its value when the input is read as real).
            r.real = parse_double(tokens[2], where, "weight");
        } else {
            r.real = parse_double(tokens[2], where, "weight");
        }
    }
    scan.records.push_back(r);
}

Scan scan_lines(std::string_view text, const std::string& file) {
    Scan scan;
    LineScanner lines(text);
    std::string_view line;
    while (lines.next(line)) {
        const Location where{file, lines.line_number()};
        const std::size_t start = line.find_first_not_of(" \t\r\v\f");
        if (start == std::string_view::npos) {
            continue;
        }
        if (line[start] == '%') {  // KONECT-style comment line
            continue;
        }
        const std::size_t comment = line.find_first_of("#%");
        if (comment == start) {
            scan_comment(line.substr(comment + 1), where, scan);
            continue;
        }
        scan_record(line.substr(0, comment), where, scan);
    }
    if (scan.header == Header::none && scan.records.empty()) {
        // Name the last line (line 1 of a file with no bytes) so that every error has a position.
        fail({file, std::max<std::int64_t>(1, lines.line_number())},
             lines.line_number() == 0 ? "empty file: no edges and no header"
                                      : "no edges and no header: only blank lines and comments");
    }
    return scan;
}

/// The vertices of a reading that declares n: `ids` holds the sorted distinct ids that occur and
/// keeps them when n is beyond the file and leaves a vertex isolated (returned); otherwise it
/// becomes [0, n), every declared vertex.
std::optional<std::int64_t> keep_vertices(std::int64_t n, std::size_t file_bytes,
                                          std::vector<std::int64_t>& ids) {
    const std::int64_t gap = first_missing(ids, n);
    if (side_beyond_file(n, file_bytes) && gap < n) {
        return gap;
    }
    ids.resize(static_cast<std::size_t>(n));
    std::iota(ids.begin(), ids.end(), std::int64_t{0});
    return std::nullopt;
}

/// Sorted distinct ids of the records.
std::vector<std::int64_t> distinct_ids(const std::vector<Record>& records) {
    std::vector<std::int64_t> ids;
    ids.reserve(2 * records.size());
    for (const Record& r : records) {
        ids.push_back(r.u);
        ids.push_back(r.v);
    }
    sort_distinct(ids);
    return ids;
}

void check_below(std::int64_t id, std::int64_t limit, const char* what, const Location& where,
                 const Scan& scan) {
    if (id >= limit) {
        fail(where, std::string(what) + " " + std::to_string(id) + " is outside [0, " +
                        std::to_string(limit) + ") declared by the header on line " +
                        std::to_string(scan.header_line));
    }
}

/// Breadth-first 2-colouring over a CSR of the records (no self-loops). An edge inside a colour
/// class closes an odd cycle: with `required`, NotBipartite reports it by its vertex ids and the
/// line of that edge; otherwise the result is empty (a general graph).
std::vector<int> two_colour(const std::vector<std::int64_t>& ids,
                            const std::vector<std::pair<vertex_t, vertex_t>>& edges,
                            const std::vector<Record>& records, const std::string& file,
                            bool required) {
    const std::size_t n = ids.size();
    // CSR: each edge k appears as (b, k) in the list of a and (a, k) in the list of b.
    std::vector<std::size_t> offsets(n + 1, 0);
    for (std::size_t k = 0; k < edges.size(); ++k) {
        const auto [a, b] = edges[k];
        ++offsets[static_cast<std::size_t>(a) + 1];
        ++offsets[static_cast<std::size_t>(b) + 1];
    }
    for (std::size_t v = 0; v < n; ++v) {
        offsets[v + 1] += offsets[v];
    }
    std::vector<std::pair<vertex_t, std::size_t>> incident(offsets[n]);
    std::vector<std::size_t> next(offsets.begin(), offsets.end() - 1);
    for (std::size_t k = 0; k < edges.size(); ++k) {
        const auto [a, b] = edges[k];
        incident[next[static_cast<std::size_t>(a)]++] = {b, k};
        incident[next[static_cast<std::size_t>(b)]++] = {a, k};
    }

    std::vector<int> colour(n, -1);
    std::vector<vertex_t> parent(n, -1);
    std::vector<int> depth(n, 0);
    std::vector<vertex_t> queue;
    queue.reserve(n);
    auto id = [&](vertex_t v) { return ids[static_cast<std::size_t>(v)]; };
    auto up = [&](vertex_t v) { return parent[static_cast<std::size_t>(v)]; };
    auto level = [&](vertex_t v) { return depth[static_cast<std::size_t>(v)]; };
    for (std::size_t root = 0; root < n; ++root) {
        if (colour[root] >= 0) {
            continue;
        }
        colour[root] = 0;
        queue.assign(1, static_cast<vertex_t>(root));
        for (std::size_t head = 0; head < queue.size(); ++head) {
            const vertex_t x = queue[head];
            const auto xs = static_cast<std::size_t>(x);
            for (std::size_t slot = offsets[xs]; slot < offsets[xs + 1]; ++slot) {
                const auto [y, edge] = incident[slot];
                const auto ys = static_cast<std::size_t>(y);
                if (colour[ys] < 0) {
                    colour[ys] = 1 - colour[xs];
                    parent[ys] = x;
                    depth[ys] = depth[xs] + 1;
                    queue.push_back(y);
                } else if (colour[ys] == colour[xs]) {
                    if (!required) {
                        return {};
                    }
                    // Climb from both ends to the common ancestor: x … lca … y, then back to x.
                    std::vector<std::int64_t> from_x, from_y;
                    vertex_t a = x, b = y;
                    for (; level(a) > level(b); a = up(a)) {
                        from_x.push_back(id(a));
                    }
                    for (; level(b) > level(a); b = up(b)) {
                        from_y.push_back(id(b));
                    }
                    for (; a != b; a = up(a), b = up(b)) {
                        from_x.push_back(id(a));
                        from_y.push_back(id(b));
                    }
                    from_x.push_back(id(a));
                    from_x.insert(from_x.end(), from_y.rbegin(), from_y.rend());
                    throw NotBipartite(file, records[edge].line, std::move(from_x));
                }
            }
        }
    }
    return colour;
}

Entry make_entry(const Record& r, vertex_t row, vertex_t col) {
    Entry e{row, col, r.line, r.u, r.v};
    e.integer = r.integer;
    e.re = r.real;
    return e;
}

/// A perfect matching pairs distinct vertices: an undirected self-loop is an input error.
void reject_self_loops(const std::vector<Record>& records, const std::string& file) {
    for (const Record& r : records) {
        if (r.u == r.v) {
            fail({file, r.line},
                 "self-loop " + std::to_string(r.u) + "–" + std::to_string(r.v) +
                     ": no perfect matching can use it (remove it; with --cycle-covers a "
                     "self-loop is a fixed point)");
        }
    }
}

/// An undirected graph that is not 2-coloured: each edge goes in as both (u, v) and (v, u), and
/// the collector builds the UndirectedGraph or the symmetric matrix of a hafnian.
Input general_graph(const std::vector<std::int64_t>& ids,
                    const std::vector<std::pair<vertex_t, vertex_t>>& edges, const Scan& scan,
                    EntryCollector& collector, std::vector<std::string> warnings) {
    for (std::size_t k = 0; k < scan.records.size(); ++k) {
        const auto [a, b] = edges[k];
        Entry e = make_entry(scan.records[k], a, b);
        e.shown_row = ids[static_cast<std::size_t>(a)];
        e.shown_col = ids[static_cast<std::size_t>(b)];
        collector.add(e);
        if (a == b) {
            continue;  // a loop (ReadOptions::loops) is its own mirror image
        }
        std::swap(e.row, e.col);
        std::swap(e.shown_row, e.shown_col);
        collector.add(e);
    }
    Input input = collector.finish_symmetric(static_cast<vertex_t>(ids.size()),
                                             InputFormat::edge_list, std::move(warnings));
    input.left_ids = ids;
    input.right_ids = ids;
    return input;
}

}  // namespace

Input read_edge_list(std::string_view text, const std::string& file, const ReadOptions& options) {
    Scan scan = scan_lines(text, file);
    const bool directed =
        scan.header == Header::directed ||
        (scan.header == Header::none && options.interpretation == GraphInterpretation::directed);
    ValueField field = ValueField::none;
    if (scan.weighted) {
        field = std::all_of(scan.records.begin(), scan.records.end(),
                            [](const Record& r) { return r.integer_weight; })
                    ? ValueField::integer
                    : ValueField::real;
    }
    EntryCollector collector(file, text.size(), field, options);
    if (scan.beyond_int64_line != 0) {
        collector.integer_beyond_int64({file, scan.beyond_int64_line}, scan.beyond_int64_token);
    }
    std::vector<std::string> warnings;
    const bool general = options.interpretation == GraphInterpretation::general;

    if (general && scan.header == Header::directed) {
        fail({file, scan.header_line},
             "'# directed' declares a digraph; a hafnian or a general graph's perfect matchings "
             "need an undirected graph (or a symmetric matrix)");
    }
    if (general && scan.header == Header::bipartite) {
        // One graph on [0, L + R): right vertex v becomes L + v.
        const std::int64_t left = scan.sizes[0], vertices = scan.sizes[0] + scan.sizes[1];
        for (const Record& r : scan.records) {
            const Location where{file, r.line};
            check_below(r.u, scan.sizes[0], "left vertex id", where, scan);
            check_below(r.v, scan.sizes[1], "right vertex id", where, scan);
        }
        std::vector<std::int64_t> ids;
        for (const Record& r : scan.records) {
            ids.push_back(r.u);
            ids.push_back(left + r.v);
        }
        sort_distinct(ids);
        std::optional<IsolatedVertex> isolated;
        if (const auto gap = keep_vertices(vertices, text.size(), ids)) {
            const auto n = static_cast<vertex_t>(vertices);
            isolated =
                IsolatedVertex{(*gap < left ? "left vertex " + std::to_string(*gap)
                                            : "right vertex " + std::to_string(*gap - left)) +
                                   " has no edge",
                               n, n};
        }
        std::vector<std::pair<vertex_t, vertex_t>> edges;
        for (const Record& r : scan.records) {
            edges.emplace_back(index_of(ids, r.u), index_of(ids, left + r.v));
        }
        Input input = general_graph(ids, edges, scan, collector, std::move(warnings));
        input.isolated = std::move(isolated);
        return input;
    }
    if (scan.header == Header::bipartite) {
        for (const Record& r : scan.records) {
            const Location where{file, r.line};
            check_below(r.u, scan.sizes[0], "left vertex id", where, scan);
            check_below(r.v, scan.sizes[1], "right vertex id", where, scan);
            collector.add(make_entry(r, static_cast<vertex_t>(r.u), static_cast<vertex_t>(r.v)));
        }
        return collector.finish(static_cast<vertex_t>(scan.sizes[0]),
                                static_cast<vertex_t>(scan.sizes[1]), false, InputFormat::edge_list,
                                std::move(warnings));
    }

    if (directed) {
        std::vector<std::int64_t> ids;
        if (scan.header == Header::directed) {
            for (const Record& r : scan.records) {
                const Location where{file, r.line};
                check_below(r.u, scan.sizes[0], "vertex id", where, scan);
                check_below(r.v, scan.sizes[0], "vertex id", where, scan);
                collector.add(
                    make_entry(r, static_cast<vertex_t>(r.u), static_cast<vertex_t>(r.v)));
            }
            const auto n = static_cast<vertex_t>(scan.sizes[0]);
            return collector.finish(n, n, true, InputFormat::edge_list, std::move(warnings));
        }
        ids = distinct_ids(scan.records);
        for (const Record& r : scan.records) {
            collector.add(make_entry(r, index_of(ids, r.u), index_of(ids, r.v)));
        }
        const auto n = static_cast<vertex_t>(ids.size());
        Input input = collector.finish(n, n, true, InputFormat::edge_list, std::move(warnings));
        input.left_ids = ids;
        input.right_ids = std::move(ids);
        return input;
    }

    // An undirected file read for cycle covers: the symmetric digraph, both arcs of each edge
    // (its cycle covers are the permanent of the adjacency matrix).
    if (scan.header == Header::undirected &&
        options.interpretation == GraphInterpretation::directed) {
        for (const Record& r : scan.records) {
            const Location where{file, r.line};
            check_below(r.u, scan.sizes[0], "vertex id", where, scan);
            check_below(r.v, scan.sizes[0], "vertex id", where, scan);
            const auto u = static_cast<vertex_t>(r.u), v = static_cast<vertex_t>(r.v);
            collector.add(make_entry(r, u, v));
            if (u != v) {
                collector.add(make_entry(r, v, u));
            }
        }
        warnings.push_back("'# undirected' on line " + std::to_string(scan.header_line) +
                           ": each edge is read as two arcs, one each way");
        const auto n = static_cast<vertex_t>(scan.sizes[0]);
        return collector.finish(n, n, true, InputFormat::edge_list, std::move(warnings));
    }

    // Undirected: vertices [0, N) from the header (only those that occur when N is beyond the
    // file and leaves one isolated), or the ids that occur.
    std::vector<std::int64_t> ids;
    std::optional<IsolatedVertex> isolated;
    if (scan.header == Header::undirected) {
        const std::int64_t n = scan.sizes[0];
        for (const Record& r : scan.records) {
            const Location where{file, r.line};
            check_below(r.u, n, "vertex id", where, scan);
            check_below(r.v, n, "vertex id", where, scan);
        }
        ids = distinct_ids(scan.records);
        if (const auto gap = keep_vertices(n, text.size(), ids)) {
            const auto declared = static_cast<vertex_t>(n);
            isolated = IsolatedVertex{"vertex " + std::to_string(*gap) + " has no edge", declared,
                                      declared};
        }
    } else {
        ids = distinct_ids(scan.records);
    }
    if (options.interpretation != GraphInterpretation::general || !options.loops) {
        reject_self_loops(scan.records, file);
    }
    std::vector<std::pair<vertex_t, vertex_t>> edges;
    edges.reserve(scan.records.size());
    for (const Record& r : scan.records) {
        edges.emplace_back(index_of(ids, r.u), index_of(ids, r.v));
    }
    const std::vector<int> colour =
        options.interpretation == GraphInterpretation::general
            ? std::vector<int>()
            : two_colour(ids, edges, scan.records, file,
                         options.interpretation == GraphInterpretation::bipartite);
    if (colour.empty()) {
        Input input = general_graph(ids, edges, scan, collector, std::move(warnings));
        input.isolated = std::move(isolated);
        return input;
    }
    std::vector<vertex_t> side_index(ids.size());
    std::vector<std::int64_t> left_ids, right_ids;
    for (std::size_t i = 0; i < ids.size(); ++i) {
        auto& side = colour[i] == 0 ? left_ids : right_ids;
        side_index[i] = static_cast<vertex_t>(side.size());
        side.push_back(ids[i]);
    }
    for (std::size_t k = 0; k < scan.records.size(); ++k) {
        auto [a, b] = edges[k];
        if (colour[static_cast<std::size_t>(a)] != 0) {
            std::swap(a, b);
        }
        Entry e = make_entry(scan.records[k], side_index[static_cast<std::size_t>(a)],
                             side_index[static_cast<std::size_t>(b)]);
        // Report an undirected edge the same way whichever order the file used.
        e.shown_row = ids[static_cast<std::size_t>(a)];
        e.shown_col = ids[static_cast<std::size_t>(b)];
        collector.add(e);
    }
    Input input = collector.finish(static_cast<vertex_t>(left_ids.size()),
                                   static_cast<vertex_t>(right_ids.size()), false,
                                   InputFormat::edge_list, std::move(warnings));
    if (isolated) {
        // The vertices no edge touches are left vertices, as they are when all are kept.
        isolated->cols = static_cast<vertex_t>(right_ids.size());
        isolated->rows -= isolated->cols;
    }
    input.left_ids = std::move(left_ids);
    input.right_ids = std::move(right_ids);
    input.isolated = std::move(isolated);
    input.two_coloured = true;
    return input;
}

}  // namespace pmcount::io
