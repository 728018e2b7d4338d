// Near-singular matrices for the certified-arithmetic tests (CPU and GPU), with the exact
// rational check: seeded integer matrices of 46–50-bit entries whose rows or permanent cancel,
// their exact permanents from the exact engine, the scaled double copy, and whether a floating
// result value ± error holds the exact permanent of that copy.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount::test {

using boost::multiprecision::cpp_int;

inline constexpr int kEntryBits = 50;

/// A seeded n×n integer matrix with entries below 2^50 whose rows nearly cancel: each row's
/// last entry is minus the sum of the others plus a small perturbation (|δ| ≤ 3), so every row
/// sums to almost 0 and Ryser's partial row sums cancel deeply.
inline DenseMatrix<std::int64_t> cancelling_matrix(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const std::int64_t top = (std::int64_t{1} << (kEntryBits - 4)) - 1;
    DenseMatrix<std::int64_t> m(n, n);
    for (int i = 0; i < n; ++i) {
        std::int64_t sum = 0;
        for (int j = 0; j + 1 < n; ++j) {
            m(i, j) =
                static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * top + 1)) - top;
            sum += m(i, j);
        }
        m(i, n - 1) = -sum + static_cast<std::int64_t>(rng() % 7) - 3;
    }
    return m;
}

/// A seeded n×n integer matrix (entries below 2^46 in magnitude, rows 0 … n−2 random) whose
/// last row makes the permanent cancel: perm is linear in that row, Σ_j a_(n−1)j·P_j with P_j the
/// permanents of the minors, so the entry against the largest |P_k| is chosen to bring the sum
/// to within |P_k|/2 of 0. The terms of Ryser's sum are ~2^46·n times the result.
inline DenseMatrix<std::int64_t> nearly_singular_matrix(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const std::int64_t top = (std::int64_t{1} << 46) - 1;
    DenseMatrix<std::int64_t> m(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            m(i, j) =
                static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * top + 1)) - top;
        }
    }
    CountOptions exact;
    exact.backend = Backend::cpu;
    std::vector<cpp_int> minors;
    int largest = 0;
    for (int k = 0; k < n; ++k) {
        DenseMatrix<std::int64_t> minor(n - 1, n - 1);
        for (int i = 0; i + 1 < n; ++i) {
            for (int j = 0, c = 0; j < n; ++j) {
                if (j != k) {
                    minor(i, c++) = m(i, j);
                }
            }
        }
        minors.emplace_back(permanent(minor, exact).exact.to_string());
        if (abs(minors.back()) > abs(minors[static_cast<std::size_t>(largest)])) {
            largest = k;
        }
    }
    cpp_int rest = 0;
    for (int j = 0; j < n; ++j) {
        if (j != largest) {
            rest += cpp_int(m(n - 1, j)) * minors[static_cast<std::size_t>(j)];
        }
    }
    const cpp_int pivot = minors[static_cast<std::size_t>(largest)];
    // a = −round(rest / pivot): |rest + a·pivot| ≤ |pivot|/2, and |a| ≤ n·2^46 < 2^53.
    const cpp_int a = pivot == 0 ? cpp_int(0) : -((2 * rest + pivot) / (2 * pivot));
    m(n - 1, largest) = static_cast<std::int64_t>(a);
    return m;
}

/// 2^k (k ≥ 0) as an integer (multiplications rather than shifts: GCC's bounds analysis
/// misreads cpp_int's shift code).
inline cpp_int power_of_two(int k) {
    return boost::multiprecision::pow(cpp_int(2), static_cast<unsigned>(k));
}

/// x · 2^shift as an integer (exact when shift ≥ 1127: a double's lowest bit is 2^-1074).
inline cpp_int scaled_integer(double x, int shift) {
    int exponent = 0;
    const double mantissa = std::frexp(std::fabs(x), &exponent);  // |x| = m·2^e, m in [0.5, 1)
    const cpp_int v = cpp_int(static_cast<std::int64_t>(std::ldexp(mantissa, 53))) *
                      power_of_two(exponent - 53 + shift);
    return x < 0 ? cpp_int(-v) : v;
}

/// Whether |perm(m)·2^(−kEntryBits·n) − value| ≤ error exactly.
inline bool holds(const BigInt& exact, int n, double value, double error) {
    const int shift = 1200 + kEntryBits * n;
    const cpp_int truth = cpp_int(exact.to_string()) * power_of_two(shift - kEntryBits * n);
    const cpp_int distance = abs(truth - scaled_integer(value, shift));
    return distance <= scaled_integer(error, shift);
}

