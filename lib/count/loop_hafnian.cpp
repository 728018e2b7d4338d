// The loop hafnian's entry point (pmcount/count.hpp): the matrix checked, split into the connected
// components of its off-diagonal entries (the loop hafnian of a block-diagonal matrix is the
// product of its blocks'), each block counted by the hafnian engine's recursion with loops
// (exact/hafnian/hafnian.hpp), the values multiplied. A one-vertex block is its loop.
//
// Phases: (1) validate (square, symmetric, the options this problem has); (2) components by
// union–find over the nonzero off-diagonal entries; (3) each block in the resolved arithmetic,
// the default precision of a real matrix counted again in double-double (or exactly, for integer
// values) when the double figure shows cancellation, as other counts are (pipeline.hpp);
// (4) the product, with the floating blocks' errors carried through it.
#include <algorithm>
#include <cmath>
#include <complex>
#include <numeric>
#include <string>
#include <type_traits>
#include <vector>

#include "core/clock.hpp"
#include "core/stop.hpp"
#include "count/pipeline.hpp"
#include "exact/brute_force.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "numeric/scaled.hpp"
#include "plan/floating_result.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"

namespace pmcount {

namespace {

using detail::Clock;
using detail::seconds_since;
using numeric::Scaled;

template <class T>
ValueKind kind_of(const SparseMatrix<T>& a) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        const auto& v = a.values();
        return std::all_of(v.begin(), v.end(), [](std::int64_t x) { return x == 0 || x == 1; })
                   ? ValueKind::binary
                   : ValueKind::integer;
    } else if constexpr (std::is_same_v<T, double>) {
        return ValueKind::real;
    } else {
        return ValueKind::complex;
    }
}

template <class T>
void check_loop_hafnian(const SparseMatrix<T>& a, const CountOptions& options) {
    counting::check_symmetric(a, "a loop hafnian");
    if (options.method != Method::automatic && options.method != Method::hafnian &&
        options.method != Method::brute_force) {
        throw InvalidArgument(std::string("the loop hafnian is counted by the hafnian engine's "
                                          "recursion with loops (or brute force), not by method ") +
                              to_string(options.method));
    }
    if (options.backend == Backend::cuda) {
        throw InvalidArgument("the loop hafnian runs on CPU threads (no GPU engine for it yet)");
    }
    if (options.precision == Precision::certified) {
        throw InvalidArgument(
            "the loop hafnian has exact, double and double-double arithmetics, not certified");
    }
}

template <class T>
DenseMatrix<T> block_matrix(const SparseMatrix<T>& a, const std::vector<vertex_t>& vertices) {
    const auto k = static_cast<vertex_t>(vertices.size());
    DenseMatrix<T> b(k, k, T{});
    for (vertex_t i = 0; i < k; ++i) {
        for (vertex_t j = 0; j < k; ++j) {
            b(i, j) =
                a.at(vertices[static_cast<std::size_t>(i)], vertices[static_cast<std::size_t>(j)]);
        }
    }
    return b;
}

/// One block's value: exact, or value ± error as Scaled.
struct BlockValue {
    BigInt exact;
    Scaled value;
    Scaled error;
    std::string arithmetic;
    int primes = 0;
    std::uint64_t leaves = 0;
};

BlockValue float_block(const exact::FloatOutcome& r) {
    BlockValue out;
    out.value = Scaled::from(r.mantissa, r.exponent2);
    out.error = Scaled::from(r.abs_error_mantissa, r.exponent2);
    out.arithmetic = r.arithmetic;
    out.leaves = r.gray_steps;
    return out;
}

