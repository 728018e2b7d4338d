// FNV-1a, 64 bits: a fast, stable hash for cache keys, checksums of files pmcount writes itself
// (kernel cache, checkpoints) and input fingerprints. Not cryptographic: it detects accidents
// (truncation, flipped bits, another file), not tampering. And SplitMix64 for seeded streams.
#pragma once

#include <cstdint>
#include <string_view>
#include <type_traits>

namespace pmcount {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;

/// Continues `hash` over `bytes` (start from kFnvOffset).
inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnvOffset) noexcept {
    for (const unsigned char c : bytes) {
        hash = (hash ^ c) * 0x100000001b3ULL;
    }
    return hash;
}

/// Continues `hash` over the bytes of a trivially copyable value (an input fingerprint's
/// numbers).
template <class T>
std::uint64_t fnv1a_value(std::uint64_t hash, const T& value) noexcept {
    static_assert(std::is_trivially_copyable_v<T>);
    return fnv1a(std::string_view(reinterpret_cast<const char*>(&value), sizeof value), hash);
}

/// SplitMix64 (Steele, Lea, Flood 2014): advances `state` and returns the next value of a fixed,
/// well-mixed stream (seeded sample positions: the walk estimates, the error figure's blocks).
inline std::uint64_t split_mix(std::uint64_t& state) noexcept {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

}  // namespace pmcount
