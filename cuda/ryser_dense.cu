// Host side of the dense GPU engine: run-time compilation of cuda/kernels/ryser_dense.cuh with
// NVRTC for the order n and arithmetic at hand (so x sits in registers with compile-time indices;
// cached on disk, nvrtc_cache.cuh), run over the Gray range by ryser_range.cuh's scheduler; and
// the FP64 throughput probe.
//
// Layers (CUB style): ryser_dense() (device-wide entry) → range::run_gray_range() (batches, one
// worker per GPU) → the kernel. Every CUDA status is checked and turned into DeviceError (NVRTC's
// in nvrtc_cache.cu).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include "common/cuda_status.cuh"
#include "common/device_buffer.cuh"
#include "common/knobs.cuh"
#include "exact/ryser/ryser_device.hpp"
#include "exact/ryser/ryser_launch_policy.hpp"
#include "kernel_programs.cuh"
#include "pmcount/error.hpp"
#include "ryser_range.cuh"

namespace pmcount::backend::cuda {

// The scheduler's names (ryser_range.cuh): this file is one of its two engines.
using namespace range;

namespace {

/// The dense kernel's shape (RyserLaunchPolicy::dense_shape), or PMCOUNT_GPU_SHAPE="M,B,F"
/// (unroll, blocks per SM, fuse 0/1) to measure others; the unroll at most n − 1.
KernelShape kernel_shape(int n, GpuMode mode) {
    KernelShape shape = Policy::dense_shape(n, mode);
    if (const auto knob = knob_ints<3>("PMCOUNT_GPU_SHAPE", {KnobRange{1, 6}, {1, 16}, {0, 1}},
                                        "M,B,F with unroll 1 <= M <= 6, blocks per SM "
                                        "1 <= B <= 16, fuse F 0 or 1")) {
        shape = {(*knob)[0], (*knob)[1], (*knob)[2] == 1};
    }
    shape.unroll_log2 = std::min(shape.unroll_log2, n - 1);
    return shape;
}

std::string kernel_name(int n, GpuMode mode) {
    const KernelShape shape = kernel_shape(n, mode);
    return "pmcount_gpu::ryser_dense<" + std::to_string(n) + ", " +
           std::to_string(static_cast<int>(mode)) + ", pmcount_gpu::Shape<" +
           std::to_string(shape.unroll_log2) + ", " + std::to_string(shape.min_blocks) + ", " +
           (shape.fuse_top ? "true" : "false") + ">>";
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

std::uint64_t range_units(const GpuRyserJob& job) { return range_geometry(job.n, Policy::kChunkLog2).units; }

std::vector<KernelProgram> ryser_dense_programs(int n) {
    std::vector<KernelProgram> programs;
    for (const GpuMode mode : {GpuMode::double_plain, GpuMode::double_compensated,
                               GpuMode::double_double, GpuMode::complex, GpuMode::modular,
                               GpuMode::certified}) {
        programs.push_back(dense_program({kernel_name(n, mode)}));
    }
    programs.push_back(dense_program({"pmcount_gpu::reduce_records"}));
    programs.push_back(dense_program({"pmcount_gpu::fp64_rate"}));
    return programs;
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
