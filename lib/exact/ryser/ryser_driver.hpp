// The kernel-independent half of the Ryser engines: choice of arithmetic (exact lanes, modular,
// double, double-double, complex), prime selection from a proven bound plus a spare, CRT with
// the spare's check, row scaling, and the assembly of perm(A) = (−1)^(n−1) Σ / 2^(n−1) with its
// error estimate. A Kernel walks the Gray code over tables it builds from entry(i, j) = 2·a_ij
// and start(i) = y_i(∅) (see ryser_kernel.hpp for the formula):
//
//   struct Kernel {
//       static constexpr const char* name;
//       template <class Arith, int W, class Entry, class Start>
//       typename Arith::Acc run(const Arith&, vertex_t n, const std::vector<int>& slot_row,
//                               typename Arith::Elem one, Entry entry, Start start,
//                               const run::EngineRun&) const;
//   };
//
// slot_row maps each of the W padded slots to a row (−1: padding, y = one, no entries). Dense
// Ryser (ryser.cpp) and the sparse engines (sparse_ryser.cpp) are the two kernels.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_arithmetic.hpp"
#include "exact/ryser/ryser_kernel.hpp"
#include "exact/ryser/walk_error.hpp"
#include "numeric/crt.hpp"
#include "numeric/permanent_bound.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact::driver {

using numeric::int128_t;
using numeric::uint128_t;

inline constexpr double kUnitRoundoff = 0x1p-53;

inline void check_order(vertex_t rows, vertex_t cols, const char* engine) {
    if (rows != cols) {
        throw DimensionMismatch(std::string(engine) + " needs a square matrix, got " +
                                std::to_string(rows) + "×" + std::to_string(cols));
    }
    if (rows > kMaxRyserOrder) {
        throw ProblemTooLarge(
            "order " + std::to_string(rows) + " is beyond the " + engine + " engine's limit of " +
            std::to_string(kMaxRyserOrder) + " (it would need 2^" + std::to_string(rows - 1) +
            " Gray-code steps); use an estimator or a structure-aware engine instead");
    }
}

/// Runs range(begin, end, acc) over the chunks of [0, 2^bits) on the engine's threads and merges
/// the per-chunk accumulators in chunk order (bit-identical results for any thread count).
template <class Arith, class Range>
typename Arith::Acc accumulate_chunks(const Arith& arith, int bits, const run::EngineRun& run,
                                      Range range) {
    const std::size_t chunks = std::size_t{1} << (bits - run::chunk_log2_for(bits));
    std::vector<typename Arith::Acc> partial(chunks, arith.make_acc());
    const run::ChunkRecords records = run::records_of(partial);
    run::run_chunks(
        bits, run,
        [&](std::uint64_t chunk, std::uint64_t begin, std::uint64_t end) {
            range(begin, end, partial[chunk]);
        },
        records);
    typename Arith::Acc total = arith.make_acc();
    for (const auto& acc : partial) {
        Arith::merge(total, acc);
    }
    return total;
}

/// Identity layout: row i in slot i, padding after.
inline std::vector<int> identity_layout(vertex_t n, int width) {
    std::vector<int> slot_row(static_cast<std::size_t>(width), -1);
    std::iota(slot_row.begin(), slot_row.begin() + n, 0);
    return slot_row;
}

// ---- Exact --------------------------------------------------------------------------------------

inline uint128_t magnitude(std::int64_t v) noexcept {
    return v < 0 ? uint128_t{~static_cast<std::uint64_t>(v)} + 1 : uint128_t{static_cast<std::uint64_t>(v)};
}

/// Row 1-norms R_i = Σ_j |a_ij| (exact; n ≤ 64 entries below 2^63 sum below 2^70).
inline std::vector<uint128_t> row_norms(const DenseMatrix<std::int64_t>& a) {
    std::vector<uint128_t> norms(static_cast<std::size_t>(a.rows()), 0);
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            norms[static_cast<std::size_t>(i)] += magnitude(a(i, j));
        }
    }
    return norms;
}

