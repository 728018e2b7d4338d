// Host side of the dense GPU engine: run-time compilation of cuda/kernels/ryser_dense.cuh with
// NVRTC for the order n and arithmetic at hand (so x sits in registers with compile-time indices;
// cached on disk, nvrtc_cache.cuh), and a scheduler that hands batches of units (fixed runs of
// the Gray range, backend/device.hpp's GpuRange) to one host thread per GPU and passes on each
// unit's record; the caller merges the records in unit order (merge_range_records).
//
// Layers (CUB style): ryser_dense() (device-wide entry: plan the batches, start the workers) →
// run_device() (one GPU: load, upload, launch batch after batch, unit records) → the kernel.
// Every CUDA status is checked here and turned into DeviceError (NVRTC's in nvrtc_cache.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <numeric>
#include <string>
#include <vector>

#include "cuda/ryser_dense_source.hpp"
#include "cuda/ryser_sparse_source.hpp"
#include "kernels/ryser_abi.cuh"
#include "common/cuda_status.cuh"
#include "common/device_buffer.cuh"
#include "common/float_records.cuh"
#include "common/knobs.cuh"
#include "common/multi_gpu.cuh"
#include "exact/ryser/ryser_codegen.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "numeric/montgomery.hpp"
#include "numeric/sub_block_bits.hpp"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

using pmcount_gpu::u64;
__extension__ using u128 = unsigned __int128;

/// Launch policy for sm_90 (H100/H200), from timings of the n = 40 double kernel on an H100.
/// 128-thread blocks: the kernel needs 255 registers at n = 36–48, so two blocks fit per SM
/// whatever the block size, and the persistent warps take groups dynamically, so block size only
/// sets the granularity of residency. Batches: a (2·GPUs)-th of the remaining segments (the last
/// ones small, so GPUs finish together), at least 8 groups per resident warp (one wave of work
/// per launch) and at most 4096 segments (64 MiB of group records). Every launch ends in a tail
/// where the last groups run on few SMs; SkipPer's work sits in few groups, so its tails are
/// long (ncu, random n = 48, d = 0.1: SMs active 26% of a batch). Fewer batches, fewer tails:
/// on one H100, kernels at divisor 16 / 4 / 2 / 1: generated SkipPer 0.485 / 0.233 / 0.205 /
/// 0.208 s (pmcount-bench's sparse-binary n = 48), random:48,0.1,7 0.321 / 0.239 / 0.228 /
/// 0.229 s; table SkipPer random:48,0.1,7 0.978 s at 16, 0.615 s at 2; dense double n = 40
/// 3.350 s at 16, 3.331 s at 2.
struct LaunchPolicy90 {
    static constexpr int kBlockThreads = 128;
    static constexpr int kBatchDivisorPerGpu = 2;
    static constexpr int kMinGroupsPerWarp = 8;
    static constexpr unsigned long long kMaxBatchSegments = 4096;
    /// Chunks of 2^12 steps: the floating modes recompute x every 2^12 steps anyway, so a chunk
    /// start costs nothing extra, and one chunk is the most a warp can trail the others by.
    static constexpr int kChunkLog2 = 12;
};
using Policy = LaunchPolicy90;
static_assert(Policy::kChunkLog2 <= kGpuCertifiedChunkLog2,
              "the certified error bound counts the terms one thread sums into a pair");