template <class T>
BlockValue block_value(const DenseMatrix<T>& b, Precision precision, bool brute_force,
                       const run::EngineRun& run) {
    BlockValue out;
    if (brute_force) {  // the oracle: a sum over the loop matchings (order ≤ 16)
        out.arithmetic = std::is_same_v<T, std::int64_t> ? "exact integers" : "double-double";
        if constexpr (std::is_same_v<T, std::int64_t>) {
            out.exact = exact::loop_hafnian_brute_force_exact(b);
        } else {
            out.value = Scaled::from(std::complex<double>(exact::loop_hafnian_brute_force(b)));
            // Products and sums in double-double, rounded once to double.
            out.error = Scaled::from(0x1p-53 * std::abs(out.value.value()));
        }
        return out;
    }
    if constexpr (std::is_same_v<T, std::int64_t>) {
        const exact::ExactOutcome r = exact::loop_hafnian_exact(b, run);
        out.exact = r.value;
        out.arithmetic = r.arithmetic;
        out.primes = r.primes;
        out.leaves = r.gray_steps;
    } else {
        out = float_block([&] {
            if constexpr (std::is_same_v<T, double>) {
                return exact::loop_hafnian_real(b, precision, run);
            } else {
                return exact::loop_hafnian_complex(b, run);
            }
        }());
    }
    return out;
}

/// Every block's value from value_of(k, vertices) (k counting the blocks of two vertices or
/// more in order), multiplied. Floating: for factors v_k with |v_k − t_k| ≤ e_k,
/// |Π v_k − Π t_k| ≤ Π (|v_k| + e_k) − Π |v_k|, and each of the products' roundings adds at most
/// u·|product|, so (k − 1)·1.01·u·|Π v_k| covers them.
template <class T, class ValueOf>
CountResult product_of_blocks(ValueKind kind, const SparseMatrix<T>& a,
                              const std::vector<std::vector<vertex_t>>& blocks, Precision precision,
                              const CountOptions& options, ValueOf value_of) {
    CountResult r;
    r.kind = kind;
    r.method = options.method == Method::brute_force ? "brute-force" : "loop-hafnian";
    r.backend = "cpu";
    r.structure.general = true;
    BigInt exact = 1;
    Scaled value = Scaled::from(1.0), upper = Scaled::from(1.0);
    int engines = 0;
    for (const auto& vertices : blocks) {
        if (vertices.size() == 1) {  // a vertex alone takes its loop
            const T loop = a.at(vertices[0], vertices[0]);
            if constexpr (std::is_same_v<T, std::int64_t>) {
                exact *= BigInt(loop);
            } else {
                value = value * Scaled::from(std::complex<double>(loop));
                upper = upper * Scaled::from(std::abs(loop));
            }
            continue;
        }
        const BlockValue b = value_of(static_cast<std::size_t>(engines), vertices);
        ++engines;
        r.stats.primes = std::max(r.stats.primes, b.primes);
        r.stats.gray_steps += b.leaves;
        if (r.arithmetic.find(b.arithmetic) == std::string::npos) {
            r.arithmetic = r.arithmetic.empty() ? b.arithmetic : r.arithmetic + "; " + b.arithmetic;
        }
        if constexpr (std::is_same_v<T, std::int64_t>) {
            exact *= b.exact;
        } else {
            value = value * b.value;
            upper = upper * (b.value.magnitude() + b.error);
        }
    }
    if (engines == 0) {
        r.method = "none";
        r.arithmetic = "none";
    }
    if constexpr (std::is_same_v<T, std::int64_t>) {
        CountResult e = counting::exact_result(kind, exact, "");
        e.method = r.method;
        e.arithmetic = r.arithmetic;
        e.stats = r.stats;
        e.structure = r.structure;
        r = std::move(e);
    } else {
        const Scaled magnitude = value.magnitude();
        Scaled error = upper + Scaled::from(-magnitude.mantissa, magnitude.exponent);
        if (error.mantissa.real() < 0) {
            error = Scaled{};
        }
        const double rounding = 1.01 * static_cast<double>(blocks.size()) * 0x1p-53;
        error = error + Scaled::from(magnitude.mantissa * rounding, magnitude.exponent);
        // The bound's own subtraction: Π(|v| + e) rounded up by the same relative amount.
        error = error + Scaled::from(upper.mantissa * rounding, upper.exponent);
        plan::set_floating_result(r, value, error);
        r.error_kind = precision == Precision::double_double ? "bound" : "estimate";
    }
    return r;
}

/// The blocks' product, each block counted by its engine.
template <class T>
CountResult product_of_blocks(ValueKind kind, const SparseMatrix<T>& a,
                              const std::vector<std::vector<vertex_t>>& blocks, Precision precision,
                              const CountOptions& options) {
    const run::EngineRun run = counting::engine_run(options);
    return product_of_blocks(kind, a, blocks, precision, options, [&](std::size_t, const auto& v) {
        return block_value(block_matrix(a, v), precision, options.method == Method::brute_force,
                           run);
    });
}

