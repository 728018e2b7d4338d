// The Gray-range runner that the dense and sparse GPU Ryser engines share (ryser_range.cu): a
// range of 2^(n−1) Gray steps cut into chunks, groups, segments and units (backend/device.hpp's
// GpuRange), batches of units handed to one host thread per GPU, and each unit's record passed on;
// each engine brings its kernel and tables (Launch). Every CUDA status becomes DeviceError.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "exact/ryser/ryser_device.hpp"
#include "exact/ryser/ryser_launch_policy.hpp"
#include "kernels/ryser_abi.cuh"
#include "nvrtc_cache.cuh"

namespace pmcount::backend::cuda::range {

using pmcount_gpu::u64;
__extension__ using u128 = unsigned __int128;

using Policy = RyserLaunchPolicy;

/// The kernels' parameters and work geometry (kernels/ryser_abi.cuh, compiled into both).
using KernelParams = pmcount_gpu::Params;
using pmcount_gpu::kGroupChunks;
using pmcount_gpu::kGroupsPerSegment;
using pmcount_gpu::kRecordDoubles;
static_assert(pmcount_gpu::kMaxPrimes == kGpuMaxPrimes, "one launch's primes");

/// The dense program (ryser_dense.cuh, ryser_records.cuh) with kernels `names`.
KernelProgram dense_program(std::vector<std::string> names);

/// A kernel of the dense program (ryser_dense.cuh, ryser_records.cuh), loaded once per process
/// (nvrtc_cache.cuh), compiled for the order and arithmetic at hand.
cudaKernel_t load_kernel(const std::string& name_expression, int major, int minor);

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
inline constexpr u64 kMaxUnits = 1024;
Plan range_geometry(int n, int chunk_log2);

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

/// Plans the batches of the range's units from the occupancy of the first GPU and runs them on
/// every GPU.
GpuRyserResult run_gray_range(const JobCommon& job, const Launch& launch, int chunk_log2);

void check_primes(const GpuMode mode, const std::vector<std::uint32_t>& primes);

}  // namespace pmcount::backend::cuda::range
