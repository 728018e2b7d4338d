#include "plan/cost_model.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <string>

#include "exact/frontier/frontier.hpp"
#include "exact/hafnian/hafnian.hpp"
#include "exact/hafnian/hafnian_device.hpp"
#include "exact/hafnian/hafnian_gpu.hpp"
#include "exact/hafnian/prime_lanes.hpp"
#include "exact/ryser/ryser.hpp"
#include "exact/ryser/ryser_device.hpp"
#include "exact/ryser/walk_error.hpp"
#include "numeric/primes.hpp"
#include "plan/rates.hpp"
#include "run/chunked_run.hpp"
#include "run/session.hpp"

namespace pmcount::plan {

double probe_ns(int threads) {
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
    return seconds * threads / std::ldexp(1e-9, n - 1);
}

namespace {

// ---- CPU engines: nanoseconds per Gray step (or per row of one) on one thread -------------------
// The rates are data (rates(): lib/plan/rates/*.txt, each with the machine, command, runs and
// residuals of its fit; `pmcount-bench calibrate` measures them again). Here are the formulas.
// Dense Ryser: step_base + row·W per step (W: n padded to 8), the exact lanes' work per term on
// top. SpaRyser: a step updates the flipped column's nonzeros (entries_per_step) and, on a term,
// forms the product. SkipPer's general path: a visit that finds a term costs visit + visit_row·W
// and the product; one that jumps, visit and the Gray difference's column updates (jump_entry per
// nonzero of a row). Its 0-1 path in exact lanes: a visit tests the rows that can be zero, padded
// to 8; a term forms its dynamic rows' product, and each sub-block of 2^sub_bits terms its static
// rows' lanes and their reduction. Visits and terms come from the walk estimate
// (plan::estimate_sparse_walk).

double padded_width(vertex_t n) {
    return 8.0 * std::ceil(n / 8.0);
}

// ---- This machine's speed -------------------------------------------------------------------
// The rates are one machine's; others differ per core and in how threads scale (on the H100's
// 16-core host dense Ryser took 1.2× the model's time on one thread, 1.9× on 16). Predictions are
// therefore scaled by this machine's speed against the rates' machine, measured once per process
// and thread count: dense double Ryser of order 23 + log2(threads) (2^22 steps per thread, twice:
// 40–60 ms) against cpu.probe.one_thread / cpu.probe.threads ns per step and thread there. The
// probe runs for the first prediction of kCalibrateFrom_s or more; from then on every prediction
// on those threads is scaled, however small, since a plan's many small leaves add up.
constexpr double kCalibrateFrom_s = 0.1;

/// This machine's time over the model's for the CPU engines on `threads` threads (1: as
/// modelled); `measure`: run the probe if this process has not yet, else 1 (0 for not known).
double cpu_speed_factor(int threads, bool measure = true) {
    const CostRates& r = rates();
    static std::mutex mutex;
    static std::map<int, double> factors;
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = factors.find(threads); it != factors.end()) {
        return it->second;
    }
    if (!measure) {
        return 0;
    }
    const double reference = threads == 1 ? r.probe_reference_ns : r.probe_reference_threads_ns;
    const double factor = std::clamp(probe_ns(threads) / reference, kFastestSpeedFactor, 8.0);
    factors.emplace(threads, factor);
    return factor;
}

std::atomic<int> g_model_speed_only{0};

/// `seconds` predicted by the rates, on this machine with `threads` threads.
double on_this_machine(double seconds, int threads) {
    if (g_model_speed_only.load(std::memory_order_acquire) > 0) {
        return seconds;
    }
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
double steps_seconds(vertex_t n, double per_step_ns, int threads, double start_s, int ranks = 1,
                     bool calibrated = true) {
    const CostRates& r = rates();
    const int used_threads = n - 1 < run::kThreadsFromBits ? 1 : std::max(1, threads);
    const double used = used_threads * r.parallel_efficiency *
                        (n - 1 < run::kDistributeFromBits ? 1 : std::max(1, ranks));
    const double seconds = start_s + std::ldexp(per_step_ns * 1e-9, n - 1) / used;
    return calibrated ? on_this_machine(seconds, used_threads) : seconds;
}

/// Per-row cost of updating y and multiplying it out, by arithmetic.
double row_ns(const LeafFacts& f) {
    const CostRates& r = rates();
    switch (f.arithmetic) {
        case Arithmetic::exact:
            return r.row_exact_ns;
        case Arithmetic::double_precision:
            return r.row_double_ns;
        case Arithmetic::double_double:
            return r.row_double_double_ns;
        case Arithmetic::complex:
            return r.row_complex_ns;
    }
    return r.row_double_ns;
}

/// Exact lanes: the work per term after the lane products (none for a term with a zero).
double term_ns(const LeafFacts& f) {
    const CostRates& r = rates();
    if (f.arithmetic != Arithmetic::exact) {
        return 0;
    }
    switch (f.products) {
        case exact::ExactProducts::compact:
            return r.term_compact_ns;
        case exact::ExactProducts::lanes4:
            return r.term_prime_lane_ns * f.primes * 4;
        case exact::ExactProducts::lanes8:
            return r.term_prime_lane_ns * f.primes * 8;
        case exact::ExactProducts::modular:
            return 0;
    }
    return 0;
}

/// The double and complex walks' error figure: a sample of reset blocks replayed on one thread
/// after the walk (exact/ryser/walk_error.hpp), per term and row; a real walk of at most
/// 2^kCertifiedWalkLog2 steps runs certified instead and replays nothing.
double walk_replay_seconds(const LeafFacts& f) {
    const CostRates& r = rates();
    const bool real = f.arithmetic == Arithmetic::double_precision && !f.certified &&
                      f.order - 1 > exact::driver::kCertifiedWalkLog2;
    if (!real && f.arithmetic != Arithmetic::complex) {
        return 0;
    }
    const double per_row_ns = real ? r.walk_replay_row_ns : r.walk_replay_row_complex_ns;
    return exact::driver::walk_error_replayed_terms(f.order, exact::driver::kFloatWalkResetLog2) *
           f.order * per_row_ns * 1e-9;
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

ModelSpeedOnly::ModelSpeedOnly() {
    g_model_speed_only.fetch_add(1, std::memory_order_acq_rel);
}
ModelSpeedOnly::~ModelSpeedOnly() {
    g_model_speed_only.fetch_sub(1, std::memory_order_acq_rel);
}

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
    const CostRates& r = rates();
    if (f.order <= 0) {
        return 0;
    }
    const double width = padded_width(f.order);
    double per_step = 0;
    if (passes(f) > 1) {
        per_step = passes(f) * (r.step_base_ns + r.modular_row_ns * width);
    } else {
        per_step = r.step_base_ns + row_ns(f) * width + clamp01(f.term_fraction) * term_ns(f);
    }
    if (f.certified) {
        per_step *= r.certified_over_double;
    }
    return steps_seconds(f.order, per_step, f.threads, r.start_s + walk_replay_seconds(f), f.ranks);
}

double sparyser_seconds(const LeafFacts& f) {
    const CostRates& r = rates();
    if (f.order <= 0) {
        return 0;
    }
    const double width = padded_width(f.order);
    const double product = (passes(f) > 1 ? r.modular_row_ns : row_ns(f)) * width + term_ns(f);
    const double per_step = r.sparse_step_ns + r.sparse_entry_ns * f.entries_per_step +
                            clamp01(f.term_fraction) * product;
    return steps_seconds(f.order, passes(f) * per_step, f.threads, r.sparse_start_s, f.ranks);
}

namespace {

double skipper_model_seconds(const LeafFacts& f, bool calibrated) {
    const CostRates& r = rates();
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
        per_step = visits * r.skip_binary_visit_test_ns * tests +
                   terms * (r.skip_binary_dynamic_row_ns * f.dynamic_rows +
                            (r.skip_binary_sub_block_row_ns * width + lanes) / sub);
    } else {
        // A visit with a term steps on and forms the product; one without jumps (the zero
        // rows' next touches, the Gray difference applied, y's zeros tracked).
        const bool compact = f.arithmetic == Arithmetic::exact &&
                             f.products == exact::ExactProducts::compact && passes(f) == 1;
        const double product =
            compact ? r.row_double_ns * width
                    : (passes(f) > 1 ? r.modular_row_ns : row_ns(f)) * width + term_ns(f);
        const double jumps = std::max(0.0, visits - terms);
        const double row_entries =
            static_cast<double>(f.nnz) / std::max(1.0, static_cast<double>(f.order));
        per_step = passes(f) * (terms * (r.skip_visit_ns + r.skip_visit_row_ns * width + product) +
                                jumps * (r.skip_visit_ns + r.skip_jump_entry_ns * row_entries));
    }
    return steps_seconds(f.order, per_step, f.threads, r.sparse_start_s, f.ranks, calibrated);
}

}  // namespace

double skipper_seconds(const LeafFacts& f) {
    return skipper_model_seconds(f, true);
}

double gpu_fp64_rate(const DeviceInfo& d) {
    const CostRates& r = rates();
    const double per_sm = d.compute_major == 9                           ? r.gpu_fp64_per_sm_sm90
                          : d.compute_major == 8 && d.compute_minor == 0 ? r.gpu_fp64_per_sm_sm80
                                                                         : r.gpu_fp64_per_sm_other;
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
    const CostRates& r = rates();
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
            factor = r.gpu_exact_base + r.gpu_exact_per_prime * primes;
            break;
        case Arithmetic::double_precision:
            factor = r.gpu_double_factor;
            break;
        case Arithmetic::double_double:
            factor = r.gpu_double_double_factor;
            break;
        case Arithmetic::complex:
            factor = r.gpu_complex_factor;
            break;
    }
    if (f.certified) {
        factor *= r.gpu_certified_over_compensated;
    }
    return r.gpu_ryser_setup_s +
           factor * std::ldexp(2.0 * n, n - 1) / (r.gpu_ryser_efficiency * rate);
}

