// Philox4x32-10 against the known-answer vectors of Random123 (kat_vectors), and the uniform
// draws built on it.
#include "approx/philox.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>

namespace pmcount::approx {
namespace {

void expect_block(const Philox4x32& got, std::uint32_t a, std::uint32_t b, std::uint32_t c,
                  std::uint32_t d) {
    EXPECT_EQ(got.v[0], a);
    EXPECT_EQ(got.v[1], b);
    EXPECT_EQ(got.v[2], c);
    EXPECT_EQ(got.v[3], d);
}

TEST(Philox, KnownAnswerZeroCounterZeroKey) {
    expect_block(philox4x32_10(Philox4x32{{0, 0, 0, 0}}, 0, 0), 0x6627e8d5u, 0xe169c58du,
                 0xbc57ac4cu, 0x9b00dbd8u);
}

TEST(Philox, KnownAnswerAllOnes) {
    expect_block(philox4x32_10(Philox4x32{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
                               0xffffffffu, 0xffffffffu),
                 0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu);
}

TEST(Philox, KnownAnswerDigitsOfPi) {
    expect_block(philox4x32_10(Philox4x32{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
                               0xa4093822u, 0x299f31d0u),
                 0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u);
}

TEST(Philox, UniformDrawsLieInTheUnitIntervalAndDependOnEveryCounterPart) {
    std::set<double> seen;
    double sum = 0;
    constexpr int kDraws = 4000;
    for (int s = 0; s < kDraws / 4; ++s) {
        for (std::uint32_t step = 0; step < 2; ++step) {
            for (std::uint64_t seed : {1ull, 2ull}) {
                const double u = uniform01(seed, static_cast<std::uint64_t>(s) << 33, step);
                ASSERT_GE(u, 0.0);
                ASSERT_LT(u, 1.0);
                seen.insert(u);
                sum += u;
            }
        }
    }
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(kDraws));  // high sample bits matter too
    EXPECT_NEAR(sum / kDraws, 0.5, 4 * 0.2887 / std::sqrt(kDraws));
}

}  // namespace
}  // namespace pmcount::approx
