#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>
#include <random>

#include "numeric/cpp_int_bridge.hpp"
#include "pmcount/big_int.hpp"
#include "pmcount/error.hpp"

namespace pmcount {
namespace {

using numeric::cpp_int;

TEST(BigInt, DecimalRoundTrip) {
    for (const char* s : {"0", "1", "-1", "18446744073709551616", "-340282366920938463463374607431768211457",
                          "265252859812191058636308480000000"}) {
        EXPECT_EQ(BigInt::from_string(s).to_string(), s);
    }
    EXPECT_EQ(BigInt::from_string("+42").to_string(), "42");
    EXPECT_EQ(BigInt::from_string("-0").to_string(), "0");
    EXPECT_FALSE(BigInt::from_string("-0").is_negative());
    EXPECT_THROW(BigInt::from_string(""), InvalidArgument);
    EXPECT_THROW(BigInt::from_string("12a"), InvalidArgument);
    EXPECT_THROW(BigInt::from_string("-"), InvalidArgument);
}

TEST(BigInt, Int64Limits) {
    const std::int64_t lo = std::numeric_limits<std::int64_t>::min();
    const std::int64_t hi = std::numeric_limits<std::int64_t>::max();
    EXPECT_EQ(BigInt(lo).to_string(), "-9223372036854775808");
    EXPECT_EQ(BigInt(hi).to_string(), "9223372036854775807");
    EXPECT_TRUE(BigInt(lo).fits_int64());
    EXPECT_EQ(BigInt(lo).to_int64(), lo);
    EXPECT_EQ(BigInt(hi).to_int64(), hi);
    const BigInt beyond = BigInt(hi) + BigInt(1);
    EXPECT_FALSE(beyond.fits_int64());
    EXPECT_THROW(beyond.to_int64(), Overflow);
    EXPECT_TRUE((-beyond).fits_int64());
}

TEST(BigInt, ArithmeticMatchesCppInt) {
    std::mt19937_64 rng(7);
    for (int trial = 0; trial < 200; ++trial) {
        cpp_int a = 0, b = 0;
        const int limbs_a = static_cast<int>(rng() % 4), limbs_b = static_cast<int>(rng() % 4);
        for (int k = 0; k < limbs_a; ++k) {
            a = (a << 64) + rng();
        }
        for (int k = 0; k < limbs_b; ++k) {
            b = (b << 64) + rng();
        }
        if (rng() % 2) {
            a = -a;
        }
        if (rng() % 2) {
            b = -b;
        }
        const BigInt x = numeric::from_cpp_int(a), y = numeric::from_cpp_int(b);
        EXPECT_EQ(numeric::to_cpp_int(x), a);
        EXPECT_EQ((x + y).to_string(), cpp_int(a + b).str());
        EXPECT_EQ((x - y).to_string(), cpp_int(a - b).str());
        EXPECT_EQ((x * y).to_string(), cpp_int(a * b).str());
        EXPECT_EQ(x < y, a < b);
        EXPECT_EQ(x == y, a == b);
        EXPECT_EQ(x.sign(), a.sign());
    }
}

TEST(BigInt, FloatingViews) {
    const BigInt f30 = BigInt::from_string("265252859812191058636308480000000");
    EXPECT_NEAR(f30.to_double() / 2.6525285981219107e32, 1.0, 1e-15);
    EXPECT_NEAR(f30.log10_abs(), std::log10(2.6525285981219107e32), 1e-13);
    EXPECT_EQ(BigInt(0).log10_abs(), -std::numeric_limits<double>::infinity());
    // 10^400 is beyond double: log10 still exact enough.
    BigInt big = 1;
    for (int i = 0; i < 400; ++i) {
        big *= 10;
    }
    EXPECT_TRUE(std::isinf(big.to_double()));
    EXPECT_NEAR(big.log10_abs(), 400.0, 1e-12);
    EXPECT_NEAR((-big).log10_abs(), 400.0, 1e-12);
}

TEST(BigInt, Ordering) {
    EXPECT_LT(BigInt(-5), BigInt(-3));
    EXPECT_LT(BigInt(-3), BigInt(0));
    EXPECT_LT(BigInt(0), BigInt(2));
    EXPECT_FALSE(BigInt(2) < BigInt(2));
    EXPECT_LT(BigInt::from_string("-18446744073709551617"), BigInt::from_string("-18446744073709551616"));
    EXPECT_LT(BigInt::from_string("18446744073709551616"), BigInt::from_string("18446744073709551617"));
}

}  // namespace
}  // namespace pmcount
