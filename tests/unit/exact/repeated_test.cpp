// Hafnians, loop hafnians and permanents with repeated rows and columns against the same
// functions of the expanded matrix (thewalrus's `reduction`), exactly and in floating point
// within the stated bound; thread-count independence; bad multiplicities.
#include "exact/hafnian/repeated.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "exact/brute_force.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "support/engine_run.hpp"
#include "support/float_outcome.hpp"
#include "support/multiplicities.hpp"

namespace pmcount::exact {
namespace {

using test::error_of;
using test::expanded;
using test::multiplicities;
using test::threads;
using test::value_of;

TEST(Repeated, HafniansMatchTheExpandedMatrixExactly) {
    std::mt19937_64 rng(36);
    for (int trial = 0; trial < 80; ++trial) {
        const int k = 1 + static_cast<int>(rng() % 5);
        DenseMatrix<std::int64_t> a(k, k, 0);
        std::vector<std::int64_t> mu(static_cast<std::size_t>(k));
        for (int i = 0; i < k; ++i) {
            for (int j = 0; j <= i; ++j) {
                a(i, j) = a(j, i) = static_cast<std::int64_t>(rng() % 9) - 3;
            }
            mu[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(rng() % 7) - 2;
        }
        std::vector<int> r = multiplicities(rng, k, 4);
        int n = 0;
        for (int x : r) {
            n += x;
        }
        if (n > 16) {
            r.assign(r.size(), 1);
        }
        const DenseMatrix<std::int64_t> b = expanded(a, r, r);
        EXPECT_EQ(hafnian_repeated_exact(a, r, nullptr, threads(2)).value,
                  hafnian_brute_force_exact(b))
            << "trial " << trial;
        const DenseMatrix<std::int64_t> bl = expanded(a, r, r, &mu);
        EXPECT_EQ(hafnian_repeated_exact(a, r, &mu, threads(2)).value,
                  loop_hafnian_brute_force_exact(bl))
            << "trial " << trial << " (loops)";
    }
}

TEST(Repeated, LargerPatternsMatchTheRecursionOnTheExpandedMatrix) {
    // 6 modes, 30 photons: the expanded order-30 (loop) hafnian by the recursion.
    std::mt19937_64 rng(7);
    DenseMatrix<std::int64_t> a(6, 6, 0);
    std::vector<std::int64_t> mu(6);
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j <= i; ++j) {
            a(i, j) = a(j, i) = static_cast<std::int64_t>(rng() % 11) - 5;
        }
        mu[static_cast<std::size_t>(i)] = static_cast<std::int64_t>(rng() % 5) + 1;
    }
    const std::vector<int> r{7, 3, 6, 4, 5, 5};
    EXPECT_EQ(hafnian_repeated_exact(a, r, nullptr, threads(2)).value,
              hafnian_exact(expanded(a, r, r), threads(2)).value);
    EXPECT_EQ(hafnian_repeated_exact(a, r, &mu, threads(2)).value,
              loop_hafnian_exact(expanded(a, r, r, &mu), threads(2)).value);
    // The same in floating point, within the bound.
    DenseMatrix<double> real(6, 6, 0.0);
    DenseMatrix<std::complex<double>> complex(6, 6, 0.0);
    std::vector<double> real_mu(6);
    std::vector<std::complex<double>> complex_mu(6);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < 6; ++i) {
        for (int j = 0; j <= i; ++j) {
            real(i, j) = real(j, i) = u(rng);
            complex(i, j) = complex(j, i) = {u(rng), u(rng)};
        }
        real_mu[static_cast<std::size_t>(i)] = u(rng);
        complex_mu[static_cast<std::size_t>(i)] = {u(rng), u(rng)};
    }
    for (const bool loops : {false, true}) {
        const FloatOutcome got =
            hafnian_repeated_float(real, r, loops ? &real_mu : nullptr, threads(2));
        const FloatOutcome want =
            loops ? loop_hafnian_real(expanded(real, r, r, &real_mu), Precision::double_double,
                                      threads(2))
                  : hafnian_real(expanded(real, r, r), Precision::double_double, threads(2));
        EXPECT_LE(std::abs(value_of(got) - value_of(want)), error_of(got) + error_of(want))
            << "loops " << loops;
        EXPECT_LT(error_of(got), 1e-6 * std::abs(value_of(want)))
            << "loops " << loops << " actual " << std::abs(value_of(got) - value_of(want));
        const FloatOutcome c =
            hafnian_repeated_float(complex, r, loops ? &complex_mu : nullptr, threads(2));
        const FloatOutcome cw =
            loops ? loop_hafnian_complex(expanded(complex, r, r, &complex_mu), threads(2))
                  : hafnian_complex(expanded(complex, r, r), threads(2));
        EXPECT_LE(std::abs(value_of(c) - value_of(cw)), error_of(c) + error_of(cw))
            << "complex, loops " << loops;
    }
}

