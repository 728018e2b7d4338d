#include "plan/cost_model.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "exact/frontier/frontier.hpp"
#include "exact/hafnian/hafnian_device.hpp"
#include "exact/hafnian/hafnian_gpu.hpp"
#include "exact/hafnian/prime_lanes.hpp"
#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "numeric/primes.hpp"

namespace pmcount::plan {

namespace {

// ---- Constants: nanoseconds per Gray step (or per row of one) on one thread ---------------------
// Dense Ryser: base + row·W (+ the exact lanes' per-term work). Fitted to single-thread runs on
// the 2-core development machine (Xeon with AVX-512): `pmcount-bench --cases
// dense-real,dense-binary --n 22,24,26 --threads 1 --precision double,dd --exact` gave double
// 8.6–11.3 ns/step, double-double 78–105, exact 0-1 (density 0.5, 2–3 primes) 14–17;
// `count_matchings --json --threads 1` on dense complex matrices 23–33. Double since y stays in
// registers (ryser_range_vector): 5.1 ns/step at n = 28 on the AMD EPYC development machine
// (`count_matchings --json --threads 1`; 8.2 ns before).
constexpr double kStepBase_ns = 1.0;
constexpr double kRowDouble_ns = 0.13;
constexpr double kRowDoubleDouble_ns = 3.0;
constexpr double kRowComplex_ns = 1.0;
constexpr double kRowExact_ns = 0.3;
constexpr double kTermCompact_ns = 10.0;
constexpr double kTermPrimeLane_ns = 1.4;
constexpr double kModularRow_ns = 1.0;
// --precision certified over the compensated double on the CPU: 1.82× at n = 26, 1.95–1.98× at
// n = 30 (`pmcount-bench --cases dense-real --precision double,certified --threads 2`).
constexpr double kCertifiedOverDouble = 1.95;
// The same on the GPU: per Gray step 4n + 6 FP64 instructions (y, |y| + E, two product trees)
// against the compensated kernel's 2n + 15; measured on the H100 1.93× at n = 40 (6.47 against
// 3.36 s; `pmcount-bench --backend cuda --cases dense-real --precision double,certified`).
constexpr double kGpuCertifiedOverCompensated = 1.93;
// Sparse engines, checked with `pmcount-bench --cases sparse-binary,sparse-real --n 24,28,32
// --density 0.05,0.1,0.2 --threads 2` (predicted/measured 0.6–1.3 for dense Ryser, 0.8–1.3 for
// SpaRyser, 0.8–1.2 for SkipPer's 0-1 path and 1.1–1.5 for its general path at n ≥ 28). SpaRyser:
// a step updates the flipped column's nonzeros (entries_per_step) and, on a term, forms the
// product (row·W). SkipPer: a visit tests and jumps (visit + visit_row·W), a term forms the
// product; the 0-1 path rebuilds y from popcounts per term and tests rows without a y.
constexpr double kSparseStep_ns = 4.0;
constexpr double kSparseEntry_ns = 1.0;
// SkipPer's general path (floating, or exact on other than 0-1 matrices): a visit that finds a
// term costs 4 + 0.4·W and the product; one that jumps 4 ns and the Gray difference's column
// updates, 4.5 ns per nonzero of a row on average (the columns a jump flips grow with the
// density). Fitted with the windowed walk estimate (exact::estimate_sparse_walk) to 36 runs
// (`--method skipper --backend cpu --no-dm --no-reduce --threads 2`): integer matrices of order
// 28–34 with 5–7 nonzeros a row, entries 1–3 (as the reductions leave them), exact and double,
// 0.1–11 s: 0.71–1.17; 0-1 patterns in double, n = 30, density 0.4–0.5: 70–75 ns a jump measured,
// 58–69 modelled. Exact terms in compact lanes cost what double ones do there (25 and 24.5 ns at
// W = 32–40): the column updates, not the lanes, set the pace. The old 2.8·W a jump had been
// fitted on visits under-estimated up to 4×, and put the reductions' leaves at 1.5–3.4× their time.
constexpr double kSkipVisit_ns = 4.0;
constexpr double kSkipVisitRow_ns = 0.4;
constexpr double kSkipJumpEntry_ns = 4.5;
// SkipPer's 0-1 path in exact lanes: a visit tests the rows that can be zero, padded to 8
// (visit_test per row: AND, popcount, compare, the jump's candidate); a term forms its dynamic
// rows' product, and each sub-block of 2^sub_bits terms its static rows' lanes and their
// reduction (sub_block_row·W). Fitted (least squares on the relative error) to 33 runs, with the
// walk's visits and terms from the windows (exact::estimate_sparse_walk, within 0.85–1.17 of full
// walks there): `count_matchings random:n,d,s --method skipper --backend cpu --no-dm --no-reduce
// --threads 2`, n = 40–50 at d = 0.08–0.12 and n = 28–36 at d = 0.2–0.5, 0.08–86 s. Fit/measured
// 0.57–1.28, 29 of 33 within 0.77–1.27 (the two lowest are runs of 0.08 and 0.6 s); the old
// constants on the same visits and terms read 0.50–5.9 (a term's dynamic rows were priced 4×
// too high). All 33 ran in compact lanes; wider ones add their lane work per sub-block
// (random:34,0.5,1 in lanes ×4: predicted 0.62 of its time without it).
constexpr double kSkipBinaryVisitTest_ns = 1.09;
constexpr double kSkipBinaryDynamicRow_ns = 0.24;
constexpr double kSkipBinarySubBlockRow_ns = 0.32;
// Fixed start-up: the dense engines' thread start and tables; the sparse engines also order the
// columns (O(n^3) for SkipOrder) and build their tables: 0.3–0.5 ms measured at n = 24–32.
constexpr double kStart_s = 20e-6;
constexpr double kSparseStart_s = 3e-4;
constexpr double kParallelEfficiency = 1.0;
constexpr double kBruteForceNode_ns = 6.0;

double padded_width(vertex_t n) {
    return 8.0 * std::ceil(n / 8.0);
}

// ---- This machine's speed -------------------------------------------------------------------
// The constants above come from the 2-core development machine. Other machines differ per core
// and in how threads scale: on the H100's 16-core host dense Ryser took 1.2× the model's time on
// one thread, 1.5× on 8 and 1.9× on 16 (shared caches, clocks under load; exact, n = 30/33/34).
// Predictions are therefore scaled by this machine's speed against the development machine's,
// measured once per process and thread count: dense double Ryser of order 23 + log2(threads)
// (2^22 steps per thread, twice: 40–60 ms), whose time per step and thread was
// kProbeReference_ns there (4.2 on one thread, 4.6–5.3 on two: the constants' fits on two
// threads carry that loss already, so the top of it is the reference for several threads). The
// probe runs for the first prediction of kCalibrateFrom_s or more; from then on every prediction
// on those threads is scaled, however small, since a plan's many small leaves add up (and a split
// is weighed against the matrix it splits). Before, only predictions of 0.5 s or more were: on the
// H100 host (factor 1.6–1.9 on 16 threads) random:40,0.2,5's three SkipPer leaves of under 0.5 s
// each read 0.42 of the count's total time.
constexpr double kCalibrateFrom_s = 0.1;
constexpr double kProbeReference_ns = 4.2;
constexpr double kProbeReferenceThreads_ns = 5.3;

/// This machine's time over the model's for the CPU engines on `threads` threads (1: as
/// modelled); `measure`: run the probe if this process has not yet, else 1 (0 for not known).
double cpu_speed_factor(int threads, bool measure = true) {
    static std::mutex mutex;
    static std::map<int, double> factors;
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = factors.find(threads); it != factors.end()) {
        return it->second;
    }
    if (!measure) {
        return 0;
    }
    const vertex_t n =
        std::clamp(23 + static_cast<vertex_t>(std::lround(std::log2(threads))), 23, 28);
    DenseMatrix<double> a(n, n);
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            a(i, j) = 0.5 + static_cast<double>((7 * i + 13 * j + i * j) % 17) / 17.0;
        }
    }
    run::EngineRun run;
    run.threads = threads;
    double seconds = std::numeric_limits<double>::infinity();
    for (int k = 0; k < 2; ++k) {  // the faster of two: a busy moment is not the machine's speed
        const auto start = std::chrono::steady_clock::now();
        exact::ryser_real(a, Precision::double_precision, run);
        seconds = std::min(
            seconds,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
    const double reference =
        std::ldexp((threads == 1 ? kProbeReference_ns : kProbeReferenceThreads_ns) * 1e-9, n - 1) /
        threads;
    const double factor = std::clamp(seconds / reference, kFastestSpeedFactor, 8.0);
    factors.emplace(threads, factor);
    return factor;
}

/// `seconds` predicted by the constants, on this machine with `threads` threads.
double on_this_machine(double seconds, int threads) {
    bool measure = seconds >= kCalibrateFrom_s;
    if (DeferredProbe* deferred = DeferredProbe::current(); deferred != nullptr) {
        deferred->consult();
        if (measure) {
            deferred->want();
            measure = false;
        }
    }
    const double factor = cpu_speed_factor(std::max(1, threads), measure);
    return factor > 0 ? seconds * factor : seconds;
}

/// Seconds of 2^(n−1) steps of `per_step_ns` on the threads the engines use (one below 2^18 steps,
/// chunked_run.cpp) and the MPI ranks (from 2^20 steps, run/session.cpp), plus the fixed start-up;
/// at this machine's measured speed (cpu_speed_factor) once it is known.
double steps_seconds(vertex_t n, double per_step_ns, int threads, double start_s = kStart_s,
                     int ranks = 1, bool calibrated = true) {
    const int used_threads = n - 1 < 18 ? 1 : std::max(1, threads);
    const double used = used_threads * kParallelEfficiency * (n - 1 < 20 ? 1 : std::max(1, ranks));
    const double seconds = start_s + std::ldexp(per_step_ns * 1e-9, n - 1) / used;
    return calibrated ? on_this_machine(seconds, used_threads) : seconds;
}

/// Per-row cost of updating y and multiplying it out, by arithmetic.
double row_ns(const LeafFacts& f) {
    switch (f.arithmetic) {
        case Arithmetic::exact:
            return kRowExact_ns;
        case Arithmetic::double_precision:
            return kRowDouble_ns;
        case Arithmetic::double_double:
            return kRowDoubleDouble_ns;
        case Arithmetic::complex:
            return kRowComplex_ns;
    }
    return kRowDouble_ns;
}

/// Exact lanes: the work per term after the lane products (none for a term with a zero).
double term_ns(const LeafFacts& f) {
    if (f.arithmetic != Arithmetic::exact) {
        return 0;
    }
    switch (f.products) {
        case exact::ExactProducts::compact:
            return kTermCompact_ns;
        case exact::ExactProducts::lanes4:
            return kTermPrimeLane_ns * f.primes * 4;
        case exact::ExactProducts::lanes8:
            return kTermPrimeLane_ns * f.primes * 8;
        case exact::ExactProducts::modular:
            return 0;
    }
    return 0;
}

/// Modular arithmetic makes one pass per prime.
int passes(const LeafFacts& f) {
    return f.arithmetic == Arithmetic::exact && f.products == exact::ExactProducts::modular
               ? std::max(1, f.primes)
               : 1;
}

double clamp01(double x) {
    return std::clamp(x, 0.0, 1.0);
}

}  // namespace

