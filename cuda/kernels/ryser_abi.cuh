// The Ryser kernels' ABI: the parameter structs and work geometry that the host
// (cuda/ryser_range.cu) fills and the kernels (ryser_dense.cuh, ryser_sparse.cuh) read. Compiled
// into both: included by the host code, and prepended to the kernel sources that NVRTC compiles
// (cuda/CMakeLists.txt), so the layout has one definition. NVRTC sees no host
// headers: only the host build includes one (for offsetof).
#pragma once

#ifndef __CUDACC_RTC__
#include <cstddef>
#endif

namespace pmcount_gpu {

typedef unsigned long long u64;
typedef unsigned int u32;

/// Most primes one modular launch carries (kGpuMaxPrimes on the host), and most rows.
constexpr int kMaxPrimes = 16;
constexpr int kMaxRows = 64;

/// Work geometry: chunks of 2^L consecutive Gray indices (one per thread at a time), groups of
/// 32 consecutive chunks (one per warp at a time, taken from a counter), segments of
/// kGroupsPerSegment consecutive groups (the unit of the host's batches and of the final
/// reduction). A group's result is one record of kRecordDoubles doubles.
constexpr int kGroupChunks = 32;
constexpr int kGroupsPerSegment = 256;
constexpr int kRecordDoubles = 8;

struct Params {
    const double* columns;  // Gray columns j < N−1, each stride<N, MODE>() doubles
    const double* base;     // y(∅): N values (×2 for complex and double-double)
    double* records;        // one per group of this launch: see write_record
    u64* counter;           // groups of this launch taken so far (zero at launch)
    u64 first_group;
    u64 group_count;        // groups in this launch
    u64 chunk_count;        // chunks in the whole Gray range (lanes past it idle)
    int chunk_log2;
    int primes;
    u32 p[kMaxPrimes];
    u32 neg_p_inverse[kMaxPrimes];  // −p⁻¹ mod 2^32
    u32 r96[kMaxPrimes];            // 2^96 mod p (Arith<kModular>::add_lanes_times)
    double row_error[kMaxRows];     // certified: a bound on |x̂_i − x_i| at every step (Arith<kCertified>)
};

/// The tables in global memory (TablePattern copies them to shared memory). The host fills
/// the same struct (this header is compiled into both).
struct SparseTables {
    const double* values;     // walk: per entry kWords doubles (2·a), entries of column 0 first
    const double* base;       // walk: y(∅), N × kWords; skip: y(∅), N
    const int* col_start;     // walk: N entries (N − 1 Gray columns + 1)
    const int* col_row;       // walk: per entry its row
    const u64* row_mask;      // skip: per row, its Gray bits
    const u64* test_mask;     // skip: per tested row, its Gray bits
    const u64* test_low;      //       mask | the bits above its lowest
    const u64* test_low_bit;  //       the lowest bit of mask
    const int* test_count;    //       the row is zero when popcount(gray & mask) equals this
    int entries;
    int tests;
    int free_bits;            // skip: a visit without a zero row covers 2^free_bits indices
    int sub_bits;             //       its terms are summed in sub-blocks of 2^sub_bits (skip_terms)
};

// The layout both compilers must agree on (LP64: 8-byte pointers and u64).
static_assert(sizeof(Params) == 768, "Params: 7 words, 2 ints, 3 x 16 u32, 64 doubles");
#ifndef __CUDACC_RTC__  // offsetof needs <cstddef>, which NVRTC does not have
static_assert(offsetof(Params, chunk_log2) == 56 && offsetof(Params, p) == 64 &&
                  offsetof(Params, r96) == 192 &&
                  offsetof(Params, row_error) == 256,
              "Params layout");
static_assert(sizeof(SparseTables) == 88 && offsetof(SparseTables, entries) == 72,
              "SparseTables: 9 pointers, 4 ints");
#endif

}  // namespace pmcount_gpu