/// Places rows into `lanes` lanes (slot s belongs to lane s mod lanes, slots below `usable`)
/// so that every lane's product of row norms is at most 2^53, balancing by the longest-processing-
/// time rule on log2 R_i. Returns an empty layout when no such placement is found.
inline std::vector<int> lane_layout(const std::vector<uint128_t>& norms, int width, int lanes,
                                    int usable = -1) {
    constexpr uint128_t kLimit = uint128_t{1} << 53;
    const int n = static_cast<int>(norms.size());
    std::vector<int> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int x, int y) {
        return norms[static_cast<std::size_t>(x)] > norms[static_cast<std::size_t>(y)];
    });
    // Slots [0, usable) hold rows (the GPU kernel has exactly n slots); lane l owns l, l + lanes, …
    if (usable < 0) {
        usable = width;
    }
    std::vector<uint128_t> product(static_cast<std::size_t>(lanes), 1);
    std::vector<int> used(static_cast<std::size_t>(lanes), 0);
    std::vector<int> slot_row(static_cast<std::size_t>(width), -1);
    for (const int row : order) {
        const uint128_t r = norms[static_cast<std::size_t>(row)];
        int best = -1;
        for (int l = 0; l < lanes; ++l) {
            if (used[static_cast<std::size_t>(l)] < (usable - l + lanes - 1) / lanes &&
                (best < 0 || product[static_cast<std::size_t>(l)] < product[static_cast<std::size_t>(best)])) {
                best = l;
            }
        }
        uint128_t& p = product[static_cast<std::size_t>(best)];
        if (r > kLimit || p > kLimit / r) {
            return {};
        }
        p *= r;
        const int slot = used[static_cast<std::size_t>(best)]++ * lanes + best;
        slot_row[static_cast<std::size_t>(slot)] = row;
    }
    return slot_row;
}

/// 2·a_ij and y_i(∅) = 2·a_{i,n−1} − Σ_j a_ij as exact 128-bit integers.
inline int128_t twice_entry(const DenseMatrix<std::int64_t>& a, int i, int j) {
    return 2 * int128_t{a(i, j)};
}
inline int128_t start_value(const DenseMatrix<std::int64_t>& a, int i) {
    const vertex_t n = a.rows();
    int128_t sum = 0;
    for (vertex_t j = 0; j < n; ++j) {
        sum += a(i, j);
    }
    return 2 * int128_t{a(i, n - 1)} - sum;
}

inline std::uint64_t reduce(int128_t v, std::uint64_t p) {
    const int128_t r = v % static_cast<int128_t>(p);
    return static_cast<std::uint64_t>(r < 0 ? r + static_cast<int128_t>(p) : r);
}

/// (−1)^(n−1) · 2^−(n−1) · s mod p: turns the signed Gray sum into perm(A) mod p.
inline std::uint64_t finish_residue(std::uint64_t s, vertex_t n, std::uint64_t p) {
    const std::uint64_t half_power =
        numeric::pow_mod(numeric::inverse_mod(2, p), static_cast<std::uint64_t>(n - 1), p);
    std::uint64_t r = numeric::mul_mod(s, half_power, p);
    if ((n - 1) % 2 == 1) {
        r = numeric::sub_mod(0, r, p);
    }
    return r;
}

/// Whether a 4-lane layout allows ExactLanes' compact product: the row-norm products of lanes
/// 0·1 and of lanes 2·3 both below 2^62.
inline bool compact_lanes(const std::vector<uint128_t>& norms, const std::vector<int>& layout) {
    uint128_t lane[4] = {1, 1, 1, 1};
    for (std::size_t s = 0; s < layout.size(); ++s) {
        if (layout[s] >= 0) {
            lane[s % 4] *= norms[static_cast<std::size_t>(layout[s])];  // each lane ≤ 2^53
        }
    }
    constexpr uint128_t kLimit = uint128_t{1} << 62;
    return lane[0] < kLimit && lane[1] < kLimit && lane[2] < kLimit && lane[3] < kLimit &&
           lane[0] * lane[1] < kLimit && lane[2] * lane[3] < kLimit;
}

/// The product scheme for row norms `norms` at padded width `width`, and its lane layout (empty
/// for modular).
inline ExactProducts choose_exact_products(const std::vector<uint128_t>& norms, int width,
                                           std::vector<int>& layout) {
    if (layout = lane_layout(norms, width, 4); !layout.empty()) {
        return compact_lanes(norms, layout) ? ExactProducts::compact : ExactProducts::lanes4;
    }
    if (layout = lane_layout(norms, width, 8); !layout.empty()) {
        return ExactProducts::lanes8;
    }
    return ExactProducts::modular;
}