namespace {
thread_local DeferredProbe* t_deferred_probe = nullptr;
}  // namespace

DeferredProbe::DeferredProbe() : outer_(t_deferred_probe) {
    t_deferred_probe = this;
}
DeferredProbe::~DeferredProbe() {
    t_deferred_probe = outer_;
}
DeferredProbe* DeferredProbe::current() noexcept {
    return t_deferred_probe;
}

double ryser_seconds(const LeafFacts& f) {
    if (f.order <= 0) {
        return 0;
    }
    const double width = padded_width(f.order);
    double per_step = 0;
    if (passes(f) > 1) {
        per_step = passes(f) * (kStepBase_ns + kModularRow_ns * width);
    } else {
        per_step = kStepBase_ns + row_ns(f) * width + clamp01(f.term_fraction) * term_ns(f);
    }
    if (f.certified) {
        per_step *= kCertifiedOverDouble;
    }
    return steps_seconds(f.order, per_step, f.threads, kStart_s, f.ranks);
}

double sparyser_seconds(const LeafFacts& f) {
    if (f.order <= 0) {
        return 0;
    }
    const double width = padded_width(f.order);
    const double product = (passes(f) > 1 ? kModularRow_ns : row_ns(f)) * width + term_ns(f);
    const double per_step =
        kSparseStep_ns + kSparseEntry_ns * f.entries_per_step + clamp01(f.term_fraction) * product;
    return steps_seconds(f.order, passes(f) * per_step, f.threads, kSparseStart_s, f.ranks);
}

