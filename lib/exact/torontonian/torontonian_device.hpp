// The torontonian's GPU job (cuda/torontonian_gpu.cu): the problem in mode order with each
// entry's first-order error, the chunks' records, the result. Library-internal; the CPU walk
// (walk.hpp, Tracked in policies.hpp) is the reference each GPU thread follows.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace pmcount::backend::cuda {

/// One chunk's sums (the CPU walk's tor::Sums without the bound: the GPU tracks errors).
struct GpuTorontonianRecord {
    double hi = 0, lo = 0;  ///< Σ sign·term, double-double
    double magnitude = 0;   ///< Σ |term|
    double loose2 = 0;      ///< Σ |term|·rho²
    double tracked = 0;     ///< Σ δ_X·T_X
    std::uint64_t nodes = 0;
    std::uint64_t failed_set = 0;
    std::int64_t failure = 0;  ///< tor::Failure
};

/// Tor(O) (or lTor with loop) of N modes, split as the CPU walk splits it: chunk c fixes the set
/// of the first N − suffix modes (bit k of c: mode k), one GPU thread per chunk walks the
/// subsets of the last `suffix` modes in complex double with tracked errors.
struct GpuTorontonianJob {
    int modes = 0;
    int suffix = 0;
    bool loop = false;
    /// I − O in mode order (mode k's rows 2k, 2k + 1), the lower triangle of the 2N×2N matrix
    /// row by row (entry (i, j), j ≤ i, at i(i + 1)/2 + j): values and signed errors.
    std::vector<double> m_re, m_im, e_re, e_im;
    /// v = γ* in mode order (loop only).
    std::vector<double> v_re, v_im;
    std::vector<int> devices;  ///< the GPUs to use; empty: every visible one
    /// Asked between waves of chunks: false stops the job (DeviceError is not raised; the
    /// result has `stopped` set).
    std::function<bool()> keep_going;
};

struct GpuTorontonianResult {
    std::vector<GpuTorontonianRecord> chunks;  ///< in chunk order
    bool stopped = false;
    double seconds = 0;  ///< kernels and transfers
    std::string device;  ///< the GPUs' names (and the split, for several)
};

/// Runs the job, the chunks split evenly over job.devices. DeviceError on a CUDA failure (or no
/// GPU); NotCompiled without CUDA.
GpuTorontonianResult torontonian(const GpuTorontonianJob& job);

}  // namespace pmcount::backend::cuda
