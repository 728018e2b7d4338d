// The interface between the host library and the CUDA target. pmcount_cuda implements it with
// CUDA when the toolkit is found; otherwise lib/backend/cuda_stub.cpp builds a target of the same
// name that reports no devices and throws NotCompiled (DESIGN §4), so no #ifdef reaches algorithm
// code. Kernels never throw; the functions here turn every CUDA status into DeviceError.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "approx/problem.hpp"
#include "pmcount/build_info.hpp"

namespace pmcount::backend::cuda {

/// True when this build contains the CUDA kernels.
bool compiled() noexcept;
/// CUDA toolkit version the kernels were built with ("" in the stub).
std::string toolkit_version();
/// Visible GPUs. When there are none, `status` says why (no driver, no device, stub build).
std::vector<DeviceInfo> devices(std::string& status);

/// Arithmetic of the dense GPU kernel (cuda/kernels/ryser_dense.cuh).
enum class GpuMode : int {
    double_plain = 0,        ///< plain double accumulation (the roofline reference)
    double_compensated = 1,  ///< 2^4-term block sums folded into Neumaier pairs
    double_double = 2,
    complex = 3,
    modular = 4,  ///< y exact in double; 4 lane products, 31-bit primes, Montgomery
    /// double terms, each with a rigorous bound on its distance from the exact term (needs
    /// GpuRyserJob::row_error); the records' imaginary sum is the sum of the bounds
    certified = 5,
};

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

/// The part of a Gray range a job runs. The range is cut into units of whole segments (their
/// number, range_units(), depends only on n and the kernel, so it is the same on every GPU and in
/// every process); each unit's sums form one record of range_record_bytes() bytes, and
/// merge_range_records() turns every unit's record, in unit order, into the result. A checkpoint
/// or an MPI rank can thus hold, send or compute any set of units.
struct GpuRange {
    std::vector<std::uint64_t> units;  ///< ascending; empty: every unit
    /// Each finished unit's record, from the GPUs' host threads (must be thread-safe).
    std::function<void(std::uint64_t unit, const unsigned char* record)> finished;
    /// Asked by one host thread after each batch: false starts no further batch.
    std::function<bool()> keep_going;
};

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

struct GpuDeviceUse {
    int device = 0;
    std::string name;
    int batches = 0;
    double seconds = 0;
};

struct GpuRyserResult {
    double re_hi = 0, re_lo = 0;  ///< the signed sum (real part), double-double
    double im_hi = 0, im_lo = 0;  ///< imaginary part (complex)
    double magnitude = 0;         ///< Σ |term| (|re| + |im| for complex)
    double squares = 0;           ///< Σ |term|² (compensated double and complex modes)
    std::vector<std::uint32_t> residues;  ///< modular: the signed sum mod each prime
    std::vector<GpuDeviceUse> devices;
    int chunk_log2 = 0;
    std::uint64_t chunks = 0;
    std::uint64_t units = 0;  ///< units of the whole range (GpuRange)
    int batches = 0;
    double seconds = 0;  ///< kernels and transfers, after compilation and set-up
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

/// Arithmetic of the hafnian kernels (cuda/kernels/hafnian.cuh).
enum class GpuHafnianMode : int {
    double_precision = 0,  ///< double with a running error per coefficient; subtree records
                           ///< combined in double-double
    complex = 1,           ///< complex double, the same
    modular = 2,           ///< residues modulo primes below 2^gpu_hafnian_prime_bits(n)
};

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
/// the recursion (cuda/hafnian_plan.cuh) for one prime (modular) or for the one floating matrix,
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
    double re_hi = 0, re_lo = 0;  ///< Σ over the leaves, double-double (real part)
    double im_hi = 0, im_lo = 0;  ///< imaginary part (complex)
    double magnitude = 0;         ///< Σ |leaf| (|re| + |im| for complex)
    double error_re = 0, error_im = 0;  ///< Σ of the leaves' running errors e (signed)
    double error_magnitude = 0;         ///< Σ |e| (|re| + |im| for complex)
    std::vector<std::uint32_t> residues;  ///< modular: haf mod each prime
    std::vector<GpuDeviceUse> devices;
    int subtree_levels = 0;    ///< levels each warp solves in shared memory
    int expand_levels = 0;     ///< levels expanded breadth-first in global memory
    std::uint64_t roots = 0;   ///< subtree roots rebuilt from the matrix
    std::uint64_t tasks = 0;   ///< warp subtrees per prime
    std::uint64_t units = 0;   ///< units of the whole job (roots × primes)
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

/// Measured FP64 add/multiply instructions per second of a GPU (independent DMUL/DADD chains).
double fp64_rate(int device);

/// The estimators' sampler on one GPU (cuda/approx_gpu.cu).
struct GpuSamplerJob {
    int device = 0;
    const approx::SamplerProblem* problem = nullptr;  ///< copied to the device
    approx::SamplerConfig config;
};

/// Samples on one GPU; the matrix stays on the device between calls.
class GpuSampler {
public:
    virtual ~GpuSampler() = default;
    /// log estimates of samples first, …, first + count − 1 into log_out[0, count).
    virtual void sample(std::uint64_t first, std::uint64_t count, double* log_out) = 0;
    /// Kernel and transfer seconds so far.
    virtual double device_seconds() const = 0;
    /// Samples in flight at once (resident threads, capped by memory).
    virtual std::uint64_t slots() const = 0;

    // Particle populations (sequential Monte Carlo, lib/approx/estimate.cpp): `count` samples
    // held side by side, particle k drawing as sample first + k, advanced step-synchronously.
    /// Particles that fit at once (a multiple of `particles`, at least `particles`); throws
    /// DeviceError when not even one population of `particles` fits in memory.
    virtual std::uint64_t population_capacity(std::uint64_t particles) = 0;
    /// Puts particles [0, count) at step 0.
    virtual void begin_particles(std::uint64_t first, std::uint64_t count) = 0;
    /// Takes every particle's steps up to `until` (or its end).
    virtual void advance_particles(vertex_t until) = 0;
    /// Each particle's log weight since its last selection, times its potential Φ now
    /// (SampleCursor::log_estimate + log_potential; −inf: zero).
    virtual void particle_log_weights(double* out) = 0;
    /// Particle k becomes a copy of particle ancestors[k] (all at once), its weight restarting
    /// at 1/Φ (log_estimate = −log_potential) unless it is 0.
    virtual void select_particles(const std::uint32_t* ancestors) = 0;
    virtual std::string description() const = 0;
};

/// Uploads the job; throws DeviceError (no such GPU, out of memory), NotCompiled (stub).
std::unique_ptr<GpuSampler> make_gpu_sampler(const GpuSamplerJob& job);

}  // namespace pmcount::backend::cuda
