// The hafnian kernels' ABI: the parameter struct and constants that the host
// (cuda/hafnian_gpu.cu) fills and the kernels (hafnian.cuh) read. Compiled into both: included by
// the host code, and prepended to the kernel source that NVRTC compiles (cuda/CMakeLists.txt), so
// the layout has one definition. NVRTC sees no host headers: only the host build includes one
// (for offsetof).
#pragma once

#ifndef __CUDACC_RTC__
#include <cstddef>
#endif

namespace pmcount_hafnian {

typedef unsigned long long u64;
typedef unsigned int u32;

/// Largest number of pairs (order 64).
constexpr int kMaxPairs = 32;
/// Deepest tier-2 subtree (2^(J−1) ≤ 32 leaves, one per lane).
constexpr int kMaxSubtreeLevels = 6;
constexpr int kExpandThreads = 128;
constexpr int kSegmentTasks = 256;
constexpr int kRecordDoubles = 8;

struct Params {
    const void* matrix;         // level-M block of the whole problem (this prime's residues)
    void* replay[2];            // tier 0: ping-pong, `roots` blocks of P(M−1) polynomials each
    void* pool[kMaxPairs + 1];  // tier 1: include children of level L (J ≤ L < R), by level
    const void* zero;           // Q zero coefficients (the missing second product of g's task)
    double* records;            // tier 2: kRecordDoubles per task
    u64 first_root;             // the batch's first level-R root (its path from the top)
    u64 barrett;                // ⌊(2^64 − 1)/p⌋
    int root_level;             // R
    int subtree_levels;         // J
    int roots;                  // level-R roots in this batch
    u32 prime;                  // modular: p
    u32 shared_offset[kMaxSubtreeLevels];  // tier 2: element offset of level r's blocks (r < J)
};

// The layout both compilers must agree on (LP64: 8-byte pointers and u64).
static_assert(sizeof(Params) == 360, "Params: 38 pointers, 2 u64, 4 ints, 6 u32");
#ifndef __CUDACC_RTC__  // offsetof needs <cstddef>, which NVRTC does not have
static_assert(offsetof(Params, records) == 296 &&
                  offsetof(Params, root_level) == 320 &&
                  offsetof(Params, shared_offset) == 336,
              "Params layout");
#endif

}  // namespace pmcount_hafnian
