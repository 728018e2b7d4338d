// The arithmetics of the hafnian GPU kernels, numbered once for the host (hafnian_device.hpp)
// and the kernel source: NVRTC compiles it with this text prepended (cuda/CMakeLists.txt), and
// the kernels' MODE constants are these values. No includes, nothing but the enum: NVRTC sees it.
#pragma once

namespace pmcount::backend::cuda {

/// Arithmetic of the hafnian kernels (cuda/kernels/hafnian.cuh).
enum class GpuHafnianMode : int {
    double_precision = 0,  ///< double with a running error per coefficient; subtree records
                           ///< combined in double-double
    complex = 1,           ///< complex double, the same
    modular = 2,           ///< residues modulo primes below 2^gpu_hafnian_prime_bits(n)
};

}  // namespace pmcount::backend::cuda
