// SpaRyser and SkipPer against dense Ryser and the brute-force oracle: exact equality for 0-1
// and integer matrices, agreement within 1e-12 for real and complex ones, modular residues with
// small primes (where "zeros" are often nonzero multiples of p), and thread invariance.
#include "exact/ryser/sparse_ryser.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "exact/brute_force.hpp"
#include "exact/ryser/gray_code.hpp"
#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_arithmetic.hpp"
#include "numeric/crt.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/primes.hpp"
#include "support/engine_run.hpp"
#include "support/random_matrices.hpp"

namespace pmcount::exact {
namespace {

constexpr SparseVariant kVariants[] = {SparseVariant::sparyser, SparseVariant::skipper};

using test::threads;

/// A random sparse matrix; every seventh has an empty column, and low densities often give a
/// zero permanent without one.
template <class Matrix>
Matrix with_empty_column(Matrix a, std::uint64_t seed) {
    if (seed % 7 == 3 && a.cols() > 0) {
        const int c = static_cast<int>(seed % static_cast<std::uint64_t>(a.cols()));
        for (int i = 0; i < a.rows(); ++i) {
            a(i, c) = typename Matrix::value_type{};
        }
    }
    return a;
}

TEST(SparseRyser, ExactOnRandomSparseBinaryAndIntegerMatrices) {
    int zero = 0, compared = 0;
    for (std::uint64_t seed = 0; seed < 220; ++seed) {
        const int n = 1 + static_cast<int>(seed % 20);
        const double density = 0.08 + 0.03 * static_cast<double>(seed % 10);
        const auto a = with_empty_column(
            seed % 2 == 0 ? test::random_binary(n, density, seed)
                          : test::random_integer(n, -4, 4, density, seed),
            seed);
        const BigInt dense = ryser_exact(a, seed % 2 == 0, threads(2)).value;
        for (const SparseVariant v : kVariants) {
            EXPECT_EQ(sparse_ryser_exact(a, seed % 2 == 0, v, threads(2)).value, dense)
                << to_string(v) << " seed " << seed << " n " << n;
            ++compared;
        }
        if (n <= 9) {
            EXPECT_EQ(dense, brute_force_exact(a)) << "seed " << seed;
        }
        zero += dense.is_zero() ? 1 : 0;
    }
    EXPECT_GT(zero, 40);  // zero permanents are well represented
    EXPECT_GE(compared, 440);
}

TEST(SparseRyser, RealAndComplexAgreeWithDenseRyser) {
    for (std::uint64_t seed = 0; seed < 100; ++seed) {
        const int n = 1 + static_cast<int>(seed % 16);
        const double density = 0.15 + 0.05 * static_cast<double>(seed % 6);
        if (seed % 2 == 0) {
            const auto a = with_empty_column(test::random_real(n, -1.0, 1.0, density, seed), seed);
            const FloatOutcome dense = ryser_real(a, Precision::double_precision, threads(2));
            for (const SparseVariant v : kVariants) {
                const FloatOutcome s = sparse_ryser_real(a, Precision::double_precision, v, threads(2));
                const double d = std::ldexp(std::abs(s.mantissa - dense.mantissa), static_cast<int>(s.exponent2));
                const double scale = std::ldexp(std::abs(dense.mantissa), static_cast<int>(dense.exponent2));
                EXPECT_EQ(s.exponent2, dense.exponent2);
                EXPECT_LE(d, 1e-12 * scale + std::ldexp(s.abs_error_mantissa + dense.abs_error_mantissa,
                                                        static_cast<int>(s.exponent2)))
                    << to_string(v) << " seed " << seed;
            }
        } else {
            const auto a = with_empty_column(test::random_complex(n, density, seed), seed);
            const FloatOutcome dense = ryser_complex(a, threads(2));
            for (const SparseVariant v : kVariants) {
                const FloatOutcome s = sparse_ryser_complex(a, v, threads(2));
                EXPECT_LE(std::abs(s.mantissa - dense.mantissa),
                          1e-12 * std::abs(dense.mantissa) + s.abs_error_mantissa + dense.abs_error_mantissa)
                    << to_string(v) << " seed " << seed;
            }
        }
    }
}

TEST(SparseRyser, DoubleDoubleMatchesTheOracle) {
    for (std::uint64_t seed = 0; seed < 20; ++seed) {
        const int n = 2 + static_cast<int>(seed % 8);
        const auto a = test::random_real(n, 0.0, 1.0, 0.4, 700 + seed);
        const double oracle = brute_force(a);
        for (const SparseVariant v : kVariants) {
            const FloatOutcome s = sparse_ryser_real(a, Precision::double_double, v, threads(1));
            const int e = static_cast<int>(s.exponent2);
            EXPECT_NEAR(std::ldexp(s.mantissa.real(), e), oracle,
                        1e-15 * std::fabs(oracle) + std::ldexp(s.abs_error_mantissa, e))
                << "seed " << seed;
        }
    }
}

TEST(SparseRyser, ModularZerosThatAreMultiplesOfThePrimeAreSkippedCorrectly) {
    // With p = 3, 5, 7, 11, 13 many y_i are nonzero multiples of p: skipping them must still give
    // perm(A) mod p exactly.
    int checked = 0;
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        const int n = 3 + static_cast<int>(seed % 7);
        const auto a = test::random_integer(n, -6, 6, 0.5, 300 + seed);
        const BigInt exact = brute_force_exact(a);
        for (const std::uint64_t p : {3ULL, 5ULL, 7ULL, 11ULL, 13ULL}) {
            for (const SparseVariant v : kVariants) {
                EXPECT_EQ(sparse_ryser_modular(a, p, v, threads(2)), numeric::mod(exact, p))
                    << to_string(v) << " p " << p << " seed " << seed;
                ++checked;
            }
        }
    }
    EXPECT_EQ(checked, 600);
}

TEST(SparseRyser, SkippingAcrossChunkAndResetBoundaries) {
    // Order 22: 2^21 Gray steps in 2^10 chunks and 2^10-step float resets, with long skips.
    const auto a = test::random_binary(22, 0.15, 99);
    const BigInt dense = ryser_exact(a, true, threads(2)).value;
    EXPECT_EQ(sparse_ryser_exact(a, true, SparseVariant::skipper, threads(2)).value, dense);
    DenseMatrix<double> real(22, 22);
    for (int i = 0; i < 22; ++i) {
        for (int j = 0; j < 22; ++j) {
            real(i, j) = static_cast<double>(a(i, j));
        }
    }
    const FloatOutcome s = sparse_ryser_real(real, Precision::double_precision, SparseVariant::skipper, threads(2));
    EXPECT_EQ(std::ldexp(s.mantissa.real(), static_cast<int>(s.exponent2)), dense.to_double());
}

TEST(SparseRyser, ResultsDoNotDependOnThreadCount) {
    const auto a = test::random_binary(24, 0.2, 5);
    for (const SparseVariant v : kVariants) {
        const BigInt one = sparse_ryser_exact(a, true, v, threads(1)).value;
        EXPECT_EQ(sparse_ryser_exact(a, true, v, threads(2)).value, one);
        EXPECT_EQ(sparse_ryser_exact(a, true, v, threads(3)).value, one);
    }
    const auto r = test::random_real(20, 0.0, 1.0, 0.3, 6);
    const FloatOutcome one = sparse_ryser_real(r, Precision::double_precision, SparseVariant::skipper, threads(1));
    const FloatOutcome two = sparse_ryser_real(r, Precision::double_precision, SparseVariant::skipper, threads(3));
    EXPECT_EQ(one.mantissa, two.mantissa);
}

TEST(SparseRyser, ColumnOrdersArePermutationsWithTheDensestColumnLast) {
    const auto a = test::random_binary(15, 0.3, 17);
    std::vector<int> count(15, 0);
    for (int i = 0; i < 15; ++i) {
        for (int j = 0; j < 15; ++j) {
            count[static_cast<std::size_t>(j)] += static_cast<int>(a(i, j));
        }
    }
    for (const auto& [v, binary] : {std::pair{SparseVariant::sparyser, false},
                                    std::pair{SparseVariant::skipper, false},
                                    std::pair{SparseVariant::skipper, true}}) {
        std::vector<vertex_t> order = sparse_column_order(a, v, binary);
        ASSERT_EQ(order.size(), 15u);
        EXPECT_EQ(count[static_cast<std::size_t>(order.back())], *std::max_element(count.begin(), count.end()));
        std::sort(order.begin(), order.end());
        for (vertex_t j = 0; j < 15; ++j) {
            EXPECT_EQ(order[static_cast<std::size_t>(j)], j);
        }
    }
    // SortOrder: ascending counts before the base column.
    const auto sorted = sparse_column_order(a, SparseVariant::sparyser);
    for (std::size_t k = 1; k + 1 < sorted.size(); ++k) {
        EXPECT_LE(count[static_cast<std::size_t>(sorted[k - 1])], count[static_cast<std::size_t>(sorted[k])]);
    }
}

TEST(GrayCode, NextStepFlippingIsTheFirstLaterIndexWhoseStepIsInTheMask) {
    std::mt19937_64 rng(11);
    for (int trial = 0; trial < 4000; ++trial) {
        const std::uint64_t mask = (rng() & 0xfff) | (trial % 3 == 0 ? std::uint64_t{1} << 40 : 0);
        if ((mask & 0xfff) == 0) {
            continue;  // keep the linear search below short
        }
        const std::uint64_t k = trial % 2 == 0 ? rng() & 0xffff : rng() >> 2;
        std::uint64_t t = k + 1;
        while (((mask >> __builtin_ctzll(t)) & 1U) == 0) {
            ++t;
        }
        ASSERT_EQ(next_step_flipping(k, mask), t) << "k " << k << " mask " << mask;
    }
}

/// Σ ±Π lanes · times modulo each prime through accumulate_lanes_times, against the same sum
/// formed with mul_mod: for both forms of the exact lanes (compact: lanes below 2^31, 192-bit
/// sums; modular: lanes below 2^53), negative lanes and sums, and a zero.
template <bool Compact>
void check_lanes_times(int lane_bits) {
    const std::vector<std::uint64_t> primes = numeric::largest_primes_below(62, 3);
    const ExactLanes<4, Compact> arith(primes);
    auto acc = arith.make_acc();
    std::vector<std::uint64_t> expected(primes.size(), 0);
    std::mt19937_64 rng(static_cast<std::uint64_t>(lane_bits));
    for (int t = 0; t < 200; ++t) {
        double lane[4];
        bool negative = false;
        std::vector<std::uint64_t> product(primes.size(), 1);
        auto factor = [&](double v) {
            negative ^= v < 0;
            for (std::size_t k = 0; k < primes.size(); ++k) {
                product[k] = numeric::mul_mod(
                    product[k], static_cast<std::uint64_t>(std::fabs(v)) % primes[k], primes[k]);
            }
        };
        for (double& l : lane) {
            l = static_cast<double>(rng() >> (64 - lane_bits)) * ((rng() & 1) != 0 ? -1.0 : 1.0);
            factor(l);
        }
        const double times =
            t == 7 ? 0.0 : static_cast<double>(rng() >> 11) * ((rng() & 1) != 0 ? -1.0 : 1.0);
        factor(times);
        const bool odd = (t & 1) != 0;
        negative ^= odd;
        if (odd) {
            arith.template accumulate_lanes_times<true>(acc, lane, times);
        } else {
            arith.template accumulate_lanes_times<false>(acc, lane, times);
        }
        for (std::size_t k = 0; k < primes.size(); ++k) {
            expected[k] = negative ? numeric::sub_mod(expected[k], product[k], primes[k])
                                   : (expected[k] + product[k]) % primes[k];
        }
    }
    EXPECT_EQ(arith.residues(acc), expected);
}

TEST(SparseRyser, SubBlockSumsEnterTheExactLanesAsAFifthFactor) {
    check_lanes_times<true>(31);
    check_lanes_times<false>(53);
}

TEST(SparseRyser, BinarySkipPerEnumeratesBlocksOfColumnsThatNeverZeroARow) {
    // Rows 0–11 get an odd number of ones, so their y_i is odd and never zero; columns below
    // `low` only touch those rows, so SkipPer's 0-1 path puts them on the lowest Gray bits and
    // enumerates their 2^low combinations without tests, in sub-blocks of up to 2^low terms
    // (low = 9: several tiles of 64 terms per sub-block).
    constexpr int n = 24;
    for (const int low : {6, 9}) {
        std::mt19937_64 rng(21);
        DenseMatrix<std::int64_t> a(n, n);
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                a(i, j) = (j >= low || i < 12) && rng() % 4 == 0 ? 1 : 0;
            }
            a(i, i) = 1;
        }
        for (int i = 0; i < 12; ++i) {
            std::int64_t ones = 0;
            for (int j = 0; j < n; ++j) {
                ones += a(i, j);
            }
            if (ones % 2 == 0) {
                a(i, n - 1) = 1 - a(i, n - 1);
            }
        }
        const auto order = sparse_column_order(a, SparseVariant::skipper, true);
        for (int b = 0; b < low; ++b) {
            EXPECT_LT(order[static_cast<std::size_t>(b)], low) << "Gray bit " << b;
        }
        const BigInt dense = ryser_exact(a, true, threads(2)).value;
        EXPECT_FALSE(dense.is_zero());
        for (const int t : {1, 2}) {
            EXPECT_EQ(sparse_ryser_exact(a, true, SparseVariant::skipper, threads(t)).value, dense)
                << "low " << low;
        }
    }
}

}  // namespace
}  // namespace pmcount::exact