/// The kernels' parameters and work geometry (kernels/ryser_abi.cuh, compiled into both).
using KernelParams = pmcount_gpu::Params;
using pmcount_gpu::kGroupChunks;
using pmcount_gpu::kGroupsPerSegment;
using pmcount_gpu::kRecordDoubles;
static_assert(pmcount_gpu::kMaxPrimes == kGpuMaxPrimes, "one launch's primes");
/// The kernel's shape (pmcount_gpu::Shape in the kernel source, a template argument of the
/// kernel, so this is its only definition). Chosen from timings on an H100 (seconds for the whole
/// range, docs/gpu.md):
/// - Unrolled super-blocks of 2^M steps. MODE 0: M = 4 fastest up to n = 40 (n = 40: 2.84 s
///   against 2.86 with M = 3, 3.18 with M = 2, 3.34 with M = 5, which spills), M = 3 beyond (n =
///   44: 50.8 s against 55.2 with M = 4). M = 3 for the longer steps of MODE 1. Double-double and
///   complex elements take two register pairs each and spill beyond M = 2. The integer-heavy
///   steps of MODE 4 overflow the instruction cache when unrolled (n = 40: 12.0 s with M = 1 and
///   four blocks per SM, 16.2 s with M = 2, 42 s with M = 4).
/// - Blocks per SM the register allocation aims at: the modular kernel fits 128 registers up to
///   n = 40 (four blocks), 168 beyond (three); the others ask for one and take what they need (255
///   registers at n = 36–48: two blocks).
/// - MODE 0 fuses the product tree's top multiplication into its two accumulations up to n = 40
///   (n = 40: 2.864 → 2.811 s), not beyond (n = 44, M = 3: 50.27 / 50.47 s unfused against
///   51.14 / 51.15 s fused).
/// PMCOUNT_GPU_SHAPE="M,B,F" (unroll, blocks per SM, fuse 0/1) replaces it, to measure others.
struct KernelShape {
    int unroll_log2 = 1;
    int min_blocks = 1;
    bool fuse_top = false;
};

KernelShape kernel_shape(int n, GpuMode mode) {
    KernelShape shape;
    switch (mode) {
        case GpuMode::double_plain:
            shape.unroll_log2 = n <= 40 ? 4 : 3;
            shape.fuse_top = n <= 40;
            break;
        case GpuMode::double_compensated:
        case GpuMode::certified:
            shape.unroll_log2 = 3;
            break;
        case GpuMode::double_double:
        case GpuMode::complex: shape.unroll_log2 = 2; break;
        case GpuMode::modular:
            shape.unroll_log2 = 1;
            shape.min_blocks = n <= 40 ? 4 : 3;
            break;
    }
    if (const auto knob = knob_ints<3>("PMCOUNT_GPU_SHAPE", {KnobRange{1, 6}, {1, 16}, {0, 1}},
                                        "M,B,F with unroll 1 <= M <= 6, blocks per SM "
                                        "1 <= B <= 16, fuse F 0 or 1")) {
        shape = {(*knob)[0], (*knob)[1], (*knob)[2] == 1};
    }
    shape.unroll_log2 = std::min(shape.unroll_log2, n - 1);
    return shape;
}

/// Loaded once per process (nvrtc_cache.cuh), compiled for the order and arithmetic at hand.
cudaKernel_t load_kernel(const std::string& name_expression, int major, int minor) {
    return cuda::load_kernel(KernelSource{kRyserDenseSource, "ryser_dense.cu"}, name_expression,
                             major, minor);
}

/// A run of consecutive units, launched at once.
struct Batch {
    u64 first_unit = 0;
    u64 units = 0;
};

struct Plan {
    int chunk_log2 = 0;
    u64 chunks = 0;
    u64 groups = 0;
    u64 segments = 0;
    u64 units = 0;
    u64 unit_segments = 0;
    std::vector<Batch> batches;
    u64 max_batch_segments = 0;
};

/// The range's geometry: chunks of 2^chunk_log2 steps, groups of kGroupChunks chunks, segments of
/// kGroupsPerSegment groups (a power of two, or one), and at most kMaxUnits units of whole
/// segments. Depends on n and chunk_log2 only (GpuRange).
constexpr u64 kMaxUnits = 1024;
Plan range_geometry(int n, int chunk_log2) {
    Plan plan;
    const int bits = n - 1;
    plan.chunk_log2 = std::min(bits, chunk_log2);
    plan.chunks = u64{1} << (bits - plan.chunk_log2);
    plan.groups = (plan.chunks + kGroupChunks - 1) / kGroupChunks;
    plan.segments = (plan.groups + kGroupsPerSegment - 1) / kGroupsPerSegment;
    plan.units = std::min(plan.segments, kMaxUnits);
    plan.unit_segments = plan.segments / plan.units;
    return plan;
}