/// The block structure as --explain prints it.
std::string plan_text(vertex_t n, const std::vector<std::vector<vertex_t>>& blocks) {
    std::vector<std::size_t> orders;
    for (const auto& b : blocks) {
        orders.push_back(b.size());
    }
    std::sort(orders.rbegin(), orders.rend());
    std::string text = "loop hafnian of order " + std::to_string(n) + ": " +
                       std::to_string(blocks.size()) + " block" + (blocks.size() == 1 ? "" : "s") +
                       " (connected components of the off-diagonal entries)\n";
    for (std::size_t i = 0; i < orders.size() && i < 8; ++i) {
        const std::size_t k = orders[i] + orders[i] % 2;  // an odd block gets a unit loop
        text += "  block of order " + std::to_string(orders[i]) +
                (orders[i] == 1 ? ": its loop\n"
                                : ": loop-hafnian recursion over " + std::to_string(k / 2) +
                                      " vertex pairs (2^" + std::to_string(k / 2) + " leaves)\n");
    }
    if (orders.size() > 8) {
        text += "  ... " + std::to_string(orders.size() - 8) + " more block(s)\n";
    }
    return text;
}

template <class T>
CountResult loop_hafnian_unguarded(const SparseMatrix<T>& a, const CountOptions& options) {
    const Clock::time_point start = Clock::now();
    check_loop_hafnian(a, options);
    const ValueKind kind = kind_of(a);
    const Precision precision = counting::resolve_precision<T>(options.precision, kind);
    const auto blocks = counting::connected_blocks(a);
    const double preprocess_s = seconds_since(start);
    CountResult r;
    if (options.explain_only) {
        r.kind = kind;
        r.method = "loop-hafnian";
        r.explained_only = true;
        r.structure.plan_text = plan_text(a.rows(), blocks);
    } else {
        r = product_of_blocks(kind, a, blocks, precision, options);
        if constexpr (std::is_same_v<T, double>) {
            if (options.precision == Precision::automatic &&
                r.rel_error > counting::kCancellationRelError) {
                // The default precision's answer to cancellation: exactly when every entry is an
                // integer, else in double-double.
                const auto& v = a.values();
                const bool integral = std::all_of(v.begin(), v.end(), [](double x) {
                    return std::nearbyint(x) == x && std::fabs(x) < 0x1p62;
                });
                CountResult again;
                if (integral) {
                    std::vector<Triplet<std::int64_t>> entries;
                    for (const auto& t : a.triplets()) {
                        entries.push_back({t.row, t.col, static_cast<std::int64_t>(t.value)});
                    }
                    const SparseMatrix<std::int64_t> b(a.rows(), a.cols(), std::move(entries));
                    again = product_of_blocks(kind, b, counting::connected_blocks(b),
                                              Precision::exact, options);
                } else {
                    again = product_of_blocks(kind, a, blocks, Precision::double_double, options);
                }
                again.kind = kind;
                again.escalated_from = "double";
                again.note = counting::noted(
                    again.note, "the double result's figure (" + std::to_string(r.rel_error) +
                                    " of the value) showed cancellation: counted again in " +
                                    (integral ? "exact integers" : "double-double"));
                r = std::move(again);
            }
        }
    }
    r.stats.n = a.rows();
    r.stats.nnz = a.nnz();
    r.stats.threads = run::resolve_threads(options.threads);
    r.timings.preprocess_s = preprocess_s;
    r.timings.total_s = seconds_since(start);
    r.timings.count_s = r.timings.total_s - preprocess_s;
    return r;
}

}  // namespace

