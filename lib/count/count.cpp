// The public counting entry points: validate, settle trivial cases (unequal sides, empty lines,
// the empty matrix), choose engine and arithmetic, run, and fill CountResult.
#include "pmcount/count.hpp"

#include <chrono>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>

#include "exact/brute_force.hpp"
#include "exact/chunked_run.hpp"
#include "exact/ryser.hpp"
#include "exact/ryser_kernel.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"

namespace pmcount {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct NamedMethod {
    Method method;
    const char* name;
};
constexpr NamedMethod kMethods[] = {
    {Method::automatic, "auto"}, {Method::brute_force, "brute-force"}, {Method::ryser, "ryser"}};

struct NamedPrecision {
    Precision precision;
    const char* name;
};
constexpr NamedPrecision kPrecisions[] = {{Precision::automatic, "auto"},
                                          {Precision::exact, "exact"},
                                          {Precision::double_precision, "double"},
                                          {Precision::double_double, "dd"}};

template <class Table, class Value>
Value parse_name(const Table& table, std::string_view name, const char* what) {
    std::string accepted;
    for (const auto& entry : table) {
        if (name == entry.name) {
            if constexpr (std::is_same_v<Value, Method>) {
                return entry.method;
            } else {
                return entry.precision;
            }
        }
        accepted += accepted.empty() ? "" : ", ";
        accepted += entry.name;
    }
    throw InvalidArgument("unknown " + std::string(what) + " '" + std::string(name) +
                          "' (expected one of: " + accepted + ")");
}

exact::EngineRun engine_run(const CountOptions& options) {
    return {options.threads, options.progress, options.progress_interval_s};
}

/// The trivial results: an exact integer known without running an engine.
CountResult exact_result(ValueKind kind, const BigInt& value, std::string note) {
    CountResult r;
    r.kind = kind;
    r.is_exact = true;
    r.exact = value;
    r.value = value.to_double();
    r.complex_value = r.value;
    r.log10_abs = value.log10_abs();
    r.sign = value.sign();
    r.method = "none";
    r.backend = "cpu";
    r.arithmetic = "none";
    r.note = std::move(note);
    return r;
}

/// Zero (with the reason) when the shape or an empty line rules out every perfect matching.
/// `line_sizes(bool rows)` returns the number of entries of each row / column.
template <class LineSizes>
std::optional<CountResult> structural_zero(ValueKind kind, vertex_t rows, vertex_t cols,
                                           LineSizes line_sizes, const char* row_name,
                                           const char* col_name) {
    if (rows != cols) {
        return exact_result(kind, 0,
                            "the " + std::string(row_name) + " side has " + std::to_string(rows) +
                                " vertices and the " + col_name + " side " +
                                std::to_string(cols) + ": no perfect matching, count is 0");
    }
    for (const bool by_row : {true, false}) {
        const std::vector<edge_t> sizes = line_sizes(by_row);
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (sizes[i] == 0) {
                return exact_result(kind, 0,
                                    std::string(by_row ? row_name : col_name) + " " +
                                        std::to_string(i) +
                                        " has no entries: no perfect matching, count is 0");
            }
        }
    }
    return std::nullopt;
}

void check_dense_order(vertex_t n, Method method) {
    const int limit =
        method == Method::brute_force ? exact::kMaxBruteForceOrder : exact::kMaxRyserOrder;
    if (n > limit) {
        throw ProblemTooLarge(
            "order " + std::to_string(n) + " is too large for exact " +
            (method == Method::brute_force ? std::string("brute force") : std::string("Ryser")) +
            " (limit " + std::to_string(limit) + "; Ryser would need 2^" + std::to_string(n - 1) +
            " steps). Exact counting of general graphs this large is out of reach; graphs with "
            "structure (reducible, planar, small bandwidth) and estimators come with later engines");
    }
}

bool is_binary(const DenseMatrix<std::int64_t>& a) {
    return std::all_of(a.data().begin(), a.data().end(),
                       [](std::int64_t v) { return v == 0 || v == 1; });
}

void fill_float(CountResult& r, const exact::FloatOutcome& out) {
    const int e = static_cast<int>(std::clamp<std::int64_t>(out.exponent2, -100000, 100000));
    r.is_exact = false;
    r.complex_value = {std::ldexp(out.mantissa.real(), e), std::ldexp(out.mantissa.imag(), e)};
    r.value = r.complex_value.real();
    const double magnitude = std::abs(out.mantissa);
    r.log10_abs = magnitude == 0 ? -std::numeric_limits<double>::infinity()
                                 : std::log10(magnitude) + static_cast<double>(out.exponent2) *
                                                               std::log10(2.0);
    r.sign = out.mantissa.real() > 0 ? 1 : (out.mantissa.real() < 0 ? -1 : 0);
    r.abs_error = std::ldexp(out.abs_error_mantissa, e);
    r.rel_error = magnitude == 0 ? (out.abs_error_mantissa == 0 ? 0.0
                                                                 : std::numeric_limits<double>::infinity())
                                 : out.abs_error_mantissa / magnitude;
    r.arithmetic = out.arithmetic;
    r.stats.gray_steps = out.gray_steps;
}

