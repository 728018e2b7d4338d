#include "pmcount/build_info.hpp"

#include <omp.h>

#include "backend/device.hpp"
#include "pmcount/version.hpp"
#include "run/mpi.hpp"

namespace pmcount {

BuildInfo build_info() {
    BuildInfo info;
    info.version = PMCOUNT_VERSION_STRING;
#if defined(__clang__)
    info.compiler = "clang " __clang_version__;
#elif defined(__GNUC__)
    info.compiler = "g++ " __VERSION__;
#else
    info.compiler = "unknown";
#endif
    info.build_type = PMCOUNT_BUILD_TYPE;
    info.openmp = true;
    info.max_threads = omp_get_max_threads();
    info.cuda_compiled = backend::cuda::compiled();
    info.cuda_version = backend::cuda::toolkit_version();
    info.devices = backend::cuda::devices(info.device_status);
    info.mpi_library = run::mpi::library_version();
    return info;
}

double measure_gpu_fp64_rate(int device) { return backend::cuda::fp64_rate(device); }

}  // namespace pmcount
