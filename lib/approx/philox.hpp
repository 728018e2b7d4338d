// Philox4x32-10, the counter-based generator of Salmon, Moraes, Dror and Shaw, "Parallel random
// numbers: as easy as 1, 2, 3" (SC'11), §3.2: ten rounds of two 32×32→64-bit multiplications
// and a Weyl-sequence key schedule turn a 128-bit counter and a 64-bit key into 128 random bits.
//
// The estimators draw the randomness of sample s, step t from the counter (t, 0, s_lo, s_hi)
// under the key (seed_lo, seed_hi): a sample's draws depend on nothing but (seed, s, t), so a
// run gives the same estimates on any number of CPU threads, and the GPU kernel (which includes
// this header) draws the same numbers as the CPU.
//
// Known-answer tests (Random123's kat_vectors) are in tests/unit/approx/philox_test.cpp.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define PMCOUNT_HOST_DEVICE __host__ __device__
#else
#define PMCOUNT_HOST_DEVICE
#endif

namespace pmcount::approx {

struct Philox4x32 {
    std::uint32_t v[4];
};

/// Philox4x32-10 of `counter` under the key (k0, k1).
PMCOUNT_HOST_DEVICE inline Philox4x32 philox4x32_10(Philox4x32 counter, std::uint32_t k0,
                                                    std::uint32_t k1) noexcept {
    // Multipliers and key increments of the reference (SC'11, Table 2).
    constexpr std::uint32_t kM0 = 0xD2511F53u, kM1 = 0xCD9E8D57u;
    constexpr std::uint32_t kW0 = 0x9E3779B9u, kW1 = 0xBB67AE85u;
    std::uint32_t* c = counter.v;
    for (int round = 0; round < 10; ++round) {
        const std::uint64_t p0 = static_cast<std::uint64_t>(kM0) * c[0];
        const std::uint64_t p1 = static_cast<std::uint64_t>(kM1) * c[2];
        const std::uint32_t hi0 = static_cast<std::uint32_t>(p0 >> 32),
                            lo0 = static_cast<std::uint32_t>(p0);
        const std::uint32_t hi1 = static_cast<std::uint32_t>(p1 >> 32),
                            lo1 = static_cast<std::uint32_t>(p1);
        c[0] = hi1 ^ c[1] ^ k0;
        c[1] = lo1;
        c[2] = hi0 ^ c[3] ^ k1;
        c[3] = lo0;
        k0 += kW0;
        k1 += kW1;
    }
    return counter;
}

/// A uniform double in [0, 1) with 53 random bits, for step `step` of sample `sample`. Streams
/// keep unrelated draws apart: 0 the samplers' choices, 1 the resampling of particle populations.
PMCOUNT_HOST_DEVICE inline double uniform01(std::uint64_t seed, std::uint64_t sample,
                                            std::uint32_t step,
                                            std::uint32_t stream = 0) noexcept {
    const Philox4x32 bits =
        philox4x32_10(Philox4x32{{step, stream, static_cast<std::uint32_t>(sample),
                                  static_cast<std::uint32_t>(sample >> 32)}},
                      static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
    // 27 + 26 bits, as in Random123's u01 conversion: exact in double, strictly below 1.
    return (static_cast<double>(bits.v[0] >> 5) * 67108864.0 +
            static_cast<double>(bits.v[1] >> 6)) *
           (1.0 / 9007199254740992.0);
}

}  // namespace pmcount::approx
