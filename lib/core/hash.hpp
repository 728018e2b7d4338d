// FNV-1a, 64 bits: a fast, stable hash for cache keys, checksums of files pmcount writes itself
// (kernel cache, checkpoints) and input fingerprints. Not cryptographic: it detects accidents
// (truncation, flipped bits, another file), not tampering.
#pragma once

#include <cstdint>
#include <string_view>

namespace pmcount {

inline constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ULL;

/// Continues `hash` over `bytes` (start from kFnvOffset).
inline std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnvOffset) noexcept {
    for (const unsigned char c : bytes) {
        hash = (hash ^ c) * 0x100000001b3ULL;
    }
    return hash;
}

}  // namespace pmcount
