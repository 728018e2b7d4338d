// Basic types shared by every pmcount header.
#pragma once

#include <cstdint>

namespace pmcount {

/// Index of a vertex (or of a matrix row / column).
using vertex_t = std::int32_t;
/// Index of an edge (or of a stored matrix entry).
using edge_t = std::int64_t;

/// The most vertices an input may have on a side — a file's declared sides (a matrix's rows,
/// its columns; a graph's vertices) and a generator spec's alike: 2^24. Every order derived from
/// an input (rows + columns on the general path, 2n for a hafnian embedding) then stays far
/// below vertex_t's 2^31, and the largest input's plan (about 1.8 KB per vertex and 210 bytes
/// per edge) needs tens of GB, which the memory limit (CountOptions::max_memory) refuses on most
/// machines before anything is planned; past it a hostile header would only cost time.
inline constexpr std::int64_t kMaxVertices = std::int64_t{1} << 24;

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