std::string kernel_name(int n, GpuMode mode) {
    const KernelShape shape = kernel_shape(n, mode);
    return "pmcount_gpu::ryser_dense<" + std::to_string(n) + ", " +
           std::to_string(static_cast<int>(mode)) + ", pmcount_gpu::Shape<" +
           std::to_string(shape.unroll_log2) + ", " + std::to_string(shape.min_blocks) + ", " +
           (shape.fuse_top ? "true" : "false") + ">>";
}

/// The batches' divisor for `gpus` GPUs: Policy::kBatchDivisorPerGpu per GPU, or
/// PMCOUNT_GPU_BATCH_DIVISOR=D (1 to 64) to measure others.
u64 batch_divisor(std::size_t gpus) {
    return static_cast<u64>(
        knob("PMCOUNT_GPU_BATCH_DIVISOR", 1, 64,
             Policy::kBatchDivisorPerGpu * static_cast<int>(std::min<std::size_t>(gpus, 32)),
             "a divisor"));
}

/// The batches, fixed before any GPU starts: runs of consecutive units of the list, each a
/// 1/divisor share of what remains, clamped (at least min_segments, at most kMaxBatchSegments,
/// whole units), and never across a gap of the list.
std::vector<Batch> make_batches(const std::vector<std::uint64_t>& units, u64 unit_segments,
                                u64 min_segments, u64 divisor) {
    std::vector<Batch> batches;
    const u64 min_units = std::max<u64>(1, (min_segments + unit_segments - 1) / unit_segments);
    const u64 max_units = std::max<u64>(1, Policy::kMaxBatchSegments / unit_segments);
    for (std::size_t k = 0; k < units.size();) {
        const u64 remaining = units.size() - k;
        u64 size = (remaining + divisor - 1) / divisor;
        size = std::min(std::min(std::max(size, min_units), max_units), remaining);
        u64 run = 1;
        while (run < size && units[k + run] == units[k] + run) {
            ++run;
        }
        batches.push_back({units[k], run});
        k += run;
    }
    return batches;
}

/// What an engine launches on each GPU: the kernel (loaded for the device's architecture), its
/// dynamic shared memory, and `upload`, which copies the job's tables to the current device,
/// fills the table pointers of the parameters and returns the kernel's second argument (its
/// address, valid while `memory` lives).
struct Launch {
    std::function<cudaKernel_t(const cudaDeviceProp&)> kernel;
    std::size_t shared_bytes = 0;
    std::function<void*(KernelParams&, DeviceAllocations&)> upload;
};

/// What every engine's job has in common, for the scheduler.
struct JobCommon {
    int n = 0;
    bool modular = false;
    const std::vector<std::uint32_t>* primes = nullptr;
    const std::vector<int>* devices = nullptr;
    const GpuRange* range = nullptr;
};