// Sparse GPU engines, in FP64-instruction equivalents per Gray step at the dense engine's rate
// (gpu_fp64_rate, gpu.ryser.efficiency of it reached). Walk: step_fixed, the flipped column's
// nonzeros at a cost per entry (a dependent load, the update, the zero count: more than one
// instruction) and a product of n entries (generated floating kernels: partial products, a share
// of the rows), times the dense engine's arithmetic factors; exact terms add their lanes' products
// and reductions per prime. Table kernels keep x in local memory (a slowdown). SkipPer's 0-1 path
// is the CPU SkipPer's model on reference_cpu_threads threads times the GPU/CPU ratio measured
// side by side. A generated kernel adds its NVRTC compilation unless the kernel cache holds it.

double gpu_sparse_seconds(const LeafFacts& f, bool skipper, bool generated) {
    const CostRates& r = rates();
    const double rate = f.gpus.shared_rate;
    const bool compiles =
        generated && !(skipper ? f.generated_cached_skipper : f.generated_cached_sparyser);
    const double compile_s = !compiles ? 0.0
                             : f.arithmetic == Arithmetic::double_double
                                 ? r.gpu_generate_compile_double_double_s
                                 : r.gpu_generate_compile_s;
    if (rate <= 0 || f.order < 2) {
        return std::numeric_limits<double>::infinity();
    }
    const double n = f.order;
    const bool exact = f.arithmetic == Arithmetic::exact;
    const int primes = std::max(1, f.primes);
    double per_step = 0;
    if (skipper && exact && f.binary_walk) {
        LeafFacts host = f;
        host.threads = static_cast<int>(r.gpu_skip_reference_cpu_threads);
        // (uncalibrated, as when the ratios were fitted)
        return r.gpu_sparse_setup_s + compile_s +
               skipper_model_seconds(host, false) *
                   (generated ? r.gpu_skip_generated_over_cpu : r.gpu_skip_tables_over_cpu) *
                   (r.gpu_fp64_per_sm_sm90 * r.gpu_skip_reference_multiprocessors / rate);
    } else {
        const double rows =
            generated && f.arithmetic != Arithmetic::exact ? r.gpu_partial_product_share * n : n;
        double product = rows;
        switch (f.arithmetic) {
            case Arithmetic::exact:
                product =
                    n + clamp01(f.term_fraction) * primes *
                            (generated ? r.gpu_generated_term_prime : r.gpu_tables_term_prime);
                break;
            case Arithmetic::double_precision:
                product = r.gpu_double_factor * rows;
                break;
            case Arithmetic::double_double:
                product = generated ? r.gpu_generated_double_double_row * n
                                    : r.gpu_tables_double_double_row * rows;
                break;
            case Arithmetic::complex:
                product = r.gpu_complex_factor * rows;
                break;
        }
        const double entry = !generated ? r.gpu_tables_entry
                             : exact    ? r.gpu_generated_exact_entry
                                        : r.gpu_generated_float_entry;
        per_step = r.gpu_walk_step_fixed + entry * f.entries_per_step + product;
        if (!generated) {
            per_step *= r.gpu_tables_slowdown;
        } else if (f.arithmetic == Arithmetic::double_precision) {
            per_step *= r.gpu_generated_compensated_unroll;
        }
    }
    return r.gpu_sparse_setup_s + compile_s +
           std::ldexp(per_step, f.order - 1) / (r.gpu_ryser_efficiency * rate);
}