namespace {

double skipper_model_seconds(const LeafFacts& f, bool calibrated) {
    if (f.order <= 0) {
        return 0;
    }
    const double width = padded_width(f.order);
    const double visits = clamp01(f.visit_fraction), terms = clamp01(f.term_fraction);
    double per_step = 0;
    if (f.binary_walk && f.arithmetic == Arithmetic::exact && passes(f) == 1) {
        // A term's static rows and lane reduction are shared by the 2^sub_bits terms of a
        // sub-block; the dynamic rows every term forms.
        const double sub = std::ldexp(1.0, f.sub_bits);
        const double tests = 8.0 * std::ceil(f.tested_rows / 8.0);
        // Wider lanes than the compact ones (which the fit holds) add their per-term work.
        const double lanes = f.products == exact::ExactProducts::compact ? 0.0 : term_ns(f);
        per_step = visits * kSkipBinaryVisitTest_ns * tests +
                   terms * (kSkipBinaryDynamicRow_ns * f.dynamic_rows +
                            (kSkipBinarySubBlockRow_ns * width + lanes) / sub);
    } else {
        // A visit with a term steps on and forms the product; one without jumps (the zero
        // rows' next touches, the Gray difference applied, y's zeros tracked).
        const bool compact = f.arithmetic == Arithmetic::exact &&
                             f.products == exact::ExactProducts::compact && passes(f) == 1;
        const double product =
            compact ? kRowDouble_ns * width
                    : (passes(f) > 1 ? kModularRow_ns : row_ns(f)) * width + term_ns(f);
        const double jumps = std::max(0.0, visits - terms);
        const double row_entries =
            static_cast<double>(f.nnz) / std::max(1.0, static_cast<double>(f.order));
        per_step = passes(f) * (terms * (kSkipVisit_ns + kSkipVisitRow_ns * width + product) +
                                jumps * (kSkipVisit_ns + kSkipJumpEntry_ns * row_entries));
    }
    return steps_seconds(f.order, per_step, f.threads, kSparseStart_s, f.ranks, calibrated);
}

}  // namespace

double skipper_seconds(const LeafFacts& f) {
    return skipper_model_seconds(f, true);
}

