// Predicted running time of the engines, for the planner. Per Gray-code step, a dense Ryser
// engine of order n (row width W = n rounded up to 8) costs about
//     exact:         c_base + c_row·W + c_prime·primes·lanes  (lanes = 4 or 8)
//     double:        c_base + c_row·W
//     double-double: c_base + c_row_dd·W
//     complex:       c_base + c_row_complex·W
// nanoseconds on one thread, for 2^(n−1) steps, divided by the threads used. The constants were
// fitted to pmcount-bench runs on the 2-core development machine (Xeon, AVX-512, 2026-11-21):
// double n = 28: 8.0 ns/step; exact 0-1 n = 26 with 3 primes: 27 ns/step; double-double ~10×
// double; complex ~3× double. They are estimates for planning and refusal, not promises.
#pragma once

#include <cstdint>

#include "pmcount/count.hpp"
#include "pmcount/types.hpp"

namespace pmcount::plan {

enum class Arithmetic { exact, double_precision, double_double, complex };

/// Predicted seconds of dense Ryser of order n with `threads` threads.
double ryser_seconds(vertex_t n, Arithmetic arithmetic, int primes, int threads);
/// Predicted seconds of brute force (n! / (n−1)!! paths, about e·n! node visits).
double brute_force_seconds(vertex_t n);

}  // namespace pmcount::plan
