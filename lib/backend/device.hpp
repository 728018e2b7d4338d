// The interface between the host library and the CUDA target, as far as every GPU engine shares
// it: the devices, a job's range of units and its per-GPU report. Each family's jobs are declared
// next to its engines (exact/ryser/ryser_device.hpp, exact/hafnian/hafnian_device.hpp,
// approx/sampler_device.hpp). pmcount_cuda implements them with CUDA when the toolkit is found;
// otherwise lib/backend/cuda_stub.cpp builds a target of the same name that reports no devices
// and throws NotCompiled (DESIGN §4), so no #ifdef reaches algorithm code. Kernels never throw;
// the functions here turn every CUDA status into DeviceError.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "pmcount/build_info.hpp"

namespace pmcount::backend::cuda {

/// True when this build contains the CUDA kernels.
bool compiled() noexcept;
/// CUDA toolkit version the kernels were built with ("" in the stub).
std::string toolkit_version();
/// Visible GPUs. When there are none, `status` says why (no driver, no device, stub build).
std::vector<DeviceInfo> devices(std::string& status);

/// Measured FP64 add/multiply instructions per second of a GPU (independent DMUL/DADD chains).
double fp64_rate(int device);

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

struct GpuDeviceUse {
    int device = 0;
    std::string name;
    int batches = 0;
    double seconds = 0;
};

}  // namespace pmcount::backend::cuda
