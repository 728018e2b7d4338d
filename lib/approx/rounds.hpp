// How many samples (or populations) the estimator draws in its next round (estimate.cpp, phase
// 4): the schedule, and the cut a time limit makes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace pmcount::approx {

/// Rounds stop growing at 2^24 samples (their logs take 128 MiB; a round of half the samples
/// so far would take gigabytes after 10^9 samples).
inline constexpr std::uint64_t kMaxScheduledRound = std::uint64_t{1} << 24;

/// Round boundaries: half the samples so far, at most kMaxScheduledRound, at least what keeps
/// the source busy (`wave`: the samples or populations the devices draw at once).
inline std::uint64_t scheduled_round(std::uint64_t done, std::uint64_t wave) {
    return std::max(wave, std::min(done / 2, kMaxScheduledRound));
}

/// `round` cut to what a time limit allows. The devices draw `wave` at a time, and a smaller
/// round takes as long (each GPU thread runs one sample or particle), so a round takes whole
/// waves of `per_sample_s · wave` seconds: it is cut to the waves predicted to end within
/// `limit_s`, and is 0 (stop) when not one does — a run stops up to one wave early, never a wave
/// late.
inline std::uint64_t time_capped_round(std::uint64_t round, std::uint64_t wave, double elapsed_s,
                                       double per_sample_s, double limit_s) {
    const double wave_s = per_sample_s * static_cast<double>(wave);
    if (!(wave_s > 0)) {  // nothing timed yet: the limit alone decides
        return elapsed_s < limit_s ? round : 0;
    }
    const double waves = std::floor((limit_s - elapsed_s) / wave_s);
    if (!(waves >= 1)) {
        return 0;
    }
    const double most = waves * static_cast<double>(wave);
    return most >= static_cast<double>(round) ? round : static_cast<std::uint64_t>(most);
}

}  // namespace pmcount::approx
