// The estimator's round sizes (lib/approx/rounds.hpp): the schedule, and a time limit's cut.
#include "approx/rounds.hpp"

#include <gtest/gtest.h>

namespace pmcount::approx {
namespace {

TEST(Rounds, RoundsGrowByHalfTheSamplesSoFarAndKeepTheDevicesBusy) {
    EXPECT_EQ(scheduled_round(0, 12), 12U);
    EXPECT_EQ(scheduled_round(20, 12), 12U);
    EXPECT_EQ(scheduled_round(100, 12), 50U);
    // Past 2^25 samples rounds stop growing: a round's logs stay at 128 MiB (after 10^10
    // samples half of them would take 40 GB); a device wave larger than that still fills.
    EXPECT_EQ(scheduled_round(std::uint64_t{1} << 34, 12), kMaxScheduledRound);
    EXPECT_EQ(scheduled_round(std::uint64_t{1} << 34, std::uint64_t{1} << 26),
              std::uint64_t{1} << 26);
}

TEST(Rounds, ATimeLimitStartsNoWaveThatWouldEndPastIt) {
    // The H100's 64×64 grid: waves of 12 populations, 2.5 s each (30 s a wave). At 97 s of a
    // 120 s limit 23 s are left, less than a wave: stop (the rule before started a whole wave
    // there, since half of one fitted, and ended at 127 s).
    EXPECT_EQ(time_capped_round(12, 12, 97.0, 2.5, 120.0), 0U);
    // 50 s left: one wave, not the two that the schedule asks for.
    EXPECT_EQ(time_capped_round(24, 12, 70.0, 2.5, 120.0), 12U);
    // Room for the whole round: unchanged.
    EXPECT_EQ(time_capped_round(24, 12, 10.0, 2.5, 120.0), 24U);
    // CPU samples (waves of 1024, 1 ms each): cut to whole waves that fit.
    EXPECT_EQ(time_capped_round(100000, 1024, 1.0, 1e-3, 4.5), 3U * 1024U);
    // Past the limit: stop; nothing timed yet: the limit alone decides.
    EXPECT_EQ(time_capped_round(12, 12, 121.0, 2.5, 120.0), 0U);
    EXPECT_EQ(time_capped_round(12, 12, 0.0, 0.0, 120.0), 12U);
    EXPECT_EQ(time_capped_round(12, 12, 120.0, 0.0, 120.0), 0U);
}

}  // namespace
}  // namespace pmcount::approx