/// One GPU's worker: loads the kernels, uploads the tables, and runs batches until none is left;
/// each unit's record goes to the range's `finished`. The reporting worker asks `keep_going`.
void run_device(int device, const cudaDeviceProp& prop, const JobCommon& job,
                const Launch& launch, const Plan& plan, BatchQueue& queue) {
    const cudaKernel_t kernel = launch.kernel(prop);
    const cudaKernel_t reduce = load_kernel("pmcount_gpu::reduce_records", prop.major, prop.minor);
    if (launch.shared_bytes > 48 * 1024) {
        check(cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(launch.shared_bytes), device),
              "cudaKernelSetAttributeForDevice");
    }
    int blocks_per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reinterpret_cast<const void*>(kernel),
                                                        Policy::kBlockThreads, launch.shared_bytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const u64 resident_blocks = static_cast<u64>(std::max(1, blocks_per_sm)) * prop.multiProcessorCount;
    const std::vector<std::uint32_t>& primes = *job.primes;

    DeviceAllocations memory;
    const u64 max_groups = plan.max_batch_segments * kGroupsPerSegment;
    KernelParams params{};
    params.records = memory.allocate<double>(max_groups * kRecordDoubles);
    double* segment_records = memory.allocate<double>(plan.max_batch_segments * kRecordDoubles);
    params.counter = memory.allocate<u64>(1);
    params.chunk_count = plan.chunks;
    params.chunk_log2 = plan.chunk_log2;
    params.primes = static_cast<int>(primes.size());
    for (std::size_t k = 0; k < primes.size(); ++k) {
        params.p[k] = primes[k];
        params.neg_p_inverse[k] =
            static_cast<std::uint32_t>(numeric::Montgomery64(primes[k]).negative_inverse());
        params.r96[k] = static_cast<std::uint32_t>(numeric::pow_mod(2, 96, primes[k]));
    }
    void* second = launch.upload(params, memory);
    int modular_flag = job.modular ? 1 : 0;
    std::vector<double> host(plan.max_batch_segments * kRecordDoubles);
    const std::size_t record_bytes =
        range_record_bytes(job.modular ? GpuMode::modular : GpuMode::double_compensated, primes.size());
    std::vector<unsigned char> record(record_bytes);
    queue.run([&](std::size_t b) {
        const Batch& batch = plan.batches[b];
        const u64 first_segment = batch.first_unit * plan.unit_segments;
        const u64 segments = std::min(batch.units * plan.unit_segments, plan.segments - first_segment);
        params.first_group = first_segment * kGroupsPerSegment;
        params.group_count = std::min(segments * kGroupsPerSegment, plan.groups - params.first_group);
        const u64 warps_needed = (params.group_count + Policy::kMinGroupsPerWarp - 1) / Policy::kMinGroupsPerWarp;
        const u64 blocks = std::min(resident_blocks, (warps_needed * 32 + Policy::kBlockThreads - 1) /
                                                         Policy::kBlockThreads);
        check(cudaMemsetAsync(params.counter, 0, sizeof(u64)), "cudaMemsetAsync");
        void* args[] = {&params, second};
        check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                               dim3(Policy::kBlockThreads), args, launch.shared_bytes, nullptr),
              "launching the Ryser kernel");
        void* reduce_args[] = {&params, &modular_flag, &segment_records};
        check(cudaLaunchKernel(reinterpret_cast<const void*>(reduce), dim3(static_cast<unsigned>(segments)),
                               dim3(kGroupsPerSegment), reduce_args, 0, nullptr),
              "launching the record reduction");
        check(cudaMemcpy(host.data(), segment_records, segments * kRecordDoubles * sizeof(double),
                         cudaMemcpyDeviceToHost),
              "Ryser kernel");
        // Each unit's record: its segments' records, added in segment order.
        for (u64 u = 0; u < batch.units; ++u) {
            const double* first = host.data() + u * plan.unit_segments * kRecordDoubles;
            if (job.modular) {
                std::vector<std::uint32_t> residues(primes.size(), 0);
                for (u64 g = 0; g < plan.unit_segments; ++g) {
                    const auto* r = reinterpret_cast<const std::uint32_t*>(first + g * kRecordDoubles);
                    for (std::size_t k = 0; k < primes.size(); ++k) {
                        residues[k] = static_cast<std::uint32_t>((static_cast<u64>(residues[k]) + r[k]) % primes[k]);
                    }
                }
                std::memcpy(record.data(), residues.data(), record_bytes);
            } else {
                float_unit_record(first, plan.unit_segments, kRecordDoubles, record.data(),
                                  kFloatWordsWithSquares);
            }
            job.range->finished(batch.first_unit + u, record.data());
        }
    });
}

