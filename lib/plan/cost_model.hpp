// Predicted running time of the engines, for the planner: estimates for choosing engines and
// refusing hopeless plans, not promises. Each CPU model is nanoseconds per Gray step on one
// thread, times the 2^(n−1) steps, divided by the threads used, plus a fixed start-up; the
// per-step costs follow what each engine does per step (cost_model.cpp gives the formulas and
// the measurement behind every constant).
#pragma once

#include <cstdint>

#include "exact/ryser.hpp"
#include "pmcount/count.hpp"
#include "pmcount/types.hpp"

namespace pmcount::plan {

enum class Arithmetic { exact, double_precision, double_double, complex };

/// What the planner knows about a leaf when it chooses an engine.
struct LeafFacts {
    vertex_t order = 0;
    edge_t nnz = 0;
    bool binary = false;
    /// Exact arithmetic: whether the GPU's four exact lanes and ≤ 16 primes of 31 bits suffice.
    bool gpu_exact_fits = false;
    Arithmetic arithmetic = Arithmetic::exact;
    int primes = 0;  ///< exact arithmetic: moduli including the spare
    /// Exact arithmetic: how the CPU engines multiply (exact::exact_products).
    exact::ExactProducts products = exact::ExactProducts::compact;
    int threads = 1;
    /// From exact::estimate_sparse_walk: the fraction of Gray indices without a zero y_i (the
    /// terms), the fraction SkipPer visits, SpaRyser's nonzeros per step, and whether the Gray
    /// columns are 0-1 (SkipPer's 0-1 path, in exact lanes).
    double term_fraction = 1;
    double visit_fraction = 1;
    double entries_per_step = 0;
    bool binary_walk = false;
};

/// Predicted seconds of dense Ryser, SpaRyser and SkipPer on the CPU.
double ryser_seconds(const LeafFacts& facts);
double sparyser_seconds(const LeafFacts& facts);
double skipper_seconds(const LeafFacts& facts);

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
