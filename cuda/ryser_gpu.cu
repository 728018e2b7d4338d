// Host side of the dense GPU engine: run-time compilation of cuda/kernels/ryser_dense.cuh with
// NVRTC for the order n and arithmetic at hand (so x sits in registers with compile-time indices;
// cached on disk, nvrtc_cache.cuh), and a scheduler that hands batches of chunks to one host
// thread per GPU.
//
// Layers (CUB style): ryser_dense() (device-wide entry: plan the chunks, start the workers,
// combine) → run_device() (one GPU: load, upload, launch batch after batch) → the kernel.
// Every CUDA status is checked here and turned into DeviceError (NVRTC's in nvrtc_cache.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "backend/cuda_backend.hpp"
#include "cuda_status.cuh"
#include "cuda/ryser_dense_source.hpp"
#include "device_workers.cuh"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

using u64 = unsigned long long;
__extension__ using u128 = unsigned __int128;

/// Launch policy for sm_90 (H100/H200), from timings of the n = 40 double kernel on an H100.
/// 128-thread blocks: the kernel needs 255 registers at n = 36–48, so two blocks fit per SM
/// whatever the block size, and the persistent warps take groups dynamically, so block size only
/// sets the granularity of residency. Batches: a sixteenth of the remaining segments (the last
/// ones small, so GPUs finish together), at least 8 groups per resident warp (one wave of work
/// per launch) and at most 4096 segments (64 MiB of group records).
struct LaunchPolicy90 {
    static constexpr int kBlockThreads = 128;
    static constexpr int kBatchDivisor = 16;
    static constexpr int kMinGroupsPerWarp = 8;
    static constexpr unsigned long long kMaxBatchSegments = 4096;
    /// Chunks of 2^12 steps: the floating modes recompute x every 2^12 steps anyway, so a chunk
    /// start costs nothing extra, and one chunk is the most a warp can trail the others by.
    static constexpr int kChunkLog2 = 12;
};
using Policy = LaunchPolicy90;

/// Mirrors pmcount_gpu::Params and the work geometry in the kernel source (same layout).
struct KernelParams {
    const double* columns;
    const double* base;
    double* records;
    u64* counter;
    u64 first_group;
    u64 group_count;
    u64 chunk_count;
    int chunk_log2;
    int primes;
    std::uint32_t p[kGpuMaxPrimes];
    std::uint32_t neg_p_inverse[kGpuMaxPrimes];
};
constexpr int kGroupChunks = 32;
constexpr int kGroupsPerSegment = 256;
constexpr int kRecordDoubles = 8;
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
        case GpuMode::double_compensated: shape.unroll_log2 = 3; break;
        case GpuMode::double_double:
        case GpuMode::complex: shape.unroll_log2 = 2; break;
        case GpuMode::modular:
            shape.unroll_log2 = 1;
            shape.min_blocks = n <= 40 ? 4 : 3;
            break;
    }
    if (const char* text = std::getenv("PMCOUNT_GPU_SHAPE"); text != nullptr && *text != '\0') {
        int m = 0, b = 0, f = 0;
        char tail = 0;
        if (std::sscanf(text, "%d,%d,%d%c", &m, &b, &f, &tail) != 3 || m < 1 || m > 6 || b < 1 ||
            b > 16 || (f != 0 && f != 1)) {
            throw DeviceError("PMCOUNT_GPU_SHAPE=\"" + std::string(text) +
                              "\": expected M,B,F with unroll 1 <= M <= 6, blocks per SM "
                              "1 <= B <= 16, fuse F 0 or 1");
        }
        shape = {m, b, f == 1};
    }
    shape.unroll_log2 = std::min(shape.unroll_log2, n - 1);
    return shape;
}

/// Loaded once per process (nvrtc_cache.cuh), compiled for the order and arithmetic at hand.
cudaKernel_t load_kernel(const std::string& name_expression, int major, int minor) {
    return cuda::load_kernel(KernelSource{kRyserDenseSource, "ryser_dense.cu"}, name_expression,
                             major, minor);
}

// ---- modular helpers ------------------------------------------------------------------------------

std::uint32_t mul_mod(std::uint32_t a, std::uint32_t b, std::uint32_t p) {
    return static_cast<std::uint32_t>(static_cast<u64>(a) * b % p);
}

/// −p⁻¹ mod 2^32 by Newton's iteration.
std::uint32_t negative_inverse(std::uint32_t p) {
    std::uint32_t inverse = p;
    for (int i = 0; i < 5; ++i) {
        inverse *= 2 - p * inverse;
    }
    return ~inverse + 1;
}

/// What one batch contributes: double-double sums or residues.
struct BatchRecord {
    DD re, im;
    double magnitude = 0;
    std::vector<std::uint32_t> residues;
};