double gpu_fp64_rate(const DeviceInfo& d) {
    const double per_sm = d.compute_major == 9                           ? 1.263e11
                          : d.compute_major == 8 && d.compute_minor == 0 ? 9e10
                                                                         : 2e9;
    return per_sm * d.multiprocessors;
}

GpuThroughput gpu_throughput(const std::vector<DeviceInfo>& devices, const std::vector<int>& chosen,
                             int ranks, int local_ranks, bool shared) {
    GpuThroughput t;
    double host_rate = 0;
    double host_multiprocessors = 0;
    for (const DeviceInfo& d : devices) {
        const bool mine =
            chosen.empty() || std::find(chosen.begin(), chosen.end(), d.index) != chosen.end();
        if (mine) {
            t.own_rate += gpu_fp64_rate(d);
            t.own_multiprocessors += d.multiprocessors;
        }
        if (mine || shared) {
            host_rate += gpu_fp64_rate(d);
            host_multiprocessors += d.multiprocessors;
        }
    }
    if (ranks <= 1) {
        t.shared_rate = t.own_rate;
        t.shared_multiprocessors = t.own_multiprocessors;
        return t;
    }
    const int hosts = std::max(1, ranks / std::max(1, local_ranks));
    t.shared_rate = hosts * (shared ? host_rate : t.own_rate);
    t.shared_multiprocessors = hosts * (shared ? host_multiprocessors : t.own_multiprocessors);
    return t;
}

double gpu_ryser_seconds(const LeafFacts& f) {
    const double rate = f.gpus.shared_rate;
    if (rate <= 0) {
        return std::numeric_limits<double>::infinity();
    }
    const vertex_t n = f.order;
    const Arithmetic arithmetic = f.arithmetic;
    const int primes = f.primes;
    double factor = 1;
    switch (arithmetic) {
        case Arithmetic::exact:
            factor = 1.5 + 0.45 * primes;
            break;
        case Arithmetic::double_precision:
            factor = 1.17;
            break;
        case Arithmetic::double_double:
            factor = 20;
            break;
        case Arithmetic::complex:
            factor = 3;
            break;
    }
    if (f.certified) {
        factor *= kGpuCertifiedOverCompensated;
    }
    return 0.3 + factor * std::ldexp(2.0 * n, n - 1) / (0.92 * rate);
}

// Sparse GPU engines, in FP64-instruction equivalents per Gray step at the dense engine's rate
// (gpu_fp64_rate, 92% of it reached). Walk: the flipped column's nonzeros and a product of n
// entries (generated floating kernels: partial products, about n/3 on random matrices of
// density 0.1), times the dense engine's arithmetic factors; exact terms add the lane
// reductions per prime. Table kernels keep x in local memory. Measured on an H100
// (pmcount-bench --backend cuda --cases sparse-real,sparse-binary, density 0.1): generated
// double n = 44 21 per step, table double n = 40 177 per step (3.3× the generated kernel's
// full-product cost), generated exact walk n = 44 40 per step. A flipped column's nonzero costs
// far more than one FP64 instruction (a dependent load, the update, the zero count), and an
// exact term its lanes' products and reductions per prime; refitted at density 0.2–0.5 (n = 36–40,
// `count_matchings random:n,d,1 --method sparyser --backend cuda --no-dm --no-reduce`, 28 runs,
// the walk estimate's entries per step and term fraction; kernel time against the model): an
// entry 6 in the table kernels, 3.5 in generated floating ones, 1.75 in generated exact ones; an
// exact term 70 per prime in the tables, 710 in the generated kernels (which form the lanes in
// registers, row by row). Fit/measured 0.91–1.09 for all four kinds; with one per entry and 4
// per term and prime they read 0.27–0.97, lowest at density 0.5, where the planner then took the
// sparse walk over dense Ryser at twice its time (random:36,0.5,1). SkipPer's 0-1 path: per visit a
// fixed cost and the row tests (AND, popcount, compare, the jump: integer instructions, about
// one FP64 equivalent per row), per term y from popcounts and the lane products and reductions.
// SkipPer's 0-1 path is predicted relative to the CPU SkipPer's model on 16 threads, with the
// ratios measured side by side on the H100's host (2026-11-27, both with their sub-blocks, the
// GPU with batches of half the remaining units; kernels against the CPU's count on 16 threads):
// random:48,0.1,7 generated 0.228 s, tables 0.615 s, CPU 18.57 s; random:48,0.1,1 generated
// 0.037 s, CPU 0.749 s; pmcount-bench's order-48 matrix generated 0.214 s, tables 0.401 s, CPU
// 6.67 s. Generated 0.012–0.049 of the CPU (geometric mean 0.027), tables 0.033–0.060 (0.045).
// Both rest on the CPU model and its walk estimate (exact::estimate_sparse_walk). The generated
// sparse walk in compensated double runs super-blocks of 2^6 steps, the model's per-step cost
// fitted at 2^3 (n = 44: 8.28 s against 12.6 s).
constexpr double kGpuSkipGeneratedOverCpu16 = 0.027;
constexpr double kH100Fp64Rate = 1.263e11 * 132;  // the one GPU of those ratios
constexpr double kGpuSkipTablesOverCpu16 = 0.045;
constexpr double kGpuGeneratedCompensatedUnroll = 8.28 / 12.6;
constexpr double kGpuWalkStepFixed = 2.0;
constexpr double kGpuTablesEntry = 6.0;
constexpr double kGpuGeneratedFloatEntry = 3.5;
constexpr double kGpuGeneratedExactEntry = 1.75;
constexpr double kGpuTablesTermPrime = 70.0;
constexpr double kGpuGeneratedTermPrime = 710.0;
constexpr double kGpuPartialProductShare = 1.0 / 3.0;
constexpr double kGpuTablesSlowdown = 3.3;
constexpr double kGpuSparseSetup_s = 0.3;
// A generated kernel's NVRTC compilation, unless the kernel cache holds it (a hit: under 1 ms).
constexpr double kGpuGenerateCompile_s = 1.0;  // measured 0.6–1.4 s at n = 36–48
// Double-double in the generated walk: on the H100, `--precision dd --backend cuda` on a dense
// random 40×40 real matrix took the generated sparse walk 104.8 s, 14.3 s of it NVRTC's
// compilation (the double-double code is far larger), so 2.5·10^3 FP64 instructions a step,
// 59 per row on every row, where this model had read 10 per row on a third of them (275 a
// step: 11 s), and the plan had preferred it to dense Ryser's dd kernel (predicted 57 s). One
// measurement: fitted to it, to be refitted on more orders and densities.
constexpr double kGpuGeneratedDoubleDoubleRow = 59.0;
constexpr double kGpuGenerateCompileDoubleDouble_s = 14.3;