template <int L, int W, bool Compact = false, class Kernel>
std::vector<std::uint64_t> exact_lanes_residues(const DenseMatrix<std::int64_t>& a,
                                                const std::vector<int>& layout,
                                                const std::vector<std::uint64_t>& primes,
                                                const run::EngineRun& run, const Kernel& kernel) {
    const vertex_t n = a.rows();
    const ExactLanes<L, Compact> arith(primes);
    const auto acc = kernel.template run<ExactLanes<L, Compact>, W>(
        arith, n, layout, 1.0,
        [&](int i, int j) { return static_cast<double>(twice_entry(a, i, j)); },
        [&](int i) { return static_cast<double>(start_value(a, i)); }, run);
    std::vector<std::uint64_t> residues = arith.residues(acc);
    for (std::size_t k = 0; k < primes.size(); ++k) {
        residues[k] = finish_residue(residues[k], n, primes[k]);
    }
    return residues;
}

template <int W, class Kernel>
std::uint64_t modular_residue(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                              const run::EngineRun& run, const Kernel& kernel) {
    const vertex_t n = a.rows();
    const Modular arith(p);
    const auto acc = kernel.template run<Modular, W>(
        arith, n, identity_layout(n, W), 1 % p,
        [&](int i, int j) { return reduce(twice_entry(a, i, j), p); },
        [&](int i) { return reduce(start_value(a, i), p); }, run);
    return finish_residue(arith.residue(acc, W), n, p);
}

// ---- Floating point -----------------------------------------------------------------------------


/// The double engines' error figure in the mantissa's scale: the walk's rounding (`walk`, from
/// walk_error.hpp), the compensated sums of `terms` terms (every addition error-free but for u²
/// of its partial sum) and the final rounding of the sum (`sum_abs`).
inline double walk_error_figure(double walk, std::uint64_t terms, double magnitude_sum,
                                double sum_abs) {
    return walk +
           2.0 * static_cast<double>(terms) * kUnitRoundoff * kUnitRoundoff * magnitude_sum +
           kUnitRoundoff * sum_abs;
}

/// Row scaling by powers of two: a'_ij = a_ij · 2^−e_i with Σ_j |a'_ij| in [1/2, 1). Exact, and
/// keeps every y and product far from overflow and underflow. Returns e, or nothing when a row
/// is zero (then perm = 0).
template <class T, class Magnitude>
bool row_exponents(const DenseMatrix<T>& a, Magnitude magnitude_of, std::vector<int>& exponents) {
    exponents.assign(static_cast<std::size_t>(a.rows()), 0);
    for (vertex_t i = 0; i < a.rows(); ++i) {
        double norm = 0;
        for (vertex_t j = 0; j < a.cols(); ++j) {
            norm += magnitude_of(a(i, j));
        }
        if (norm == 0) {
            return false;
        }
        std::frexp(norm, &exponents[static_cast<std::size_t>(i)]);
    }
    return true;
}

inline FloatOutcome zero_outcome(const char* arithmetic) {
    FloatOutcome out;
    out.arithmetic = arithmetic;
    return out;
}

/// Assembles perm = (−1)^(n−1) Σ / 2^(n−1) · 2^Σe from the merged sums.
inline FloatOutcome float_outcome(std::complex<double> sum, double magnitude_sum, double error_factor,
                           vertex_t n, const std::vector<int>& exponents, const char* arithmetic) {
    FloatOutcome out;
    const double sign = (n - 1) % 2 == 1 ? -1.0 : 1.0;
    out.mantissa = sign * sum;
    out.exponent2 = std::accumulate(exponents.begin(), exponents.end(), std::int64_t{0}) - (n - 1);
    out.abs_error_mantissa = error_factor * magnitude_sum + kUnitRoundoff * std::abs(sum);
    out.gray_steps = std::uint64_t{1} << (n - 1);
    out.arithmetic = arithmetic;
    return out;
}