/// Plans the batches of the range's units from the occupancy of the first GPU and runs them on
/// every GPU.
GpuRyserResult run_gray_range(const JobCommon& job, const Launch& launch, int chunk_log2) {
    const std::vector<int> gpus = chosen_devices(*job.devices);
    const auto start = std::chrono::steady_clock::now();
    check(cudaSetDevice(gpus[0]), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, gpus[0]), "cudaGetDeviceProperties");
    const cudaKernel_t kernel = launch.kernel(prop);
    if (launch.shared_bytes > 48 * 1024) {
        check(cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(launch.shared_bytes), gpus[0]),
              "cudaKernelSetAttributeForDevice");
    }
    int blocks_per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reinterpret_cast<const void*>(kernel),
                                                        Policy::kBlockThreads, launch.shared_bytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const u64 resident_warps = static_cast<u64>(std::max(1, blocks_per_sm)) * prop.multiProcessorCount *
                               (Policy::kBlockThreads / 32);
    Plan plan = range_geometry(job.n, chunk_log2);
    std::vector<std::uint64_t> units = job.range->units;
    if (units.empty()) {
        units.resize(plan.units);
        std::iota(units.begin(), units.end(), std::uint64_t{0});
    }
    if (!std::is_sorted(units.begin(), units.end()) || units.back() >= plan.units ||
        std::adjacent_find(units.begin(), units.end()) != units.end()) {
        throw InvalidArgument("GPU range: the units must be distinct, ascending and below " +
                              std::to_string(plan.units));
    }
    if (!job.range->finished) {
        throw InvalidArgument("GPU range: no receiver for the units' records");
    }
    const u64 min_segments =
        (resident_warps * Policy::kMinGroupsPerWarp + kGroupsPerSegment - 1) / kGroupsPerSegment;
    plan.batches =
        make_batches(units, plan.unit_segments, min_segments, batch_divisor(gpus.size()));
    for (const Batch& b : plan.batches) {
        plan.max_batch_segments = std::max(plan.max_batch_segments, b.units * plan.unit_segments);
    }
    GpuRyserResult result;
    result.chunk_log2 = plan.chunk_log2;
    result.chunks = plan.chunks;
    result.units = plan.units;
    result.batches = static_cast<int>(plan.batches.size());
    const auto ready = std::chrono::steady_clock::now();
    result.setup_seconds = std::chrono::duration<double>(ready - start).count();

    run_batches(gpus, plan.batches.size(), *job.range, result.devices,
                [&](int device, const cudaDeviceProp& device_prop, BatchQueue& queue) {
                    run_device(device, device_prop, job, launch, plan, queue);
                });
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ready).count();
    return result;
}

void check_primes(const GpuMode mode, const std::vector<std::uint32_t>& primes) {
    if (mode == GpuMode::modular &&
        (primes.empty() || primes.size() > static_cast<std::size_t>(kGpuMaxPrimes))) {
        throw InvalidArgument("the modular GPU kernels take 1 to 16 primes per launch");
    }
}

}  // namespace

GpuRyserResult ryser_dense(const GpuRyserJob& job) {
    if (job.n < 2 || job.n > 64) {
        throw InvalidArgument("the GPU engine handles orders 2 to 64");
    }
    check_primes(job.mode, job.primes);
    if (job.mode == GpuMode::certified && job.row_error.size() != static_cast<std::size_t>(job.n)) {
        throw InvalidArgument("the certified GPU kernel needs a row error per row");
    }
    const std::string name = kernel_name(job.n, job.mode);
    Launch launch;
    launch.kernel = [&](const cudaDeviceProp& prop) { return load_kernel(name, prop.major, prop.minor); };
    launch.shared_bytes = static_cast<std::size_t>(job.n - 1) *
                          static_cast<std::size_t>(gpu_column_stride(job.n, job.mode)) * sizeof(double);
    // The constant-bank columns: the first M Gray columns, by value.
    const auto low_count = static_cast<std::ptrdiff_t>(kernel_shape(job.n, job.mode).unroll_log2) *
                           gpu_column_stride(job.n, job.mode);
    const std::vector<double> low(job.columns.begin(), job.columns.begin() + low_count);
    launch.upload = [&](KernelParams& params, DeviceAllocations& memory) -> void* {
        params.columns = memory.upload(job.columns);
        params.base = memory.upload(job.base);
        std::copy(job.row_error.begin(), job.row_error.end(), params.row_error);
        return const_cast<double*>(low.data());
    };
    const JobCommon common{job.n, job.mode == GpuMode::modular, &job.primes, &job.devices, &job.range};
    return run_gray_range(common, launch, Policy::kChunkLog2);
}

