// What a count and an estimate return: the value and its error, the engines and arithmetic that
// made it, timings, and the structure front end's report with the plan.
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "pmcount/big_int.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

struct Timings {
    double preprocess_s = 0;  ///< validation and setup before the engine
    double count_s = 0;       ///< the engine itself
    /// GPU engines: seconds in kernels and transfers, after run-time compilation (or the cache)
    /// and set-up; 0 when everything ran on the CPU. count_s − device_s is the GPU's set-up.
    double device_s = 0;
    /// Sparse GPU engines: writing the kernel generated for the matrix (0 for table kernels) and
    /// compiling it with NVRTC, or reading it from the kernel cache, and loading it (both inside
    /// count_s, outside device_s); kernel_cache says which: "compiled", "disk" or "memory"
    /// (loaded earlier in this process); empty when no sparse GPU engine ran.
    double codegen_s = 0;
    double compile_s = 0;
    std::string kernel_cache;
    double total_s = 0;
};

struct CountStats {
    vertex_t n = 0;   ///< matrix order (after squaring checks)
    edge_t nnz = 0;   ///< stored entries / edges
    int threads = 0;  ///< CPU threads used (per MPI rank)
    int ranks = 1;    ///< MPI ranks that shared the engines' loops
    /// Chunks of the engines' loops loaded from a resumed checkpoint instead of computed.
    std::uint64_t resumed_chunks = 0;
    int primes = 0;  ///< moduli used by the exact path (including the spare)
    /// Iterations of the exponential loops executed: Gray-code steps (Ryser's engines), leaves of
    /// the recursion over vertex pairs (the hafnian engine).
    std::uint64_t gray_steps = 0;
    /// Multiply-adds of the engines that count them (the hafnian recursion; in modular
    /// arithmetic summed over the primes): the work behind a GPU run's roofline fraction. 0
    /// otherwise.
    double multiply_adds = 0;
};

/// One sub-problem that an engine counted (a leaf of the plan).
struct BlockReport {
    vertex_t order = 0;
    edge_t nnz = 0;
    std::string engine;
    std::string origin;  ///< how it arose, e.g. "block 2 of 3, reduced"
    double predicted_s = 0;
    double seconds = 0;
};

/// What the structure front end found and the plan it made.
struct StructureReport {
    bool dulmage_mendelsohn = false;  ///< the decomposition ran
    bool reductions = false;          ///< reductions were allowed
    /// Size of a maximum matching of the nonzero pattern (top level).
    vertex_t matching_size = 0;
    /// When no perfect matching exists: rows S (indices) with fewer neighbours N(S).
    std::vector<vertex_t> hall_rows;
    std::vector<vertex_t> hall_cols;
    /// The general-graph front end ran (a general graph, a hafnian, or CountOptions::general).
    bool general = false;
    /// General graphs without a perfect matching: a Tutte set A (vertex indices, ascending)
    /// whose removal leaves tutte_odd_components > |A| odd components. With CountOptions::general
    /// on a bipartite input, vertices are rows first, then columns (index rows + c).
    std::vector<vertex_t> tutte_set;
    vertex_t tutte_odd_components = 0;
    /// Irreducible fine blocks of the whole matrix, and their orders (topological order).
    std::vector<vertex_t> block_orders;
    /// Nonzeros that lie in no perfect matching (between fine blocks), dropped; over all levels.
    edge_t dropped_entries = 0;
    int eliminated = 0;  ///< Forbert–Marx: lines with one nonzero multiplied out
    int merged = 0;      ///< lines with two nonzeros merged
    int split = 0;       ///< lines with three or four nonzeros split in two
    std::vector<BlockReport> leaves;
    double predicted_s = 0;
    /// The predictions are scaled by this machine's speed, measured by a probe of 40–60 ms (once
    /// per process and thread count): false for plans predicted under 10 ms, which skip it.
    bool machine_speed_measured = false;
    /// The plan as an indented tree (what --explain prints).
    std::string plan_text;
};