/// Exact perm(A) (see ryser.hpp's ryser_exact) with the given kernel.
template <class Kernel>
ExactOutcome exact_permanent(const DenseMatrix<std::int64_t>& a, bool binary,
                             const run::EngineRun& run, const Kernel& kernel) {
    check_order(a.rows(), a.cols(), Kernel::name);
    const vertex_t n = a.rows();
    ExactOutcome out;
    if (n == 0) {
        out.value = 1;
        out.arithmetic = "none (empty matrix)";
        return out;
    }
    const double bound_log2 = numeric::permanent_bound_log2(a, binary);
    if (std::isinf(bound_log2)) {
        out.value = 0;
        out.arithmetic = "none (a zero row or column)";
        return out;
    }
    // Symmetric reconstruction needs Π p > 2·|perm| + 1; one more prime checks the result.
    const auto needed = static_cast<std::size_t>(std::max(0.0, bound_log2 + 1.0) /
                                                 numeric::kLargePrimeLog2) + 1;
    const std::vector<std::uint64_t> primes = numeric::large_primes(needed + 1);
    out.primes = static_cast<int>(primes.size());
    out.gray_steps = std::uint64_t{1} << (n - 1);

    const std::vector<uint128_t> norms = row_norms(a);
    std::vector<std::uint64_t> residues = dispatch_width(n, [&](auto width) {
        constexpr int W = decltype(width)::value;
        std::vector<int> layout;
        switch (choose_exact_products(norms, W, layout)) {
            case ExactProducts::compact:
                out.arithmetic = "exact 128-bit products, modular";
                return exact_lanes_residues<4, W, true>(a, layout, primes, run, kernel);
            case ExactProducts::lanes4:
                out.arithmetic = "exact lanes ×4, modular";
                return exact_lanes_residues<4, W>(a, layout, primes, run, kernel);
            case ExactProducts::lanes8:
                out.arithmetic = "exact lanes ×8, modular";
                return exact_lanes_residues<8, W>(a, layout, primes, run, kernel);
            case ExactProducts::modular: break;
        }
        out.arithmetic = "modular";
        std::vector<std::uint64_t> r;
        for (std::size_t k = 0; k < primes.size(); ++k) {
            r.push_back(
                modular_residue<W>(a, primes[k], run::pass_run(run, k, primes.size()), kernel));
        }
        out.gray_steps *= primes.size();
        return r;
    });
    out.arithmetic += " (" + std::to_string(primes.size()) + " primes of 62 bits, one spare) + CRT";

    const std::string engine = std::string(Kernel::name) + " (bound 2^" + std::to_string(bound_log2) + ")";
    out.value = numeric::crt_with_spare(residues, primes, engine.c_str());
    return out;
}

/// perm(A) mod p with the general modular arithmetic and the given kernel.
template <class Kernel>
std::uint64_t modular_permanent(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                                const run::EngineRun& run, const Kernel& kernel) {
    check_order(a.rows(), a.cols(), Kernel::name);
    if (p % 2 == 0 || p >= (std::uint64_t{1} << 62) || !numeric::is_prime(p)) {
        throw InvalidArgument("modular permanents need an odd prime below 2^62");
    }
    if (a.rows() == 0) {
        return 1 % p;
    }
    return dispatch_width(a.rows(), [&](auto width) {
        return modular_residue<decltype(width)::value>(a, p, run, kernel);
    });
}

/// y_i(∅) = 2·a_{i,n−1} − Σ_j a_ij of a scaled row, summed left to right in T (for a double, a
/// plain recursive sum: its error is at most γ_{n+1} Σ|terms|, which the certified bound uses).
template <class T, class Scaled>
T start_value(const Scaled& scaled, int i, int n) {
    T sum = 2 * scaled(i, n - 1);
    for (int j = 0; j < n; ++j) {
        sum -= scaled(i, j);
    }
    return sum;
}

/// γ_k = ku / (1 − ku), the bound on k roundings (Higham, Accuracy and Stability, §3.1).
inline double gamma_bound(double k) {
    return k * kUnitRoundoff / (1 - k * kUnitRoundoff);
}

/// Per row slot (`slots` entries, 0 for padding) a bound E_i on |ŷ_i − y_i| at every Gray step of
/// a certified walk that recomputes y every 2^reset_log2 steps. Rows are scaled by powers of two
/// (exact), so |y_i| ≤ R_i = Σ_j |a_ij| at every step. Each slot's start value is a recursive sum
/// of 2|a_{i,n−1}| + Σ_j |a_ij| ≤ 3R_i in magnitude (error ≤ 3γ_{n+1}R_i; a start value summed
/// more accurately is within that too), and a block adds at most n − 1 + 2^reset_log2 exact
/// deltas to it, each rounding by at most u·1.01·R_i.
template <class Scaled>
std::vector<double> certified_row_errors(vertex_t n, const Scaled& scaled, int reset_log2,
                                         std::size_t slots) {
    std::vector<double> errors(slots, 0.0);
    const double adds = std::ldexp(1.0, reset_log2);
    for (int i = 0; i < n; ++i) {
        double r = 0;
        for (int j = 0; j < n; ++j) {
            r += std::fabs(scaled(i, j));
        }
        r *= 1 + gamma_bound(n + 1.0);  // an upper bound on the exact R_i
        errors[static_cast<std::size_t>(i)] =
            (3 * gamma_bound(n + 1.0) + 1.01 * (n + adds) * kUnitRoundoff) * r *
            (1 + 4 * kUnitRoundoff);
    }
    return errors;
}

