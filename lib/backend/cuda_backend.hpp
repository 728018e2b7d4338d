// The interface between the host library and the CUDA target. pmcount_cuda implements it with
// CUDA when the toolkit is found; otherwise lib/backend/cuda_stub.cpp builds a target of the same
// name that reports no devices (DESIGN §4), so no #ifdef reaches algorithm code.
#pragma once

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

}  // namespace pmcount::backend::cuda
