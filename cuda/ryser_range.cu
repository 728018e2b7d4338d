// The Gray-range runner of the GPU Ryser engines (ryser_range.cuh): batches of units planned
// from the first GPU's occupancy, one host thread per GPU that loads the kernels, uploads the
// tables and launches batch after batch, and each unit's record (reduced on the GPU by
// reduce_records) passed on; the caller merges the records in unit order (merge_range_records).
#include "ryser_range.cuh"

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
#include <utility>
#include <vector>

#include "common/cuda_status.cuh"
#include "common/float_records.cuh"
#include "common/knobs.cuh"
#include "common/multi_gpu.cuh"
#include "cuda/ryser_dense_source.hpp"
#include "numeric/montgomery.hpp"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace range {

namespace {
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
}  // namespace

KernelProgram dense_program(std::vector<std::string> names) {
    return {kRyserDenseSource, "ryser_dense.cu", std::move(names)};
}

cudaKernel_t load_kernel(const std::string& name_expression, int major, int minor) {
    const KernelProgram program = dense_program({name_expression});
    return cuda::load_kernel(program.source(), name_expression, major, minor);
}

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

}  // namespace range

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
                residues[k] = static_cast<std::uint32_t>((static_cast<std::uint64_t>(residues[k]) + r[k]) % primes[k]);
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

}  // namespace pmcount::backend::cuda