/// The certified bound on |value − the exact signed sum| (the mantissa's scale) from a certified
/// walk's sums: `bound` = Σ per-term bounds and `magnitude` = Σ|p̂| (nonnegative double sums of
/// `terms` terms in any grouping: relative error ≤ γ_N), the signed sum kept in double-double
/// (each addition within 3u²/(1 − 4u) of a partial sum, itself at most Σ|p̂|: Joldes, Muller,
/// Popescu, TOMS 2017) plus `pair_error` of Σ|p̂| for error-free pairs summed before it (the
/// GPU's Sum2), rounded once to `value`; subnormal results may lose 2^-1074 per product or sum.
inline double certified_abs_error(double value, double bound, double magnitude, double terms,
                                  vertex_t n, double pair_error = 0) {
    const double widen = 1 / (1 - gamma_bound(terms + 2));
    const double m = magnitude * widen;
    const double dd_error =
        (3.01 * kUnitRoundoff * kUnitRoundoff * (2 * terms + 2) + pair_error) * m;
    const double underflow = std::ldexp(terms * (4.0 * n + 4), -1074);
    return (bound * widen + dd_error + kUnitRoundoff * std::fabs(value) + underflow) *
           (1 + 8 * kUnitRoundoff);
}

/// The row-scaled matrix as the walks see it, for walk_error.
template <class Scaled>
auto scaled_copy(vertex_t n, const Scaled& scaled) {
    using T = decltype(scaled(0, 0));
    DenseMatrix<T> m(n, n);
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            m(i, j) = scaled(i, j);
        }
    }
    return m;
}

/// perm(A) of a real matrix with a certified error bound (Certified in ryser_arithmetic.hpp):
/// |mantissa − the exact permanent of the given doubles (in the mantissa's scale)| ≤
/// abs_error_mantissa, with every rounding accounted for (certified_row_errors,
/// certified_abs_error).
template <class Kernel, class Scaled>
FloatOutcome certified_permanent(vertex_t n, const std::vector<int>& e, const Scaled& scaled,
                                 const run::EngineRun& run, const Kernel& kernel) {
    const char* arithmetic = "double, certified error bound";
    return dispatch_width(n, [&](auto width) {
        constexpr int W = decltype(width)::value;
        const std::vector<double> errors =
            certified_row_errors(n, scaled, Certified::reset_log2, W);
        const Certified arith(errors.data(), n);
        const auto acc = kernel.template run<Certified, W>(
            arith, n, identity_layout(n, W), 1.0, [&](int i, int j) { return 2 * scaled(i, j); },
            [&](int i) { return start_value<double>(scaled, i, n); }, run);
        const double value = (acc.even - acc.odd).to_double();
        FloatOutcome out = float_outcome(value, 0, 0, n, e, arithmetic);
        out.abs_error_mantissa =
            certified_abs_error(value, acc.bound, acc.magnitude, static_cast<double>(acc.terms), n);
        return out;
    });
}

