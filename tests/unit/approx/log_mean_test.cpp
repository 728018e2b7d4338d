// The log-space mean, its errors and interval on inputs with known moments.
#include "approx/log_mean.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace pmcount::approx {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

TEST(LogMean, MeanOfValuesGivenByTheirLogs) {
    LogMeanAccumulator acc;
    for (const double x : {1.0, 2.0, 3.0, 6.0}) {
        acc.add(std::log(x));
    }
    EXPECT_NEAR(acc.log_mean(), std::log(3.0), 1e-15);
    EXPECT_EQ(acc.count(), 4u);
    EXPECT_EQ(acc.zeros(), 0u);
}

TEST(LogMean, ZerosCountInTheMeanAndAnAllZeroRunIsMinusInfinity) {
    LogMeanAccumulator acc;
    acc.add(kNegInf);
    EXPECT_EQ(acc.log_mean(), kNegInf);
    acc.add(std::log(4.0));
    EXPECT_NEAR(acc.log_mean(), std::log(2.0), 1e-15);
    EXPECT_EQ(acc.zeros(), 1u);
}

TEST(LogMean, HugeValuesDoNotOverflow) {
    LogMeanAccumulator acc;
    acc.add(3000.0);  // e^3000 is far beyond double
    acc.add(3000.0 + std::log(3.0));
    EXPECT_NEAR(acc.log_mean(), 3000.0 + std::log(2.0), 1e-12);
    // Two batches of one sample: relative sd √2/2 over √2.
    EXPECT_NEAR(acc.rel_std_error(), 0.5, 1e-12);
}

TEST(LogMean, RelativeErrorOfAlternatingValues) {
    // x alternates 1, 3: mean 2, sample sd √(4/3·(n/(n−1)))… relative sd = 1/2 · √(n/(n−1)).
    LogMeanAccumulator acc;
    constexpr int kN = 4096;
    for (int k = 0; k < kN; ++k) {
        acc.add(std::log(k % 2 == 0 ? 1.0 : 3.0));
    }
    const double iid = 0.5 * std::sqrt(kN / (kN - 1.0)) / std::sqrt(kN);
    // Batches of even size have no spread at all, so the i.i.d. estimate is the larger one.
    EXPECT_NEAR(acc.rel_std_error(), iid, 1e-12);
    EXPECT_NEAR(acc.log_variance(), std::pow(std::log(3.0) / 2, 2) * kN / (kN - 1.0), 1e-12);
    EXPECT_GE(acc.batches(), 32);
    EXPECT_LT(acc.batches(), 64);
    EXPECT_NEAR(acc.effective_samples(), kN * 4.0 / 5.0, 1e-6);  // (2n)² / (5n)
    EXPECT_NEAR(acc.max_share(), 3.0 / (2.0 * kN), 1e-12);
    // t quantile with K − 1 degrees of freedom is a little above 1.96.
    const double q = acc.log_half_width(0.95) / acc.rel_std_error();
    EXPECT_GT(q, 1.96);
    EXPECT_LT(q, 2.05);
}

TEST(LogMean, BatchMeansSeeATrendThatTheIidEstimateMisses) {
    // Sorted samples: neighbouring batches differ systematically, so batch means report the
    // larger error (what a dominated, not yet mixed run looks like).
    LogMeanAccumulator acc;
    constexpr int kN = 2048;
    for (int k = 0; k < kN; ++k) {
        acc.add(std::log(1.0 + k));
    }
    const double n = kN, mean = (n + 1) / 2, var = (n * n - 1) / 12 * n / (n - 1);
    const double iid = std::sqrt(var / n) / mean;
    EXPECT_GT(acc.rel_std_error(), 3 * iid);
}

}  // namespace
}  // namespace pmcount::approx
