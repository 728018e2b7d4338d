// The arithmetics of the Ryser GPU kernels, numbered once for the host (ryser_device.hpp) and the
// kernel sources: NVRTC compiles them with this text prepended (cuda/CMakeLists.txt), and the
// kernels' MODE constants are these values. No includes, nothing but the enum: NVRTC sees it.
#pragma once

namespace pmcount::backend::cuda {

/// Arithmetic of the dense GPU kernel (cuda/kernels/ryser_dense.cuh).
enum class GpuMode : int {
    double_plain = 0,        ///< plain double accumulation (the roofline reference)
    double_compensated = 1,  ///< 2^4-term block sums folded into Neumaier pairs
    double_double = 2,
    complex = 3,
    modular = 4,  ///< y exact in double; 4 lane products, 31-bit primes, Montgomery
    /// double terms, each with a rigorous bound on its distance from the exact term (needs
    /// GpuRyserJob::row_error); the records' imaginary sum is the sum of the bounds
    certified = 5,
};

}  // namespace pmcount::backend::cuda