double gpu_sparse_seconds(const LeafFacts& f, bool skipper, bool generated) {
    const double rate = f.gpus.shared_rate;
    const bool compiles =
        generated && !(skipper ? f.generated_cached_skipper : f.generated_cached_sparyser);
    const double compile_s = !compiles ? 0.0
                             : f.arithmetic == Arithmetic::double_double
                                 ? kGpuGenerateCompileDoubleDouble_s
                                 : kGpuGenerateCompile_s;
    if (rate <= 0 || f.order < 2) {
        return std::numeric_limits<double>::infinity();
    }
    const double n = f.order;
    const bool exact = f.arithmetic == Arithmetic::exact;
    const int primes = std::max(1, f.primes);
    double per_step = 0;
    if (skipper && exact && f.binary_walk) {
        LeafFacts host = f;
        host.threads = 16;
        // (uncalibrated, as when the ratios were fitted)
        return kGpuSparseSetup_s + compile_s +
               skipper_model_seconds(host, false) *
                   (generated ? kGpuSkipGeneratedOverCpu16 : kGpuSkipTablesOverCpu16) *
                   (kH100Fp64Rate / rate);
    } else {
        const double rows =
            generated && f.arithmetic != Arithmetic::exact ? kGpuPartialProductShare * n : n;
        double product = rows;
        switch (f.arithmetic) {
            case Arithmetic::exact:
                product = n + clamp01(f.term_fraction) * primes *
                                  (generated ? kGpuGeneratedTermPrime : kGpuTablesTermPrime);
                break;
            case Arithmetic::double_precision:
                product = 1.17 * rows;
                break;
            case Arithmetic::double_double:
                product = generated ? kGpuGeneratedDoubleDoubleRow * n : 10.0 * rows;
                break;
            case Arithmetic::complex:
                product = 3.0 * rows;
                break;
        }
        const double entry = !generated ? kGpuTablesEntry
                             : exact    ? kGpuGeneratedExactEntry
                                        : kGpuGeneratedFloatEntry;
        per_step = kGpuWalkStepFixed + entry * f.entries_per_step + product;
        if (!generated) {
            per_step *= kGpuTablesSlowdown;
        } else if (f.arithmetic == Arithmetic::double_precision) {
            per_step *= kGpuGeneratedCompensatedUnroll;
        }
    }
    return kGpuSparseSetup_s + compile_s + std::ldexp(per_step, f.order - 1) / (0.92 * rate);
}