struct CountResult {
    ValueKind kind = ValueKind::binary;
    /// True when `exact` holds the exact integer result.
    bool is_exact = false;
    BigInt exact;
    /// Nearest double of the result (real part for complex); ±inf when it overflows double: use
    /// log10_abs and sign then.
    double value = 0;
    std::complex<double> complex_value;
    /// Floating results: the value as mantissa · 2^exponent2 (the larger of |re|, |im| in
    /// [1/2, 1), or 0), in range where `value` over- or underflows.
    std::complex<double> mantissa;
    std::int64_t exponent2 = 0;
    /// log10 |result|; -inf when the result is 0.
    double log10_abs = 0;
    /// Sign of the (real) result: -1, 0 or +1.
    int sign = 0;
    /// Floating results: estimated bound on |computed − true| / |true| (0 for exact results;
    /// infinite when the true value may be 0). abs_error bounds |computed − true|.
    double rel_error = 0;
    double abs_error = 0;
    /// What abs_error is: "none" (exact results), "estimate" (the double and double-double
    /// engines' first-order figure, which cancellation can defeat) or "bound" (certified: value
    /// ± abs_error provably holds the exact permanent of the given matrix).
    std::string error_kind = "none";
    /// "double" when the default precision counted in double, found the result's digits lost to
    /// cancellation (rel_error above 10^-8) and counted again in the arithmetic named by
    /// `arithmetic` (certified, else double-double); the note says why. Empty otherwise.
    std::string escalated_from;
    std::string method;      ///< engine that ran, e.g. "ryser"
    std::string backend;     ///< where it ran: "cpu", "cuda" or "cpu+cuda"
    std::string device;      ///< GPU runs: the devices and how the work was split
    std::string arithmetic;  ///< e.g. "modular (3 primes of 62 bits) + CRT"
    /// Why the result is what it is when no engine had to run (e.g. unequal sides), and warnings.
    std::string note;
    Timings timings;
    CountStats stats;
    StructureReport structure;
    /// True when options.explain_only: the plan was made, nothing was counted.
    bool explained_only = false;

    /// The exact integer in decimal, or the floating value with 17 significant digits
    /// (complex: "re+imi"); huge floating values are printed from log10_abs.
    std::string value_string() const;
};

/// Why sampling stopped.
enum class StopReason { samples, time, rel_error, exact };
const char* to_string(StopReason reason) noexcept;

struct EstimateResult {
    std::string estimator;  ///< e.g. "scaling+"
    std::string layout;     ///< "dense" or "sparse"
    std::string backend;    ///< "cpu" or "cuda"
    std::string device;     ///< GPU runs: the GPUs
    /// log10 of the estimate (the mean of the samples); −inf for an estimate of 0.
    double log10_value = 0;
    /// The estimate as a double; +inf when it overflows (use log10_value then).
    double value = 0;
    /// Relative standard error of the mean, and the confidence interval in log10 (see
    /// lib/approx/log_mean.hpp for how it is built).
    double rel_std_error = 0;
    double log10_ci_low = 0;
    double log10_ci_high = 0;
    double confidence = 0.95;
    std::uint64_t samples = 0;     ///< samples drawn (particles × populations)
    std::uint64_t particles = 1;   ///< particles per population (1: independent samples)
    /// Why that many: choose_populations()' reason, and on the CPU under a time limit the speed
    /// pilot's halving ("…; halved to 512: 16 populations predicted in 41 s of the 120 s").
    std::string particles_reason;
    std::uint64_t populations = 0;  ///< particles > 1: populations, the estimates averaged
    /// Samples (particles) a resumed run found in its checkpoint, part of `samples`.
    std::uint64_t resumed_samples = 0;
    double zero_fraction = 0;      ///< samples (populations) that were 0
    double effective_samples = 0;  ///< (Σx)²/Σx²
    double max_share = 0;          ///< largest sample / sum; near 1: the interval is not reliable
    /// Standard deviation of the logs of the nonzero samples: CV² ≈ exp(log_sd²) − 1, so the
    /// samples needed for a relative error e grow like exp(log_sd²)/e².
    double log_sd = 0;
    StopReason stopped = StopReason::samples;
    vertex_t n = 0;
    edge_t nnz = 0;  ///< entries the sampler walks (after pruning, + variants)
    int threads = 0;
    int ranks = 1;  ///< MPI ranks that shared the samples
    std::uint64_t seed = 0;
    double seconds = 0;         ///< whole call
    double sample_seconds = 0;  ///< sampling only (after set-up); per sample: / samples
    std::string note;           ///< e.g. why the estimate is exactly 0, or a heavy-tail warning
};

/// The result as one compact JSON object (keys in alphabetical order, numbers in their shortest
/// round-trip form, a non-finite number as null): the value as a decimal string ("value") with
/// "exact", "log10", "sign" and the error figures, what ran ("method", "backend", "device",
/// "arithmetic"), the counts of CountStats, the structure report (its Hall violator and Tutte
/// set as 0-based vertex indices of the counted problem) and the timings. count_matchings --json
/// prints it with the input's name, shape and warnings added and the vertices named by the
/// file's ids; the Python package's Result.to_json() returns it.
std::string to_json(const CountResult& result);
/// The estimate, its interval in log10, how its samples were drawn and stopped, and the seconds
/// of the call ("estimate_s") and of its sampling ("sample_s"), as for a CountResult.
std::string to_json(const EstimateResult& result);

}  // namespace pmcount
