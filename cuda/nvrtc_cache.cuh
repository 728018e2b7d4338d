// Run-time compilation of embedded kernel sources with NVRTC, for the GPU at hand, with an
// on-disk cache of the compiled code (DESIGN §4: per-order kernels without rebuilding the
// library). Shared by the Ryser engines (cuda/ryser_dense.cu, ryser_sparse.cu) and the hafnian engine
// (cuda/hafnian_gpu.cu).
//
// Cache: one cubin per (source, kernel names, NVRTC version, options, target), named by an FNV-1a
// hash of all of them, in $PMCOUNT_KERNEL_CACHE, else $XDG_CACHE_HOME/pmcount/kernels, else
// ~/.cache/pmcount/kernels, else /tmp/pmcount-<uid>/pmcount/kernels; written atomically, so
// concurrent processes never read half a file; a cache that cannot be written is not an error.
// Each file carries its size and an FNV-1a checksum of the cubin: a truncated, corrupted or
// foreign file, or one the driver refuses, is compiled again and overwritten, never trusted.
// Loaded libraries stay loaded for the life of the process (and are found again by key, in
// memory). Every NVRTC and CUDA status becomes DeviceError. Generated sources (one per matrix,
// cuda/ryser_sparse.cu) go through the same cache: their key is the hash of their text.
#pragma once

#include <cuda_runtime.h>

#include <string>
#include <vector>

namespace pmcount::backend::cuda {

/// An embedded kernel source and the file name NVRTC's messages give it.
struct KernelSource {
    const char* text;
    const char* file_name;
};

/// One NVRTC program an engine compiles: its text, file name and kernel name expressions, built
/// by the same function the engine loads it with (kernel_programs.cuh lists them).
struct KernelProgram {
    std::string text;
    std::string file_name;
    std::vector<std::string> names;
    KernelSource source() const { return {text.c_str(), file_name.c_str()}; }
};

/// The kernels `name_expressions` (fully qualified template instances) of `source`, compiled
/// together as one NVRTC program for compute capability major.minor, from the cache when present.
std::vector<cudaKernel_t> load_kernels(const KernelSource& source,
                                       const std::vector<std::string>& name_expressions, int major,
                                       int minor);

/// Where the kernels came from: loaded earlier in this process, the disk cache, or NVRTC.
enum class KernelCache { memory, disk, compiled };
const char* to_string(KernelCache cache) noexcept;

struct LoadedKernels {
    std::vector<cudaKernel_t> kernels;
    KernelCache cache = KernelCache::memory;
    double seconds = 0;  ///< compiling (or reading the cache) and loading
};

/// load_kernels, saying where the kernels came from and how long that took.
LoadedKernels load_kernels_reporting(const KernelSource& source,
                                     const std::vector<std::string>& name_expressions, int major,
                                     int minor);

/// Whether load_kernels would find the kernels without NVRTC: loaded in this process, or a
/// well-formed file in the disk cache (the driver may still refuse it; then they are compiled).
bool kernels_cached(const KernelSource& source, const std::vector<std::string>& name_expressions,
                    int major, int minor);

/// Compiles `program` with NVRTC for compute capability major.minor as load_kernels does, without
/// the cache and without loading it (no GPU needed): the size of its cubin. DeviceError with
/// NVRTC's log when it does not compile.
std::size_t compile_program(const KernelProgram& program, int major, int minor);

/// load_kernels with one name.
cudaKernel_t load_kernel(const KernelSource& source, const std::string& name_expression, int major,
                         int minor);

}  // namespace pmcount::backend::cuda
