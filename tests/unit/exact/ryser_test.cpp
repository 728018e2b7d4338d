// Dense Ryser engines against the brute-force oracle, across arithmetics, lane layouts and thread
// counts, plus the honesty of the floating-point error estimate.
#include "exact/ryser/ryser.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "exact/brute_force.hpp"
#include "numeric/crt.hpp"
#include "numeric/primes.hpp"
#include "pmcount/error.hpp"
#include "support/engine_run.hpp"
#include "support/random_matrices.hpp"

namespace pmcount::exact {
namespace {

using test::threads;

TEST(RyserExact, MatchesBruteForceOnRandomBinaryAndIntegerMatrices) {
    for (std::uint64_t seed = 0; seed < 120; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = seed % 2 == 0
                           ? test::random_binary(n, 0.3 + 0.05 * static_cast<double>(seed % 10), seed)
                           : test::random_integer(n, -9, 9, 0.7, seed);
        const ExactOutcome out = ryser_exact(a, seed % 2 == 0, threads(2));
        EXPECT_EQ(out.value, brute_force_exact(a)) << "seed " << seed << " n " << n;
    }
}

TEST(RyserExact, EveryArithmeticPathAgreesWithBruteForce) {
    // Row norms decide the path: tiny → exact 128-bit products, small → 4 lanes, medium → 8
    // lanes, huge → one prime per pass. Order 8 (padded width 8) puts two rows in each of four
    // lanes and one in each of eight.
    struct Case {
        std::int64_t magnitude;
        const char* path;
    };
    for (const Case c : {Case{3, "128-bit"}, Case{std::int64_t{1} << 14, "lanes ×4"},
                         Case{std::int64_t{1} << 28, "lanes ×8"},
                         Case{std::int64_t{1} << 61, "modular ("}}) {
        for (std::uint64_t seed = 0; seed < 12; ++seed) {
            const int n = 8;
            const auto a = test::random_integer(n, -c.magnitude, c.magnitude, 0.95, 100 + seed);
            const ExactOutcome out = ryser_exact(a, false, threads(2));
            EXPECT_NE(out.arithmetic.find(c.path), std::string::npos)
                << out.arithmetic << " for magnitude " << c.magnitude << " seed " << seed;
            EXPECT_EQ(out.value, brute_force_exact(a)) << "magnitude " << c.magnitude;
        }
    }
}

TEST(RyserExact, ExtremeEntries) {
    const std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
    const std::int64_t highest = std::numeric_limits<std::int64_t>::max();
    const DenseMatrix<std::int64_t> a(3, 3, {lowest, highest, 1, -1, lowest, highest, highest, 0, lowest});
    EXPECT_EQ(ryser_exact(a, false, threads(1)).value, brute_force_exact(a));
}

TEST(RyserExact, TrivialOrders) {
    EXPECT_EQ(ryser_exact(DenseMatrix<std::int64_t>(0, 0), true, {}).value, BigInt(1));
    EXPECT_EQ(ryser_exact(DenseMatrix<std::int64_t>(1, 1, {5}), false, {}).value, BigInt(5));
    EXPECT_EQ(ryser_exact(DenseMatrix<std::int64_t>(1, 1, {0}), true, {}).value, BigInt(0));
    EXPECT_THROW(ryser_exact(DenseMatrix<std::int64_t>(65, 65, 1), true, {}), ProblemTooLarge);
    EXPECT_THROW(ryser_exact(DenseMatrix<std::int64_t>(3, 4, 1), true, {}), DimensionMismatch);
}

TEST(RyserExact, ResultDoesNotDependOnThreadCount) {
    const auto a = test::random_binary(22, 0.5, 42);
    const BigInt one = ryser_exact(a, true, threads(1)).value;
    EXPECT_EQ(ryser_exact(a, true, threads(2)).value, one);
    EXPECT_EQ(ryser_exact(a, true, threads(3)).value, one);
    EXPECT_FALSE(one.is_zero());
}

TEST(RyserExact, ReportsMonotoneProgressFromOneThread) {
    const auto a = test::random_binary(22, 0.5, 43);
    run::EngineRun run = threads(2);
    run.progress_interval_s = 0;  // every chunk the reporting thread finishes
    std::vector<Progress> seen;
    run.progress = [&](const Progress& p) { seen.push_back(p); };
    const BigInt value = ryser_exact(a, true, run).value;
    EXPECT_EQ(value, ryser_exact(a, true, threads(1)).value);
    ASSERT_FALSE(seen.empty());
    for (std::size_t k = 0; k < seen.size(); ++k) {
        EXPECT_GT(seen[k].fraction, 0);
        EXPECT_LE(seen[k].fraction, 1);
        EXPECT_GE(seen[k].elapsed_s, 0);
        if (k > 0) {
            EXPECT_GE(seen[k].fraction, seen[k - 1].fraction);
            EXPECT_GE(seen[k].elapsed_s, seen[k - 1].elapsed_s);
        }
    }
}

TEST(RyserModular, ResidueOfTheExactPermanent) {
    const auto primes = numeric::large_primes(3);
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const auto a = test::random_integer(1 + static_cast<int>(seed % 8), -1000, 1000, 0.8, seed);
        const BigInt exact = brute_force_exact(a);
        for (const auto p : primes) {
            EXPECT_EQ(ryser_modular(a, p, threads(2)), numeric::mod(exact, p));
        }
        EXPECT_EQ(ryser_modular(a, 1000003, threads(1)), numeric::mod(exact, 1000003));
    }
    EXPECT_THROW(ryser_modular(DenseMatrix<std::int64_t>(2, 2, 1), 15, {}), InvalidArgument);
}

double relative_difference(std::complex<double> a, std::complex<double> b) {
    return std::abs(a - b) / std::abs(b);
}

std::complex<double> value_of(const FloatOutcome& out) {
    const int e = static_cast<int>(out.exponent2);
    return {std::ldexp(out.mantissa.real(), e), std::ldexp(out.mantissa.imag(), e)};
}

TEST(RyserReal, MatchesBruteForceInDoubleAndDoubleDouble) {
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = test::random_real(n, seed % 3 == 0 ? -1.0 : 0.0, 1.0, 0.8, seed);
        const double reference = brute_force(a);
        for (const Precision p : {Precision::double_precision, Precision::double_double}) {
            const FloatOutcome out = ryser_real(a, p, threads(2));
            const double value = value_of(out).real();
            const double error_bound = std::ldexp(out.abs_error_mantissa, static_cast<int>(out.exponent2));
            // The estimate covers the true error (plus the oracle's own final rounding).
            EXPECT_LE(std::fabs(value - reference), error_bound + 0x1p-52 * std::fabs(reference))
                << "seed " << seed << " precision " << to_string(p);
        }
    }
}

