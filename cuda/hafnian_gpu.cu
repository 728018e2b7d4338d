// Host side of the GPU hafnian (Björklund 2012, Algorithm 2; the kernels and the recursion are
// described in cuda/kernels/hafnian.cuh, the work split in exact/hafnian/hafnian_plan.hpp). The
// kernels are compiled by NVRTC for the order and arithmetic at hand and cached on disk
// (nvrtc_cache.cuh).
//
// Layers (CUB style): hafnian() (device-wide entry: plan the batches of the job's units, compile,
// start one worker per GPU) → run_device() (one GPU: upload, then per batch tier 0, tier 1 and
// tier 2 launches, the record reduction and each unit's record) → the kernels. The caller merges
// the units' records in unit order (merge_hafnian_records). Work: about 4.75·m²·2^m
// multiply-adds per prime (m = n/2). Every CUDA status becomes DeviceError.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda/hafnian_source.hpp"
#include "common/cuda_status.cuh"
#include "common/device_buffer.cuh"
#include "common/float_records.cuh"
#include "common/knobs.cuh"
#include "common/multi_gpu.cuh"
#include "exact/hafnian/hafnian_device.hpp"
#include "exact/hafnian/hafnian_plan.hpp"
#include "kernel_programs.cuh"
#include "kernels/hafnian_abi.cuh"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