/// perm(m) by the exact engine.
inline BigInt exact_permanent(const DenseMatrix<std::int64_t>& m) {
    CountOptions exact_options;
    exact_options.backend = Backend::cpu;
    return permanent(m, exact_options).exact;
}

/// m · 2^-kEntryBits in doubles (exact: the entries have at most 53 bits).
inline DenseMatrix<double> scaled_copy(const DenseMatrix<std::int64_t>& m) {
    DenseMatrix<double> a(m.rows(), m.cols());
    for (vertex_t i = 0; i < m.rows(); ++i) {
        for (vertex_t j = 0; j < m.cols(); ++j) {
            a(i, j) = std::ldexp(static_cast<double>(m(i, j)), -kEntryBits);
        }
    }
    return a;
}

// ---- issue 32's families (walk_error_test.cpp, gpu_ryser_test.cpp) ----------------------------

/// An integer matrix whose doubles are m · 2^−shift.
struct Scaled {
    DenseMatrix<std::int64_t> m;
    int shift = 0;
};

/// The family: ±2^52 + a 30-bit fraction, as doubles ±2^22 + f·2^−30.
inline Scaled plus_minus_matrix(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Scaled s{DenseMatrix<std::int64_t>(n, n), 30};
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const std::int64_t sign = (rng() & 1) != 0 ? 1 : -1;
            s.m(i, j) = sign * (std::int64_t{1} << 52) + static_cast<std::int64_t>(rng() >> 34);
        }
    }
    return s;
}

/// Rows that cancel (cancelling_matrix) with a share of their entries zero: the sparse engines.
inline Scaled sparse_cancelling_matrix(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    Scaled s{DenseMatrix<std::int64_t>(n, n), test::kEntryBits};
    const std::int64_t top = (std::int64_t{1} << (test::kEntryBits - 4)) - 1;
    for (int i = 0; i < n; ++i) {
        std::int64_t sum = 0;
        int last = -1;
        for (int j = 0; j < n; ++j) {
            if (rng() % 3 == 0 && j != i) {
                continue;  // a zero; the diagonal stays, so a perfect matching exists
            }
            if (last >= 0) {
                sum += s.m(i, last);
            }
            last = j;
            s.m(i, j) =
                static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * top + 1)) - top;
        }
        s.m(i, last) = -sum + static_cast<std::int64_t>(rng() % 7) - 3;
    }
    return s;
}

inline DenseMatrix<double> to_doubles(const Scaled& s) {
    DenseMatrix<double> a(s.m.rows(), s.m.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            a(i, j) = std::ldexp(static_cast<double>(s.m(i, j)), -s.shift);
        }
    }
    return a;
}

/// |truth − value| ≤ error, exactly; truth = t · 2^−scale.
inline bool within(const cpp_int& t, int scale, double value, double error) {
    const int shift = 1200 + scale;
    const cpp_int truth = t * power_of_two(shift - scale);
    return abs(truth - scaled_integer(value, shift)) <= scaled_integer(error, shift);
}

/// Exact perm of the Gaussian-integer matrix re + i·im by Ryser's formula, the row sums kept
/// along a Gray code (O(2^n·n) big-integer operations).
inline std::pair<cpp_int, cpp_int> gaussian_permanent(const DenseMatrix<std::int64_t>& re,
                                               const DenseMatrix<std::int64_t>& im) {
    const int n = re.rows();
    std::vector<cpp_int> s_re(static_cast<std::size_t>(n)), s_im(static_cast<std::size_t>(n));
    cpp_int total_re = 0, total_im = 0;
    for (std::uint64_t k = 1; k < (std::uint64_t{1} << n); ++k) {
        const int j = __builtin_ctzll(k);
        const bool adds = (((k ^ (k >> 1)) >> j) & 1U) != 0;
        cpp_int p_re = 1, p_im = 0;
        for (int i = 0; i < n; ++i) {
            s_re[i] += adds ? re(i, j) : -re(i, j);
            s_im[i] += adds ? im(i, j) : -im(i, j);
            const cpp_int t = p_re * s_re[i] - p_im * s_im[i];
            p_im = p_re * s_im[i] + p_im * s_re[i];
            p_re = t;
        }
        const bool negative = (n - __builtin_popcountll(k ^ (k >> 1))) % 2 == 1;
        total_re += negative ? cpp_int(-p_re) : p_re;
        total_im += negative ? cpp_int(-p_im) : p_im;
    }
    return {total_re, total_im};
}

}  // namespace pmcount::test