// Planar engine: set-up linear in the vertices, then one sparse elimination per prime (exact) or
// one in floating point, costing about min(nested·n^1.5, band·n·w²) (separators; a narrow band);
// later primes replay the first one's pivots at replay_share of its cost.
// Frontier engine: per processed vertex a fixed cost, per state visit a fixed cost, a cost per
// 64-bit word of the values and one per doubling of the live states beyond 2^cache_from_log2 (the
// lists outgrow the caches). With the meet in the middle each pass's integers grow to half the
// final size: a quarter of the bound's words on average. The engine is memory-bound, so the
// dense-Ryser probe does not track it: frontier predictions are not scaled by it. Threads: from
// two on, the forward and the backward pass run side by side, which doubles the speed while the
// live lists fit the caches and gains little once they do not (the second pass adds
// max(0.1, 1 − second_pass_loss·(log2 peak − 14)) of a pass); within a pass the threads merge
// the lists in memory: (T/2)^thread_exponent.

/// Doublings of the frontier's live states beyond 2^r.frontier_cache_from_log2.
double frontier_cache_doublings(double peak_states) {
    const CostRates& r = rates();
    return std::max(0.0, std::log2(std::max(1.0, peak_states)) - r.frontier_cache_from_log2);
}

/// How many times faster than one thread the frontier engine runs on `threads`, with live lists
/// of up to `peak_states` states.
double frontier_speedup(int threads, double peak_states) {
    const CostRates& r = rates();
    if (threads < 2) {
        return 1;
    }
    const double second_pass = std::clamp(
        1 - r.frontier_second_pass_loss * frontier_cache_doublings(peak_states), 0.1, 1.0);
    return (1 + second_pass) * std::pow(threads / 2.0, r.frontier_thread_exponent);
}