namespace {

using pmcount_hafnian::u64;

using pmcount_hafnian::kExpandThreads;
using pmcount_hafnian::kMaxPairs;
using pmcount_hafnian::kMaxSubtreeLevels;
using pmcount_hafnian::kRecordDoubles;
static_assert(kHafnianFloatWords <= kRecordDoubles, "a unit record holds a task record's words");
static_assert(kMaxGpuHafnianOrder / 2 <= kMaxPairs, "the kernels' pool table is too short");
static_assert(HafnianPolicy::kSubtreeLevels <= kMaxSubtreeLevels, "one leaf per lane at most");
static_assert(pmcount_hafnian::kSegmentTasks == kHafnianSegmentTasks, "one segment size");
constexpr auto kSegmentTasks = static_cast<int>(kHafnianSegmentTasks);

/// The kernels' parameters (kernels/hafnian_abi.cuh, compiled into both).
using HafnianParams = pmcount_hafnian::Params;

std::size_t element_bytes(GpuHafnianMode mode) {
    switch (mode) {
        case GpuHafnianMode::double_precision:  // value and running error
            return 2 * sizeof(double);
        case GpuHafnianMode::complex:
            return 4 * sizeof(double);
        case GpuHafnianMode::modular:
            return sizeof(std::uint32_t);
    }
    return sizeof(double);
}

/// The output block (HafnianPolicy::output_block), or PMCOUNT_HAFNIAN_BLOCK=4|8|16|32 to
/// measure others.
int output_block(GpuHafnianMode mode) {
    if (const auto knob = knob_ints<1>("PMCOUNT_HAFNIAN_BLOCK", {KnobRange{4, 32}},
                                        "4, 8, 16 or 32")) {
        const int b = (*knob)[0];
        if (b != 4 && b != 8 && b != 16 && b != 32) {
            refuse_knob("PMCOUNT_HAFNIAN_BLOCK", knob_text("PMCOUNT_HAFNIAN_BLOCK"),
                        "4, 8, 16 or 32");
        }
        return b;
    }
    return HafnianPolicy::output_block(mode);
}

/// The three kernels of one (order, arithmetic, block), compiled as one program.
struct Kernels {
    cudaKernel_t expand;
    cudaKernel_t solve;
    cudaKernel_t reduce;
};

Kernels load(int n, GpuHafnianMode mode, int major, int minor) {
    const KernelProgram program = hafnian_program(n, mode);
    const std::vector<cudaKernel_t> k = load_kernels(program.source(), program.names, major, minor);
    return {k[0], k[1], k[2]};
}

/// The level-m block (hafnian.cuh: polynomial 0 is g = 1, polynomial 1 + j(j−1)/2 + k holds a_jk
/// as its constant coefficient) of every prime, or of the one floating matrix.
std::vector<unsigned char> matrix_blocks(const GpuHafnianJob& job, const HafnianPlan& plan) {
    const std::size_t q = static_cast<std::size_t>(plan.coefficient_stride);
    const std::size_t entries = static_cast<std::size_t>(job.n) * (job.n - 1) / 2;
    const std::size_t copies = job.mode == GpuHafnianMode::modular ? job.primes.size() : 1;
    std::vector<unsigned char> bytes(copies * plan.matrix_elements * plan.element_bytes, 0);
    for (std::size_t c = 0; c < copies; ++c) {
        const std::size_t block = c * plan.matrix_elements;
        switch (job.mode) {
            // Floating coefficients are (value, error) and (re, im, error re, error im): the
            // entries are exact, their errors 0.
            case GpuHafnianMode::double_precision: {
                auto* d = reinterpret_cast<double*>(bytes.data()) + 2 * block;
                d[0] = 1;
                for (std::size_t e = 0; e < entries; ++e) {
                    d[2 * (1 + e) * q] = job.entries[e];
                }
                break;
            }
            case GpuHafnianMode::complex: {
                auto* d = reinterpret_cast<double*>(bytes.data()) + 4 * block;
                d[0] = 1;
                for (std::size_t e = 0; e < entries; ++e) {
                    d[4 * (1 + e) * q] = job.entries[2 * e];
                    d[4 * (1 + e) * q + 1] = job.entries[2 * e + 1];
                }
                break;
            }
            case GpuHafnianMode::modular: {
                auto* d = reinterpret_cast<std::uint32_t*>(bytes.data()) + block;
                d[0] = 1;
                for (std::size_t e = 0; e < entries; ++e) {
                    d[(1 + e) * q] = job.residues[c * entries + e];
                }
                break;
            }
        }
    }
    return bytes;
}

/// A floating record (kHafnianFloatWords doubles: re and im in double-double, then Σ|leaf|,
/// Σ|e|, Σe re and im) added into `sum`, in the order called.
void add_float_record(const double* record, double* sum) {
    const DoubleDouble re = record_add({sum[0], sum[1]}, {record[0], record[1]});
    const DoubleDouble im = record_add({sum[2], sum[3]}, {record[2], record[3]});
    sum[0] = re.hi;
    sum[1] = re.lo;
    sum[2] = im.hi;
    sum[3] = im.lo;
    for (std::size_t w = 4; w < kHafnianFloatWords; ++w) {
        sum[w] += record[w];
    }
}

/// The record of a unit from its `count` segment records (kRecordDoubles apart), in order.
void hafnian_unit_record(const double* segments, std::size_t count, unsigned char* record) {
    double sum[kHafnianFloatWords] = {};
    for (std::size_t g = 0; g < count; ++g) {
        add_float_record(segments + g * kRecordDoubles, sum);
    }
    std::memcpy(record, sum, sizeof sum);
}

void launch(cudaKernel_t kernel, u64 blocks, int threads, void** args, std::size_t shared,
            const char* what) {
    check(
        cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3(static_cast<unsigned>(blocks)),
                         dim3(threads), args, shared, nullptr),
        what);
}