TEST(Repeated, PermanentsMatchTheExpandedMatrix) {
    std::mt19937_64 rng(30);
    for (int trial = 0; trial < 60; ++trial) {
        const int m = 1 + static_cast<int>(rng() % 4), n = 1 + static_cast<int>(rng() % 4);
        DenseMatrix<std::int64_t> a(m, n, 0);
        DenseMatrix<double> real(m, n, 0.0);
        for (int i = 0; i < m; ++i) {
            for (int j = 0; j < n; ++j) {
                a(i, j) = static_cast<std::int64_t>(rng() % 9) - 4;
                real(i, j) = static_cast<double>(a(i, j)) / 4;  // exact
            }
        }
        std::vector<int> rows = multiplicities(rng, m, 3), cols = multiplicities(rng, n, 3);
        int total = 0, other = 0;
        for (int x : rows) {
            total += x;
        }
        for (int x : cols) {
            other += x;
        }
        // Make the totals agree (most trials) by moving the difference to one line.
        if (trial % 5 != 0 && total != other) {
            (total > other ? cols[0] : rows[0]) += std::abs(total - other);
            total = std::max(total, other);
        }
        if (total > 11) {
            continue;
        }
        const DenseMatrix<std::int64_t> b = expanded(a, rows, cols);
        const BigInt want = b.rows() == b.cols() ? brute_force_exact(b) : BigInt(0);
        EXPECT_EQ(permanent_repeated_exact(a, rows, cols, threads(2)).value, want)
            << "trial " << trial;
        const FloatOutcome f = permanent_repeated_float(real, rows, cols, threads(1));
        // The reference, want/4^N in double, carries one rounding of its own.
        const double scaled = std::ldexp(want.to_double(), -2 * b.rows());
        EXPECT_LE(std::abs(value_of(f).real() - scaled), error_of(f) + 0x1p-53 * std::fabs(scaled))
            << "trial " << trial;
    }
}

TEST(Repeated, ThreadsDoNotChangeTheResultAndBadInputIsRefused) {
    std::mt19937_64 rng(5);
    const std::vector<double>* no_mu = nullptr;
    DenseMatrix<double> a(8, 8, 0.0);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j <= i; ++j) {
            a(i, j) = a(j, i) = u(rng);
        }
    }
    const std::vector<int> r{3, 2, 4, 1, 2, 3, 2, 3};
    const FloatOutcome one = hafnian_repeated_float(a, r, no_mu, threads(1));
    const FloatOutcome two = hafnian_repeated_float(a, r, no_mu, threads(2));
    EXPECT_EQ(one.mantissa, two.mantissa);
    EXPECT_EQ(one.abs_error_mantissa, two.abs_error_mantissa);
    EXPECT_THROW(hafnian_repeated_float(a, {1, 2}, no_mu, threads(1)), InvalidArgument);
    EXPECT_THROW(hafnian_repeated_float(a, {1, 2, 3, 4, 5, 6, 7, -1}, no_mu, threads(1)),
                 InvalidArgument);
    DenseMatrix<double> asymmetric = a;
    asymmetric(0, 1) += 1;
    EXPECT_THROW(hafnian_repeated_float(asymmetric, r, no_mu, threads(1)), InvalidArgument);
    EXPECT_THROW(hafnian_repeated_float(a, std::vector<int>(8, 300), no_mu, threads(1)),
                 ProblemTooLarge);
    // Trivial patterns: nothing repeated is 1; an odd total has no perfect matching.
    EXPECT_EQ(hafnian_repeated_float(a, std::vector<int>(8, 0), no_mu, threads(1)).mantissa,
              std::complex<double>(1.0));
    EXPECT_EQ(hafnian_repeated_float(a, {1, 0, 0, 0, 0, 0, 0, 0}, no_mu, threads(1)).mantissa,
              std::complex<double>(0.0));
}

