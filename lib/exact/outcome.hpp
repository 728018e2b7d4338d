// What an exact engine returns to the planner, whatever the engine family (Ryser, planar,
// frontier, hafnian, …): an exact big integer, or a floating value with its error estimate.
// Library-internal.
#pragma once

#include <complex>
#include <cstdint>
#include <string>

#include "pmcount/big_int.hpp"

namespace pmcount::exact {

/// Where an engine ran: "cpu", or the GPUs and how the work was split, with the GPU's times.
struct DeviceReport {
    std::string device = "cpu";
    double device_seconds = 0;   ///< GPU runs: kernels and transfers (after set-up)
    double codegen_seconds = 0;  ///< generated kernels: writing the source for this matrix
    double compile_seconds = 0;  ///< run-time compilation, or reading the cache, and loading
    std::string kernel_cache;    ///< "memory", "disk" or "compiled" (sparse GPU engines)
};

struct ExactOutcome {
    BigInt value;
    int primes = 0;  // including the spare
    /// Steps of the engine's exponential loop (Gray-code steps, subsets of pairs); 0 for the
    /// polynomial engines.
    std::uint64_t gray_steps = 0;
    /// Multiply-adds of the engine's inner loop (per prime where it runs several), when it
    /// counts them (the hafnian recursion); 0 otherwise.
    double multiply_adds = 0;
    std::string arithmetic;
    DeviceReport where;
};

/// A floating-point result: mantissa · 2^exponent2 (the exponent keeps values beyond double
/// range representable), with an estimated error bound.
struct FloatOutcome {
    std::complex<double> mantissa;
    std::int64_t exponent2 = 0;
    /// Estimated bound on |computed − true|, in the same scale as mantissa (× 2^exponent2).
    double abs_error_mantissa = 0;
    std::uint64_t gray_steps = 0;
    double multiply_adds = 0;  ///< as in ExactOutcome
    std::string arithmetic;
    DeviceReport where;
};

}  // namespace pmcount::exact
