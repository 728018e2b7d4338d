// Predicted running time of the engines, for the planner. Per Gray-code step, a dense Ryser
// engine of order n (row width W = n rounded up to 8) costs about
//     exact:         c_base + c_row·W + c_prime·primes·lanes  (lanes = 4 or 8)
//     double:        c_base + c_row·W
//     double-double: c_base + c_row_dd·W
//     complex:       c_base + c_row_complex·W
// nanoseconds on one thread, for 2^(n−1) steps, divided by the threads used. Fitted to
// single-thread runs on the 2-core development machine (Xeon with AVX-512, 2026-11-21):
// `pmcount-bench --cases dense-real,dense-binary --n 22,24,26 --threads 1 --precision double,dd
// --exact` gave double 8.6–11.3 ns/step, double-double 78–105, exact 0-1 (density 0.5, 2–3
// primes) 14–17; `count_matchings --json --threads 1` on dense complex matrices 23–33 and on
// density-0.8 0-1 matrices with 3 primes 20–25. They are estimates for choosing engines and
// refusing hopeless plans, not promises (the GPU machine's cores are slower per thread).
#pragma once

#include <cstdint>

#include "pmcount/count.hpp"
#include "pmcount/types.hpp"

namespace pmcount::plan {

enum class Arithmetic { exact, double_precision, double_double, complex };

/// Predicted seconds of dense Ryser of order n with `threads` threads.
double ryser_seconds(vertex_t n, Arithmetic arithmetic, int primes, int threads);
/// Predicted seconds of SpaRyser (skip = false) or SkipPer (skip = true) on an order-n matrix
/// with nnz nonzeros, where a Gray-code subset leaves some y_i = 0 with probability
/// zero_probability. SpaRyser: a column update per subset, a product per subset without zeros.
/// SkipPer: about 2.5 visits per subset without zeros (measured on random 0-1 matrices with
/// n = 30–36 and density 0.1: 21.8M visits for 9.6M terms), 26 ns each at W = 40.
double sparse_ryser_seconds(vertex_t n, edge_t nnz, double zero_probability, Arithmetic arithmetic,
                            int primes, int threads, bool skip);

/// Predicted seconds of dense Ryser on the visible GPUs: set-up (compilation is cached on disk,
/// loading and transfers ~0.3 s) plus 2n FP64 instructions per Gray step at the GPUs' FP64 rate
/// (per multiprocessor: 1.263·10^11/s on sm_90, measured 16.67·10^12/s on an H100's 132; 9·10^10
/// on sm_80; 2·10^9 on GPUs with slow FP64) and the 92% of it the kernel reaches at n = 40
/// (docs/gpu.md). The compensated double mode costs 1.17× (measured), the exact mode
/// 1.5 + 0.45 per 31-bit prime (n = 40, 6 primes: 12.0 s against 2.84 s), complex about 3×,
/// double-double 20×.
double gpu_ryser_seconds(vertex_t n, Arithmetic arithmetic, int primes);

/// Predicted seconds of brute force (n! / (n−1)!! paths, about e·n! node visits).
double brute_force_seconds(vertex_t n);

}  // namespace pmcount::plan