TEST(RepeatedApi, PublicEntriesPickTheArithmeticAndRefuseWhatTheyLack) {
    const DenseMatrix<std::int64_t> a(2, 2, std::vector<std::int64_t>{1, 2, 2, 3});
    // reduction(A, [2, 2]) = [[1, 1, 2, 2], [1, 1, 2, 2], [2, 2, 3, 3], [2, 2, 3, 3]].
    const CountResult h = hafnian_repeated(a, {2, 2});
    ASSERT_TRUE(h.is_exact);
    EXPECT_EQ(h.exact, hafnian_brute_force_exact(expanded(a, {2, 2}, {2, 2})));
    EXPECT_EQ(h.method, "hafnian_repeated");
    const CountResult l = loop_hafnian_repeated(a, {2, 1}, std::vector<std::int64_t>{5, 7});
    const std::vector<std::int64_t> mu{5, 7};
    EXPECT_EQ(l.exact, loop_hafnian_brute_force_exact(expanded(a, {2, 1}, {2, 1}, &mu)));
    const DenseMatrix<double> real(2, 2, std::vector<double>{0.5, 0.25, 0.25, 2.0});
    const CountResult f = hafnian_repeated(real, {3, 1});
    EXPECT_FALSE(f.is_exact);
    EXPECT_EQ(f.error_kind, "estimate");  // the paired copies, counted twice (paired.hpp)
    EXPECT_LE(std::fabs(f.value - hafnian_brute_force(expanded(real, {3, 1}, {3, 1}))),
              f.abs_error);
    const CountResult p = permanent_repeated(a, {1, 2}, {2, 1});
    EXPECT_EQ(p.exact, brute_force_exact(expanded(a, {1, 2}, {2, 1})));
    // The cost model picks: 10 modes twice each (3^10 points against an order-20 hafnian) is
    // counted on the reduction, 2 modes 30 times each (961 points against order 60) summed.
    std::mt19937_64 rng(9);
    DenseMatrix<std::int64_t> wide(10, 10, 0);
    for (int i = 0; i < 10; ++i) {
        for (int j = 0; j <= i; ++j) {
            wide(i, j) = wide(j, i) = static_cast<std::int64_t>(rng() % 7) - 3;
        }
    }
    const std::vector<int> twice(10, 2);
    const CountResult expanded_count = hafnian_repeated(wide, twice);
    EXPECT_EQ(expanded_count.method, "hafnian");
    EXPECT_NE(expanded_count.note.find("reduction"), std::string::npos) << expanded_count.note;
    EXPECT_EQ(expanded_count.exact, hafnian_repeated_exact(wide, twice, nullptr, threads(2)).value);
    const CountResult summed = hafnian_repeated(a, {30, 30});
    EXPECT_EQ(summed.method, "hafnian_repeated");
    CountOptions gpu;
    gpu.backend = Backend::cuda;
    EXPECT_THROW(hafnian_repeated(a, {1, 1}, gpu), InvalidArgument);
    CountOptions ryser;
    ryser.method = Method::ryser;
    EXPECT_THROW(permanent_repeated(a, {1, 1}, {1, 1}, ryser), InvalidArgument);
    CountOptions exact;
    exact.precision = Precision::exact;
    EXPECT_THROW(hafnian_repeated(real, {1, 1}, exact), InvalidArgument);
}

}  // namespace
}  // namespace pmcount::exact