// Planar engine, measured on the 2-core machine (scratch timings of the engine's phases, 2
// threads): set-up 0.29 s for the 100×100 grid (10^4 vertices) and 0.016 s for 32×32; one modular
// elimination 0.12 s at n = 5000 (100×100: n^1.5 term) and 0.057 s at n = 8000, w = 16 (16×1000:
// n·w² term); a floating elimination costs about as much as a modular one. Later primes replay
// the first one's pivots at a fifth of its cost (grid 120×120, 232 primes: 5.46 s on 2 threads
// here; 15.8 s on 1 and 1.79 s on 16 threads of the H100 host, whose cores are slower).
constexpr double kPlanarSetupPerVertex_s = 3e-5;
constexpr double kPlanarNested_s = 3.4e-7;  // × n^1.5
constexpr double kPlanarBand_s = 2.8e-8;    // × n·w²
constexpr double kReplayShare = 0.2;
// Frontier engine: per processed vertex a fixed cost (the step's families, list set-up), per state
// visit a fixed cost (merging the sorted state lists, sources), a cost per 64-bit word of the
// values, and a cost per doubling of the live states beyond 2^14 (the lists outgrow the caches).
// Fitted by least squares on relative error to 23 exact counts on one thread of the idle 2-core
// machine (grids 10×200 … 22×24, tori 6×200 … 12×14, widths 10–24, 4.9·10^5–1.6·10^8 visits,
// --method frontier without the front end): within 0.88–1.32 of the measured time. (The earlier
// 19 ns + 1.65 ns per word, fitted before the engine prefetched, over-predicted long grids 2–3×:
// 16×800 11.0 s against 3.9 s.) With the meet in the middle each pass's integers grow to half the
// final size: a quarter of the bound's words on average.
// That fit sets the shape; the level is the H100 host's (a 16-core server, the machine these
// estimates are for): one-thread counts of the tori 6×200, 8×24, 10×14 and 12×12 (0.05–2.1 s)
// took 1.96–2.64× the fit there (geometric mean 2.2), and the 2-core machine itself drifts
// between sessions (the 10×14 torus: 0.19 s at the fit, 0.39–0.44 s a day later, 1 thread).
// The engine is memory-bound, so the dense-Ryser probe (cpu_speed_factor) does not track it
// (1.75× on that host, 1.3× on the 2-core machine on the day it ran at 2.1×): frontier
// predictions are not scaled by it.
constexpr double kFrontierLevel = 2.2;
constexpr double kFrontierVertex_s = 5.4e-6;
constexpr double kFrontierVisit_ns = 14.2;
constexpr double kFrontierWord_ns = 0.43;
constexpr double kFrontierCache_ns = 1.2;
constexpr double kFrontierCacheFromLog2 = 14;
// Threads: from two on, the forward and the backward pass run side by side, which doubles the
// speed while the live lists fit the caches and gains little once they do not (here, 2 threads:
// 1.9–2.0× on 16×600 and 18×40 grids, width 16–18; 1.3× on the 12×12 torus, 2^20.4 live states;
// 1.1× on 12×14, 2^21.4): the second pass adds max(0.1, 1 − 0.12·(log2 peak − 14)) of a pass.
// Within a pass the threads merge the lists in memory: (T/2)^0.23, fitted to 16 against 4
// threads on the H100 host for the four tori above (1.19–1.61×; an earlier run of the 12×12
// torus: 1.26×, 1.54×, 1.78×, 2.32× on 2, 4, 8, 16 threads).
constexpr double kFrontierThreadExponent = 0.23;
constexpr double kFrontierSecondPassLoss = 0.12;  // per doubling of the live states beyond 2^14

/// Doublings of the frontier's live states beyond 2^kFrontierCacheFromLog2.
double frontier_cache_doublings(double peak_states) {
    return std::max(0.0, std::log2(std::max(1.0, peak_states)) - kFrontierCacheFromLog2);
}

/// How many times faster than one thread the frontier engine runs on `threads`, with live lists
/// of up to `peak_states` states.
double frontier_speedup(int threads, double peak_states) {
    if (threads < 2) {
        return 1;
    }
    const double second_pass =
        std::clamp(1 - kFrontierSecondPassLoss * frontier_cache_doublings(peak_states), 0.1, 1.0);
    return (1 + second_pass) * std::pow(threads / 2.0, kFrontierThreadExponent);
}

double brute_force_seconds(vertex_t n) {
    double nodes = 1;
    for (vertex_t k = 2; k <= n; ++k) {
        nodes *= k;
    }
    return 2.718281828 * nodes * kBruteForceNode_ns * 1e-9;
}

namespace {

/// Eliminations modulo `primes` primes (at least one): the first chooses the pivots, each later
/// one replays them at kReplayShare of the cost, on up to `threads` threads at once.
double replayed_eliminations_seconds(double first, double primes, int threads) {
    const double later = std::max(0.0, primes - 1);
    return first * (1 + kReplayShare * later / std::max(1.0, std::min<double>(threads, later)));
}

}  // namespace

double planar_seconds(const LeafFacts& f) {
    const double n = f.order;
    double elimination = kPlanarNested_s * std::pow(n, 1.5);
    if (f.frontier_width >= 0) {
        elimination = std::min(
            elimination, kPlanarBand_s * n * (f.frontier_width + 1.0) * (f.frontier_width + 1.0));
    }
    const double primes = f.arithmetic == Arithmetic::exact ? f.primes : 1.0;
    return on_this_machine(kPlanarSetupPerVertex_s * 2 * n +
                               replayed_eliminations_seconds(elimination, primes, f.threads),
                           f.threads);
}

double planar_bytes(const LeafFacts& f) {
    const double vertices = 2.0 * f.order;
    return 256 * vertices * std::log2(std::max(2.0, vertices));
}

double pfaffian_bytes(const LeafFacts& f) {
    const double vertices = f.order;
    return 256 * vertices * std::log2(std::max(2.0, vertices));
}

double planning_bytes(double vertices, double entries) {
    return 1800 * vertices + 210 * entries;
}