// ---- sparse engines ----------------------------------------------------------------------------

namespace {

using SparseTablesArg = pmcount_gpu::SparseTables;

/// The sparse kernels' program: the dense source (arithmetic, records) and the sparse one.
const std::string& sparse_program() {
    static const std::string text = std::string(kRyserDenseSource) + "\n" + kRyserSparseSource;
    return text;
}

/// Shape of the sparse walk: super-blocks as the dense kernel's for each arithmetic (shorter for
/// the modular mode, whose terms are long), one block per SM asked of the register allocation.
/// The generated compensated walk takes 2^6: a super-block's first step rebuilds every partial
/// product (real, p = 0.1, n = 44 on an H100: M = 3 12.6 s, 4 9.81 s, 5 8.91 s, 6 8.28 s; compile
/// 0.94 s). PMCOUNT_GPU_SPARSE_UNROLL=M (1 to 6) replaces M, to measure others.
int sparse_unroll_log2(const GpuSparseJob& job) {
    int m = 2;
    switch (job.mode) {
        case GpuMode::double_plain: m = 4; break;
        case GpuMode::double_compensated:
            m = job.code == GpuCode::generated ? 6 : 3;
            break;
        default: m = 2; break;
    }
    m = knob("PMCOUNT_GPU_SPARSE_UNROLL", 1, 6, m, "an unroll");
    return std::min(m, job.n - 1);
}

std::string sparse_kernel_name(const GpuSparseJob& job) {
    const int mode = static_cast<int>(job.mode);
    const std::string n = std::to_string(job.n);
    const std::string pattern =
        job.code == GpuCode::generated
            ? "pmcount_gpu::GeneratedPattern<" + n + ", " + std::to_string(mode) + ", pmcount_gpu::Generated>"
            : "pmcount_gpu::TablePattern<" + n + ", " + std::to_string(mode) + ">";
    if (job.kernel == GpuSparseKernel::skip_binary) {
        // Four blocks per SM (at most 128 registers): SkipPer's walk is latency-bound integer
        // code, which needs warps to hide it.
        return "pmcount_gpu::skip_binary<" + n + ", pmcount_gpu::Shape<1, 4, false>, " + pattern + ">";
    }
    return "pmcount_gpu::sparse_walk<" + n + ", " + std::to_string(mode) + ", pmcount_gpu::Shape<" +
           std::to_string(sparse_unroll_log2(job)) + ", 1, false>, " + pattern + ">";
}

void validate(const GpuSparseJob& job) {
    if (job.n < 2 || job.n > 64) {
        throw InvalidArgument("the GPU engine handles orders 2 to 64");
    }
    if (job.mode == GpuMode::certified) {
        throw InvalidArgument(
            "certified arithmetic runs the dense GPU kernel, not the sparse ones");
    }
    check_primes(job.mode, job.primes);
    const auto n = static_cast<std::size_t>(job.n);
    const std::size_t words = job.mode == GpuMode::complex || job.mode == GpuMode::double_double ? 2 : 1;
    if (job.base.size() != words * n) {
        throw InvalidArgument("sparse GPU job: y(∅) must have n values");
    }
    if (job.kernel == GpuSparseKernel::walk) {
        if (job.col_start.size() != n || job.col_start.front() != 0 ||
            job.col_row.size() != static_cast<std::size_t>(job.col_start.back()) ||
            job.col_value.size() != words * job.col_row.size() ||
            !std::is_sorted(job.col_start.begin(), job.col_start.end()) ||
            std::any_of(job.col_row.begin(), job.col_row.end(),
                        [&](int r) { return r < 0 || r >= job.n; })) {
            throw InvalidArgument("sparse GPU job: malformed column lists");
        }
    } else {
        const std::size_t tests = job.test_mask.size();
        if (job.mode != GpuMode::modular || job.row_mask.size() != n ||
            job.test_low.size() != tests || job.test_low_bit.size() != tests ||
            job.test_count.size() != tests || job.free_bits < 0 ||
            job.free_bits > std::min(gpu_skip_chunk_log2(job.n), 16) || job.sub_bits < 0 ||
            job.sub_bits > numeric::sub_block_bits(job.base, job.row_mask, job.free_bits)) {
            throw InvalidArgument("sparse GPU job: malformed SkipPer tables");
        }
    }
}

}  // namespace

