// Device discovery for the CUDA backend. Safe on machines without a GPU or driver: every CUDA
// status is turned into a message, nothing throws from here on a missing device.
#include <cuda_runtime.h>

#include "backend/device.hpp"

namespace pmcount::backend::cuda {

bool compiled() noexcept { return true; }

std::string toolkit_version() {
    return std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10);
}

std::vector<DeviceInfo> devices(std::string& status) {
    int count = 0;
    const cudaError_t error = cudaGetDeviceCount(&count);
    if (error != cudaSuccess) {
        status = std::string("no usable GPU: ") + cudaGetErrorString(error);
        cudaGetLastError();  // clear the sticky error so later queries start clean
        return {};
    }
    std::vector<DeviceInfo> out;
    for (int d = 0; d < count; ++d) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, d) != cudaSuccess) {
            continue;
        }
        DeviceInfo info;
        info.index = d;
        info.name = prop.name;
        info.compute_major = prop.major;
        info.compute_minor = prop.minor;
        info.multiprocessors = prop.multiProcessorCount;
        info.memory_bytes = prop.totalGlobalMem;
        out.push_back(std::move(info));
    }
    if (out.empty()) {
        status = "no GPU visible";
    }
    return out;
}

}  // namespace pmcount::backend::cuda
