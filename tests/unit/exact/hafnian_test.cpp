// The hafnian engine (Björklund's recursion) against the pairings oracle, closed forms and the
// permanent, in every arithmetic; thread-count independence; cancellation; bad input.
#include "exact/hafnian/hafnian.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <stdexcept>
#include <string>

#include "exact/brute_force.hpp"
#include "exact/hafnian/prime_lanes.hpp"
#include "exact/ryser/ryser.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"
#include "support/closed_forms.hpp"
#include "support/general_graphs.hpp"
#include "support/random_matrices.hpp"

namespace pmcount::exact {
namespace {

EngineRun threads(int t) {
    EngineRun run;
    run.threads = t;
    return run;
}

double value(const FloatOutcome& o) {
    return std::ldexp(o.mantissa.real(), static_cast<int>(o.exponent2));
}
std::complex<double> complex_value(const FloatOutcome& o) {
    const int e = static_cast<int>(o.exponent2);
    return {std::ldexp(o.mantissa.real(), e), std::ldexp(o.mantissa.imag(), e)};
}
double bound(const FloatOutcome& o) {
    return std::ldexp(o.abs_error_mantissa, static_cast<int>(o.exponent2));
}

/// [[0, B], [Bᵀ, 0]].
template <class T>
DenseMatrix<T> embedding(const DenseMatrix<T>& b) {
    const int n = b.rows();
    DenseMatrix<T> a(2 * n, 2 * n, T{});
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, n + j) = a(n + j, i) = b(i, j);
        }
    }
    return a;
}

TEST(Hafnian, ExactAgreesWithPairingsOnRandomIntegerMatrices) {
    for (std::uint64_t seed = 1; seed <= 220; ++seed) {
        const int n = 2 * (1 + static_cast<int>(seed % 8));  // 2..16
        const double density = 0.3 + 0.1 * static_cast<double>(seed % 7);
        const auto a = seed % 2 == 0 ? test::random_symmetric_integer(n, density, 1, 1, seed)
                                     : test::random_symmetric_integer(n, density, -9, 9, seed);
        const BigInt expected = hafnian_brute_force_exact(a);
        EXPECT_EQ(hafnian_exact(a, threads(2)).value, expected) << "seed " << seed << " n " << n;
        EXPECT_EQ(expected.to_string(), test::pairings_count(a).str()) << "seed " << seed;
    }
}

TEST(Hafnian, ModularResiduesMatchTheExactValue) {
    const auto primes = numeric::largest_primes_below(27, 3);
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const auto a = test::random_symmetric_integer(12, 0.7, -1000, 1000, seed);
        const test::cpp_int exact = test::pairings_count(a);
        for (const std::uint64_t p : primes) {
            test::cpp_int r = exact % p;
            if (r < 0) {
                r += p;
            }
            EXPECT_EQ(hafnian_modular(a, p, {}), static_cast<std::uint64_t>(r)) << "seed " << seed;
        }
    }
    EXPECT_THROW(hafnian_modular(test::random_symmetric_integer(4, 1, 1, 1, 1), 1000003, {}),
                 InvalidArgument);
}

TEST(Hafnian, CompleteGraphsCyclesAndPetersen) {
    for (int m = 1; m <= 20; ++m) {
        const auto k = test::adjacency(2 * m, test::complete_edges(2 * m));
        EXPECT_EQ(hafnian_exact(k, threads(2)).value.to_string(),
                  test::double_factorial_odd(m).str())
            << "K_" << 2 * m;
    }
    for (int n = 4; n <= 30; n += 2) {
        EXPECT_EQ(hafnian_exact(test::adjacency(n, test::cycle_edges(n)), {}).value.to_string(),
                  "2")
            << "C_" << n;
    }
    EXPECT_EQ(hafnian_exact(test::adjacency(10, test::petersen_edges()), {}).value.to_string(),
              "6");
    // Weights multiply: every edge of K_6 weighted 3 gives 15·3^3.
    EXPECT_EQ(hafnian_exact(test::adjacency(6, test::complete_edges(6), 3), {}).value.to_string(),
              "405");
}

TEST(Hafnian, TrivialOrdersAndTheIgnoredDiagonal) {
    EXPECT_EQ(hafnian_exact(DenseMatrix<std::int64_t>(0, 0), {}).value.to_string(), "1");
    EXPECT_EQ(hafnian_exact(DenseMatrix<std::int64_t>(5, 5, 1), {}).value.to_string(), "0");
    EXPECT_EQ(hafnian_exact(DenseMatrix<std::int64_t>(2, 2, 7), {}).value.to_string(), "7");
    DenseMatrix<std::int64_t> loops = test::adjacency(6, test::complete_edges(6));
    for (int i = 0; i < 6; ++i) {
        loops(i, i) = 100 + i;  // the hafnian never uses the diagonal
    }
    EXPECT_EQ(hafnian_exact(loops, {}).value.to_string(), "15");
    DenseMatrix<std::int64_t> isolated = test::adjacency(6, test::complete_edges(5));
    EXPECT_EQ(hafnian_exact(isolated, {}).value.to_string(), "0");
    EXPECT_EQ(value(hafnian_real(DenseMatrix<double>(0, 0), Precision::double_precision, {})), 1);
    EXPECT_EQ(value(hafnian_real(DenseMatrix<double>(3, 3, 1.0), Precision::double_precision, {})),
              0);
}