struct Batch {
    u64 first_segment = 0;
    u64 segments = 0;
};

struct Plan {
    int chunk_log2 = 0;
    u64 chunks = 0;
    u64 groups = 0;
    u64 segments = 0;
    std::vector<Batch> batches;
    int blocks = 0;  // resident blocks of the first GPU: the persistent grid
    std::size_t shared_bytes = 0;
    u64 max_batch_segments = 0;
};

std::string kernel_name(int n, GpuMode mode) {
    const KernelShape shape = kernel_shape(n, mode);
    return "pmcount_gpu::ryser_dense<" + std::to_string(n) + ", " +
           std::to_string(static_cast<int>(mode)) + ", pmcount_gpu::Shape<" +
           std::to_string(shape.unroll_log2) + ", " + std::to_string(shape.min_blocks) + ", " +
           (shape.fuse_top ? "true" : "false") + ">>";
}

/// The batches, fixed before any GPU starts (so the per-batch sums, combined in batch order, do
/// not depend on which GPU ran what): a 1/kBatchDivisor share of what remains, clamped.
std::vector<Batch> make_batches(u64 segments, u64 min_segments) {
    std::vector<Batch> batches;
    for (u64 first = 0; first < segments;) {
        const u64 remaining = segments - first;
        u64 size = (remaining + Policy::kBatchDivisor - 1) / Policy::kBatchDivisor;
        size = std::min<u64>(std::max(size, min_segments), Policy::kMaxBatchSegments);
        size = std::min(size, remaining);
        batches.push_back({first, size});
        first += size;
    }
    return batches;
}