/// perm(A) of a real matrix in double or double-double with the given kernel.
template <class Kernel>
FloatOutcome real_permanent(const DenseMatrix<double>& a, Precision precision,
                            const run::EngineRun& run, const Kernel& kernel) {
    check_order(a.rows(), a.cols(), Kernel::name);
    const vertex_t n = a.rows();
    const bool dd = precision == Precision::double_double;
    const char* arithmetic = precision == Precision::certified ? "double, certified error bound"
                             : dd                              ? "double-double"
                                                               : "double, compensated accumulation";
    if (n == 0) {
        FloatOutcome out = zero_outcome(arithmetic);
        out.mantissa = 1;
        return out;
    }
    std::vector<int> e;
    if (!row_exponents(a, [](double v) { return std::fabs(v); }, e)) {
        return zero_outcome(arithmetic);
    }
    auto scaled = [&](int i, int j) { return std::ldexp(a(i, j), -e[static_cast<std::size_t>(i)]); };
    if (precision == Precision::certified ||
        (precision != Precision::double_double && n - 1 <= kCertifiedWalkLog2)) {
        return certified_permanent(n, e, scaled, run, kernel);
    }
    return dispatch_width(n, [&](auto width) {
        constexpr int W = decltype(width)::value;
        const auto layout = identity_layout(n, W);
        if (dd) {
            using DD = numeric::DoubleDouble;
            const auto acc = kernel.template run<DoubleDoubleArith, W>(
                DoubleDoubleArith{}, n, layout, DD{1.0},
                [&](int i, int j) { return DD{2 * scaled(i, j)}; },
                [&](int i) { return start_value<DD>(scaled, i, n); },
                run);
            const DD sum = acc.even - acc.odd;
            // Recursive double-double summation of 2^(n−1) terms: ≤ 2^n u² Σ|terms|, plus 4n u²
            // for products and updates.
            const double u2 = kUnitRoundoff * kUnitRoundoff;
            const double factor = (std::ldexp(1.0, n) + 4.0 * n) * u2;
            return float_outcome(sum.to_double(), acc.magnitude_even + acc.magnitude_odd, factor,
                                 n, e, arithmetic);
        }
        const auto acc = kernel.template run<Double, W>(
            Double{}, n, layout, 1.0, [&](int i, int j) { return 2 * scaled(i, j); },
            [&](int i) {
                numeric::CompensatedSum sum;
                sum.add(2 * scaled(i, n - 1));
                for (int j = 0; j < n; ++j) {
                    sum.add(-scaled(i, j));
                }
                return sum.value();
            },
            run);
        numeric::CompensatedSum sum = acc.even;
        sum.add_negated(acc.odd);
        const double magnitude = acc.magnitude_even + acc.magnitude_odd;
        FloatOutcome out = float_outcome(sum.value(), 0, 0, n, e, arithmetic);
        out.abs_error_mantissa = walk_error_figure(
            walk_error(scaled_copy(n, scaled), Double::reset_log2, magnitude, acc.squares), out.gray_steps,
            magnitude, std::fabs(sum.value()));
        return out;
    });
}

/// perm(A) of a complex matrix in double with the given kernel.
template <class Kernel>
FloatOutcome complex_permanent(const DenseMatrix<std::complex<double>>& a,
                               const run::EngineRun& run, const Kernel& kernel) {
    check_order(a.rows(), a.cols(), Kernel::name);
    const vertex_t n = a.rows();
    const char* arithmetic = "complex double, compensated accumulation";
    if (n == 0) {
        FloatOutcome out = zero_outcome(arithmetic);
        out.mantissa = 1;
        return out;
    }
    std::vector<int> e;
    if (!row_exponents(
            a, [](std::complex<double> v) { return std::fabs(v.real()) + std::fabs(v.imag()); },
            e)) {
        return zero_outcome(arithmetic);
    }
    auto scaled = [&](int i, int j) {
        const std::complex<double> v = a(i, j);
        const int s = -e[static_cast<std::size_t>(i)];
        return Complex{std::ldexp(v.real(), s), std::ldexp(v.imag(), s)};
    };
    return dispatch_width(n, [&](auto width) {
        constexpr int W = decltype(width)::value;
        const auto acc = kernel.template run<ComplexArith, W>(
            ComplexArith{}, n, identity_layout(n, W), Complex{1.0, 0.0},
            [&](int i, int j) {
                const Complex v = scaled(i, j);
                return Complex{2 * v.re, 2 * v.im};
            },
            [&](int i) {
                numeric::CompensatedSum re, im;
                const Complex last = scaled(i, n - 1);
                re.add(2 * last.re);
                im.add(2 * last.im);
                for (int j = 0; j < n; ++j) {
                    const Complex v = scaled(i, j);
                    re.add(-v.re);
                    im.add(-v.im);
                }
                return Complex{re.value(), im.value()};
            },
            run);
        numeric::CompensatedSum re = acc.even.re, im = acc.even.im;
        re.add_negated(acc.odd.re);
        im.add_negated(acc.odd.im);
        const std::complex<double> value{re.value(), im.value()};
        const double magnitude = acc.magnitude_even + acc.magnitude_odd;
        FloatOutcome out = float_outcome(value, 0, 0, n, e, arithmetic);
        const auto scaled_entry = [&](int i, int j) {
            const Complex v = scaled(i, j);
            return std::complex<double>{v.re, v.im};
        };
        out.abs_error_mantissa = walk_error_figure(
            walk_error(scaled_copy(n, scaled_entry), ComplexArith::reset_log2, magnitude,
                       acc.squares),
            out.gray_steps, magnitude, std::abs(value));
        return out;
    });
}

}  // namespace pmcount::exact::driver
