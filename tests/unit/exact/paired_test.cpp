// The paired engine for repeated rows (exact/hafnian/paired.hpp) against brute force on the
// expanded matrix and against the sum over the multiplicities (repeated.hpp), exactly; its
// floating figure against exact values; the pairing; thread-count independence; the planner's
// choice.
#include "exact/hafnian/paired.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "exact/brute_force.hpp"
#include "exact/hafnian/repeated.hpp"
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

DenseMatrix<std::int64_t> random_symmetric(std::mt19937_64& rng, int k, int spread) {
    DenseMatrix<std::int64_t> a(k, k, 0);
    for (int i = 0; i < k; ++i) {
        for (int j = 0; j <= i; ++j) {
            a(i, j) = a(j, i) =
                static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(2 * spread + 1)) -
                spread;
        }
    }
    return a;
}

TEST(Paired, PairingCoversEveryCopyWithFewPoints) {
    // thewalrus's GBS pattern: modes of 4 pair with each other, modes of 3 likewise: 5²·4⁴.
    const std::vector<int> r{4, 3, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3};
    const std::vector<PairType> types = pair_copies(r);
    std::vector<int> degree(r.size(), 0);
    double points = 1;
    for (const PairType& t : types) {
        degree[static_cast<std::size_t>(t.a)] += t.count;
        degree[static_cast<std::size_t>(t.b)] += t.count;
        points *= t.count + 1;
    }
    EXPECT_EQ(degree, r);
    EXPECT_EQ(points, 6400);
    EXPECT_EQ(types.front().count, 4);  // the most pairs first: it takes the halving
    // One mode alone pairs with itself; the work counts half of the first type's points.
    const std::vector<PairType> alone = pair_copies({6});
    ASSERT_EQ(alone.size(), 1U);
    EXPECT_EQ(alone[0].a, alone[0].b);
    EXPECT_EQ(alone[0].count, 3);
    EXPECT_EQ(paired_work({4, 3, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3}, false).points, 3 * 5 * 256);
    EXPECT_EQ(paired_work({1, 2}, false).points, 0);  // an odd total: the hafnian is 0
    EXPECT_GT(paired_work({1, 2}, true).points, 0);   // loops: padded by one mode
}

TEST(Paired, ExactHafniansMatchBruteForceOnTheExpandedMatrix) {
    std::mt19937_64 rng(351);
    for (int trial = 0; trial < 120; ++trial) {
        const int k = 1 + static_cast<int>(rng() % 4);
        const DenseMatrix<std::int64_t> a = random_symmetric(rng, k, 3);
        std::vector<int> r = multiplicities(rng, k, 3);
        std::vector<std::int64_t> mu(static_cast<std::size_t>(k));
        for (std::int64_t& m : mu) {
            m = static_cast<std::int64_t>(rng() % 5) - 2;
        }
        int total = 0;
        for (const int x : r) {
            total += x;
        }
        if (total > 10) {
            continue;
        }
        const bool loops = trial % 2 == 1;
        if (loops) {
            EXPECT_EQ(hafnian_paired_exact(a, r, &mu, threads(1)).value,
                      loop_hafnian_brute_force_exact(expanded(a, r, r, &mu)))
                << "trial " << trial;
        } else {
            EXPECT_EQ(hafnian_paired_exact(a, r, nullptr, threads(1)).value,
                      hafnian_brute_force_exact(expanded(a, r, r)))
                << "trial " << trial;
        }
    }
}

TEST(Paired, ExactAgreesWithTheSumOverMultiplicities) {
    std::mt19937_64 rng(352);
    for (int trial = 0; trial < 200; ++trial) {
        const int k = 1 + static_cast<int>(rng() % 6);
        const DenseMatrix<std::int64_t> a = random_symmetric(rng, k, trial % 3 == 0 ? 1000 : 3);
        std::vector<int> r = multiplicities(rng, k, 5);
        std::vector<std::int64_t> mu(static_cast<std::size_t>(k));
        for (std::int64_t& m : mu) {
            m = static_cast<std::int64_t>(rng() % 9) - 4;
        }
        const bool loops = trial % 2 == 1;
        EXPECT_EQ(hafnian_paired_exact(a, r, loops ? &mu : nullptr, threads(2)).value,
                  hafnian_repeated_exact(a, r, loops ? &mu : nullptr, threads(2)).value)
            << "trial " << trial;
    }
}