TEST(RyserReal, RowScalingKeepsHugeAndTinyEntriesFinite) {
    // perm(c·J_n) = n!·c^n: with c = 2^200 the value is far beyond double, yet mantissa and
    // exponent represent it; with c = 2^-300 it would underflow without scaling.
    for (const double c : {std::ldexp(1.0, 200), std::ldexp(1.0, -300), 3.0}) {
        const int n = 12;
        const FloatOutcome out = ryser_real(DenseMatrix<double>(n, n, c), Precision::double_precision, threads(2));
        const double log2_expected = std::log2(479001600.0) + n * std::log2(c);
        const double log2_value = std::log2(std::abs(out.mantissa)) + static_cast<double>(out.exponent2);
        EXPECT_NEAR(log2_value, log2_expected, 1e-12) << c;
    }
}

TEST(RyserReal, BitIdenticalAcrossThreadCounts) {
    const auto a = test::random_real(21, -1.0, 1.0, 1.0, 77);
    const FloatOutcome one = ryser_real(a, Precision::double_precision, threads(1));
    for (const int t : {2, 3, 5}) {
        const FloatOutcome other = ryser_real(a, Precision::double_precision, threads(t));
        EXPECT_EQ(other.mantissa, one.mantissa);
        EXPECT_EQ(other.exponent2, one.exponent2);
    }
}

TEST(RyserReal, ErrorEstimateCoversMeasuredErrorAtLargerOrders) {
    // Double against double-double at n = 14..20, on positive and on signed (cancelling) inputs:
    // the estimate must cover the measured error, and must not be vacuous for positive inputs.
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        const int n = 14 + static_cast<int>(seed % 7);
        const bool signed_entries = seed % 2 == 1;
        const auto a = test::random_real(n, signed_entries ? -1.0 : 0.0, 1.0, 1.0, 500 + seed);
        const FloatOutcome d = ryser_real(a, Precision::double_precision, threads(2));
        const FloatOutcome dd = ryser_real(a, Precision::double_double, threads(2));
        ASSERT_EQ(d.exponent2, dd.exponent2);
        const double error = std::abs(d.mantissa - dd.mantissa);
        EXPECT_LE(error, d.abs_error_mantissa) << "n " << n << " seed " << seed;
        if (!signed_entries) {
            EXPECT_LT(d.abs_error_mantissa / std::abs(d.mantissa), 1e-9) << "n " << n;
        }
    }
}

TEST(RyserComplex, MatchesBruteForce) {
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
        const int n = 1 + static_cast<int>(seed % 9);
        const auto a = test::random_complex(n, 0.85, seed);
        const std::complex<double> reference = brute_force(a);
        const FloatOutcome out = ryser_complex(a, threads(2));
        const double error_bound = std::ldexp(out.abs_error_mantissa, static_cast<int>(out.exponent2));
        EXPECT_LE(std::abs(value_of(out) - reference), error_bound + 0x1p-52 * std::abs(reference))
            << "seed " << seed;
        if (std::abs(reference) > 1e-3) {
            EXPECT_LT(relative_difference(value_of(out), reference), 1e-11) << "seed " << seed;
        }
    }
}

TEST(RyserFloat, ZeroRowGivesExactZero) {
    DenseMatrix<double> a(5, 5, 1.0);
    for (int j = 0; j < 5; ++j) {
        a(2, j) = 0;
    }
    const FloatOutcome out = ryser_real(a, Precision::double_precision, {});
    EXPECT_EQ(out.mantissa, std::complex<double>(0));
    EXPECT_EQ(out.abs_error_mantissa, 0.0);
}

}  // namespace
}  // namespace pmcount::exact
