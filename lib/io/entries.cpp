#include "io/entries.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <type_traits>

#include "io/text.hpp"
#include "pmcount/error.hpp"

namespace pmcount::io {

namespace {

std::string position(const Entry& e) {
    return "(" + std::to_string(e.shown_row) + ", " + std::to_string(e.shown_col) + ")";
}

/// Largest magnitude below which every integer is a double.
constexpr double kExactDoubleLimit = 9007199254740992.0;  // 2^53

bool by_position(const Entry& a, const Entry& b) {
    return a.row != b.row ? a.row < b.row : a.col < b.col;
}

template <class T>
T value_of(const Entry& e) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return e.integer;
    } else if constexpr (std::is_same_v<T, double>) {
        return e.re;
    } else {
        return {e.re, e.im};
    }
}

template <class T>
SparseMatrix<T> matrix_of(const std::vector<Entry>& entries, vertex_t rows, vertex_t cols) {
    std::vector<Triplet<T>> t;
    t.reserve(entries.size());
    for (const Entry& e : entries) {
        t.push_back({e.row, e.col, value_of<T>(e)});
    }
    return SparseMatrix<T>(rows, cols, std::move(t));
}

}  // namespace

bool side_beyond_file(std::int64_t declared, std::size_t file_bytes) noexcept {
    return declared > 0 && static_cast<std::uint64_t>(declared) > file_bytes;
}

void sort_distinct(std::vector<std::int64_t>& ids) {
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
}

vertex_t index_of(const std::vector<std::int64_t>& ids, std::int64_t id) {
    return static_cast<vertex_t>(std::lower_bound(ids.begin(), ids.end(), id) - ids.begin());
}

