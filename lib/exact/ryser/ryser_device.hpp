// The Ryser engines' GPU jobs (cuda/ryser_dense.cu, ryser_sparse.cu, cuda/kernels/ryser_dense.cuh
// and ryser_sparse.cuh): the dense and sparse kernels' arithmetics, jobs, records and results.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backend/device.hpp"
#include "exact/ryser/ryser_gpu_mode.hpp"

namespace pmcount::backend::cuda {

/// The other floating kernels recompute y every 2^kGpuResetLog2 Gray steps (kResetLog2 in
/// cuda/kernels/ryser_dense.cuh): the replayed walks of the error figure do the same.
inline constexpr int kGpuResetLog2 = 12;
/// The certified kernel recomputes y every 2^kGpuCertifiedResetLog2 Gray steps (Arith<5> in
/// cuda/kernels/ryser_dense.cuh), so a slot's y has taken at most n − 1 + 2^8 rounded additions
/// since it was exact: the row errors must cover that many.
inline constexpr int kGpuCertifiedResetLog2 = 8;
/// The certified kernel sums the terms of one chunk of at most 2^kGpuCertifiedChunkLog2 Gray
/// steps error-free into a pair (Sum2): that pair is within γ²_{2^12} of their Σ|term|.
inline constexpr int kGpuCertifiedChunkLog2 = 12;

/// Doubles per column in GpuRyserJob::columns: n values (×2 for complex and double-double),
/// rounded up to even so every column starts 16-byte aligned.
inline int gpu_column_stride(int n, GpuMode mode) noexcept {
    const int words = mode == GpuMode::complex || mode == GpuMode::double_double ? 2 : 1;
    return words * (n + (n & 1));
}

/// Largest number of primes one modular launch carries.
inline constexpr int kGpuMaxPrimes = 16;

/// Bytes of one unit's record: the residues (modular) or the double-double sums, Σ|term| and
/// Σ|term|² (0 where the mode does not sum it: plain, double-double, certified).
inline std::size_t range_record_bytes(GpuMode mode, std::size_t primes) noexcept {
    return mode == GpuMode::modular ? 4 * primes : 6 * sizeof(double);
}

/// Σ over the 2^(n−1) Gray-code subsets of (−1)^k Π_i y_i, with y as in ryser_kernel.hpp.
struct GpuRyserJob {
    int n = 0;
    GpuMode mode = GpuMode::double_compensated;
    std::vector<double> base;     ///< y(∅): n values (re/im or hi/lo pairs for complex and dd)
    std::vector<double> columns;  ///< Gray columns 0..n−2, gpu_column_stride() doubles each (2·a)
    /// Modular: odd primes below 2^31. Rows must be laid out so each lane (rows i ≡ l mod 4) has
    /// a product of row 1-norms below 2^53.
    std::vector<std::uint32_t> primes;
    /// Certified: per row slot a bound on |ŷ_i − y_i| at every step (n values, at most 64).
    std::vector<double> row_error;
    std::vector<int> devices;  ///< GPUs to use; empty: every visible one
    GpuRange range;
};

struct GpuRyserResult {
    double re_hi = 0, re_lo = 0;          ///< the signed sum (real part), double-double
    double im_hi = 0, im_lo = 0;          ///< imaginary part (complex)
    double magnitude = 0;                 ///< Σ |term| (|re| + |im| for complex)
    double squares = 0;                   ///< Σ |term|² (compensated double and complex modes)
    std::vector<std::uint32_t> residues;  ///< modular: the signed sum mod each prime
    std::vector<GpuDeviceUse> devices;
    int chunk_log2 = 0;
    std::uint64_t chunks = 0;
    std::uint64_t units = 0;  ///< units of the whole range (GpuRange)
    int batches = 0;
    double seconds = 0;        ///< kernels and transfers, after compilation and set-up
    double setup_seconds = 0;  ///< compilation (or cache hit) and loading
    /// Sparse engines: writing the generated source (0 for table kernels), compiling it (or
    /// reading the cache) and loading, and where the kernels came from: "memory" (loaded earlier
    /// in this process), "disk" (the kernel cache) or "compiled" (NVRTC).
    double generate_seconds = 0;
    double compile_seconds = 0;
    std::string kernel_cache;
};

/// Runs the dense kernel over the job's units of the Gray range, batches of units handed out
/// dynamically to one host thread per GPU, each unit's record to job.range.finished. The result
/// has the timings; its sums come from merge_range_records(). Throws DeviceError, NotCompiled
/// (stub).
GpuRyserResult ryser_dense(const GpuRyserJob& job);

/// The sparse engines' kernels (cuda/kernels/ryser_sparse.cuh).
enum class GpuSparseKernel : int {
    walk,         ///< SpaRyser: the Gray walk updating the flipped column's nonzeros
    skip_binary,  ///< SkipPer's 0-1 path (modular mode only)
};

/// How the matrix reaches the kernel: tables in shared memory (one kernel per order and
/// arithmetic), or a kernel generated for this matrix with the tables as literals (x in
/// registers), compiled by NVRTC and cached on disk by the hash of its source.
enum class GpuCode : int { tables, generated };

/// Chunks of SkipPer's 0-1 kernel: 2^(n−29) at large n (2^28 chunks: warps take groups of 32
/// dynamically and the walk's work is concentrated in few regions, so fine groups keep the
/// launch's tail short; n = 48 on an H100: 2^22 chunks 1.41 s, 2^25 1.21 s, 2^28 0.41 s), at least
/// 2^10 (or the whole range). The tables' free_bits must not exceed it.
inline int gpu_skip_chunk_log2(int n) noexcept {
    const int bits = n - 1;
    return std::max(std::min(bits, 10), bits - 28);
}

/// One sparse permanent sum: Σ over the Gray-code subsets of (−1)^k Π_i y_i as for the dense
/// engine (GpuRyserJob), with the Gray columns as lists of nonzeros.
struct GpuSparseJob {
    int n = 0;
    GpuMode mode = GpuMode::double_compensated;
    GpuSparseKernel kernel = GpuSparseKernel::walk;
    GpuCode code = GpuCode::tables;
    std::vector<double> base;  ///< y(∅): n values (pairs for complex and double-double)
    /// walk: the Gray columns 0..n−2 as CSC: col_start (n entries), each entry's row and value
    /// (2·a; pairs for complex and double-double).
    std::vector<int> col_start, col_row;
    std::vector<double> col_value;
    /// skip_binary (0-1 matrices, y(∅) in base): per row its Gray bits; the rows that can be zero
    /// (mask, the popcount at which the row is zero, mask | the bits above its lowest, its lowest
    /// bit); a visit without a zero covers 2^free_bits indices.
    std::vector<std::uint64_t> row_mask, test_mask, test_low, test_low_bit;
    std::vector<int> test_count;
    int free_bits = 0;
    /// skip_binary: a term block's terms are summed in sub-blocks of 2^sub_bits indices, at most
    /// numeric::sub_block_bits(base, row_mask, free_bits) (numeric/sub_block_bits.hpp).
    int sub_bits = 0;
    std::vector<std::uint32_t> primes;  ///< modular: as GpuRyserJob (four exact lanes)
    std::vector<int> devices;
    GpuRange range;
};

/// Runs a sparse kernel over the job's units like ryser_dense (same batches, units and records).
/// Throws InvalidArgument, DeviceError, NotCompiled (stub).
GpuRyserResult ryser_sparse(const GpuSparseJob& job);

/// Whether ryser_sparse would find the job's kernel compiled (loaded in this process or in the
/// disk cache), so that it pays no NVRTC compilation: always for table kernels. For the
/// planner's predictions; throws as ryser_sparse on a malformed job.
bool sparse_kernel_cached(const GpuSparseJob& job);

/// Units of the job's Gray range (GpuRange).
std::uint64_t range_units(const GpuRyserJob& job);
std::uint64_t range_units(const GpuSparseJob& job);

/// The sums of every unit's record (`records`: range_units() records in unit order) into
/// `result`'s re/im/magnitude (double-double, added in unit order) or residues (the kernels'
/// Montgomery factor removed), so the value depends on no GPU count, batch or process.
void merge_range_records(GpuMode mode, const std::vector<std::uint32_t>& primes,
                         const std::vector<unsigned char>& records, GpuRyserResult& result);

/// Forgets the kernels loaded in this process, so the next engine call looks in the disk cache
/// again (for tests and for measuring a cold start); loaded code stays valid.
void forget_loaded_kernels();

}  // namespace pmcount::backend::cuda
