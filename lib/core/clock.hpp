// Wall time of the library's phases (CountResult::timings, EstimateResult::seconds): a monotonic
// clock, so that a change of the system time never gives a negative or inflated duration.
#pragma once

#include <chrono>

namespace pmcount::detail {

using Clock = std::chrono::steady_clock;

/// Seconds from `start` to now.
inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace pmcount::detail