TEST(Paired, FloatingFigureCoversTheExactValue) {
    // Integer matrices as floats: the exact value is known. The figure is an estimate from two
    // runs with different roundings; it may rarely fall short (docs/photonics.md gives the rate),
    // so at least 199 of 200 must be covered, and it must stay tight where nothing cancels badly.
    std::mt19937_64 rng(353);
    int covered = 0, cases = 0;
    std::vector<double> relative;
    for (int trial = 0; trial < 200; ++trial) {
        const int k = 2 + static_cast<int>(rng() % 5);
        const DenseMatrix<std::int64_t> a = random_symmetric(rng, k, 3);
        std::vector<int> r = multiplicities(rng, k, 5);
        std::vector<std::int64_t> mu(static_cast<std::size_t>(k));
        for (std::int64_t& m : mu) {
            m = static_cast<std::int64_t>(rng() % 9) - 4;
        }
        const bool loops = trial % 2 == 1;
        const BigInt truth = hafnian_paired_exact(a, r, loops ? &mu : nullptr, threads(1)).value;
        DenseMatrix<double> real(k, k);
        for (int i = 0; i < k; ++i) {
            for (int j = 0; j < k; ++j) {
                real(i, j) = static_cast<double>(a(i, j));
            }
        }
        const std::vector<double> real_mu(mu.begin(), mu.end());
        const FloatOutcome f =
            hafnian_paired_float(real, r, loops ? &real_mu : nullptr, threads(1));
        const double exact = std::stod(truth.to_string());
        ++cases;
        covered += std::abs(value_of(f) - exact) <= error_of(f) + 1e-300 ? 1 : 0;
        if (exact != 0) {
            relative.push_back(error_of(f) / std::fabs(exact));
        }
    }
    EXPECT_GE(covered, cases - 1);
    std::sort(relative.begin(), relative.end());
    EXPECT_LT(relative[relative.size() / 2], 1e-11);
}

TEST(Paired, ComplexAgreesWithTheBoundedSum) {
    std::mt19937_64 rng(354);
    std::normal_distribution<double> gauss(0.0, 0.3);
    for (int trial = 0; trial < 30; ++trial) {
        const int k = 2 + static_cast<int>(rng() % 4);
        DenseMatrix<std::complex<double>> a(k, k);
        for (int i = 0; i < k; ++i) {
            for (int j = 0; j <= i; ++j) {
                a(i, j) = a(j, i) = {gauss(rng), gauss(rng)};
            }
        }
        const std::vector<int> r = multiplicities(rng, k, 4);
        std::vector<std::complex<double>> mu(static_cast<std::size_t>(k));
        for (auto& m : mu) {
            m = {gauss(rng), gauss(rng)};
        }
        const bool loops = trial % 2 == 1;
        const FloatOutcome p = hafnian_paired_float(a, r, loops ? &mu : nullptr, threads(2));
        const FloatOutcome s = hafnian_repeated_float(a, r, loops ? &mu : nullptr, threads(2));
        EXPECT_LE(std::abs(value_of(p) - value_of(s)), error_of(p) + error_of(s))
            << "trial " << trial;
    }
}