namespace {
int sparse_chunk_log2(const GpuSparseJob& job) {
    return job.kernel == GpuSparseKernel::skip_binary ? gpu_skip_chunk_log2(job.n) : Policy::kChunkLog2;
}
}  // namespace

bool sparse_kernel_cached(const GpuSparseJob& job) {
    if (job.code != GpuCode::generated) {
        return true;
    }
    validate(job);
    const std::vector<int> gpus = chosen_devices(job.devices);
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, gpus[0]), "cudaGetDeviceProperties");
    const std::string text = sparse_program() + generated_source(job, sparse_unroll_log2(job));
    return kernels_cached(KernelSource{text.c_str(), "ryser_generated.cu"},
                          {sparse_kernel_name(job)}, prop.major, prop.minor);
}

GpuRyserResult ryser_sparse(const GpuSparseJob& job) {
    validate(job);
    const std::string name = sparse_kernel_name(job);
    const auto generate_start = std::chrono::steady_clock::now();
    const std::string text =
        job.code == GpuCode::generated ? sparse_program() + generated_source(job, sparse_unroll_log2(job)) : std::string();
    const double generate_seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - generate_start).count();
    const KernelSource source{job.code == GpuCode::generated ? text.c_str() : sparse_program().c_str(),
                              job.code == GpuCode::generated ? "ryser_generated.cu" : "ryser_sparse.cu"};
    double compile_seconds = 0;
    std::string cache;
    Launch launch;
    launch.kernel = [&](const cudaDeviceProp& prop) {
        const LoadedKernels loaded = load_kernels_reporting(source, {name}, prop.major, prop.minor);
        if (cache.empty()) {
            compile_seconds = loaded.seconds;
            cache = to_string(loaded.cache);
        }
        return loaded.kernels.front();
    };
    const std::size_t words = job.mode == GpuMode::complex || job.mode == GpuMode::double_double ? 2 : 1;
    if (job.code == GpuCode::tables) {
        const auto entries = job.col_row.size(), tests = job.test_mask.size();
        const auto n = static_cast<std::size_t>(job.n);
        launch.shared_bytes = 8 * (words * (entries + n) + n + 3 * tests) + 4 * (n + entries + tests);
    }
    std::deque<SparseTablesArg> args;  // one per device (their pointers differ); deque: stable
    std::mutex args_mutex;
    launch.upload = [&](KernelParams&, DeviceAllocations& memory) -> void* {
        SparseTablesArg t{};
        t.values = memory.upload(job.col_value);
        t.base = memory.upload(job.base);
        t.col_start = memory.upload(job.col_start);
        t.col_row = memory.upload(job.col_row);
        t.row_mask = reinterpret_cast<const u64*>(memory.upload(job.row_mask));
        t.test_mask = reinterpret_cast<const u64*>(memory.upload(job.test_mask));
        t.test_low = reinterpret_cast<const u64*>(memory.upload(job.test_low));
        t.test_low_bit = reinterpret_cast<const u64*>(memory.upload(job.test_low_bit));
        t.test_count = memory.upload(job.test_count);
        t.entries = static_cast<int>(job.col_row.size());
        t.tests = static_cast<int>(job.test_mask.size());
        t.free_bits = job.free_bits;
        t.sub_bits = job.sub_bits;
        const std::lock_guard<std::mutex> lock(args_mutex);
        args.push_back(t);
        return &args.back();
    };
    const JobCommon common{job.n, job.mode == GpuMode::modular, &job.primes, &job.devices, &job.range};
    GpuRyserResult result = run_gray_range(common, launch, sparse_chunk_log2(job));
    result.generate_seconds = generate_seconds;
    result.compile_seconds = compile_seconds;
    result.kernel_cache = cache;
    return result;
}