std::int64_t first_missing(const std::vector<std::int64_t>& ids, std::int64_t declared) {
    // Sorted distinct ids from 0 have ids[k] >= k, with equality exactly up to the first gap.
    std::size_t low = 0, high = ids.size();
    while (low < high) {
        const std::size_t middle = low + (high - low) / 2;
        if (ids[middle] == static_cast<std::int64_t>(middle)) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return std::min(static_cast<std::int64_t>(low), declared);
}

EntryCollector::EntryCollector(const std::string& file, std::size_t file_bytes, ValueField field,
                               const ReadOptions& options)
    : file_(file),
      file_bytes_(file_bytes),
      field_(options.pattern_only ? ValueField::none : field),
      options_(options) {}

std::optional<EntryCollector::Kept> EntryCollector::keep_occurring(vertex_t rows, vertex_t cols,
                                                                   bool same_vertices,
                                                                   InputFormat format) {
    if (!side_beyond_file(rows, file_bytes_) && !side_beyond_file(cols, file_bytes_)) {
        return std::nullopt;
    }
    std::vector<std::int64_t> row_ids, col_ids;
    for (const Entry& e : entries_) {
        row_ids.push_back(e.row);
        (same_vertices ? row_ids : col_ids).push_back(e.col);
    }
    sort_distinct(row_ids);
    if (same_vertices) {
        col_ids = row_ids;
    } else {
        sort_distinct(col_ids);
    }
    const std::int64_t row_gap = first_missing(row_ids, rows);
    const std::int64_t col_gap = first_missing(col_ids, cols);
    if (row_gap == rows && col_gap == cols) {
        return std::nullopt;
    }
    // Labels as Input::row_label gives them: Matrix Market counts from 1, edge lists from 0.
    const std::int64_t base = format == InputFormat::matrix_market ? 1 : 0;
    const bool row_side = row_gap < rows;
    const char* side = same_vertices                          ? "vertex"
                       : format == InputFormat::matrix_market ? (row_side ? "row" : "column")
                       : row_side                             ? "left vertex"
                                                              : "right vertex";
    Kept kept;
    kept.isolated = {side + (" " + std::to_string((row_side ? row_gap : col_gap) + base)) +
                         (format == InputFormat::matrix_market ? " has no entry" : " has no edge"),
                     rows, cols};
    for (Entry& e : entries_) {
        e.row = index_of(row_ids, e.row);
        e.col = index_of(col_ids, e.col);
    }
    for (auto* ids : {&row_ids, &col_ids}) {
        for (std::int64_t& id : *ids) {
            id += base;
        }
    }
    kept.row_labels = std::move(row_ids);
    kept.col_labels = std::move(col_ids);
    return kept;
}

void EntryCollector::combine_duplicates(std::vector<std::string>& warnings) {
    std::stable_sort(entries_.begin(), entries_.end(), by_position);
    std::vector<Entry> unique;
    unique.reserve(entries_.size());
    std::int64_t merged = 0;
    std::string first_merge;
    for (const Entry& e : entries_) {
        if (unique.empty() || unique.back().row != e.row || unique.back().col != e.col) {
            unique.push_back(e);
            continue;
        }
        Entry& kept = unique.back();
        if (field_ == ValueField::none) {
            if (merged++ == 0) {
                first_merge = "line " + std::to_string(e.line) + " repeats " + position(e) +
                              " from line " + std::to_string(kept.line);
            }
            continue;
        }
        if (!options_.sum_duplicates) {
            fail({file_, e.line}, "duplicate entry " + position(e) + ", already given on line " +
                                      std::to_string(kept.line) +
                                      " (use --sum-duplicates to add repeated values)");
        }
        if (field_ == ValueField::integer) {
            if (__builtin_add_overflow(kept.integer, e.integer, &kept.integer)) {
                fail({file_, e.line},
                     "sum of repeated entry " + position(e) + " overflows 64-bit integers");
            }
        } else {
            kept.re += e.re;
            kept.im += e.im;
            if (!std::isfinite(kept.re) || !std::isfinite(kept.im)) {
                fail({file_, e.line}, "sum of repeated entry " + position(e) + " overflows double");
            }
        }
    }
    if (merged > 0) {
        warnings.push_back(file_ + ": merged " + std::to_string(merged) +
                           " repeated edge(s) of a pattern (" + first_merge + ")");
    }
    entries_ = std::move(unique);
}

void EntryCollector::integer_beyond_int64(const Location& where, std::string_view token) {
    if (field_ != ValueField::integer) {
        return;  // a pattern ignores values; a real input has the value as a double already
    }
    field_ = ValueField::real;
    beyond_int64_ = file_ + ":" + std::to_string(where.line) + ": value " + quote(token) +
                    " is beyond 64-bit integers: every value is read as a real (double), and the "
                    "answer is a double with an error estimate";
}

ValueField EntryCollector::settle_field(std::vector<std::string>& warnings, const char* problem) {
    if (!beyond_int64_.empty()) {
        warnings.push_back(beyond_int64_);
    }
    if (field_ == ValueField::real || field_ == ValueField::complex) {
        const auto subnormal = std::find_if(entries_.begin(), entries_.end(), [](const Entry& e) {
            return std::fpclassify(e.re) == FP_SUBNORMAL || std::fpclassify(e.im) == FP_SUBNORMAL;
        });
        if (subnormal != entries_.end()) {
            char text[40];
            std::snprintf(
                text, sizeof text, "%.6g",
                std::fpclassify(subnormal->re) == FP_SUBNORMAL ? subnormal->re : subnormal->im);
            warnings.push_back(file_ + ":" + std::to_string(subnormal->line) + ": value " + text +
                               " at " + position(*subnormal) +
                               " underflows the normal double range (a subnormal, with fewer "
                               "significant digits; scale the matrix to keep them)");
        }
    }
    if (field_ == ValueField::real &&
        std::all_of(entries_.begin(), entries_.end(), [](const Entry& e) {
            // Strictly below 2^53: a rounded integer token (2^53 + 1 → 2^53) must not pass.
            return std::nearbyint(e.re) == e.re && std::fabs(e.re) < kExactDoubleLimit;
        })) {
        for (Entry& e : entries_) {
            e.integer = static_cast<std::int64_t>(e.re);
        }
        if (!entries_.empty()) {
            // The reader does not know the precision asked for: --precision double still
            // counts in double.
            warnings.push_back(file_ + ": every value is an integer; read as integers (the " +
                               "default precision computes the exact integer " + problem + ")");
        }
        return ValueField::integer;
    }
    return field_;
}

Input EntryCollector::finish(vertex_t rows, vertex_t cols, bool directed, InputFormat format,
                             std::vector<std::string> warnings) {
    std::optional<Kept> kept = keep_occurring(rows, cols, directed && rows == cols, format);
    Input input;
    if (kept) {
        rows = static_cast<vertex_t>(kept->row_labels.size());
        cols = static_cast<vertex_t>(kept->col_labels.size());
        input.left_ids = std::move(kept->row_labels);
        input.right_ids = std::move(kept->col_labels);
        input.isolated = std::move(kept->isolated);
    }
    combine_duplicates(warnings);
    input.source = file_;
    input.format = format;
    input.directed = directed;
    const ValueField field = settle_field(warnings, "permanent");
    input.warnings = std::move(warnings);

    switch (field) {
        case ValueField::none: {
            std::vector<BipartiteGraph::Edge> edges;
            edges.reserve(entries_.size());
            for (const Entry& e : entries_) {
                edges.emplace_back(e.row, e.col);
            }
            if (directed && rows == cols) {
                input.data = Digraph(rows, std::move(edges));
            } else {
                input.data = BipartiteGraph(rows, cols, std::move(edges));
            }
            break;
        }
        case ValueField::integer:
            input.data = matrix_of<std::int64_t>(entries_, rows, cols);
            break;
        case ValueField::real:
            input.data = matrix_of<double>(entries_, rows, cols);
            break;
        case ValueField::complex:
            input.data = matrix_of<std::complex<double>>(entries_, rows, cols);
            break;
    }
    return input;
}

Input EntryCollector::finish_symmetric(vertex_t n, InputFormat format,
                                       std::vector<std::string> warnings) {
    Input input;
    if (std::optional<Kept> kept = keep_occurring(n, n, true, format)) {
        n = static_cast<vertex_t>(kept->row_labels.size());
        input.left_ids = std::move(kept->row_labels);
        input.right_ids = std::move(kept->col_labels);
        input.isolated = std::move(kept->isolated);
    }
    combine_duplicates(warnings);  // sorts by (row, col)
    auto mirror_of = [this](const Entry& e) -> const Entry* {
        Entry key = e;
        std::swap(key.row, key.col);
        const auto found = std::lower_bound(entries_.begin(), entries_.end(), key, by_position);
        return found != entries_.end() && found->row == key.row && found->col == key.col ? &*found
                                                                                         : nullptr;
    };
    std::int64_t diagonal = 0, first_diagonal_line = 0;
    std::vector<Entry> off_diagonal;
    off_diagonal.reserve(entries_.size());
    for (const Entry& e : entries_) {
        if (e.row == e.col && options_.loops) {
            off_diagonal.push_back(e);  // a loop: the loop hafnian's weight of e.row alone
            continue;
        }
        if (e.row == e.col) {
            if (field_ == ValueField::none) {
                fail({file_, e.line}, "self-loop at vertex " + std::to_string(e.shown_row) +
                                          ": no perfect matching can use it (remove the "
                                          "diagonal entry)");
            }
            const bool zero =
                field_ == ValueField::integer ? e.integer == 0 : (e.re == 0 && e.im == 0);
            if (!zero && diagonal++ == 0) {
                first_diagonal_line = e.line;
            }
            continue;
        }
        const Entry* mirror = mirror_of(e);
        if (mirror == nullptr) {
            fail({file_, e.line}, "not symmetric: entry " + position(e) + " has no mirror entry (" +
                                      std::to_string(e.shown_col) + ", " +
                                      std::to_string(e.shown_row) +
                                      "); a hafnian needs a symmetric matrix");
        }
        const bool equal = field_ == ValueField::integer
                               ? mirror->integer == e.integer
                               : (mirror->re == e.re && mirror->im == e.im);
        if (!equal && e.row < e.col) {
            auto value = [this](const Entry& x) {
                char text[64];
                if (field_ == ValueField::integer) {
                    return std::to_string(x.integer);
                }
                if (field_ == ValueField::complex) {
                    std::snprintf(text, sizeof text, "%.17g%+.17gi", x.re, x.im);
                } else {
                    std::snprintf(text, sizeof text, "%.17g", x.re);
                }
                return std::string(text);
            };
            fail({file_, e.line}, "not symmetric: entry " + position(e) + " is " + value(e) +
                                      " but its mirror " + position(*mirror) + " on line " +
                                      std::to_string(mirror->line) + " is " + value(*mirror) +
                                      "; a hafnian needs a symmetric matrix");
        }
        off_diagonal.push_back(e);
    }
    if (diagonal > 0) {
        warnings.push_back(file_ + ":" + std::to_string(first_diagonal_line) + ": " +
                           std::to_string(diagonal) + " nonzero diagonal entr" +
                           (diagonal == 1 ? "y" : "ies") +
                           " ignored: the hafnian pairs distinct vertices (the loop hafnian "
                           "would use them)");
    }
    entries_ = std::move(off_diagonal);
    input.source = file_;
    input.format = format;
    ValueField field = settle_field(warnings, "hafnian");
    input.warnings = std::move(warnings);
    input.loops = options_.loops;
    if (field == ValueField::none && options_.loops) {
        for (Entry& e : entries_) {  // a pattern's edges and loops weigh 1
            e.integer = 1;
        }
        field = ValueField::integer;
    }
    switch (field) {
        case ValueField::none: {
            std::vector<UndirectedGraph::Edge> edges;
            for (const Entry& e : entries_) {
                if (e.row < e.col) {
                    edges.emplace_back(e.row, e.col);
                }
            }
            input.data = UndirectedGraph(n, std::move(edges));
            return input;
        }
        case ValueField::integer:
            input.data = matrix_of<std::int64_t>(entries_, n, n);
            break;
        case ValueField::real:
            input.data = matrix_of<double>(entries_, n, n);
            break;
        case ValueField::complex:
            input.data = matrix_of<std::complex<double>>(entries_, n, n);
            break;
    }
    input.hafnian = true;
    return input;
}

}  // namespace pmcount::io
