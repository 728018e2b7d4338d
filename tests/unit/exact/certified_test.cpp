// --precision certified: on near-singular matrices whose rows cancel, the interval value ±
// abs_error holds the exact permanent every time, checked in exact rational arithmetic against
// the exact engine's count of a scaled integer copy (entries of 50 bits, so the row sums y round
// at every Gray step). The default double result's estimate is counted alongside: it held on
// these 200 as well, but nothing proves that it must.
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <complex>
#include <cstdint>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {
namespace {

using boost::multiprecision::cpp_int;

constexpr int kEntryBits = 50;

/// A seeded n×n integer matrix with entries below 2^50 whose rows nearly cancel: each row's
/// last entry is minus the sum of the others plus a small perturbation (|δ| ≤ 3), so every row
/// sums to almost 0 and Ryser's partial row sums cancel deeply.
DenseMatrix<std::int64_t> cancelling_matrix(int n, std::uint64_t seed) {
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

/// 2^k (k ≥ 0) as an integer (multiplications rather than shifts: GCC's bounds analysis
/// misreads cpp_int's shift code).
cpp_int power_of_two(int k) {
    return boost::multiprecision::pow(cpp_int(2), static_cast<unsigned>(k));
}

/// x · 2^shift as an integer (exact when shift ≥ 1127: a double's lowest bit is 2^-1074).
cpp_int scaled_integer(double x, int shift) {
    int exponent = 0;
    const double mantissa = std::frexp(std::fabs(x), &exponent);  // |x| = m·2^e, m in [0.5, 1)
    const cpp_int v = cpp_int(static_cast<std::int64_t>(std::ldexp(mantissa, 53))) *
                      power_of_two(exponent - 53 + shift);
    return x < 0 ? cpp_int(-v) : v;
}

/// Whether |perm(m)·2^(−kEntryBits·n) − value| ≤ error exactly.
bool holds(const BigInt& exact, int n, double value, double error) {
    const int shift = 1200 + kEntryBits * n;
    const cpp_int truth = cpp_int(exact.to_string()) * power_of_two(shift - kEntryBits * n);
    const cpp_int distance = abs(truth - scaled_integer(value, shift));
    return distance <= scaled_integer(error, shift);
}

TEST(Certified, TheIntervalHoldsTheExactPermanentOfEveryCancellingMatrix) {
    int estimate_misses = 0;
    double worst_ratio = 0;  // certified bound / actual error
    for (std::uint64_t seed = 0; seed < 200; ++seed) {
        const int n = 6 + static_cast<int>(seed % 9);  // 6 … 14
        const DenseMatrix<std::int64_t> m = cancelling_matrix(n, 1000 + seed);
        CountOptions exact_options;
        exact_options.backend = Backend::cpu;
        const BigInt exact = permanent(m, exact_options).exact;
        DenseMatrix<double> a(n, n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                a(i, j) = std::ldexp(static_cast<double>(m(i, j)), -kEntryBits);  // exact
            }
        }
        CountOptions o;
        o.backend = Backend::cpu;
        o.precision = Precision::certified;
        const CountResult certified = permanent(a, o);
        ASSERT_FALSE(certified.is_exact);
        EXPECT_EQ(certified.error_kind, "bound");
        EXPECT_TRUE(holds(exact, n, certified.value, certified.abs_error))
            << "seed " << seed << ", n " << n << ": " << certified.value << " ± "
            << certified.abs_error << ", exact " << exact.to_string() << " · 2^-" << kEntryBits * n;
        o.precision = Precision::double_precision;
        const CountResult estimated = permanent(a, o);
        EXPECT_EQ(estimated.error_kind, "estimate");
        if (!holds(exact, n, estimated.value, estimated.abs_error)) {
            ++estimate_misses;
        }
        const double truth = std::ldexp(exact.to_double(), -kEntryBits * n);
        const double actual = std::fabs(certified.value - truth);
        if (actual > 0) {
            worst_ratio = std::max(worst_ratio, actual / certified.abs_error);
        }
    }
    std::cout << "double's error estimate missed on " << estimate_misses
              << " of 200; the certified bound's tightest use: " << worst_ratio << "\n";
}

TEST(Certified, RefusesWhatItCannotCertify) {
    DenseMatrix<double> a(3, 3, 0.5);
    CountOptions o;
    o.precision = Precision::certified;
    o.method = Method::sparyser;
    EXPECT_THROW(permanent(a, o), InvalidArgument);
    o.method = Method::automatic;
    o.backend = Backend::cuda;
    EXPECT_THROW(permanent(a, o), InvalidArgument);
    DenseMatrix<std::complex<double>> c(2, 2, std::complex<double>(1.0, 1.0));
    o.backend = Backend::cpu;
    EXPECT_THROW(permanent(c, o), InvalidArgument);
    // Exact inputs keep their exact count; a certified run of one is an interval around it.
    o.backend = Backend::cpu;
    const CountResult r = permanent(a, o);
    EXPECT_EQ(r.error_kind, "bound");
    EXPECT_LE(std::fabs(r.value - 6 * 0.125), r.abs_error + 1e-300);
    EXPECT_GT(r.abs_error, 0);
}

}  // namespace
}  // namespace pmcount
