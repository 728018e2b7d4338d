// Binary reflected Gray code helpers for Ryser's formula.
//
// Step k (k ≥ 1) of the Gray sequence flips bit ctz(k); the bit is set afterwards iff bit ctz(k)
// of gray(k) is 1. popcount(gray(k)) ≡ k (mod 2), so the sign (−1)^|S| of subset S = gray(k) is
// (−1)^k. For k0 a multiple of 2^b and t < 2^b, gray(k0 + t) = gray(k0) ^ gray(t): a chunk of 2^b
// steps starting at k0 flips only the low b bits, so all threads of a SIMD group (or a GPU warp)
// walking aligned chunks flip the same bit at the same step (the power-of-two chunk lemma).
#pragma once

#include <cstdint>

namespace pmcount::exact {

constexpr std::uint64_t gray(std::uint64_t k) noexcept { return k ^ (k >> 1); }

inline int lowest_set_bit(std::uint64_t k) noexcept { return __builtin_ctzll(k); }

/// True when step k (k ≥ 1) adds its column, false when it removes it.
constexpr bool gray_step_adds(std::uint64_t k, int bit) noexcept {
    return ((gray(k) >> bit) & 1U) != 0;
}

/// The first Gray index t > k whose step flips a bit of `mask` (ctz(t) ∈ mask); mask ≠ 0 and
/// k < 2^63. In O(1): t differs from k first (from the top) at a bit h where k has a 0, keeps k's
/// bits above h and sets h; below h it is as small as allowed, 0 if h ∈ mask, else 2^m with
/// m = ctz(mask), which needs h > m. The lowest such h gives the least t (SkipPer's jumps).
inline std::uint64_t next_step_flipping(std::uint64_t k, std::uint64_t mask) noexcept {
    const int m = __builtin_ctzll(mask);
    const int h = __builtin_ctzll(~k & (mask | (~std::uint64_t{0} << (m + 1))));
    const std::uint64_t t = ((k >> h) | 1U) << h;
    return ((mask >> h) & 1U) != 0 ? t : t | (std::uint64_t{1} << m);
}

}  // namespace pmcount::exact