double brute_force_seconds(vertex_t n) {
    const CostRates& r = rates();
    double nodes = 1;
    for (vertex_t k = 2; k <= n; ++k) {
        nodes *= k;
    }
    return 2.718281828 * nodes * r.brute_force_node_ns * 1e-9;
}

namespace {

/// Eliminations modulo `primes` primes (at least one): the first chooses the pivots, each later
/// one replays them at r.replay_share of the cost, on up to `threads` threads at once.
double replayed_eliminations_seconds(double first, double primes, int threads) {
    const CostRates& r = rates();
    const double later = std::max(0.0, primes - 1);
    return first * (1 + r.replay_share * later / std::max(1.0, std::min<double>(threads, later)));
}

}  // namespace

double planar_seconds(const LeafFacts& f) {
    const CostRates& r = rates();
    const double n = f.order;
    double elimination = r.planar_nested_s * std::pow(n, 1.5);
    if (f.frontier_width >= 0) {
        elimination = std::min(
            elimination, r.planar_band_s * n * (f.frontier_width + 1.0) * (f.frontier_width + 1.0));
    }
    const double primes = f.arithmetic == Arithmetic::exact ? f.primes : 1.0;
    return on_this_machine(r.planar_setup_per_vertex_s * 2 * n +
                               replayed_eliminations_seconds(elimination, primes, f.threads),
                           f.threads);
}