/// One GPU's worker: loads the kernels, uploads the tables, and runs batches until none is left.
void run_device(int device, const GpuRyserJob& job, const Plan& plan, std::atomic<int>& next,
                std::vector<BatchRecord>& records, GpuDeviceUse& use, std::atomic<u64>& segments_done,
                bool report_progress, std::atomic<bool>& stop) {
    const auto start = std::chrono::steady_clock::now();
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    use.device = device;
    use.name = prop.name;
    const cudaKernel_t kernel = load_kernel(kernel_name(job.n, job.mode), prop.major, prop.minor);
    const cudaKernel_t reduce = load_kernel("pmcount_gpu::reduce_records", prop.major, prop.minor);
    if (plan.shared_bytes > 48 * 1024) {
        check(cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(plan.shared_bytes), device),
              "cudaKernelSetAttributeForDevice");
    }
    int blocks_per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reinterpret_cast<const void*>(kernel),
                                                        Policy::kBlockThreads, plan.shared_bytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const u64 resident_blocks = static_cast<u64>(std::max(1, blocks_per_sm)) * prop.multiProcessorCount;
    const bool modular = job.mode == GpuMode::modular;

    double *columns = nullptr, *base = nullptr, *group_records = nullptr, *segment_records = nullptr;
    u64* counter = nullptr;
    struct Free {
        void* pointers[5];
        ~Free() {
            for (void* p : pointers) {
                cudaFree(p);
            }
        }
    } free_all{};
    const u64 max_groups = plan.max_batch_segments * kGroupsPerSegment;
    check(cudaMalloc(&columns, job.columns.size() * sizeof(double)), "cudaMalloc");
    free_all.pointers[0] = columns;
    check(cudaMalloc(&base, job.base.size() * sizeof(double)), "cudaMalloc");
    free_all.pointers[1] = base;
    check(cudaMalloc(&group_records, max_groups * kRecordDoubles * sizeof(double)), "cudaMalloc");
    free_all.pointers[2] = group_records;
    check(cudaMalloc(&segment_records, plan.max_batch_segments * kRecordDoubles * sizeof(double)), "cudaMalloc");
    free_all.pointers[3] = segment_records;
    check(cudaMalloc(&counter, sizeof(u64)), "cudaMalloc");
    free_all.pointers[4] = counter;
    check(cudaMemcpy(columns, job.columns.data(), job.columns.size() * sizeof(double),
                     cudaMemcpyHostToDevice),
          "cudaMemcpy");
    check(cudaMemcpy(base, job.base.data(), job.base.size() * sizeof(double), cudaMemcpyHostToDevice),
          "cudaMemcpy");

    KernelParams params{};
    params.columns = columns;
    params.base = base;
    params.records = group_records;
    params.counter = counter;
    params.chunk_count = plan.chunks;
    params.chunk_log2 = plan.chunk_log2;
    params.primes = static_cast<int>(job.primes.size());
    for (std::size_t k = 0; k < job.primes.size(); ++k) {
        params.p[k] = job.primes[k];
        params.neg_p_inverse[k] = negative_inverse(job.primes[k]);
    }
    // The constant-bank columns: the first M Gray columns, by value.
    const auto low_count = static_cast<std::ptrdiff_t>(kernel_shape(job.n, job.mode).unroll_log2) *
                           gpu_column_stride(job.n, job.mode);
    std::vector<double> low(job.columns.begin(), job.columns.begin() + low_count);
    int modular_flag = modular ? 1 : 0;
    std::vector<double> host(plan.max_batch_segments * kRecordDoubles);
    for (int b = next++; b < static_cast<int>(plan.batches.size()) && !stop; b = next++) {
        const Batch& batch = plan.batches[static_cast<std::size_t>(b)];
        params.first_group = batch.first_segment * kGroupsPerSegment;
        params.group_count = std::min(batch.segments * kGroupsPerSegment, plan.groups - params.first_group);
        const u64 warps_needed = (params.group_count + Policy::kMinGroupsPerWarp - 1) / Policy::kMinGroupsPerWarp;
        const u64 blocks = std::min(resident_blocks, (warps_needed * 32 + Policy::kBlockThreads - 1) /
                                                         Policy::kBlockThreads);
        check(cudaMemsetAsync(counter, 0, sizeof(u64)), "cudaMemsetAsync");
        void* args[] = {&params, low.data()};
        check(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                               dim3(Policy::kBlockThreads), args, plan.shared_bytes, nullptr),
              "launching the dense Ryser kernel");
        void* reduce_args[] = {&params, &modular_flag, &segment_records};
        check(cudaLaunchKernel(reinterpret_cast<const void*>(reduce), dim3(static_cast<unsigned>(batch.segments)),
                               dim3(kGroupsPerSegment), reduce_args, 0, nullptr),
              "launching the record reduction");
        check(cudaMemcpy(host.data(), segment_records, batch.segments * kRecordDoubles * sizeof(double),
                         cudaMemcpyDeviceToHost),
              "dense Ryser kernel");
        BatchRecord& record = records[static_cast<std::size_t>(b)];
        if (modular) {
            record.residues.assign(job.primes.size(), 0);
            for (u64 g = 0; g < batch.segments; ++g) {
                const auto* r = reinterpret_cast<const std::uint32_t*>(host.data() + g * kRecordDoubles);
                for (std::size_t k = 0; k < job.primes.size(); ++k) {
                    record.residues[k] = static_cast<std::uint32_t>(
                        (static_cast<u64>(record.residues[k]) + r[k]) % job.primes[k]);
                }
            }
        } else {
            for (u64 g = 0; g < batch.segments; ++g) {
                const double* r = host.data() + g * kRecordDoubles;
                record.re = dd_add(record.re, {r[0], r[1]});
                record.im = dd_add(record.im, {r[2], r[3]});
                record.magnitude += r[4];
            }
        }
        ++use.batches;
        const u64 done = segments_done += batch.segments;
        if (report_progress && job.progress) {
            job.progress(static_cast<double>(done) / static_cast<double>(plan.segments));
        }
    }
    use.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::vector<int> chosen_devices(const std::vector<int>& requested) {
    int count = 0;
    check(cudaGetDeviceCount(&count), "no usable GPU");
    std::vector<int> out;
    if (requested.empty()) {
        for (int d = 0; d < count; ++d) {
            out.push_back(d);
        }
    } else {
        for (const int d : requested) {
            if (d < 0 || d >= count) {
                throw DeviceError("GPU " + std::to_string(d) + " does not exist (" +
                                  std::to_string(count) + " visible)");
            }
            out.push_back(d);
        }
    }
    if (out.empty()) {
        throw DeviceError("no GPU visible");
    }
    return out;
}

}  // namespace

