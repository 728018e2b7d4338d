// Host side of the sparse GPU engines (cuda/kernels/ryser_sparse.cuh): SpaRyser's walk and
// SkipPer's 0-1 walk, from table kernels compiled once per order and arithmetic or from a kernel
// generated for the matrix (exact/ryser/ryser_codegen.hpp), compiled by NVRTC with the dense
// program's arithmetic and run over the Gray range by ryser_range.cuh's scheduler.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "common/knobs.cuh"
#include "common/multi_gpu.cuh"
#include "cuda/ryser_dense_source.hpp"
#include "cuda/ryser_sparse_source.hpp"
#include "exact/ryser/ryser_codegen.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "exact/ryser/ryser_launch_policy.hpp"
#include "kernel_programs.cuh"
#include "numeric/sub_block_bits.hpp"
#include "nvrtc_cache.cuh"
#include "pmcount/error.hpp"
#include "ryser_range.cuh"

namespace pmcount::backend::cuda {

// The scheduler's names (ryser_range.cuh): this file is one of its two engines.
using namespace range;

// ---- sparse engines ----------------------------------------------------------------------------

namespace {

using SparseTablesArg = pmcount_gpu::SparseTables;

/// The sparse kernels' program: the dense source (arithmetic, records) and the sparse one.
const std::string& sparse_program() {
    static const std::string text = std::string(kRyserDenseSource) + "\n" + kRyserSparseSource;
    return text;
}

/// The sparse walk's unroll (RyserLaunchPolicy::sparse_unroll_log2), or
/// PMCOUNT_GPU_SPARSE_UNROLL=M (1 to 6) to measure others; at most n − 1.
int sparse_unroll_log2(const GpuSparseJob& job) {
    const int m = knob("PMCOUNT_GPU_SPARSE_UNROLL", 1, 6,
                       Policy::sparse_unroll_log2(job.mode, job.code), "an unroll");
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
        return "pmcount_gpu::skip_binary<" + n + ", pmcount_gpu::Shape<1, " +
               std::to_string(Policy::kSkipBinaryMinBlocks) + ", false>, " + pattern + ">";
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

KernelProgram ryser_sparse_program(const GpuSparseJob& job) {
    validate(job);
    if (job.code == GpuCode::generated) {
        return {sparse_program() + generated_source(job, sparse_unroll_log2(job)),
                "ryser_generated.cu",
                {sparse_kernel_name(job)}};
    }
    return {sparse_program(), "ryser_sparse.cu", {sparse_kernel_name(job)}};
}

bool sparse_kernel_cached(const GpuSparseJob& job) {
    if (job.code != GpuCode::generated) {
        return true;
    }
    const KernelProgram program = ryser_sparse_program(job);
    const std::vector<int> gpus = chosen_devices(job.devices);
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, gpus[0]), "cudaGetDeviceProperties");
    return kernels_cached(program.source(), program.names, prop.major, prop.minor);
}

GpuRyserResult ryser_sparse(const GpuSparseJob& job) {
    const auto generate_start = std::chrono::steady_clock::now();
    const KernelProgram program = ryser_sparse_program(job);  // validates the job
    const double generate_seconds =
        job.code == GpuCode::generated
            ? std::chrono::duration<double>(std::chrono::steady_clock::now() - generate_start).count()
            : 0.0;
    const std::string& name = program.names.front();
    const KernelSource source = program.source();
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

std::uint64_t range_units(const GpuSparseJob& job) { return range_geometry(job.n, sparse_chunk_log2(job)).units; }

}  // namespace pmcount::backend::cuda
