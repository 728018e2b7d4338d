// The hafnian engine's GPU job (cuda/hafnian_gpu.cu, cuda/kernels/hafnian.cuh): arithmetics,
// the job and its units' records, the result.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "backend/device.hpp"
#include "exact/hafnian/hafnian_gpu_mode.hpp"

namespace pmcount::backend::cuda {

/// Largest order the hafnian kernels take (2^32 leaves at n = 64).
inline constexpr int kMaxGpuHafnianOrder = 64;

/// Bits of the primes the modular hafnian kernel takes at order n: the largest b ≤ 31 with
/// 2(m−1)·(2^b − 1)² + 2^b < 2^64 (m = n/2), so one coefficient's products and its base residue
/// add up in a 64-bit accumulator before its one reduction (29 bits up to n = 64).
inline int gpu_hafnian_prime_bits(int n) noexcept {
    const auto products = static_cast<std::uint64_t>(std::max(2 * (n / 2 - 1), 1));
    for (int bits = 31;; --bits) {
        const std::uint64_t top = (std::uint64_t{1} << bits) - 1;
        // products·top² + 2^bits < 2^64, without overflow.
        if (top * top <= (~std::uint64_t{0} - (std::uint64_t{1} << bits)) / products) {
            return bits;
        }
    }
}

/// haf(A) of a symmetric matrix of even order n ≥ 2 by Björklund's recursion over the n/2 pairs
/// (0,1), (2,3), …; the diagonal is not used. The work is cut into units: one subtree root of
/// the recursion (exact/hafnian/hafnian_plan.hpp) for one prime (modular) or for the one floating matrix,
/// numbered prime·roots + root. Their number, hafnian_units(), depends only on n, the number of
/// primes and expand_levels, never on the GPU, so a checkpoint or an MPI rank can hold, send or
/// compute any set of them (GpuRange, as the Ryser kernels' units).
struct GpuHafnianJob {
    int n = 0;
    GpuHafnianMode mode = GpuHafnianMode::double_precision;
    /// Entries a_jk, j > k, in the order j(j−1)/2 + k: one double each, (re, im) pairs for
    /// complex; empty for modular. Scaled so that no coefficient overflows (|a_jk| < 1 will do).
    std::vector<double> entries;
    /// Modular: distinct odd primes below 2^gpu_hafnian_prime_bits(n), and for each prime in turn
    /// the entries (same order) reduced into [0, p).
    std::vector<std::uint32_t> primes;
    std::vector<std::uint32_t> residues;
    std::vector<int> devices;  ///< GPUs to use; empty: every visible one
    GpuRange range;            ///< the units to compute and the receiver of their records
    /// Work split, for tests and measurements: levels expanded breadth-first in global memory
    /// (< 0: automatic; it sets the roots, hence the units), and subtree roots per batch (0:
    /// automatic, from the GPU's memory). Neither changes a unit's record.
    int expand_levels = -1;
    std::uint64_t roots_per_batch = 0;
};

struct GpuHafnianResult {
    double re_hi = 0, re_lo = 0;          ///< Σ over the leaves, double-double (real part)
    double im_hi = 0, im_lo = 0;          ///< imaginary part (complex)
    double magnitude = 0;                 ///< Σ |leaf| (|re| + |im| for complex)
    double error_re = 0, error_im = 0;    ///< Σ of the leaves' running errors e (signed)
    double error_magnitude = 0;           ///< Σ |e| (|re| + |im| for complex)
    std::vector<std::uint32_t> residues;  ///< modular: haf mod each prime
    std::vector<GpuDeviceUse> devices;
    int subtree_levels = 0;   ///< levels each warp solves in shared memory
    int expand_levels = 0;    ///< levels expanded breadth-first in global memory
    std::uint64_t roots = 0;  ///< subtree roots rebuilt from the matrix
    std::uint64_t tasks = 0;  ///< warp subtrees per prime
    std::uint64_t units = 0;  ///< units of the whole job (roots × primes)
    int batches = 0;
    double seconds = 0;        ///< kernels and transfers, after compilation and set-up
    double setup_seconds = 0;  ///< compilation (or cache hit), planning
};

/// Doubles of a floating hafnian unit's record: re hi/lo, im hi/lo, Σ|leaf|, Σ|e|, Σe re, im.
inline constexpr std::size_t kHafnianFloatWords = 8;

/// Bytes of one hafnian unit's record: its residue (modular), or kHafnianFloatWords doubles.
inline std::size_t hafnian_record_bytes(GpuHafnianMode mode) noexcept {
    return mode == GpuHafnianMode::modular ? 4 : kHafnianFloatWords * sizeof(double);
}

/// Units of the job (GpuHafnianJob).
std::uint64_t hafnian_units(const GpuHafnianJob& job);

/// Runs the hafnian kernels over the job's units: batches of consecutive roots of one prime,
/// handed out dynamically to one host thread per GPU, each unit's record to job.range.finished.
/// The result has the work split and timings; its sums come from merge_hafnian_records().
/// Throws InvalidArgument (a malformed job), DeviceError, NotCompiled (stub).
GpuHafnianResult hafnian(const GpuHafnianJob& job);

/// The sums of every unit's record (`records`: hafnian_units() records in unit order) into
/// `result`'s re/im (double-double, added in unit order), magnitude and errors, or residues (per
/// prime).
void merge_hafnian_records(const GpuHafnianJob& job, const std::vector<unsigned char>& records,
                           GpuHafnianResult& result);

}  // namespace pmcount::backend::cuda