/// Runs the chosen engine on a dense square matrix of order ≤ the engine limit.
template <class T>
void run_dense(const DenseMatrix<T>& a, bool binary, const CountOptions& options,
               CountResult& r) {
    const vertex_t n = a.rows();
    const Method method = options.method == Method::automatic ? Method::ryser : options.method;
    check_dense_order(n, method);
    Precision precision = options.precision;
    constexpr bool integral = std::is_same_v<T, std::int64_t>;
    if (precision == Precision::automatic) {
        precision = integral ? Precision::exact : Precision::double_precision;
    }
    if (precision == Precision::exact && !integral) {
        throw InvalidArgument("exact arithmetic needs integer entries; this matrix is " +
                              std::string(to_string(r.kind)) + " (use --precision double or dd)");
    }
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        if (precision == Precision::double_double) {
            throw InvalidArgument("--precision dd is available for real and integer matrices only");
        }
    }
    r.method = method == Method::brute_force ? "brute-force" : "ryser";
    r.backend = "cpu";
    r.stats.threads = method == Method::brute_force ? 1 : exact::resolve_threads(options.threads);

    if (method == Method::brute_force) {
        if constexpr (integral) {
            if (precision == Precision::exact) {
                r.exact = exact::brute_force_exact(a);
                r.is_exact = true;
                r.arithmetic = "exact integers";
                return;
            }
        }
        exact::FloatOutcome out;
        if constexpr (std::is_same_v<T, std::complex<double>>) {
            out.mantissa = exact::brute_force(a);
        } else {
            DenseMatrix<double> real(n, n);
            for (vertex_t i = 0; i < n; ++i) {
                for (vertex_t j = 0; j < n; ++j) {
                    real(i, j) = static_cast<double>(a(i, j));
                }
            }
            out.mantissa = exact::brute_force(real);
        }
        // Double-double products and sums, rounded once to double.
        out.abs_error_mantissa = 0x1p-53 * std::abs(out.mantissa);
        out.arithmetic = "double-double";
        fill_float(r, out);
        return;
    }

    const exact::EngineRun run = engine_run(options);
    if constexpr (integral) {
        if (precision == Precision::exact) {
            exact::ExactOutcome out = exact::ryser_exact(a, binary, run);
            r.exact = std::move(out.value);
            r.is_exact = true;
            r.arithmetic = out.arithmetic;
            r.stats.primes = out.primes;
            r.stats.gray_steps = out.gray_steps;
            return;
        }
    }
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        fill_float(r, exact::ryser_complex(a, run));
    } else {
        DenseMatrix<double> real(n, n);
        for (vertex_t i = 0; i < n; ++i) {
            for (vertex_t j = 0; j < n; ++j) {
                real(i, j) = static_cast<double>(a(i, j));
            }
        }
        fill_float(r, exact::ryser_real(real, precision, run));
    }
}

/// Common driver: trivial cases, then the dense engine on the matrix `make_dense()` builds.
template <class T, class MakeDense, class LineSizes>
CountResult count_matrix(ValueKind kind, vertex_t rows, vertex_t cols, edge_t nnz,
                         MakeDense make_dense, LineSizes line_sizes, const char* row_name,
                         const char* col_name, const CountOptions& options) {
    const auto start = Clock::now();
    if (auto zero = structural_zero(kind, rows, cols, line_sizes, row_name, col_name)) {
        zero->stats.n = rows;
        zero->stats.nnz = nnz;
        zero->timings.total_s = seconds_since(start);
        return *zero;
    }
    CountResult r;
    r.kind = kind;
    r.stats.n = rows;
    r.stats.nnz = nnz;
    if (rows == 0) {
        r = exact_result(kind, 1, "the empty matrix has permanent 1");
        r.timings.total_s = seconds_since(start);
        return r;
    }
    check_dense_order(rows, options.method == Method::automatic ? Method::ryser : options.method);
    const DenseMatrix<T> dense = make_dense();
    bool binary = kind == ValueKind::binary;
    if constexpr (std::is_same_v<T, std::int64_t>) {
        binary = binary || is_binary(dense);
    }
    r.timings.preprocess_s = seconds_since(start);
    const auto engine_start = Clock::now();
    run_dense(dense, binary, options, r);
    r.timings.count_s = seconds_since(engine_start);
    r.timings.total_s = seconds_since(start);
    if (r.is_exact) {
        r.value = r.exact.to_double();
        r.complex_value = r.value;
        r.log10_abs = r.exact.log10_abs();
        r.sign = r.exact.sign();
    }
    return r;
}

