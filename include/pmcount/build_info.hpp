// What this build of pmcount contains and which devices it sees.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace pmcount {

struct DeviceInfo {
    int index = 0;
    std::string name;
    int compute_major = 0;
    int compute_minor = 0;
    int multiprocessors = 0;
    std::size_t memory_bytes = 0;
};

struct BuildInfo {
    std::string version;
    std::string compiler;
    std::string build_type;
    bool openmp = false;
    int max_threads = 1;
    bool cuda_compiled = false;
    std::string cuda_version;          ///< toolkit the CUDA backend was built with
    /// The MPI library this build spreads counts with ("Open MPI v4.1.4, …"); empty without MPI.
    std::string mpi_library;
    std::vector<DeviceInfo> devices;   ///< GPUs visible now
    std::string device_status;         ///< why no GPU is visible, when none is
};

/// Queries the build and the visible GPUs (cheap; safe without a GPU or driver).
BuildInfo build_info();

/// Measures a GPU's FP64 add/multiply instruction rate (per second) with a small kernel of
/// independent DMUL/DADD chains: the roofline the dense GPU engine is judged against. Throws
/// NotCompiled without CUDA, DeviceError without a usable GPU.
double measure_gpu_fp64_rate(int device = 0);

}  // namespace pmcount