// ---- Hafnians --------------------------------------------------------------------------------
// Nanoseconds per multiply-add of the recursion on one thread, on the 2-core development machine
// (AVX-512): exact 0-1 at n = 40, one pass of eight prime lanes, 2.1 s for 2.0·10^9
// multiply-adds; double on a nonnegative matrix 1.1 s (a signed one walks |A| too: twice).
constexpr double kHafnianDouble_ns = 0.8;
constexpr double kHafnianDoubleDouble_ns = 14;
constexpr double kHafnianComplex_ns = 3.0;
constexpr double kHafnianExactLanes_ns = 1.05;  // per pass of hafnian::kPrimeLanes primes
constexpr double kHafnianStart_s = 2e-5;
// GPU, measured on one H100 (132 multiprocessors; DISABLED_Timing of tests/gpu/
// gpu_hafnian_test.cpp and the predictions suite, 2026-11-27, output block B = 32): kernels at
// order 56 0.534 s in double, 2.34 s for five primes; order 64 9.67 s in double; 0-1 graphs of
// 56 and 60 vertices (four primes each) 2.10 and 8.64 s a count. Multiply-adds (this model's
// count) per second per multiprocessor: 1.8·10^10 a prime. The set-up covers the kernels'
// loading. Since the double kernels carry each coefficient's running error (a multiply-add is
// ~12 FP64 instructions where it was one FMA), measured on one H200 (132 multiprocessors,
// 2026-11-28, seeded 0-1 and signed integer-valued graphs of 56 and 64 vertices): double 4.17 s
// at 56 and 89 s at 64 (2.3·10^9 multiply-adds a second per multiprocessor, 7.4 times fewer than
// before), complex 23.7 s at 56 (5.7 times double); five and six primes 2.13 and 52 s, as the
// prime rate says.
constexpr double kGpuHafnianDoublePerSm = 2.3e9;
constexpr double kGpuHafnianPrimePerSm = 1.8e10;
constexpr double kGpuHafnianComplexSlowdown = 5.7;
constexpr double kGpuHafnianSetup_s = 0.15;  // order 48 on the H100: 0.23 s, kernels 0.09 s
constexpr double kPairingNode_ns = 8.0;

double hafnian_multiply_adds(vertex_t n) {
    const double m = n / 2;
    double total = 0;
    for (vertex_t d = 0; d < n / 2; ++d) {
        const double s = n - 2 * d;
        total += std::ldexp((s - 2) * (s - 3) / 2 * m * (m - 1) + m * (m + 1) / 2, d);
    }
    return total;
}

double hafnian_bytes(const LeafFacts& f) {
    const double element = f.arithmetic == Arithmetic::exact              ? 64
                           : f.arithmetic == Arithmetic::double_precision ? 8
                                                                          : 16;
    const double m = f.order / 2;
    double elements = 0;
    for (int d = 0; d < f.order / 2; ++d) {
        const double s = f.order - 2.0 * d;
        elements += s * (s - 1) / 2 * m + m + 1;
    }
    const double threads = f.order < 24 ? 1.0 : std::max(1, f.threads);
    return threads * elements * element;
}

double hafnian_seconds(const LeafFacts& f) {
    double per_ns = kHafnianDouble_ns;
    switch (f.arithmetic) {
        case Arithmetic::exact:
            per_ns = kHafnianExactLanes_ns *
                     std::ceil(f.primes / static_cast<double>(exact::hafnian::kPrimeLanes));
            break;
        case Arithmetic::double_precision:
            per_ns = kHafnianDouble_ns;
            break;
        case Arithmetic::double_double:
            per_ns = kHafnianDoubleDouble_ns;
            break;
        case Arithmetic::complex:
            per_ns = kHafnianComplex_ns;
            break;
    }
    const double threads =
        (f.order < 24 ? 1.0 : std::max(1, f.threads)) * (f.order < 40 ? 1 : std::max(1, f.ranks));
    return on_this_machine(
        kHafnianStart_s + hafnian_multiply_adds(f.order) * per_ns * 1e-9 / threads,
        f.order < 24 ? 1 : f.threads);
}

double gpu_hafnian_seconds(const LeafFacts& f) {
    // From 20 pairs (2^20 leaves) the ranks share the subtree roots (run/session.cpp).
    const double multiprocessors =
        f.order < 40 ? f.gpus.own_multiprocessors : f.gpus.shared_multiprocessors;
    if (multiprocessors <= 0 || f.arithmetic == Arithmetic::double_double) {
        return std::numeric_limits<double>::infinity();
    }
    // The GPU's own primes (29 bits), not the CPU lanes' f.primes.
    const double rate = f.arithmetic == Arithmetic::exact
                            ? kGpuHafnianPrimePerSm * multiprocessors /
                                  exact::gpu_hafnian_primes(f.order, f.bound_log2)
                        : f.arithmetic == Arithmetic::complex
                            ? kGpuHafnianDoublePerSm * multiprocessors / kGpuHafnianComplexSlowdown
                            : kGpuHafnianDoublePerSm * multiprocessors;
    return kGpuHafnianSetup_s + hafnian_multiply_adds(f.order) / rate;
}