GpuRyserResult ryser_dense(const GpuRyserJob& job) {
    if (job.n < 2 || job.n > 64) {
        throw InvalidArgument("the GPU engine handles orders 2 to 64");
    }
    if (job.mode == GpuMode::modular &&
        (job.primes.empty() || job.primes.size() > static_cast<std::size_t>(kGpuMaxPrimes))) {
        throw InvalidArgument("the modular GPU kernel takes 1 to 16 primes per launch");
    }
    const std::vector<int> gpus = chosen_devices(job.devices);
    const auto start = std::chrono::steady_clock::now();

    // Compile (or fetch from the cache) before timing; size the batches from the occupancy of
    // the first GPU.
    check(cudaSetDevice(gpus[0]), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, gpus[0]), "cudaGetDeviceProperties");
    const cudaKernel_t kernel = load_kernel(kernel_name(job.n, job.mode), prop.major, prop.minor);
    Plan plan;
    plan.shared_bytes = static_cast<std::size_t>(job.n - 1) *
                        static_cast<std::size_t>(gpu_column_stride(job.n, job.mode)) * sizeof(double);
    if (plan.shared_bytes > 48 * 1024) {
        check(cudaKernelSetAttributeForDevice(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(plan.shared_bytes), gpus[0]),
              "cudaKernelSetAttributeForDevice");
    }
    int blocks_per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, reinterpret_cast<const void*>(kernel),
                                                        Policy::kBlockThreads, plan.shared_bytes),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    const u64 resident_warps = static_cast<u64>(std::max(1, blocks_per_sm)) * prop.multiProcessorCount *
                               (Policy::kBlockThreads / 32);
    const int bits = job.n - 1;
    plan.chunk_log2 = std::min(bits, Policy::kChunkLog2);
    plan.chunks = u64{1} << (bits - plan.chunk_log2);
    plan.groups = (plan.chunks + kGroupChunks - 1) / kGroupChunks;
    plan.segments = (plan.groups + kGroupsPerSegment - 1) / kGroupsPerSegment;
    const u64 min_segments =
        (resident_warps * Policy::kMinGroupsPerWarp + kGroupsPerSegment - 1) / kGroupsPerSegment;
    plan.batches = make_batches(plan.segments, min_segments);
    for (const Batch& b : plan.batches) {
        plan.max_batch_segments = std::max(plan.max_batch_segments, b.segments);
    }
    GpuRyserResult result;
    result.chunk_log2 = plan.chunk_log2;
    result.chunks = plan.chunks;
    result.batches = static_cast<int>(plan.batches.size());
    const auto ready = std::chrono::steady_clock::now();
    result.setup_seconds = std::chrono::duration<double>(ready - start).count();

    std::vector<BatchRecord> records(plan.batches.size());
    result.devices.resize(gpus.size());
    std::atomic<int> next{0};
    std::atomic<u64> segments_done{0};
    std::atomic<bool> stop{false};
    run_on_devices(gpus.size(), stop, [&](std::size_t g) {
        run_device(gpus[g], job, plan, next, records, result.devices[g], segments_done, g == 0,
                   stop);
    });

    // Batch order, never completion order: the same sum for any number of GPUs.
    DD re, im;
    std::vector<std::uint32_t> residues(job.primes.size(), 0);
    for (const BatchRecord& r : records) {
        re = dd_add(re, r.re);
        im = dd_add(im, r.im);
        result.magnitude += r.magnitude;
        for (std::size_t k = 0; k < residues.size() && k < r.residues.size(); ++k) {
            residues[k] = static_cast<std::uint32_t>((static_cast<u64>(residues[k]) + r.residues[k]) % job.primes[k]);
        }
    }
    // The kernel's Montgomery reductions leave a factor 2^-224 (7 reductions of 2^-32 each).
    for (std::size_t k = 0; k < residues.size(); ++k) {
        const std::uint32_t p = job.primes[k];
        std::uint32_t factor = 1;
        const auto two32 = static_cast<std::uint32_t>((u64{1} << 32) % p);
        for (int i = 0; i < 7; ++i) {
            factor = mul_mod(factor, two32, p);
        }
        residues[k] = mul_mod(residues[k], factor, p);
    }
    result.re_hi = re.hi;
    result.re_lo = re.lo;
    result.im_hi = im.hi;
    result.im_lo = im.lo;
    result.residues = std::move(residues);
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - ready).count();
    return result;
}

double fp64_rate(int device) {
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    const void* function =
        reinterpret_cast<const void*>(load_kernel("pmcount_gpu::fp64_rate", prop.major, prop.minor));
    double* out = nullptr;
    check(cudaMalloc(&out, sizeof(double)), "cudaMalloc");
    constexpr int kThreads = 256;
    const int blocks = prop.multiProcessorCount * 8;
    int iterations = 1 << 14;
    double a = 0.999999, b = 1e-7;
    void* args[] = {&out, &a, &b, &iterations};
    cudaEvent_t begin, end;
    check(cudaEventCreate(&begin), "cudaEventCreate");
    check(cudaEventCreate(&end), "cudaEventCreate");
    float best_ms = 0;
    for (int round = 0; round < 4; ++round) {  // the first round warms up
        check(cudaEventRecord(begin), "cudaEventRecord");
        check(cudaLaunchKernel(function, dim3(blocks), dim3(kThreads), args, 0, nullptr), "fp64_rate");
        check(cudaEventRecord(end), "cudaEventRecord");
        check(cudaEventSynchronize(end), "fp64_rate");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, begin, end), "cudaEventElapsedTime");
        if (round > 0 && (best_ms == 0 || ms < best_ms)) {
            best_ms = ms;
        }
    }
    cudaEventDestroy(begin);
    cudaEventDestroy(end);
    cudaFree(out);
    const double operations = 16.0 * iterations * static_cast<double>(blocks) * kThreads;
    return operations / (best_ms * 1e-3);
}

}  // namespace pmcount::backend::cuda
