// The measured error figure of the floating Gray-code walks (walk_error.hpp explains the model).
//
// Per replayed block: O(n·popcount) to rebuild y at its start, then per step O(n) for the
// update with its TwoSum errors, O(n) for the leave-one-out products, and O(n) double-double
// operations for the reference term.
#include "exact/ryser/walk_error.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/hash.hpp"
#include "exact/ryser/gray_code.hpp"
#include "numeric/double_double.hpp"

namespace pmcount::exact::driver {

namespace {

/// ulp(x)²/12: the variance of rounding to nearest at x's binade (0 at 0). The ulp is x with its
/// mantissa cleared, times 2^−52, exact for every normal x; subnormals get the smallest normal's.
double rounding_variance(double x) noexcept {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits &= 0x7ff0000000000000ULL;
    if (bits == 0) {
        bits = 0x0010000000000000ULL;
    }
    double binade;
    std::memcpy(&binade, &bits, sizeof binade);
    const double ulp = binade * 0x1p-52;
    return ulp * ulp / 12;
}
double rounding_variance(const std::complex<double>& z) noexcept {
    return rounding_variance(z.real()) + rounding_variance(z.imag());
}

double squared_magnitude(double x) noexcept {
    return x * x;
}

/// a + b rounded, and the square of its rounding error (Knuth's TwoSum: exact). A step whose
/// sum is exact (short entries, integers) adds nothing to the drift.
double rounded_sum(double a, double b, double& squared_error, double& absolute_error) noexcept {
    const double s = a + b;
    const double bb = s - a;
    const double e = (a - (s - bb)) + (b - bb);
    squared_error += e * e;
    absolute_error += std::fabs(e);
    return s;
}
std::complex<double> rounded_sum(const std::complex<double>& a, const std::complex<double>& b,
                                 double& squared_error, double& absolute_error) noexcept {
    const double re = rounded_sum(a.real(), b.real(), squared_error, absolute_error);
    return {re, rounded_sum(a.imag(), b.imag(), squared_error, absolute_error)};
}

/// A bound on one rounded multiplication's relative error (complex: within √5·u, Brent, Percival
/// and Zimmermann 2007; 3u here).
constexpr double product_rounding(double) noexcept {
    return 0x1p-53;
}
constexpr double product_rounding(const std::complex<double>&) noexcept {
    return 3 * 0x1p-53;
}

/// a·b rounded, and the square of its rounding error relative to the product (FMA residual);
/// complex: the parts' roundings as variances (ulp²/12 each, two roundings per part).
double rounded_product(double a, double b, double& relative_variance) noexcept {
    const double p = a * b;
    if (p != 0) {
        const double e = std::fma(a, b, -p) / p;
        relative_variance += e * e;
    }
    return p;
}
std::complex<double> rounded_product(const std::complex<double>& a, const std::complex<double>& b,
                                     double& relative_variance) noexcept {
    const std::complex<double> p = a * b;
    const double m = std::norm(p);
    if (m > 0) {
        relative_variance += 2 * rounding_variance(p) / m;
    }
    return p;
}
double squared_magnitude(const std::complex<double>& z) noexcept {
    return std::norm(z);
}

/// A complex number in double-double, for the reference replay.
struct ExactComplex {
    numeric::DoubleDouble re, im;
};
inline ExactComplex operator+(const ExactComplex& a, const ExactComplex& b) noexcept {
    return {a.re + b.re, a.im + b.im};
}
inline ExactComplex operator-(const ExactComplex& a, const ExactComplex& b) noexcept {
    return {a.re - b.re, a.im - b.im};
}
inline ExactComplex operator*(const ExactComplex& a, const ExactComplex& b) noexcept {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}

/// The reference arithmetic of a walk over T: double-double (about 106 bits).
template <class T>
using Exact = std::conditional_t<std::is_same_v<T, double>, numeric::DoubleDouble, ExactComplex>;

numeric::DoubleDouble exact_of(double x) noexcept {
    return x;
}
ExactComplex exact_of(const std::complex<double>& z) noexcept {
    return {z.real(), z.imag()};
}
/// |x|² of a double-double value, rounded to double.
double squared_magnitude(const numeric::DoubleDouble& x) noexcept {
    const double d = x.to_double();
    return d * d;
}
double squared_magnitude(const ExactComplex& z) noexcept {
    return squared_magnitude(z.re) + squared_magnitude(z.im);
}

/// The walk's tables as the engines build them: y_i(∅) (a compensated sum, error within u|y|)
/// and the steps 2·a_ij.
template <class T>
struct WalkTables {
    int n = 0;
    std::vector<T> base;                // n
    std::vector<double> base_variance;  // n: the square of each start value's rounding error
    std::vector<Exact<T>> exact_base;   // n: the start values in double-double
    std::vector<T> delta;               // (n − 1)·n, column j at [j·n]
};

template <class T>
WalkTables<T> walk_tables(const DenseMatrix<T>& a) {
    WalkTables<T> t;
    t.n = a.rows();
    const int n = t.n;
    t.base.resize(static_cast<std::size_t>(n));
    t.base_variance.resize(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        // Summed in double-double; the engines' compensated sums round to within u of it.
        const std::complex<double> last{a(i, n - 1)};
        numeric::DoubleDouble re = 2 * last.real(), im = 2 * last.imag();
        for (int j = 0; j < n; ++j) {
            const std::complex<double> v{a(i, j)};
            re -= v.real();
            im -= v.imag();
        }
        const double e_re = re.lo, e_im = im.lo;
        if constexpr (std::is_same_v<T, double>) {
            t.base[static_cast<std::size_t>(i)] = re.hi;
            t.base_variance[static_cast<std::size_t>(i)] = e_re * e_re;
            t.exact_base.push_back(re);
        } else {
            t.base[static_cast<std::size_t>(i)] = T{re.hi, im.hi};
            t.base_variance[static_cast<std::size_t>(i)] = e_re * e_re + e_im * e_im;
            t.exact_base.push_back({re, im});
        }
    }
    t.delta.resize(static_cast<std::size_t>(n - 1) * static_cast<std::size_t>(n));
    for (int j = 0; j + 1 < n; ++j) {
        for (int i = 0; i < n; ++i) {
            t.delta[static_cast<std::size_t>(j) * n + i] = T(2) * a(i, j);
        }
    }
    return t;
}

/// Reset block `block` of the walk (Gray indices [block·2^r, (block + 1)·2^r) ∩ [0, steps)),
/// replayed as the engines run it, with every rounding error measured (TwoSum, FMA), and in
/// double-double beside it. Adds to `out`: per term c_t (walk_error.hpp), c_t², |p̂_t|, |p̂_t|²;
/// the block's actual error |Σ_t (−1)^t (p̂_t − p_t)|² (every coherence between its terms
/// included) and its Σ|p̂_t|²; and every 2^(r−5)-th |p̂_t| to `magnitudes`.
template <class T>
void replay_block(const WalkTables<T>& t, int reset_log2, std::uint64_t block, WalkSpread& out,
                  std::vector<double>& magnitudes) {
    const int n = t.n;
    const std::uint64_t begin = block << reset_log2;
    const std::uint64_t end = std::min(out.steps, (block + 1) << reset_log2);
    const std::uint64_t keep_mask = reset_log2 > 5 ? (std::uint64_t{1} << (reset_log2 - 5)) - 1 : 0;
    std::vector<T> y(t.base);
    std::vector<double> variance(t.base_variance);  // σ_i²: the squared roundings so far
    std::vector<double> drifted(n);                 // Σ|roundings| so far (a bound on the drift)
    for (int i = 0; i < n; ++i) {
        drifted[i] = std::sqrt(t.base_variance[i]);
    }
    std::vector<Exact<T>> x(t.exact_base);
    std::vector<double> prefix(static_cast<std::size_t>(n) + 1);
    std::vector<double> abs_prefix(static_cast<std::size_t>(n) + 1);
    auto add_column = [&](int j, bool adds) {
        const T* d = t.delta.data() + static_cast<std::size_t>(j) * n;
        for (int i = 0; i < n; ++i) {
            y[i] = rounded_sum(y[i], adds ? d[i] : -d[i], variance[i], drifted[i]);
            x[i] = adds ? x[i] + exact_of(d[i]) : x[i] - exact_of(d[i]);
        }
    };
    for (std::uint64_t g = gray(begin); g != 0; g &= g - 1) {
        add_column(lowest_set_bit(g), true);
    }
    Exact<T> computed = exact_of(T{}), reference = exact_of(T{});
    double block_squares = 0;
    for (std::uint64_t k = begin; k < end; ++k) {
        if (k != begin) {
            const int j = lowest_set_bit(k);
            add_column(j, gray_step_adds(k, j));
        }
        // c_t: the rows' drift times the other rows (leave-one-out products of |ŷ|², by prefix
        // and suffix: no division, so a row at exactly 0 still counts) and the product's own
        // roundings.
        prefix[0] = abs_prefix[0] = 1;
        for (int i = 0; i < n; ++i) {
            prefix[i + 1] = prefix[i] * squared_magnitude(y[i]);
            abs_prefix[i + 1] = abs_prefix[i] * std::abs(y[i]);
        }
        double suffix = 1, abs_suffix = 1, drift = 0, drift_bound = 0;
        for (int i = n - 1; i >= 0; --i) {
            drift += variance[i] * prefix[i] * suffix;
            drift_bound += drifted[i] * abs_prefix[i] * abs_suffix;
            suffix *= squared_magnitude(y[i]);
            abs_suffix *= std::abs(y[i]);
        }
        T p = y[0];
        Exact<T> q = x[0];
        double product_variance = 0;  // relative
        for (int i = 1; i < n; ++i) {
            p = rounded_product(p, y[i], product_variance);
            q = q * x[i];
        }
        const double p2 = prefix[n];
        const double c = std::sqrt(drift + p2 * product_variance);
        // The term's first-order error bound: its rows' drift as measured, and n − 1 roundings
        // of the product at their bound (the engines multiply in another order than this one).
        out.spread_sum += drift_bound + abs_prefix[n] * (n - 1) * product_rounding(T{});
        out.variance_sum += c * c;
        out.magnitude_sum += std::sqrt(p2);
        out.square_sum += p2;
        block_squares += squared_magnitude(p);
        if (((k - begin) & keep_mask) == 0) {
            magnitudes.push_back(std::sqrt(p2));
        }
        if (k % 2 == 0) {
            computed = computed + exact_of(p);
            reference = reference + q;
        } else {
            computed = computed - exact_of(p);
            reference = reference - q;
        }
    }
    out.samples += end - begin;
    out.block_error_squares += squared_magnitude(reference - computed);
    out.block_squares += block_squares;
}

template <class T>
WalkSpread spread(const DenseMatrix<T>& scaled, int reset_log2) {
    WalkSpread out;
    const int n = scaled.rows();
    if (n <= 1) {
        return out;  // no step, no rounding beyond the product's own
    }
    const WalkTables<T> tables = walk_tables(scaled);
    out.steps = std::uint64_t{1} << (n - 1);
    const int r = std::min(reset_log2 > 0 ? reset_log2 : 63, n - 1);
    const std::uint64_t blocks = out.steps >> r;
    out.blocks = walk_error_blocks(n, reset_log2);
    // Distinct blocks (a block drawn twice would look like repeated terms).
    std::vector<std::uint64_t> chosen;
    std::uint64_t state = 0x5d1c0ffeeULL ^ static_cast<std::uint64_t>(n);
    while (chosen.size() < out.blocks) {
        const std::uint64_t block =
            out.blocks == blocks ? chosen.size() : split_mix(state) % blocks;
        if (std::find(chosen.begin(), chosen.end(), block) == chosen.end()) {
            chosen.push_back(block);
        }
    }
    std::vector<double> magnitudes;
    for (const std::uint64_t block : chosen) {
        replay_block(tables, r, block, out, magnitudes);
    }
    // Repeated values among terms of a real matrix are a sign of structure (equal rows, small
    // integers), whose roundings repeat too: one in a hundred suffices.
    std::sort(magnitudes.begin(), magnitudes.end());
    std::uint64_t repeated = 0;
    for (std::size_t i = 1; i < magnitudes.size(); ++i) {
        repeated += magnitudes[i] == magnitudes[i - 1] && magnitudes[i] != 0 ? 1 : 0;
    }
    out.repeats = 100 * repeated >= magnitudes.size();
    return out;
}

}  // namespace

double WalkSpread::figure(double magnitude, double squares) const {
    if (samples == steps) {
        return kFewTermsFactor * spread_sum;
    }
    if (!repeats && squares > 0 && square_sum > 0) {
        // Two estimates of the sum's variance against the walk's Σ|p̂|²: the terms' rounding
        // variances (as if independent) and the reset blocks' measured errors (their roundings'
        // coherence within a block included); the larger stands.
        double variance = squares * (variance_sum / square_sum);
        if (block_squares > 0) {
            variance = std::max(variance, squares * (block_error_squares / block_squares));
        }
        return kStandardDeviations * std::sqrt(variance);
    }
    if (magnitude_sum > 0 && magnitude > 0) {
        return magnitude * (spread_sum / magnitude_sum);
    }
    // Every sampled term vanished: scale the spreads by the share of the walk they stand for.
    return spread_sum * (static_cast<double>(steps) / static_cast<double>(samples));
}

WalkSpread walk_spread(const DenseMatrix<double>& scaled, int reset_log2) {
    return spread(scaled, reset_log2);
}

WalkSpread walk_spread(const DenseMatrix<std::complex<double>>& scaled, int reset_log2) {
    return spread(scaled, reset_log2);
}

}  // namespace pmcount::exact::driver
