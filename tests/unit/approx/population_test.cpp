// Resampling of particle populations: the mean weight in log space and systematic resampling's
// copy counts (⌊P·W_k⌋ or ⌈P·W_k⌉ each, none for a zero weight).
#include "approx/population.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace pmcount::approx {
namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

TEST(Population, MeanWeightOfLogs) {
    const std::vector<double> logs = {std::log(1.0), std::log(2.0), kNegInf, std::log(5.0)};
    EXPECT_NEAR(log_mean_weight(logs.data(), logs.size()), std::log(2.0), 1e-15);
    // Far beyond double: the mean of e^1000 and e^1001.
    const std::vector<double> huge = {1000.0, 1001.0};
    EXPECT_NEAR(log_mean_weight(huge.data(), 2), 1000 + std::log((1 + std::exp(1.0)) / 2), 1e-12);
    const std::vector<double> zeros = {kNegInf, kNegInf};
    EXPECT_EQ(log_mean_weight(zeros.data(), 2), kNegInf);
}

TEST(Population, SystematicResamplingCopiesInProportionToTheWeights) {
    // Weights 0, 1, 2, 3, 0, 10 (total 16), 32 draws: expected copies 0, 2, 4, 6, 0, 20 — exact,
    // since every P·W_k is an integer, whatever u.
    const std::vector<double> logs = {kNegInf, 0.0, std::log(2.0), std::log(3.0), kNegInf,
                                      std::log(10.0)};
    std::vector<double> padded = logs;
    padded.resize(32, kNegInf);  // 26 more particles of weight 0
    for (const double u : {0.0, 0.3, 0.999999}) {
        std::vector<std::uint32_t> ancestors(padded.size());
        systematic_ancestors(padded.data(), padded.size(), u, ancestors.data());
        std::vector<int> copies(padded.size(), 0);
        for (std::size_t q = 0; q < ancestors.size(); ++q) {
            ASSERT_LT(ancestors[q], padded.size());
            if (q > 0) {
                EXPECT_LE(ancestors[q - 1], ancestors[q]);
            }
            ++copies[ancestors[q]];
        }
        const int expected[] = {0, 2, 4, 6, 0, 20};
        for (int k = 0; k < 6; ++k) {
            EXPECT_EQ(copies[static_cast<std::size_t>(k)], expected[k]) << "u " << u << ", k " << k;
        }
        for (std::size_t k = 6; k < padded.size(); ++k) {
            EXPECT_EQ(copies[k], 0);
        }
    }
}

TEST(Population, CopyCountsAreFloorOrCeilingOfTheExpectedOnes) {
    std::vector<double> logs;
    for (int k = 0; k < 1000; ++k) {
        logs.push_back(std::sin(k) * 5);  // weights spread over e^±5
    }
    double m = 0, total = 0;
    for (const double l : logs) {
        m = std::max(m, l);
    }
    for (const double l : logs) {
        total += std::exp(l - m);
    }
    std::vector<std::uint32_t> ancestors(logs.size());
    systematic_ancestors(logs.data(), logs.size(), 0.61803, ancestors.data());
    std::vector<int> copies(logs.size(), 0);
    for (const std::uint32_t a : ancestors) {
        ++copies[a];
    }
    for (std::size_t k = 0; k < logs.size(); ++k) {
        const double expected = static_cast<double>(logs.size()) * std::exp(logs[k] - m) / total;
        EXPECT_GE(copies[k], std::floor(expected - 1e-9)) << k;
        EXPECT_LE(copies[k], std::ceil(expected + 1e-9)) << k;
    }
}

TEST(Population, AllZeroWeightsKeepEveryParticle) {
    const std::vector<double> logs(5, kNegInf);
    std::vector<std::uint32_t> ancestors(5);
    systematic_ancestors(logs.data(), logs.size(), 0.5, ancestors.data());
    for (std::uint32_t q = 0; q < 5; ++q) {
        EXPECT_EQ(ancestors[q], q);
    }
}

}  // namespace
}  // namespace pmcount::approx