std::uint64_t range_units(const GpuRyserJob& job) { return range_geometry(job.n, Policy::kChunkLog2).units; }

std::uint64_t range_units(const GpuSparseJob& job) { return range_geometry(job.n, sparse_chunk_log2(job)).units; }

void merge_range_records(GpuMode mode, const std::vector<std::uint32_t>& primes,
                         const std::vector<unsigned char>& records, GpuRyserResult& result) {
    const std::size_t bytes = range_record_bytes(mode, primes.size());
    if (bytes == 0 || records.size() % bytes != 0) {
        throw InvalidArgument("GPU range: the records are not whole");
    }
    const std::size_t units = records.size() / bytes;
    if (mode == GpuMode::modular) {
        std::vector<std::uint32_t> residues(primes.size(), 0), r(primes.size());
        for (std::size_t u = 0; u < units; ++u) {
            std::memcpy(r.data(), records.data() + u * bytes, bytes);
            for (std::size_t k = 0; k < primes.size(); ++k) {
                residues[k] = static_cast<std::uint32_t>((static_cast<u64>(residues[k]) + r[k]) % primes[k]);
            }
        }
        // The kernel's Montgomery reductions leave a factor 2^-224 (7 reductions of 2^-32 each).
        for (std::size_t k = 0; k < residues.size(); ++k) {
            const std::uint32_t p = primes[k];
            residues[k] = static_cast<std::uint32_t>(
                numeric::mul_mod(residues[k], numeric::pow_mod(2, 224, p), p));
        }
        result.residues = std::move(residues);
        return;
    }
    merge_float_records(records.data(), units, result, kFloatWordsWithSquares, &result.squares);
}

double fp64_rate(int device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    const void* function =
        reinterpret_cast<const void*>(load_kernel("pmcount_gpu::fp64_rate", prop.major, prop.minor));
    DeviceBuffer<double> out(1);
    double* out_pointer = out.get();
    constexpr int kThreads = 256;
    const int blocks = prop.multiProcessorCount * 8;
    int iterations = 1 << 14;
    double a = 0.999999, b = 1e-7;
    void* args[] = {&out_pointer, &a, &b, &iterations};
    const DeviceEvent begin, end;
    float best_ms = 0;
    for (int round = 0; round < 4; ++round) {  // the first round warms up
        check(cudaEventRecord(begin.get()), "cudaEventRecord");
        check(cudaLaunchKernel(function, dim3(blocks), dim3(kThreads), args, 0, nullptr), "fp64_rate");
        check(cudaEventRecord(end.get()), "cudaEventRecord");
        check(cudaEventSynchronize(end.get()), "fp64_rate");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, begin.get(), end.get()), "cudaEventElapsedTime");
        if (round > 0 && (best_ms == 0 || ms < best_ms)) {
            best_ms = ms;
        }
    }
    const double operations = 16.0 * iterations * static_cast<double>(blocks) * kThreads;
    return operations / (best_ms * 1e-3);
}

}  // namespace pmcount::backend::cuda