double planar_bytes(const LeafFacts& f) {
    const double vertices = 2.0 * f.order;
    return rates().planar_bytes_per_vertex_log * vertices * std::log2(std::max(2.0, vertices));
}

double pfaffian_bytes(const LeafFacts& f) {
    const double vertices = f.order;
    return rates().planar_bytes_per_vertex_log * vertices * std::log2(std::max(2.0, vertices));
}

double planning_bytes(double vertices, double entries) {
    return rates().planning_bytes_per_vertex * vertices +
           rates().planning_bytes_per_entry * entries;
}

// ---- Hafnians --------------------------------------------------------------------------------
// Nanoseconds per multiply-add of the recursion on one thread (a signed matrix walks |A| too:
// twice); on the GPU, multiply-adds per second per multiprocessor (a prime's, or double's with
// each coefficient's running error), plus a set-up that covers the kernels' loading.

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
    const double threads = f.order < 2 * exact::kThreadsFromPairs ? 1.0 : std::max(1, f.threads);
    return threads * elements * element;
}

double hafnian_seconds(const LeafFacts& f) {
    const CostRates& r = rates();
    double per_ns = r.hafnian_double_ns;
    switch (f.arithmetic) {
        case Arithmetic::exact:
            per_ns = r.hafnian_exact_lanes_ns *
                     std::ceil(f.primes / static_cast<double>(exact::hafnian::kPrimeLanes));
            break;
        case Arithmetic::double_precision:
            per_ns = r.hafnian_double_ns;
            break;
        case Arithmetic::double_double:
            per_ns = r.hafnian_double_double_ns;
            break;
        case Arithmetic::complex:
            per_ns = r.hafnian_complex_ns;
            break;
    }
    const double threads = (f.order < 2 * exact::kThreadsFromPairs ? 1.0 : std::max(1, f.threads)) *
                           (f.order < 2 * run::kDistributeFromBits ? 1 : std::max(1, f.ranks));
    return on_this_machine(
        r.hafnian_start_s + hafnian_multiply_adds(f.order) * per_ns * 1e-9 / threads,
        f.order < 2 * exact::kThreadsFromPairs ? 1 : f.threads);
}

double repeated_seconds(double points, double units, Arithmetic arithmetic, int primes,
                        int threads) {
    const CostRates& r = rates();
    const double per_ns = arithmetic == Arithmetic::exact     ? r.repeated_exact_ns * primes
                          : arithmetic == Arithmetic::complex ? r.repeated_complex_ns
                                                              : r.repeated_real_ns;
    return on_this_machine(points * units * per_ns * 1e-9 / std::max(1, threads),
                           std::max(1, threads));
}

double paired_seconds(double points, double nodes, int modes, int half, bool loops,
                      Arithmetic arithmetic, int primes, int threads) {
    const CostRates& r = rates();
    const double k = modes, n = half;
    const double units = nodes * k * k * k / 2 + points * (k * n + (loops ? n * n + k * n : 0));
    const double per_ns = arithmetic == Arithmetic::exact     ? r.paired_exact_ns * primes
                          : arithmetic == Arithmetic::complex ? 2 * r.paired_complex_ns
                                                              : 2 * r.paired_real_ns;
    return on_this_machine(units * per_ns * 1e-9 / std::max(1, threads), std::max(1, threads));
}

