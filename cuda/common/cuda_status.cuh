// CUDA runtime status codes become exceptions at the host boundary (kernels and runtime calls
// report codes; the host turns them into DeviceError).
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "pmcount/error.hpp"

namespace pmcount::backend::cuda {

/// Throws DeviceError "what: reason" unless status is cudaSuccess; clears the runtime's last
/// error first so that later calls do not report it again.
inline void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        const std::string message = std::string(what) + ": " + cudaGetErrorString(status);
        cudaGetLastError();
        throw DeviceError(message);
    }
}

}  // namespace pmcount::backend::cuda
