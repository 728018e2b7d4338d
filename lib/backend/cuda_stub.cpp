// Stand-in for the CUDA target in builds without a CUDA toolkit.
#include "backend/cuda_backend.hpp"

namespace pmcount::backend::cuda {

bool compiled() noexcept { return false; }

std::string toolkit_version() { return {}; }

std::vector<DeviceInfo> devices(std::string& status) {
    status = "this build has no CUDA backend (configured without a CUDA toolkit)";
    return {};
}

}  // namespace pmcount::backend::cuda