// Pfaffian engine, on the 2-core machine (2 threads): a 100×100 triangular patch (10^4 vertices,
// 105 primes) 1.8 s — embedding and orientation 0.2 s, the first prime's elimination (which
// chooses the pivot pairs) 0.11 s, every later prime a replay of that schedule at about a fifth
// of it (22 ms a prime, eight primes at a time).
constexpr double kPfaffianSetupPerVertex_s = 2e-5;
constexpr double kPfaffianNested_s = 1.1e-7;  // × n^1.5, the first elimination

double pfaffian_seconds(const LeafFacts& f) {
    const double n = f.order;
    // Exact: 62-bit primes for the hafnian bound (the engine's Hadamard bound often needs fewer).
    const double primes = f.arithmetic == Arithmetic::exact
                              ? std::max(0.0, f.bound_log2 + 1) / numeric::kLargePrimeLog2 + 2
                              : 1;
    return on_this_machine(
        kPfaffianSetupPerVertex_s * n +
            replayed_eliminations_seconds(kPfaffianNested_s * std::pow(n, 1.5), primes, f.threads),
        f.threads);
}

// Pfaffians on a surface: one elimination of the minimum degree order costs about c·n^1.5 (n
// vertices), ten times the planar Pfaffian's constant at the same n (a torus's separators are
// cycles, twice a strip's). Exact: the orientations replay the first prime's schedule as the
// other primes do. Fitted on the square tori 16×16 … 64×64 on 2 threads of the development
// machine (exact: 4–35 primes, 0.009–5.2 s; double 0.0035–0.34 s; constants within 0.7–1.1 of
// each count), divided by the speed factor its probe read then (2.1: the model's constants are
// the reference machine's).
constexpr double kSurfaceNestedExact_s = 5.7e-7;
constexpr double kSurfaceNestedDouble_s = 1.4e-7;
constexpr double kSurfaceComplexFactor = 4;
// What small tori spend besides the eliminations (the faces, orientations and matching, the
// threads' start, the CRT): counts of 1.5–9.5 ms on the tori 8×12 … 16×16, whose eliminations
// the fit above puts at 1–6 ms.
constexpr double kSurfaceStart_s = 2e-3;

double surface_pfaffian_seconds(const LeafFacts& f, int orientations) {
    const double n = f.order;
    const double n15 = std::pow(n, 1.5);
    if (f.arithmetic == Arithmetic::exact) {
        const double primes = std::max(0.0, f.bound_log2 + 1) / numeric::kLargePrimeLog2 + 2;
        return on_this_machine(kSurfaceStart_s +
                                   replayed_eliminations_seconds(kSurfaceNestedExact_s * n15,
                                                                 primes * orientations, f.threads),
                               f.threads);
    }
    const double per = kSurfaceNestedDouble_s * n15 *
                       (f.arithmetic == Arithmetic::complex ? kSurfaceComplexFactor : 1.0);
    return on_this_machine(kSurfaceStart_s + orientations * per, f.threads);
}

double pairings_seconds(vertex_t n) {
    double matchings = 1;
    for (vertex_t k = n - 1; k > 1; k -= 2) {
        matchings *= k;
    }
    return 2 * matchings * kPairingNode_ns * 1e-9;
}

int frontier_width_that_matters(vertex_t n) {
    // kPlanarBand_s·n·(w+1)² < kPlanarNested_s·n^1.5 ⇔ (w+1)² < (kPlanarNested_s/kPlanarBand_s)·√n.
    const double band =
        std::sqrt(kPlanarNested_s / kPlanarBand_s * std::sqrt(static_cast<double>(n)));
    return std::max(exact::kMaxFrontierWidth, static_cast<int>(band) + 1);
}

namespace {

/// 64-bit words per frontier value: a quarter of the bound's on average (exact), two (double:
/// the value and its error magnitude), four (complex).
double frontier_words(const LeafFacts& f) {
    return f.arithmetic == Arithmetic::exact     ? std::max(0.0, f.bound_log2) / 256 + 2
           : f.arithmetic == Arithmetic::complex ? 4
                                                 : 2;
}

}  // namespace

double frontier_seconds(const LeafFacts& f) {
    const int threads = std::max(1, f.threads);
    const double visit_ns = kFrontierVisit_ns + kFrontierWord_ns * frontier_words(f) +
                            kFrontierCache_ns * frontier_cache_doublings(f.frontier_peak_states);
    return kFrontierLevel *
           (2.0 * f.order * kFrontierVertex_s + f.frontier_states * visit_ns * 1e-9) /
           frontier_speedup(threads, f.frontier_peak_states);
}

double frontier_bytes(const LeafFacts& f) {
    // At the widest step the values are at most half the bound's words (meet in the middle).
    // Bytes per bounded state fitted to peak resident memory (exact): torus 12×14, width 24,
    // 681 MB for C(24,12) = 2.7·10^6; torus 14×14, width 27, 3.7 GB for C(27,13) = 2.0·10^7.
    const double words = f.arithmetic == Arithmetic::exact ? std::max(0.0, f.bound_log2) / 128 + 2
                                                           : frontier_words(f);
    return f.frontier_peak_states * (96 + 48 * words);
}

}  // namespace pmcount::plan
