// The loop hafnian (the diagonal as loops) by Björklund's recursion with loops, against the loop
// pairings oracle (brute_force.hpp) and closed forms, in every arithmetic, odd and even orders;
// thread-count independence; the public entry point.
#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "exact/brute_force.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::exact {
namespace {

using boost::multiprecision::cpp_int;

run::EngineRun threads(int t) {
    run::EngineRun run;
    run.threads = t;
    return run;
}

std::complex<double> value_of(const FloatOutcome& o) {
    const int e = static_cast<int>(o.exponent2);
    return {std::ldexp(o.mantissa.real(), e), std::ldexp(o.mantissa.imag(), e)};
}
double bound_of(const FloatOutcome& o) {
    return std::ldexp(o.abs_error_mantissa, static_cast<int>(o.exponent2));
}

/// A random symmetric matrix with a diagonal: off-diagonal entries as random_symmetric_integer,
/// each diagonal entry nonzero with probability 1/2, in [lo, hi].
DenseMatrix<std::int64_t> with_diagonal(int n, double density, std::int64_t lo, std::int64_t hi,
                                        std::uint64_t seed) {
    DenseMatrix<std::int64_t> a = test::random_symmetric_integer(n, density, lo, hi, seed);
    std::mt19937_64 rng(seed ^ 0x5eed);
    for (int i = 0; i < n; ++i) {
        a(i, i) = rng() % 2 == 0 ? 0 : lo + static_cast<std::int64_t>(rng() % (hi - lo + 1));
    }
    return a;
}

/// The involution numbers T(n) = T(n − 1) + (n − 1)·T(n − 2): the loop hafnian of the all-ones
/// matrix.
cpp_int involutions(int n) {
    cpp_int before = 1, last = 1;
    for (int k = 2; k <= n; ++k) {
        const cpp_int next = last + (k - 1) * before;
        before = last;
        last = next;
    }
    return last;
}

TEST(LoopHafnian, ExactAgreesWithLoopPairingsOnRandomIntegerMatrices) {
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        const int n = static_cast<int>(seed % 15);  // odd orders too: padded by a unit loop
        const double density = 0.3 + 0.1 * static_cast<double>(seed % 7);
        const auto a = with_diagonal(n, density, seed % 3 == 0 ? -3 : 1, 4, seed);
        EXPECT_EQ(loop_hafnian_exact(a, threads(2)).value, loop_hafnian_brute_force_exact(a))
            << "seed " << seed << " order " << n;
    }
}

TEST(LoopHafnian, ClosedForms) {
    // All ones: the involutions of n points (1, 1, 2, 4, 10, 26, 76, …), also far past the
    // oracle's reach.
    for (const int n : {0, 1, 2, 3, 4, 5, 9, 10, 23, 40}) {
        const DenseMatrix<std::int64_t> ones(n, n, 1);
        EXPECT_EQ(loop_hafnian_exact(ones, threads(2)).value.to_string(), involutions(n).str())
            << n;
    }
    // No loops: the hafnian (0 at odd order); only loops: their product.
    const auto a = test::random_symmetric_integer(12, 0.6, -5, 5, 3);
    EXPECT_EQ(loop_hafnian_exact(a, threads(1)).value, hafnian_exact(a, threads(1)).value);
    EXPECT_EQ(loop_hafnian_exact(test::random_symmetric_integer(11, 0.6, -5, 5, 3), threads(1))
                  .value.sign(),
              0);
    DenseMatrix<std::int64_t> d(7, 7, 0);
    for (int i = 0; i < 7; ++i) {
        d(i, i) = i + 2;
    }
    EXPECT_EQ(loop_hafnian_exact(d, threads(1)).value.to_string(), "40320");  // 8!
    // A vertex with no entry at all: 0.
    DenseMatrix<std::int64_t> lonely = with_diagonal(6, 0.8, 1, 3, 9);
    for (int j = 0; j < 6; ++j) {
        lonely(2, j) = lonely(j, 2) = 0;
    }
    EXPECT_EQ(loop_hafnian_exact(lonely, threads(1)).value.sign(), 0);
}

