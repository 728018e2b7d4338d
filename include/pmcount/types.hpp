// Basic types shared by every pmcount header.
#pragma once

#include <cstdint>

namespace pmcount {

/// Index of a vertex (or of a matrix row / column).
using vertex_t = std::int32_t;
/// Index of an edge (or of a stored matrix entry).
using edge_t = std::int64_t;

/// What the entries of a problem are; decides the arithmetic (exact for binary and integer).
enum class ValueKind {
    binary,   ///< 0-1 pattern: counts perfect matchings / cycle covers
    integer,  ///< int64 entries: exact integer permanent
    real,     ///< double entries
    complex,  ///< std::complex<double> entries
};

/// "binary", "integer", "real" or "complex".
const char* to_string(ValueKind kind) noexcept;

}  // namespace pmcount
