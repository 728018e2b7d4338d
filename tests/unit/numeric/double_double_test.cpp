#include <gtest/gtest.h>

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <random>

#include "numeric/compensated.hpp"
#include "numeric/double_double.hpp"

namespace pmcount::numeric {
namespace {

using Quad = boost::multiprecision::cpp_bin_float_quad;  // 113-bit significand reference

Quad exact(DoubleDouble a) { return Quad(a.hi) + Quad(a.lo); }
DoubleDouble normalized(DoubleDouble a) {
    return quick_two_sum(a.hi, a.lo);
}

TEST(DoubleDouble, AdditionAndProductAreAccurateTo106Bits) {
    std::mt19937_64 rng(9);
    std::uniform_real_distribution<double> u(-1, 1);
    const double tolerance = std::ldexp(1.0, -104);
    for (int trial = 0; trial < 5000; ++trial) {
        const DoubleDouble a = quick_two_sum(u(rng), u(rng) * 1e-17);
        const DoubleDouble b = quick_two_sum(u(rng) * std::ldexp(1.0, static_cast<int>(rng() % 20) - 10),
                                             u(rng) * 1e-20);
        const Quad sum = exact(a) + exact(b), product = exact(a) * exact(b);
        if (sum != 0) {
            EXPECT_LE(static_cast<double>(abs((exact(a + b) - sum) / sum)), 2 * tolerance);
        }
        EXPECT_LE(static_cast<double>(abs((exact(a * b) - product) / product)), 4 * tolerance);
        EXPECT_EQ(exact(a - b), exact(a + (-b)));
    }
}

TEST(DoubleDouble, QuotientRootAndExponentialAgainstFiftyDigits) {
    using Fifty = boost::multiprecision::cpp_bin_float_50;
    const auto of = [](DoubleDouble a) { return Fifty(a.hi) + Fifty(a.lo); };
    const auto rel = [](const Fifty& x, const Fifty& ref) {
        return static_cast<double>(abs((x - ref) / ref));
    };
    std::mt19937_64 rng(42);
    std::uniform_real_distribution<double> u(-1, 1);
    for (int i = 0; i < 2000; ++i) {
        const DoubleDouble a(std::ldexp(u(rng), static_cast<int>(rng() % 40) - 20),
                             std::ldexp(u(rng), -80));
        const DoubleDouble b(std::ldexp(u(rng) + 2, static_cast<int>(rng() % 40) - 20),
                             std::ldexp(u(rng), -80));
        const DoubleDouble na = normalized(a), nb = normalized(b);
        EXPECT_LE(rel(of(na / nb), of(na) / of(nb)), 0x1p-102);
        const DoubleDouble pos = abs(nb);
        EXPECT_LE(rel(of(sqrt(pos)), boost::multiprecision::sqrt(of(pos))), 0x1p-102);
        // (Below e^−650 the low part goes subnormal and double-double loses digits.)
        const DoubleDouble x(u(rng) * 650 + 50, std::ldexp(u(rng), -60));
        const DoubleDouble nx = normalized(x);
        // 2^10 squarings double exp's relative error: 2^10·4u² ≈ 2^−94, and |x|·u² from x.
        EXPECT_LE(rel(of(exp(nx)), boost::multiprecision::exp(of(nx))), 0x1p-92) << x.hi;
    }
    EXPECT_EQ(exp(DoubleDouble(0)).hi, 1.0);
    EXPECT_EQ(exp(DoubleDouble(1)).hi, 0x1.5bf0a8b145769p+1);  // e
    EXPECT_NEAR(exp(DoubleDouble(1)).lo, 0x1.4d57ee2b1013ap-53, 0x1p-94);
}

TEST(CompensatedSum, CancellationThatDefeatsPlainSummation) {
    // 1 + 1e-16·k − 1: plain summation loses every small term; compensated keeps them.
    CompensatedSum s;
    double plain = 0;
    s.add(1.0);
    plain += 1.0;
    for (int k = 0; k < 1000; ++k) {
        s.add(1e-16);
        plain += 1e-16;
    }
    s.add(-1.0);
    plain += -1.0;
    EXPECT_NEAR(s.value(), 1e-13, 1e-24);
    EXPECT_GT(std::fabs(plain - 1e-13), 1e-14);

    CompensatedSum a, b;
    a.add(3.0);
    b.add(1e-30);
    b.add(2.0);
    a.add_negated(b);
    EXPECT_EQ(a.value(), 1.0);
}

}  // namespace
}  // namespace pmcount::numeric