double gpu_hafnian_seconds(const LeafFacts& f) {
    const CostRates& r = rates();
    // From 20 pairs (2^20 leaves) the ranks share the subtree roots (run/session.cpp).
    const double multiprocessors = f.order < 2 * run::kDistributeFromBits
                                       ? f.gpus.own_multiprocessors
                                       : f.gpus.shared_multiprocessors;
    if (multiprocessors <= 0 || f.arithmetic == Arithmetic::double_double) {
        return std::numeric_limits<double>::infinity();
    }
    // The GPU's own primes (29 bits), not the CPU lanes' f.primes.
    const double rate =
        f.arithmetic == Arithmetic::exact ? r.gpu_hafnian_prime_per_sm * multiprocessors /
                                                exact::gpu_hafnian_primes(f.order, f.bound_log2)
        : f.arithmetic == Arithmetic::complex
            ? r.gpu_hafnian_double_per_sm * multiprocessors / r.gpu_hafnian_complex_slowdown
            : r.gpu_hafnian_double_per_sm * multiprocessors;
    return r.gpu_hafnian_setup_s + hafnian_multiply_adds(f.order) / rate;
}

// Pfaffian engine, on the 2-core machine (2 threads): a 100×100 triangular patch (10^4 vertices,
// 105 primes) 1.8 s — embedding and orientation 0.2 s, the first prime's elimination (which
// chooses the pivot pairs) 0.11 s, every later prime a replay of that schedule at about a fifth
// of it (22 ms a prime, eight primes at a time).

double pfaffian_seconds(const LeafFacts& f) {
    const CostRates& r = rates();
    const double n = f.order;
    // Exact: 62-bit primes for the hafnian bound (the engine's Hadamard bound often needs fewer).
    const double primes = f.arithmetic == Arithmetic::exact
                              ? std::max(0.0, f.bound_log2 + 1) / numeric::kLargePrimeLog2 + 2
                              : 1;
    return on_this_machine(r.pfaffian_setup_per_vertex_s * n +
                               replayed_eliminations_seconds(r.pfaffian_nested_s * std::pow(n, 1.5),
                                                             primes, f.threads),
                           f.threads);
}

// Pfaffians on a surface: one elimination of the minimum degree order costs about c·n^1.5 (n
// vertices), ten times the planar Pfaffian's constant at the same n (a torus's separators are
// cycles, twice a strip's). Exact: the orientations replay the first prime's schedule as the
// other primes do. Fitted on the square tori 16×16 … 64×64 on 2 threads of the development
// machine (exact: 4–35 primes, 0.009–5.2 s; double 0.0035–0.34 s; constants within 0.7–1.1 of
// each count), divided by the speed factor its probe read then (2.1: the model's constants are
// the reference machine's).
// What small tori spend besides the eliminations (the faces, orientations and matching, the
// threads' start, the CRT): counts of 1.5–9.5 ms on the tori 8×12 … 16×16, whose eliminations
// the fit above puts at 1–6 ms.

double surface_pfaffian_seconds(const LeafFacts& f, int orientations) {
    const CostRates& r = rates();
    const double n = f.order;
    const double n15 = std::pow(n, 1.5);
    if (f.arithmetic == Arithmetic::exact) {
        const double primes = std::max(0.0, f.bound_log2 + 1) / numeric::kLargePrimeLog2 + 2;
        return on_this_machine(
            r.surface_start_s + replayed_eliminations_seconds(r.surface_nested_exact_s * n15,
                                                              primes * orientations, f.threads),
            f.threads);
    }
    const double per = r.surface_nested_double_s * n15 *
                       (f.arithmetic == Arithmetic::complex ? r.surface_complex_factor : 1.0);
    return on_this_machine(r.surface_start_s + orientations * per, f.threads);
}