/// One GPU's worker: uploads the matrix blocks, then runs batches until none is left, handing
/// each unit's record to job.range.finished; device 0's worker asks job.range.keep_going after
/// each batch.
void run_device(int device, const cudaDeviceProp& prop, const GpuHafnianJob& job,
                const HafnianPlan& plan, const std::vector<unsigned char>& matrix,
                BatchQueue& queue) {
    const Kernels kernels = load(job.n, job.mode, prop.major, prop.minor);
    if (plan.shared_bytes > 48 * 1024) {
        check(cudaKernelSetAttributeForDevice(kernels.solve,
                                              cudaFuncAttributeMaxDynamicSharedMemorySize,
                                              static_cast<int>(plan.shared_bytes), device),
              "cudaKernelSetAttributeForDevice");
    }

    DeviceAllocations buffers;
    constexpr const char* kWhat = "cudaMalloc (hafnian buffers)";
    const std::size_t e = plan.element_bytes;
    auto* d_matrix = buffers.allocate<unsigned char>(matrix.size(), kWhat);
    check(cudaMemcpy(d_matrix, matrix.data(), matrix.size(), cudaMemcpyHostToDevice),
          "cudaMemcpy (hafnian matrix)");
    HafnianParams q{};
    q.replay[0] = buffers.allocate<unsigned char>(plan.replay_elements * e, kWhat);
    q.replay[1] = buffers.allocate<unsigned char>(plan.replay_elements * e, kWhat);
    for (int level = plan.subtree_levels; level < plan.root_level; ++level) {
        q.pool[level] = buffers.allocate<unsigned char>(
            plan.pool_elements[static_cast<std::size_t>(level)] * e, kWhat);
    }
    void* zero =
        buffers.allocate<unsigned char>(static_cast<std::size_t>(plan.coefficient_stride) * e, kWhat);
    check(cudaMemset(zero, 0, static_cast<std::size_t>(plan.coefficient_stride) * e), "cudaMemset");
    q.zero = zero;
    q.records = buffers.allocate<double>(plan.max_tasks * kRecordDoubles, kWhat);
    double* segments = buffers.allocate<double>(plan.segments() * kRecordDoubles, kWhat);
    q.root_level = plan.root_level;
    q.subtree_levels = plan.subtree_levels;
    for (int r = 1; r < plan.subtree_levels; ++r) {
        q.shared_offset[r] = plan.shared_offset[static_cast<std::size_t>(r)];
    }
    std::vector<double> host(plan.segments() * kRecordDoubles);
    std::vector<unsigned char> record(hafnian_record_bytes(job.mode));
    const int m = plan.pairs;

    queue.run([&](std::size_t b) {
        const HafnianBatch& batch = plan.batches[b];
        q.matrix = d_matrix + static_cast<std::size_t>(batch.prime) * plan.matrix_elements * e;
        q.first_root = batch.first_root;
        q.roots = static_cast<int>(batch.roots);
        if (job.mode == GpuHafnianMode::modular) {
            q.prime = job.primes[static_cast<std::size_t>(batch.prime)];
            q.barrett = ~u64{0} / q.prime;
        }
        // Tier 0: the roots' paths from the matrix; tier 1: breadth-first down to level J.
        int replay = 1;
        for (int r = m - 1; r >= plan.root_level; --r) {
            const u64 threads = batch.roots * HafnianPlan::polys(r);
            void* args[] = {&q, &r, &replay};
            launch(kernels.expand, (threads + kExpandThreads - 1) / kExpandThreads, kExpandThreads,
                   args, 0, "launching the hafnian root rebuild");
        }
        replay = 0;
        for (int r = plan.root_level - 1; r >= plan.subtree_levels; --r) {
            const u64 threads = (batch.roots << (plan.root_level - r - 1)) * HafnianPlan::polys(r);
            void* args[] = {&q, &r, &replay};
            launch(kernels.expand, (threads + kExpandThreads - 1) / kExpandThreads, kExpandThreads,
                   args, 0, "launching the hafnian expansion");
        }
        // Tier 2 and the records.
        u64 tasks = batch.roots << plan.expand_levels;
        void* solve_args[] = {&q};
        launch(kernels.solve, tasks, 32, solve_args, plan.shared_bytes,
               "launching the hafnian subtrees");
        const u64 segment_count = (tasks + kSegmentTasks - 1) / kSegmentTasks;
        void* reduce_args[] = {&q, &tasks, &segments};
        launch(kernels.reduce, segment_count, kSegmentTasks, reduce_args, 0,
               "launching the hafnian record reduction");
        check(cudaMemcpy(host.data(), segments, segment_count * kRecordDoubles * sizeof(double),
                         cudaMemcpyDeviceToHost),
              "hafnian kernels");
        // Each unit (root) owns unit_segments whole segments (a batch of roots smaller than a
        // segment holds one root).
        for (u64 k = 0; k < batch.roots; ++k) {
            const double* first = host.data() + k * plan.unit_segments * kRecordDoubles;
            if (job.mode == GpuHafnianMode::modular) {
                u64 residue = 0;
                for (u64 g = 0; g < plan.unit_segments; ++g) {
                    residue = (residue + static_cast<u64>(first[g * kRecordDoubles + 5])) % q.prime;
                }
                const auto r = static_cast<std::uint32_t>(residue);
                std::memcpy(record.data(), &r, sizeof r);
            } else {
                hafnian_unit_record(first, plan.unit_segments, record.data());
            }
            job.range.finished(batch.first_unit + k, record.data());
        }
    });
}