TEST(Hafnian, BadInputIsRefused) {
    DenseMatrix<std::int64_t> asymmetric = test::adjacency(4, test::complete_edges(4));
    asymmetric(0, 1) = 2;
    EXPECT_THROW(hafnian_exact(asymmetric, {}), InvalidArgument);
    EXPECT_THROW(hafnian_exact(DenseMatrix<std::int64_t>(2, 3), {}), InvalidArgument);
    EXPECT_THROW(
        hafnian_exact(DenseMatrix<std::int64_t>(kMaxHafnianOrder + 2, kMaxHafnianOrder + 2, 1), {}),
        ProblemTooLarge);
}

TEST(Hafnian, OfTheBipartiteEmbeddingIsThePermanent) {
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        const int n = 2 + static_cast<int>(seed % 11);  // up to 12: haf of order 24
        const auto b = seed % 2 == 0 ? test::random_binary(n, 0.6, seed)
                                     : test::random_integer(n, -6, 6, 0.8, seed);
        EXPECT_EQ(hafnian_exact(embedding(b), threads(2)).value, ryser_exact(b, false, {}).value)
            << "seed " << seed;
        const auto r = test::random_real(n, -1, 1, 0.9, seed);
        const FloatOutcome h = hafnian_real(embedding(r), Precision::double_precision, {});
        const FloatOutcome p = ryser_real(r, Precision::double_double, {});
        EXPECT_LE(std::fabs(value(h) - value(p)), bound(h) + bound(p)) << "seed " << seed;
    }
}

TEST(Hafnian, EveryFloatingArithmeticIsWithinItsBound) {
    for (std::uint64_t seed = 1; seed <= 120; ++seed) {
        const int n = 2 * (1 + static_cast<int>(seed % 8));
        const bool positive = seed % 2 == 0;
        const auto a = test::random_symmetric_float<double>(n, positive ? 0.0 : -1.0, 1.0, seed);
        const double truth = hafnian_brute_force(a);
        for (const Precision p : {Precision::double_precision, Precision::double_double}) {
            const FloatOutcome r = hafnian_real(a, p, threads(2));
            EXPECT_LE(std::fabs(value(r) - truth), bound(r) + 0x1p-52 * std::fabs(truth))
                << "seed " << seed << " n " << n << " " << to_string(p);
        }
        const auto c = test::random_symmetric_float<std::complex<double>>(n, -1.0, 1.0, seed);
        const std::complex<double> c_truth = hafnian_brute_force(c);
        const FloatOutcome r = hafnian_complex(c, threads(2));
        EXPECT_LE(std::abs(complex_value(r) - c_truth), bound(r) + 0x1p-51 * std::abs(c_truth))
            << "seed " << seed;
    }
    // Integers as doubles: the bound covers the exact value, also past 2^53 (n = 36, dense).
    const auto a = test::random_symmetric_integer(36, 0.8, 1, 1, 99);
    DenseMatrix<double> real(36, 36, 0.0);
    for (int i = 0; i < 36; ++i) {
        for (int j = 0; j < 36; ++j) {
            real(i, j) = static_cast<double>(a(i, j));
        }
    }
    const double exact = hafnian_exact(a, threads(2)).value.to_double();
    const FloatOutcome r = hafnian_real(real, Precision::double_precision, threads(2));
    EXPECT_LE(std::fabs(value(r) - exact), bound(r));
    EXPECT_LT(bound(r), 1e-3 * exact);  // and it is not vacuous
}

TEST(Hafnian, ResultsDoNotDependOnTheThreadCount) {
    const auto a = test::random_symmetric_integer(38, 0.5, -3, 3, 5);  // 2^19 leaves: chunked
    const auto r = test::random_symmetric_float<double>(38, -1.0, 1.0, 5);
    const ExactOutcome e1 = hafnian_exact(a, threads(1));
    const FloatOutcome f1 = hafnian_real(r, Precision::double_precision, threads(1));
    const ExactOutcome e2 = hafnian_exact(a, threads(2));
    const FloatOutcome f2 = hafnian_real(r, Precision::double_precision, threads(2));
    EXPECT_EQ(e1.value, e2.value);
    EXPECT_EQ(f1.mantissa, f2.mantissa);
    EXPECT_EQ(f1.exponent2, f2.exponent2);
    EXPECT_EQ(f1.abs_error_mantissa, f2.abs_error_mantissa);
    // 2^19 leaves in every pass of the prime lanes; how many primes a pass takes depends on
    // the vector width the library was built for (8 with AVX-512, 4 with AVX2 or none).
    const int passes = (e1.primes + hafnian::kPrimeLanes - 1) / hafnian::kPrimeLanes;
    EXPECT_EQ(e1.gray_steps, (std::uint64_t{1} << 19) * static_cast<std::uint64_t>(passes));
    EXPECT_EQ(e2.gray_steps, e1.gray_steps);
}

TEST(Hafnian, AThrowingProgressCallbackCancels) {
    const auto a = test::random_symmetric_integer(44, 0.5, 1, 1, 3);  // seconds of work
    EngineRun run = threads(2);
    run.progress_interval_s = 0;
    int calls = 0;
    run.progress = [&calls](const Progress&) {
        ++calls;
        throw std::runtime_error("cancelled");
    };
    EXPECT_THROW(hafnian_exact(a, run), std::runtime_error);
    EXPECT_EQ(calls, 1);
    // The Gray-code engines share the chunk runner: Ryser cancels the same way.
    calls = 0;
    EXPECT_THROW(ryser_exact(test::all_ones(30), true, run), std::runtime_error);
    EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace pmcount::exact
