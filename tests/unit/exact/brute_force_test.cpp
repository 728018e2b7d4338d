#include "exact/brute_force.hpp"

#include <gtest/gtest.h>

#include "pmcount/error.hpp"

namespace pmcount::exact {
namespace {

TEST(BruteForce, SmallHandComputedPermanents) {
    EXPECT_EQ(brute_force_exact(DenseMatrix<std::int64_t>(0, 0)).to_string(), "1");
    EXPECT_EQ(brute_force_exact(DenseMatrix<std::int64_t>(1, 1, {-7})).to_string(), "-7");
    // perm [[1,2],[3,4]] = 1·4 + 2·3 = 10
    EXPECT_EQ(brute_force_exact(DenseMatrix<std::int64_t>(2, 2, {1, 2, 3, 4})).to_string(), "10");
    // perm [[1,2,3],[4,5,6],[7,8,9]] = 450
    EXPECT_EQ(brute_force_exact(DenseMatrix<std::int64_t>(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9}))
                  .to_string(),
              "450");
    EXPECT_DOUBLE_EQ(brute_force(DenseMatrix<double>(2, 2, {0.5, 0.25, 2.0, -1.0})), 0.0);
    const auto c = brute_force(DenseMatrix<std::complex<double>>(
        2, 2, {{0, 1}, {1, 0}, {1, 0}, {0, 1}}));  // i·i + 1·1 = 0
    EXPECT_DOUBLE_EQ(c.real(), 0.0);
    EXPECT_DOUBLE_EQ(c.imag(), 0.0);
}

TEST(BruteForce, HugeEntriesUseBigIntegers) {
    // 2×2 with entries 2^62: perm = 2·2^124 = 2^125, beyond 128-bit signed accumulation margins.
    const std::int64_t big = std::int64_t{1} << 62;
    EXPECT_EQ(brute_force_exact(DenseMatrix<std::int64_t>(2, 2, {big, big, big, big})).to_string(),
              "42535295865117307932921825928971026432");
    const std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
    EXPECT_EQ(brute_force_exact(DenseMatrix<std::int64_t>(1, 1, {lowest})).to_string(),
              "-9223372036854775808");
}

TEST(BruteForce, RefusesLargeOrNonSquareMatrices) {
    EXPECT_THROW(brute_force_exact(DenseMatrix<std::int64_t>(13, 13, 1)), ProblemTooLarge);
    EXPECT_THROW(brute_force_exact(DenseMatrix<std::int64_t>(2, 3, 1)), DimensionMismatch);
}

}  // namespace
}  // namespace pmcount::exact
