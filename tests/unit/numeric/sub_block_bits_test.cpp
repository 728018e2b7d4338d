// numeric::sub_block_bits: how many low Gray bits SkipPer's sub-blocks may span with their
// inner sums exact in double.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "numeric/sub_block_bits.hpp"

namespace pmcount::numeric {
namespace {

TEST(SubBlockBits, KeepEverySubBlockSumAnExactDouble) {
    // SkipPer's sub-blocks (CPU and GPU): the largest b ≤ limit with 2^b · Π max|y_s| < 2^53
    // over the rows with a Gray bit below b, y_s running from y_s(∅) to y_s(∅) + 2·popcount.
    // Four rows, one Gray bit each, |y| up to 2^17 + 2: 2^2 · (2^17 + 2)^2 < 2^53 but
    // 2^3 · (2^17 + 2)^3 > 2^53.
    const double big = std::ldexp(1.0, 17);
    const std::vector<double> base = {big, -big - 2, big, big, 3};
    const std::vector<std::uint64_t> masks = {0b1, 0b10, 0b100, 0b1000, 0b110000};
    EXPECT_EQ(sub_block_bits(base, masks, 4), 2);
    EXPECT_EQ(sub_block_bits(base, masks, 1), 1);  // never above the limit
    EXPECT_EQ(sub_block_bits(base, masks, 0), 0);
    // Rows without a low bit do not count: the fifth row's bits start at 4.
    const std::vector<double> small = {1, 1, 1, 1, std::ldexp(1.0, 60)};
    EXPECT_EQ(sub_block_bits(small, masks, 4), 4);
    // The bound is strict: 2 · 2^52 = 2^53 is refused, 2 · 2^51 taken (y tops out at base + 2).
    EXPECT_EQ(sub_block_bits({std::ldexp(1.0, 52) - 2}, {0b1}, 1), 0);
    EXPECT_EQ(sub_block_bits({std::ldexp(1.0, 51) - 2}, {0b1}, 1), 1);
    // The top end counts as much as y(∅): y(∅) = −1 with three bits reaches 5, and
    // 2 · (2^50 + 2) · 5 > 2^53 (with |y(∅)| alone it would pass).
    EXPECT_EQ(sub_block_bits({std::ldexp(1.0, 50), -1}, {0b1, 0b111}, 1), 0);
}

}  // namespace
}  // namespace pmcount::numeric
