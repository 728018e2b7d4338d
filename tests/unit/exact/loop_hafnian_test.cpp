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
#include "support/engine_run.hpp"
#include "support/float_outcome.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::exact {
namespace {

using test::error_of;
using test::threads;
using test::value_of;

using boost::multiprecision::cpp_int;

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
            EXPECT_LE(std::fabs(value_of(r).real() - truth), error_of(r) + 1e-15 * std::fabs(truth))
                << "seed " << seed << " order " << n << " " << to_string(p);
            EXPECT_LE(error_of(r), 1e-10 * std::fabs(truth) + 1e-300) << "seed " << seed;
        }
        const std::complex<double> c_truth = loop_hafnian_brute_force(c);
        const FloatOutcome r = loop_hafnian_complex(c, threads(2));
        EXPECT_LE(std::abs(value_of(r) - c_truth), error_of(r) + 1e-15 * std::abs(c_truth))
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

// ---- the public entry point (pmcount/count.hpp)

TEST(LoopHafnianApi, BlocksMultiplyAndEveryTypeIsCounted) {
    // Two blocks and a lone loop: the product of the blocks', each by the engine.
    std::vector<Triplet<std::int64_t>> entries{{0, 0, 1}, {0, 1, 2}, {1, 0, 2}, {1, 1, 3},
                                               {1, 2, 4}, {2, 1, 4}, {2, 2, 5}, {3, 4, 1},
                                               {4, 3, 1}, {4, 4, 6}, {5, 5, 9}};
    const SparseMatrix<std::int64_t> a(6, 6, entries);
    const CountResult r = loop_hafnian(a);
    ASSERT_TRUE(r.is_exact);
    EXPECT_EQ(r.exact, loop_hafnian_brute_force_exact(a.to_dense()));
    EXPECT_EQ(r.exact.to_string(), "261");  // (1·3·5 + 2·5 + 4·1)·(0·6 + 1)·9
    EXPECT_EQ(r.method, "loop-hafnian");
    std::vector<Triplet<double>> real;
    std::vector<Triplet<std::complex<double>>> complex;
    for (const auto& t : entries) {
        real.push_back({t.row, t.col, 0.5 * static_cast<double>(t.value)});
        complex.push_back({t.row, t.col, {0.5 * static_cast<double>(t.value), 0.25}});
    }
    const SparseMatrix<double> b(6, 6, real);
    const CountResult f = loop_hafnian(b);
    const double truth = loop_hafnian_brute_force(b.to_dense());
    EXPECT_LE(std::fabs(f.value - truth), f.abs_error);
    EXPECT_GT(f.abs_error, 0.0);
    EXPECT_LT(f.rel_error, 1e-14);
    const SparseMatrix<std::complex<double>> c(6, 6, complex);
    const CountResult z = loop_hafnian(c);
    EXPECT_LE(std::abs(z.complex_value - loop_hafnian_brute_force(c.to_dense())), z.abs_error);
    CountOptions dd;
    dd.precision = Precision::double_double;
    const CountResult d = loop_hafnian(b, dd);
    EXPECT_EQ(d.error_kind, "bound");
    EXPECT_LE(std::fabs(d.value - truth), d.abs_error + 1e-15 * truth);
}

