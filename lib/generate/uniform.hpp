// Uniform draws from std::mt19937_64's bits, made by hand: the engine's output is fixed by the
// standard but the <random> distributions are not, so these give the same numbers with every
// standard library (the generators' seeded graphs, the calibration's seeded matrices).
#pragma once

#include <cstdint>
#include <limits>
#include <random>

namespace pmcount::seeded {

/// Uniform integer in [0, bound) by rejection (no modulo bias).
inline std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t bound) {
    const std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() -
                                std::numeric_limits<std::uint64_t>::max() % bound;
    std::uint64_t x = rng();
    while (x >= limit) {
        x = rng();
    }
    return x % bound;
}

/// Uniform double in [0, 1) from the top 53 bits.
inline double uniform_unit(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1p-53;
}

}  // namespace pmcount::seeded