TEST(Paired, LargeMultiplicities) {
    // One pair type of 70 pairs: weights up to C(70, 35) ≈ 1.1·10^20, beyond 64 bits.
    const DenseMatrix<std::int64_t> a(2, 2, std::vector<std::int64_t>{1, 2, 2, -1});
    const std::vector<int> r{70, 70};
    EXPECT_EQ(hafnian_paired_exact(a, r, nullptr, threads(2)).value,
              hafnian_repeated_exact(a, r, nullptr, threads(2)).value);
    const std::vector<std::int64_t> mu{1, -2};
    EXPECT_EQ(hafnian_paired_exact(a, {70, 69}, &mu, threads(2)).value,
              hafnian_repeated_exact(a, {70, 69}, &mu, threads(2)).value);
    // In double these terms cancel by far more than 10^16: the figure says so, and the public
    // entry counts again with a bound (double-double; the value itself is tiny against its
    // terms, so even that bound is wide — but it holds).
    const DenseMatrix<double> real(2, 2, std::vector<double>{0.5, 0.25, 0.25, -0.5});
    const std::vector<double>* no_mu = nullptr;
    const FloatOutcome p = hafnian_paired_float(real, r, no_mu, threads(2));
    const FloatOutcome s = hafnian_repeated_float(real, r, no_mu, threads(2));
    EXPECT_LE(std::abs(value_of(p) - value_of(s)), error_of(p) + error_of(s));
    const CountResult counted = hafnian_repeated(real, r);
    EXPECT_EQ(counted.error_kind, "bound") << counted.note;
    EXPECT_LE(std::abs(counted.value - value_of(s).real()), counted.abs_error + error_of(s));
    EXPECT_NE(counted.note.find("counted again with a bound"), std::string::npos) << counted.note;
}

TEST(Paired, NonFiniteEntriesAreRefused) {
    DenseMatrix<double> a(2, 2, std::vector<double>{1.0, 2.0, 2.0, 1.0});
    const std::vector<double>* no_mu = nullptr;
    a(0, 1) = a(1, 0) = std::numeric_limits<double>::infinity();
    EXPECT_THROW(hafnian_paired_float(a, {2, 2}, no_mu, threads(1)), InvalidArgument);
    a(0, 1) = a(1, 0) = 2.0;
    const std::vector<double> mu{1.0, std::nan("")};
    EXPECT_THROW(hafnian_paired_float(a, {2, 1}, &mu, threads(1)), InvalidArgument);
}

TEST(Paired, ThreadsGiveTheSameValue) {
    std::mt19937_64 rng(355);
    const DenseMatrix<std::int64_t> a = random_symmetric(rng, 8, 3);
    DenseMatrix<double> real(8, 8);
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 8; ++j) {
            real(i, j) = static_cast<double>(a(i, j)) / 3.0;
        }
    }
    const std::vector<int> r{4, 3, 4, 3, 2, 3, 1, 2};
    const std::vector<double>* no_mu = nullptr;
    const FloatOutcome one = hafnian_paired_float(real, r, no_mu, threads(1));
    const FloatOutcome two = hafnian_paired_float(real, r, no_mu, threads(2));
    EXPECT_EQ(one.mantissa, two.mantissa);
    EXPECT_EQ(one.abs_error_mantissa, two.abs_error_mantissa);
    EXPECT_EQ(hafnian_paired_exact(a, r, nullptr, threads(1)).value,
              hafnian_paired_exact(a, r, nullptr, threads(2)).value);
}

TEST(Paired, PlannerPicksItForPhotonPatterns) {
    std::mt19937_64 rng(356);
    std::normal_distribution<double> gauss(0.0, 0.25);
    DenseMatrix<std::complex<double>> a(12, 12);
    for (int i = 0; i < 12; ++i) {
        for (int j = 0; j <= i; ++j) {
            a(i, j) = a(j, i) = {gauss(rng), gauss(rng)};
        }
    }
    const std::vector<int> r{4, 3, 4, 3, 4, 3, 4, 3, 3, 3, 3, 3};
    const CountResult c = hafnian_repeated(a, r);
    EXPECT_EQ(c.error_kind, "estimate");
    EXPECT_NE(c.note.find("summed over the paired copies"), std::string::npos) << c.note;
    // Double-double asked for: the engine with a bound (the paired figure is an estimate).
    CountOptions dd;
    dd.precision = Precision::double_double;
    const CountResult bounded = hafnian_repeated(a, {2, 1, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0}, dd);
    EXPECT_EQ(bounded.error_kind, "bound");
}

}  // namespace
}  // namespace pmcount::exact