std::vector<CountResult> counting::complex_loop_hafnian_batch(
    const std::vector<DenseMatrix<std::complex<double>>>& matrices, const CountOptions& options) {
    using T = std::complex<double>;
    const Clock::time_point start = Clock::now();
    // Each item validated and split into blocks as alone; every block of two vertices or more
    // then counted in vector lanes with the blocks of the same order (the values bit for bit
    // those of the single engine), and each item's product formed as alone.
    std::vector<SparseMatrix<T>> items;
    std::vector<std::vector<std::vector<vertex_t>>> blocks(matrices.size());
    std::vector<DenseMatrix<T>> block_matrices;
    std::vector<std::size_t> first_block(matrices.size());
    for (std::size_t k = 0; k < matrices.size(); ++k) {
        try {
            items.emplace_back(matrices[k]);
            check_loop_hafnian(items.back(), options);
        } catch (const InvalidArgument& e) {
            throw InvalidArgument("item " + std::to_string(k) + ": " + e.what());
        } catch (const DimensionMismatch& e) {
            throw DimensionMismatch("item " + std::to_string(k) + ": " + e.what());
        }
        blocks[k] = connected_blocks(items.back());
        first_block[k] = block_matrices.size();
        for (const auto& vertices : blocks[k]) {
            if (vertices.size() >= 2) {
                block_matrices.push_back(block_matrix(items.back(), vertices));
            }
        }
    }
    const std::vector<exact::FloatOutcome> values =
        exact::loop_hafnians_complex(block_matrices, engine_run(options));
    const double each_s =
        seconds_since(start) / static_cast<double>(std::max<std::size_t>(1, matrices.size()));
    std::vector<CountResult> results;
    results.reserve(matrices.size());
    for (std::size_t k = 0; k < matrices.size(); ++k) {
        const ValueKind kind = kind_of(items[k]);
        CountResult r = product_of_blocks(
            kind, items[k], blocks[k], resolve_precision<T>(options.precision, kind), options,
            [&](std::size_t b, const auto&) { return float_block(values[first_block[k] + b]); });
        r.stats.n = items[k].rows();
        r.stats.nnz = items[k].nnz();
        r.stats.threads = 1;
        r.timings.total_s = r.timings.count_s = each_s;
        results.push_back(std::move(r));
    }
    return results;
}

template <class T>
CountResult loop_hafnian(const SparseMatrix<T>& matrix, const CountOptions& options) {
    return detail::stop_boundary([&] { return loop_hafnian_unguarded(matrix, options); });
}

template <class T>
CountResult loop_hafnian(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return loop_hafnian(SparseMatrix<T>(matrix), options);
}

template CountResult loop_hafnian(const SparseMatrix<std::int64_t>&, const CountOptions&);
template CountResult loop_hafnian(const SparseMatrix<double>&, const CountOptions&);
template CountResult loop_hafnian(const SparseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult loop_hafnian(const DenseMatrix<std::int64_t>&, const CountOptions&);
template CountResult loop_hafnian(const DenseMatrix<double>&, const CountOptions&);
template CountResult loop_hafnian(const DenseMatrix<std::complex<double>>&, const CountOptions&);

template <class T>
std::vector<std::vector<vertex_t>> counting::connected_blocks(const SparseMatrix<T>& a) {
    std::vector<vertex_t> parent(static_cast<std::size_t>(a.rows()));
    std::iota(parent.begin(), parent.end(), 0);
    const auto root = [&](vertex_t v) {
        while (parent[static_cast<std::size_t>(v)] != v) {
            v = parent[static_cast<std::size_t>(v)] =
                parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(v)])];
        }
        return v;
    };
    for (const auto& t : a.triplets()) {
        if (t.row != t.col && t.value != T{}) {
            const vertex_t x = root(t.row), y = root(t.col);
            parent[static_cast<std::size_t>(std::max(x, y))] = std::min(x, y);
        }
    }
    std::vector<std::vector<vertex_t>> blocks;
    std::vector<int> index(static_cast<std::size_t>(a.rows()), -1);
    for (vertex_t v = 0; v < a.rows(); ++v) {
        int& b = index[static_cast<std::size_t>(root(v))];
        if (b < 0) {
            b = static_cast<int>(blocks.size());
            blocks.emplace_back();
        }
        blocks[static_cast<std::size_t>(b)].push_back(v);
    }
    return blocks;
}

template std::vector<std::vector<vertex_t>> counting::connected_blocks(
    const SparseMatrix<std::int64_t>&);
template std::vector<std::vector<vertex_t>> counting::connected_blocks(const SparseMatrix<double>&);
template std::vector<std::vector<vertex_t>> counting::connected_blocks(
    const SparseMatrix<std::complex<double>>&);

}  // namespace pmcount