/// A seeded symmetric integer matrix (edges below 2^42 in magnitude, loops in [−3, 3]) whose
/// loop hafnian cancels: lhaf is linear in the last vertex's entries, a_ll·L_l + Σ_j a_lj·L_j
/// with L_l the loop hafnian without l = n − 1 and L_j that without l and j, so the edge against
/// the largest |L_k| brings the sum within |L_k|/2 of 0 while the terms stay ~2^42 larger.
DenseMatrix<std::int64_t> cancelling_loop_matrix(int n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    const std::int64_t top = (std::int64_t{1} << 42) - 1;
    DenseMatrix<std::int64_t> m(n, n, 0);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < i; ++j) {
            m(i, j) = m(j, i) =
                static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * top + 1)) - top;
        }
        m(i, i) = static_cast<std::int64_t>(rng() % 7) - 3;
    }
    const int l = n - 1;
    const auto without = [&](int k) {  // the loop hafnian of m without l and k
        std::vector<int> keep;
        for (int i = 0; i < l; ++i) {
            if (i != k) {
                keep.push_back(i);
            }
        }
        DenseMatrix<std::int64_t> minor(static_cast<vertex_t>(keep.size()),
                                        static_cast<vertex_t>(keep.size()), 0);
        for (std::size_t r = 0; r < keep.size(); ++r) {
            for (std::size_t c = 0; c < keep.size(); ++c) {
                minor(static_cast<vertex_t>(r), static_cast<vertex_t>(c)) = m(keep[r], keep[c]);
            }
        }
        return cpp_int(loop_hafnian_brute_force_exact(minor).to_string());
    };
    std::vector<cpp_int> minors;  // [k] for the pair (l, k), [l] for l's loop
    int largest = 0;
    for (int k = 0; k <= l; ++k) {
        minors.push_back(without(k == l ? -1 : k));
        if (k < l && abs(minors.back()) > abs(minors[static_cast<std::size_t>(largest)])) {
            largest = k;
        }
    }
    cpp_int rest = 0;
    for (int k = 0; k <= l; ++k) {
        rest += k == largest ? cpp_int(0) : cpp_int(m(l, k)) * minors[static_cast<std::size_t>(k)];
    }
    const cpp_int q = -rest / minors[static_cast<std::size_t>(largest)];
    m(l, largest) = m(largest, l) = static_cast<std::int64_t>(q);
    return m;
}

TEST(LoopHafnianApi, CancellationIsCountedAgainAndOptionsItLacksAreRefused) {
    // Integer values as doubles whose loop hafnian cancels: the double figure shows it, and the
    // default precision counts the integers exactly instead.
    const int n = 12;
    const DenseMatrix<std::int64_t> integers = cancelling_loop_matrix(n, 12);
    DenseMatrix<double> a(n, n, 0.0);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = static_cast<double>(integers(i, j));
        }
    }
    const BigInt exact = loop_hafnian_exact(integers, threads(2)).value;
    CountOptions plain;
    plain.precision = Precision::double_precision;
    const CountResult once = loop_hafnian(a, plain);
    EXPECT_LE(std::fabs(once.value - exact.to_double()), once.abs_error);
    EXPECT_GT(once.rel_error, 1e-6);  // the figure shows the cancellation …
    const CountResult r = loop_hafnian(a);
    EXPECT_EQ(r.escalated_from, "double");  // … and the default precision counts again
    EXPECT_TRUE(r.is_exact);
    EXPECT_EQ(r.exact, exact);
    // Halved around every vertex (a_ij/4, a_ii/2: lhaf/2^n): no longer integers, so
    // double-double, within its bound.
    DenseMatrix<double> halved(n, n, 0.0);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            halved(i, j) = a(i, j) / (i == j ? 2 : 4);
        }
    }
    const CountResult dd = loop_hafnian(halved);
    EXPECT_EQ(dd.escalated_from, "double");
    EXPECT_EQ(dd.error_kind, "bound");
    const double truth = std::ldexp(exact.to_double(), -n);
    EXPECT_LE(std::fabs(dd.value - truth), dd.abs_error + 1e-15 * std::fabs(truth));
    EXPECT_LT(dd.rel_error, 1e-6);
    CountOptions gpu;
    gpu.backend = Backend::cuda;
    EXPECT_THROW(loop_hafnian(a, gpu), InvalidArgument);
    CountOptions ryser;
    ryser.method = Method::ryser;
    EXPECT_THROW(loop_hafnian(a, ryser), InvalidArgument);
    CountOptions certified;
    certified.precision = Precision::certified;
    EXPECT_THROW(loop_hafnian(a, certified), InvalidArgument);
    EXPECT_THROW(loop_hafnian(DenseMatrix<double>(2, 3, 1.0)), DimensionMismatch);
    CountOptions explain;
    explain.explain_only = true;
    const CountResult plan = loop_hafnian(a, explain);
    EXPECT_TRUE(plan.explained_only);
    EXPECT_NE(plan.structure.plan_text.find("order 12"), std::string::npos);
}

}  // namespace
}  // namespace pmcount::exact