TEST(LoopHafnian, EveryFloatingArithmeticIsWithinItsFigure) {
    for (std::uint64_t seed = 1; seed <= 90; ++seed) {
        const int n = 1 + static_cast<int>(seed % 14);
        const bool positive = seed % 2 == 0;
        auto a = test::random_symmetric_float<double>(n, positive ? 0.0 : -1.0, 1.0, seed);
        auto c = test::random_symmetric_float<std::complex<double>>(n, -1.0, 1.0, seed);
        std::mt19937_64 rng(seed);
        std::uniform_real_distribution<double> u(positive ? 0.0 : -2.0, 2.0);
        for (int i = 0; i < n; ++i) {
            a(i, i) = u(rng);
            c(i, i) = {u(rng), u(rng)};
        }
        const double truth = loop_hafnian_brute_force(a);
        for (const Precision p : {Precision::double_precision, Precision::double_double}) {
            const FloatOutcome r = loop_hafnian_real(a, p, threads(2));
            EXPECT_LE(std::fabs(value_of(r).real() - truth), bound_of(r) + 1e-15 * std::fabs(truth))
                << "seed " << seed << " order " << n << " " << to_string(p);
            EXPECT_LE(bound_of(r), 1e-10 * std::fabs(truth) + 1e-300) << "seed " << seed;
        }
        const std::complex<double> c_truth = loop_hafnian_brute_force(c);
        const FloatOutcome r = loop_hafnian_complex(c, threads(2));
        EXPECT_LE(std::abs(value_of(r) - c_truth), bound_of(r) + 1e-15 * std::abs(c_truth))
            << "seed " << seed;
    }
    // Loops 2^40 times the edges, and everything 2^300 times that (the vertices' powers of two
    // take both): order 30 of integers as doubles against the exact value.
    auto big = with_diagonal(30, 0.7, -9, 9, 77);
    DenseMatrix<double> real(30, 30, 0.0);
    for (int i = 0; i < 30; ++i) {
        big(i, i) *= std::int64_t{1} << 40;
        for (int j = 0; j < 30; ++j) {
            real(i, j) = std::ldexp(static_cast<double>(big(i, j)), i == j ? 150 : 300);
        }
    }
    const FloatOutcome r = loop_hafnian_real(real, Precision::double_precision, threads(2));
    const cpp_int exact(loop_hafnian_exact(big, threads(2)).value.to_string());
    const double truth = exact.convert_to<double>();  // the result is truth·2^4500
    const int e = static_cast<int>(r.exponent2) - 150 * 30;
    const double got = std::ldexp(r.mantissa.real(), e),
                 figure = std::ldexp(r.abs_error_mantissa, e);
    EXPECT_LE(std::fabs(got - truth), figure) << got << " against " << truth;
    EXPECT_LT(figure, 1e-8 * std::fabs(truth));
}

TEST(LoopHafnian, ResultsDoNotDependOnTheThreadCount) {
    auto a = test::random_symmetric_float<double>(27, -1.0, 1.0, 5);
    for (int i = 0; i < 27; ++i) {
        a(i, i) = 0.25 * i - 3;
    }
    const FloatOutcome one = loop_hafnian_real(a, Precision::double_precision, threads(1));
    const FloatOutcome two = loop_hafnian_real(a, Precision::double_precision, threads(2));
    EXPECT_EQ(one.mantissa, two.mantissa);
    EXPECT_EQ(one.abs_error_mantissa, two.abs_error_mantissa);
    const auto x = with_diagonal(27, 0.5, -4, 4, 6);
    EXPECT_EQ(loop_hafnian_exact(x, threads(1)).value, loop_hafnian_exact(x, threads(2)).value);
}

TEST(LoopHafnian, BadInputIsRefused) {
    DenseMatrix<std::int64_t> a(4, 4, 1);
    a(0, 1) = 2;
    EXPECT_THROW(loop_hafnian_exact(a, threads(1)), InvalidArgument);
    EXPECT_THROW(loop_hafnian_exact(DenseMatrix<std::int64_t>(2, 3, 1), threads(1)),
                 InvalidArgument);
}

}  // namespace
}  // namespace pmcount::exact
