// FNV-1a, 64 bits: a fast, stable hash for cache keys, checksums of files pmcount writes itself
// (kernel cache, checkpoints) and input fingerprints. Not cryptographic: it detects accidents
// (truncation, flipped bits, another file), not tampering.
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

}  // namespace pmcount