// The torus by Fourier transform: per prime and cell (a wave vector of each of the four
// Pfaffians, counted as a pair of halves), the matrix M(k) from its bonds and a determinant
// without division, c_bond·bonds + c₃·b³ for b sites a cell; the primes in parallel. Besides
// them, per vertex, the checks of the tiling, the orientation over GF(2), the matching and the
// four orientations' signs. Fitted on 13 triangular, brick-wall, square and kagome tori of
// 1200 … 40000 sites on one thread (cpu.surface.fourier_* in plan/rates/cpu.txt).
double torus_fourier_seconds(const LeafFacts& f, double cells, int sites, int bonds) {
    const CostRates& r = rates();
    const double primes = std::max(0.0, f.bound_log2 + 1) / numeric::kLargePrimeLog2 + 2;
    const double b3 = std::pow(static_cast<double>(sites), 3);
    const double per_prime =
        cells * (r.surface_fourier_bond_ns * bonds + r.surface_fourier_site3_ns * b3) * 1e-9;
    const double used = std::max(1.0, std::min<double>(primes, f.threads) * r.parallel_efficiency);
    return on_this_machine(r.surface_start_s + r.surface_fourier_setup_per_vertex_s * f.order +
                               primes * per_prime / used,
                           f.threads);
}

// The frontier DP's trace on a torus: one lane update (a modular add, or a Montgomery product
// and add for weights other than 1) per prime, per state and forward edge of each step, for
// 2^m / C representatives and R layers; the representatives on the threads in parallel
// (cpu.frontier.torus_lane_update in plan/rates/cpu.txt).
double torus_frontier_seconds(const LeafFacts& f, double lane_updates) {
    const CostRates& r = rates();
    const double primes =
        std::floor(std::max(0.0, f.bound_log2 + 1) / numeric::kLargePrimeLog2) + 2;
    const double used = std::max(1.0, f.threads * r.parallel_efficiency);
    return on_this_machine(primes * lane_updates * r.frontier_torus_lane_update_ns * 1e-9 / used,
                           f.threads);
}

double pairings_seconds(vertex_t n) {
    const CostRates& r = rates();
    double matchings = 1;
    for (vertex_t k = n - 1; k > 1; k -= 2) {
        matchings *= k;
    }
    return 2 * matchings * r.pairing_node_ns * 1e-9;
}

int frontier_width_that_matters(vertex_t n) {
    const CostRates& r = rates();
    // r.planar_band_s·n·(w+1)² < r.planar_nested_s·n^1.5 ⇔ (w+1)² <
    // (r.planar_nested_s/r.planar_band_s)·√n.
    const double band =
        std::sqrt(r.planar_nested_s / r.planar_band_s * std::sqrt(static_cast<double>(n)));
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
    const CostRates& r = rates();
    const int threads = std::max(1, f.threads);
    const double visit_ns = r.frontier_visit_ns + r.frontier_word_ns * frontier_words(f) +
                            r.frontier_cache_ns * frontier_cache_doublings(f.frontier_peak_states);
    return r.frontier_level *
           (2.0 * f.order * r.frontier_vertex_s + f.frontier_states * visit_ns * 1e-9) /
           frontier_speedup(threads, f.frontier_peak_states);
}

// The matchings of every size: a state visit's merge and bookkeeping, and a Montgomery product
// and add per lane (cpu.matchings.frontier_* in plan/rates/cpu.txt).
double matchings_frontier_seconds(double states, double peak_states, double lanes, int threads) {
    const CostRates& r = rates();
    return on_this_machine(
        states * (r.matchings_frontier_state_ns + lanes * r.matchings_frontier_lane_ns) * 1e-9 /
            frontier_speedup(std::max(1, threads), peak_states),
        threads);
}

double frontier_bytes(const LeafFacts& f) {
    // At the widest step the values are at most half the bound's words (meet in the middle).
    // Bytes per bounded state fitted to peak resident memory (exact): torus 12×14, width 24,
    // 681 MB for C(24,12) = 2.7·10^6; torus 14×14, width 27, 3.7 GB for C(27,13) = 2.0·10^7.
    const double words = f.arithmetic == Arithmetic::exact ? std::max(0.0, f.bound_log2) / 128 + 2
                                                           : frontier_words(f);
    return f.frontier_peak_states *
           (rates().frontier_bytes_per_state + rates().frontier_bytes_per_word * words);
}

}  // namespace pmcount::plan