std::vector<edge_t> graph_line_sizes(const BipartiteGraph& g, bool left) {
    const std::vector<edge_t>& offsets = left ? g.left_offsets() : g.right_offsets();
    std::vector<edge_t> sizes(offsets.size() - 1);
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
        sizes[i] = offsets[i + 1] - offsets[i];
    }
    return sizes;
}

template <class T>
std::vector<edge_t> matrix_line_sizes(const SparseMatrix<T>& m, bool rows) {
    const std::vector<edge_t>& offsets = rows ? m.row_offsets() : m.col_offsets();
    const std::vector<edge_t>& positions = rows ? std::vector<edge_t>{} : m.csc_to_csr();
    std::vector<edge_t> sizes(offsets.size() - 1, 0);
    // Count entries that are nonzero (stored zeros do not help a matching).
    for (std::size_t i = 0; i + 1 < offsets.size(); ++i) {
        for (edge_t k = offsets[i]; k < offsets[i + 1]; ++k) {
            const edge_t csr = rows ? k : positions[static_cast<std::size_t>(k)];
            sizes[i] += m.values()[static_cast<std::size_t>(csr)] != T{} ? 1 : 0;
        }
    }
    return sizes;
}

template <class T>
ValueKind kind_of() {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return ValueKind::integer;
    } else if constexpr (std::is_same_v<T, double>) {
        return ValueKind::real;
    } else {
        return ValueKind::complex;
    }
}

CountResult count_graph(const BipartiteGraph& g, const CountOptions& options, const char* left,
                        const char* right) {
    return count_matrix<std::int64_t>(
        ValueKind::binary, g.n_left(), g.n_right(), g.num_edges(),
        [&] { return biadjacency_matrix(g); },
        [&](bool by_left) { return graph_line_sizes(g, by_left); }, left, right, options);
}

}  // namespace

const char* to_string(Method method) noexcept {
    for (const auto& entry : kMethods) {
        if (entry.method == method) {
            return entry.name;
        }
    }
    return "unknown";
}

const char* to_string(Precision precision) noexcept {
    for (const auto& entry : kPrecisions) {
        if (entry.precision == precision) {
            return entry.name;
        }
    }
    return "unknown";
}

Method method_from_string(std::string_view name) {
    return parse_name<decltype(kMethods), Method>(kMethods, name, "method");
}

Precision precision_from_string(std::string_view name) {
    return parse_name<decltype(kPrecisions), Precision>(kPrecisions, name, "precision");
}

std::string CountResult::value_string() const {
    if (is_exact) {
        return exact.to_string();
    }
    auto format = [](double v) {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "%.17g", v);
        return std::string(buffer);
    };
    if (std::isfinite(value) && std::isfinite(complex_value.imag())) {
        if (kind != ValueKind::complex) {
            return format(value);
        }
        const double im = complex_value.imag();
        return format(value) + (std::signbit(im) ? "-" : "+") + format(std::fabs(im)) + "i";
    }
    // Beyond double range: mantissa and decimal exponent from log10 |value|.
    const double exponent = std::floor(log10_abs);
    char buffer[96];
    std::snprintf(buffer, sizeof buffer, "%s%.15fe+%.0f", sign < 0 ? "-" : "",
                  std::pow(10.0, log10_abs - exponent), exponent);
    return buffer;
}

CountResult count_perfect_matchings(const BipartiteGraph& graph, const CountOptions& options) {
    return count_graph(graph, options, "left vertex", "right vertex");
}

CountResult count_cycle_covers(const Digraph& graph, const CountOptions& options) {
    return count_graph(graph.as_bipartite(), options, "vertex (out-arcs)", "vertex (in-arcs)");
}

template <class T>
CountResult permanent(const SparseMatrix<T>& matrix, const CountOptions& options) {
    return count_matrix<T>(
        kind_of<T>(), matrix.rows(), matrix.cols(), matrix.nnz(),
        [&] { return matrix.to_dense(); },
        [&](bool rows) { return matrix_line_sizes(matrix, rows); }, "row", "column", options);
}

template <class T>
CountResult permanent(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return permanent(SparseMatrix<T>(matrix), options);
}

CountResult count(const Input& input, const CountOptions& options) {
    return std::visit(
        [&](const auto& data) -> CountResult {
            using D = std::decay_t<decltype(data)>;
            if constexpr (std::is_same_v<D, BipartiteGraph>) {
                return count_perfect_matchings(data, options);
            } else if constexpr (std::is_same_v<D, Digraph>) {
                return count_cycle_covers(data, options);
            } else {
                return permanent(data, options);
            }
        },
        input.data);
}

template CountResult permanent(const SparseMatrix<std::int64_t>&, const CountOptions&);
template CountResult permanent(const SparseMatrix<double>&, const CountOptions&);
template CountResult permanent(const SparseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<std::int64_t>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<double>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<std::complex<double>>&, const CountOptions&);

}  // namespace pmcount