void validate(const GpuHafnianJob& job) {
    if (job.n < 2 || job.n % 2 != 0 || job.n > kMaxGpuHafnianOrder) {
        throw InvalidArgument("the GPU hafnian takes even orders 2 to " +
                              std::to_string(kMaxGpuHafnianOrder) + ", not " +
                              std::to_string(job.n));
    }
    const std::size_t entries = static_cast<std::size_t>(job.n) * (job.n - 1) / 2;
    if (job.mode == GpuHafnianMode::modular) {
        const int bits = gpu_hafnian_prime_bits(job.n);
        for (const std::uint32_t p : job.primes) {
            if (p < 3 || p % 2 == 0 || p >= (std::uint32_t{1} << bits)) {
                throw InvalidArgument("the modular GPU hafnian of order " + std::to_string(job.n) +
                                      " needs odd primes below 2^" + std::to_string(bits));
            }
        }
        if (job.primes.empty() || job.residues.size() != job.primes.size() * entries) {
            throw InvalidArgument("the modular GPU hafnian needs primes and their residues");
        }
    } else {
        const std::size_t words = job.mode == GpuHafnianMode::complex ? 2 : 1;
        if (job.entries.size() != words * entries) {
            throw InvalidArgument("the GPU hafnian needs n(n−1)/2 entries");
        }
    }
}

/// The units the job asks for, checked (every unit when empty).
const std::vector<std::uint64_t>& checked_units(const GpuHafnianJob& job, std::uint64_t units) {
    const std::vector<std::uint64_t>& list = job.range.units;
    if (!list.empty() && (!std::is_sorted(list.begin(), list.end()) || list.back() >= units ||
                          std::adjacent_find(list.begin(), list.end()) != list.end())) {
        throw InvalidArgument("GPU hafnian: the units must be distinct, ascending and below " +
                              std::to_string(units));
    }
    if (!job.range.finished) {
        throw InvalidArgument("GPU hafnian: no receiver for the units' records");
    }
    return list;
}

int passes(const GpuHafnianJob& job) {
    return job.mode == GpuHafnianMode::modular ? static_cast<int>(job.primes.size()) : 1;
}

}  // namespace

KernelProgram hafnian_program(int n, GpuHafnianMode mode) {
    const std::string instance = "<" + std::to_string(n) + ", " +
                                 std::to_string(static_cast<int>(mode)) + ", " +
                                 std::to_string(output_block(mode)) + ">";
    return {kHafnianSource,
            "hafnian.cu",
            {"pmcount_hafnian::hafnian_expand" + instance,
             "pmcount_hafnian::hafnian_solve" + instance,
             "pmcount_hafnian::hafnian_reduce<" + std::to_string(static_cast<int>(mode)) + ">"}};
}

