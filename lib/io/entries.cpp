#include "io/entries.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

#include "io/text.hpp"
#include "pmcount/error.hpp"

namespace pmcount::io {

namespace {

std::string position(const Entry& e) {
    return "(" + std::to_string(e.shown_row) + ", " + std::to_string(e.shown_col) + ")";
}

/// Largest magnitude below which every integer is a double.
constexpr double kExactDoubleLimit = 9007199254740992.0;  // 2^53

}  // namespace

EntryCollector::EntryCollector(const std::string& file, ValueField field,
                               const ReadOptions& options)
    : file_(file), field_(options.pattern_only ? ValueField::none : field), options_(options) {}

void EntryCollector::combine_duplicates(std::vector<std::string>& warnings) {
    std::stable_sort(entries_.begin(), entries_.end(), [](const Entry& a, const Entry& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
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
                fail({file_, e.line}, "sum of repeated entry " + position(e) +
                                          " overflows 64-bit integers");
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

Input EntryCollector::finish(vertex_t rows, vertex_t cols, bool directed, InputFormat format,
                             std::vector<std::string> warnings) {
    combine_duplicates(warnings);
    Input input;
    input.source = file_;
    input.format = format;
    input.directed = directed;

    ValueField field = field_;
    if (field == ValueField::real &&
        std::all_of(entries_.begin(), entries_.end(), [](const Entry& e) {
            // Strictly below 2^53: a rounded integer token (2^53 + 1 → 2^53) must not pass.
            return std::nearbyint(e.re) == e.re && std::fabs(e.re) < kExactDoubleLimit;
        })) {
        field = ValueField::integer;
        for (Entry& e : entries_) {
            e.integer = static_cast<std::int64_t>(e.re);
        }
        if (!entries_.empty()) {
            warnings.push_back(file_ + ": every value is an integer; computing the exact integer "
                                       "permanent");
        }
    }
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
        case ValueField::integer: {
            std::vector<Triplet<std::int64_t>> t;
            for (const Entry& e : entries_) {
                t.push_back({e.row, e.col, e.integer});
            }
            input.data = SparseMatrix<std::int64_t>(rows, cols, std::move(t));
            break;
        }
        case ValueField::real: {
            std::vector<Triplet<double>> t;
            for (const Entry& e : entries_) {
                t.push_back({e.row, e.col, e.re});
            }
            input.data = SparseMatrix<double>(rows, cols, std::move(t));
            break;
        }
        case ValueField::complex: {
            std::vector<Triplet<std::complex<double>>> t;
            for (const Entry& e : entries_) {
                t.push_back({e.row, e.col, {e.re, e.im}});
            }
            input.data = SparseMatrix<std::complex<double>>(rows, cols, std::move(t));
            break;
        }
    }
    return input;
}

}  // namespace pmcount::io
