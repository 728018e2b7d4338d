// The permanent of a non-square matrix, through the square extension [A; J] counted by the
// planner and divided by a factorial.
#include <algorithm>
#include <complex>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/memory.hpp"
#include "count/pipeline.hpp"
#include "numeric/cpp_int_bridge.hpp"
#include "numeric/scaled.hpp"
#include "plan/floating_result.hpp"
#include "pmcount/error.hpp"

namespace pmcount::counting {

namespace {

using detail::Clock;
using detail::seconds_since;

/// `r` (the permanent of a matrix) divided by k! (k ≥ 2): exactly for integers; in floating
/// point by 2, 3, ..., k in turn, each quotient rounded once (relative error ≤ u = 2^-53 in
/// every component), so the stated error grows by ≤ 1.01·(k − 1)·u·|quotient|: a bound stays a
/// bound.
void divide_by_factorial(CountResult& r, int k) {
    if (r.explained_only) {
        return;
    }
    if (r.is_exact) {
        numeric::cpp_int factorial = 1;
        for (int j = 2; j <= k; ++j) {
            factorial *= j;
        }
        const numeric::cpp_int value = numeric::to_cpp_int(r.exact);
        if (value % factorial != 0) {
            throw InternalError("the permanent of the square extension, " + r.exact.to_string() +
                                ", is not a multiple of " + std::to_string(k) + "!");
        }
        r.exact = numeric::from_cpp_int(value / factorial);
        r.value = r.exact.to_double();
        r.complex_value = r.value;
        r.log10_abs = r.exact.log10_abs();
        r.sign = r.exact.sign();
        return;
    }
    using numeric::Scaled;
    Scaled value = Scaled::from(r.mantissa, r.exponent2);
    Scaled error = Scaled::from(r.abs_error);
    for (int j = 2; j <= k; ++j) {
        value = Scaled::from(value.mantissa / static_cast<double>(j), value.exponent);
        // Rounded up: two roundings of 2^-53 each are outweighed by the factor 1 + 2^-50.
        error =
            Scaled::from(error.mantissa / static_cast<double>(j) * (1 + 0x1p-50), error.exponent);
    }
    const double rounding = 1.01 * (k - 1) * 0x1p-53;
    error = error + Scaled::from(std::abs(value.mantissa) * rounding, value.exponent);
    plan::set_floating_result(r, value, error);
}

}  // namespace

template <class T>
CountResult rectangular_permanent(ValueKind kind, const SparseMatrix<T>& matrix, vertex_t rows,
                                  vertex_t cols, const CountOptions& options) {
    const auto start = Clock::now();
    const bool transposed = rows > cols;
    const vertex_t m = std::min(rows, cols);
    const vertex_t n = std::max(rows, cols);
    const std::string shape = std::to_string(rows) + "×" + std::to_string(cols);
    const char* short_name = transposed ? "column" : "row";
    const char* long_name = transposed ? "row" : "column";
    // Phase 1: the lines of the longer side with a nonzero entry, numbered in order.
    std::vector<vertex_t> long_index(
        static_cast<std::size_t>(transposed ? matrix.rows() : matrix.cols()), -1);
    std::vector<vertex_t> long_line;  // the inverse: an extension column's line in `matrix`
    std::vector<Triplet<T>> entries;
    entries.reserve(static_cast<std::size_t>(matrix.nnz()));
    for (const auto& t : matrix.triplets()) {
        if (t.value == T{}) {
            continue;
        }
        const vertex_t line = transposed ? t.row : t.col;
        vertex_t& index = long_index[static_cast<std::size_t>(line)];
        if (index < 0) {
            index = 0;  // numbered below, in order
        }
        entries.push_back({transposed ? t.col : t.row, line, t.value});
    }
    for (std::size_t line = 0; line < long_index.size(); ++line) {
        if (long_index[line] == 0) {
            long_index[line] = static_cast<vertex_t>(long_line.size());
            long_line.push_back(static_cast<vertex_t>(line));
        }
    }
    const auto used = static_cast<vertex_t>(long_line.size());
    std::string how = "the permanent of the " + shape + " matrix is " +
                      (transposed ? "that of its transpose, " : "");
    if (m > 0 && used < m) {
        CountResult r =
            exact_result(kind, 0,
                         how + "0: only " + std::to_string(used) + " " + long_name +
                             "(s) have a nonzero entry, fewer than the " + std::to_string(m) + " " +
                             short_name + "s, so every injective map meets a zero");
        r.stats.n = n;
        r.stats.nnz = matrix.nnz();
        r.timings.total_s = seconds_since(start);
        return r;
    }
    const vertex_t order = m > 0 ? used : 0;
    const std::string k = std::to_string(order - m);
    const std::string dropped =
        used < n ? "dropping the " + std::to_string(n - used) + " zero " + long_name + "(s)" : "";
    const std::string appended = order > m
                                     ? "appending " + k + (order - m == 1 ? " row" : " rows") +
                                           " of ones, divided by " + k + "!"
                                     : "";
    how += m == 0 ? "1 (the empty map of no " + std::string(short_name) + "s)"
                  : "that of the " + std::to_string(order) + "×" + std::to_string(order) +
                        " matrix made by " + dropped +
                        (dropped.empty() || appended.empty() ? "" : " and ") + appended;
    // Phase 2: the square extension [A; J], its permanent, and the division.
    if (m == 0) {
        entries.clear();
    } else {
        detail::require_memory(
            (static_cast<double>(entries.size()) + static_cast<double>(order - m) * order) *
                sizeof(Triplet<T>) * 4,
            options.max_memory, "the square extension of the " + shape + " matrix needs", how);
        for (Triplet<T>& t : entries) {
            t.col = long_index[static_cast<std::size_t>(t.col)];
        }
        entries.reserve(entries.size() +
                        static_cast<std::size_t>(order - m) * static_cast<std::size_t>(order));
        for (vertex_t row = m; row < order; ++row) {
            for (vertex_t col = 0; col < order; ++col) {
                entries.push_back({row, col, T{1}});
            }
        }
    }
    CountResult r = count_matrix(kind, SparseMatrix<T>(order, order, std::move(entries)),
                                 plan::Problem::permanent, short_name, long_name, options);
    if (m > 0) {
        divide_by_factorial(r, order - m);
    }
    if (transposed) {
        // The extension's rows are the matrix's columns: a Hall witness would name the wrong
        // lines (the note says it in words).
        r.structure.hall_rows.clear();
        r.structure.hall_cols.clear();
    } else {
        for (vertex_t& col : r.structure.hall_cols) {
            col = long_line[static_cast<std::size_t>(col)];
        }
    }
    r.stats.n = std::max(r.stats.n, order);
    r.note = r.note.empty() || m == 0 ? how : how + "; " + r.note;
    return r;
}

template CountResult rectangular_permanent(ValueKind, const SparseMatrix<std::int64_t>&, vertex_t,
                                           vertex_t, const CountOptions&);
template CountResult rectangular_permanent(ValueKind, const SparseMatrix<double>&, vertex_t,
                                           vertex_t, const CountOptions&);
template CountResult rectangular_permanent(ValueKind, const SparseMatrix<std::complex<double>>&,
                                           vertex_t, vertex_t, const CountOptions&);

}  // namespace pmcount::counting