std::uint64_t hafnian_units(const GpuHafnianJob& job) {
    validate(job);
    return hafnian_geometry(job.n, job.expand_levels).roots *
           static_cast<std::uint64_t>(passes(job));
}

GpuHafnianResult hafnian(const GpuHafnianJob& job) {
    const std::vector<std::uint64_t>& units = checked_units(job, hafnian_units(job));
    const std::vector<int> gpus = chosen_devices(job.devices);
    const auto start = std::chrono::steady_clock::now();

    // Compile (or fetch from the cache) before timing; size the batches from the first GPU's
    // free memory (half of it).
    check(cudaSetDevice(gpus[0]), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, gpus[0]), "cudaGetDeviceProperties");
    load(job.n, job.mode, prop.major, prop.minor);
    std::size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    const HafnianPlan plan =
        make_hafnian_plan(job.n, element_bytes(job.mode), passes(job), job.expand_levels,
                          job.roots_per_batch, free_bytes / 2, units);
    if (plan.shared_bytes > prop.sharedMemPerBlockOptin) {
        throw DeviceError("the hafnian subtrees need " + std::to_string(plan.shared_bytes) +
                          " bytes of shared memory per block, GPU " + std::to_string(gpus[0]) +
                          " has " + std::to_string(prop.sharedMemPerBlockOptin));
    }
    const std::vector<unsigned char> matrix = matrix_blocks(job, plan);

    GpuHafnianResult result;
    result.subtree_levels = plan.subtree_levels;
    result.expand_levels = plan.expand_levels;
    result.roots = plan.roots;
    result.tasks = plan.roots << plan.expand_levels;
    result.units = plan.roots * static_cast<std::uint64_t>(passes(job));
    result.batches = static_cast<int>(plan.batches.size());
    const auto ready = std::chrono::steady_clock::now();
    result.setup_seconds = std::chrono::duration<double>(ready - start).count();

    run_batches(gpus, plan.batches.size(), job.range, result.devices,
                [&](int device, const cudaDeviceProp& device_prop, BatchQueue& queue) {
                    run_device(device, device_prop, job, plan, matrix, queue);
                });
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - ready).count();
    return result;
}

void merge_hafnian_records(const GpuHafnianJob& job, const std::vector<unsigned char>& records,
                           GpuHafnianResult& result) {
    const std::uint64_t units = hafnian_units(job);
    const std::size_t bytes = hafnian_record_bytes(job.mode);
    if (records.size() != units * bytes) {
        throw InvalidArgument("GPU hafnian: " + std::to_string(records.size()) +
                              " bytes of records, expected " + std::to_string(units * bytes));
    }
    if (job.mode == GpuHafnianMode::modular) {
        // Unit prime·roots + root: each prime's roots, in order.
        const std::uint64_t roots = units / job.primes.size();
        result.residues.assign(job.primes.size(), 0);
        for (std::uint64_t u = 0; u < units; ++u) {
            std::uint32_t r = 0;
            std::memcpy(&r, records.data() + u * bytes, sizeof r);
            const std::size_t k = u / roots;
            result.residues[k] = static_cast<std::uint32_t>(
                (static_cast<u64>(result.residues[k]) + r) % job.primes[k]);
        }
        return;
    }
    double sum[kHafnianFloatWords] = {};
    for (std::uint64_t u = 0; u < units; ++u) {
        double record[kHafnianFloatWords];
        std::memcpy(record, records.data() + u * bytes, sizeof record);
        add_float_record(record, sum);
    }
    result.re_hi = sum[0];
    result.re_lo = sum[1];
    result.im_hi = sum[2];
    result.im_lo = sum[3];
    result.magnitude = sum[4];
    result.error_magnitude = sum[5];
    result.error_re = sum[6];
    result.error_im = sum[7];
}

}  // namespace pmcount::backend::cuda
