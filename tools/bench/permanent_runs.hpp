// The permanents suite's runs (permanent_runs.cpp): one matrix counted by each engine,
// arithmetic and thread count it is measured with, and by the references its answers are checked
// against; which runs a matrix gets; each run recorded.
#pragma once

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "permanent_cases.hpp"

namespace pmcount::bench::permanents {

/// One engine × arithmetic × thread count on one matrix, with its answer and check outcome.
struct Measurement {
    std::string engine;      // ryser, brute-force, planner, dm+ryser, thewalrus-bbfg, -ryser
    std::string arithmetic;  // double, dd, exact
    std::string arithmetic_detail;
    int threads = 1;              // as requested: identifies the measurement
    int threads_used = 1;         // as reported by the engine (brute force is serial; 0 when no
                                  // engine ran, e.g. a matrix with a zero row)
    std::string note;             // CountResult::note, e.g. why no engine had to run
    std::string front_end;        // reducible-binary, sparse cases: dm+reductions, dm or none
    bool reference_only = false;  // run to check the others, not part of the requested grid
    bool pmcount = true;          // false for thewalrus: no error bound, never a reference
    bool timed_out = false;       // thewalrus stopped at --thewalrus-timeout: samples hold it

    std::vector<double> samples;         // wall seconds of each repeat
    std::vector<double> engine_samples;  // CountResult::timings.count_s of each repeat
    std::string run_error;               // what an engine threw; empty when it ran
    double max_predicted_seconds = std::numeric_limits<double>::infinity();
    std::string refused;  // ProblemTooLarge under a finite max_predicted_seconds: expected
    std::optional<double> predicted_seconds;  // the planner's prediction (sparse cases)
    std::string skipped;     // sparse cases: not run, its prediction exceeds --dense-max-seconds
    std::string method_ran;  // CountResult::method: the engine(s) that counted
    std::string device = "cpu";          // "cpu", or the GPUs and how the work was split
    std::vector<double> device_samples;  // GPU runs: CountResult::timings.device_s per repeat
    // Sparse GPU engines, first repeat: writing the generated kernel, compiling it (or reading
    // the cache) and loading, and where it came from (Timings::kernel_cache).
    double codegen_seconds = 0;
    double compile_seconds = 0;
    std::string kernel_cache;
    double fp64_rate = 0;  // GPU runs: the measured FP64 roofline of the GPUs used

    double multiply_adds = 0;  // CountStats::multiply_adds (the hafnian recursion's work)
    double value = 0;          // nearest double of the answer (its real part)
    double value_im = 0;       // complex answers: the imaginary part
    std::string value_text;
    bool is_exact = false;
    pmcount::BigInt exact;
    double rel_error = 0;
    double abs_error = 0;
    pmcount::StructureReport structure;  // of the first repeat
    std::string result_json;             // pmcount::to_json of the first repeat

    int checks = 0;
    std::vector<std::string> references;
    std::vector<std::string> mismatches;
    std::optional<double> observed_error;
    std::string observed_reference;

    std::string family() const { return engine + "/" + arithmetic; }
    std::string label() const { return family() + "/threads=" + std::to_string(threads); }
    bool ran() const { return run_error.empty() && !samples.empty(); }
};

double seconds(const Measurement& m);

struct RunSpec {
    std::string engine;  // the reported name
    pmcount::Method method;
    pmcount::Precision precision;
    int threads;
    int repeats;
    bool reference_only;
    // The structure front end (CountOptions' switches); front_end names the combination.
    bool dulmage_mendelsohn = true;
    bool reductions = true;
    std::string front_end{};  // reported only for reducible-binary and the sparse cases
    double max_predicted_seconds = std::numeric_limits<double>::infinity();
    // Ask the planner for its prediction (explain_only) before the first run, and skip the run
    // when the prediction exceeds skip_above_predicted_s (sparse cases).
    bool predict = false;
    double skip_above_predicted_s = std::numeric_limits<double>::infinity();
    bool predict_only = false;  // sparse cases: not in --engines (predicted, never run)
    pmcount::Backend backend = pmcount::Backend::cpu;
    std::vector<int> gpus{};
    pmcount::GpuKernels gpu_kernels = pmcount::GpuKernels::automatic;
};

std::string precision_name(pmcount::Precision precision);

bool same_bits(double a, double b);

/// True when two runs of one engine gave the same answer to the last bit (value and estimate).
bool identical(const Measurement& a, const Measurement& b);

void record(Measurement& m, const pmcount::CountResult& r);

pmcount::CountOptions count_options(const RunSpec& spec);

pmcount::CountResult count(const TestMatrix& matrix, const pmcount::CountOptions& options);

/// The planner's predicted seconds for the spec (the same options, explain_only), recorded on m;
/// m.skipped is set when they exceed the spec's limit or are infinite (an order beyond the
/// engine).
void predict(const TestMatrix& matrix, const RunSpec& spec, Measurement& m);

/// Runs every spec on the matrix. Repeats are interleaved (repeat 1 of every spec, then repeat 2,
/// ...) so that load that comes and goes on a shared machine spreads over all of them.
std::vector<Measurement> run_pmcount(const TestMatrix& matrix, const std::vector<RunSpec>& specs);

/// The runs for one matrix: the requested grid (each arithmetic × thread count), then the
/// references that the grid is checked against, run once: a dd answer for moderate n when dd is
/// not in the grid, brute force for small n.
std::vector<RunSpec> plan_runs(const TestMatrix& matrix, const BenchOptions& options);

/// The runs for one reducible-binary matrix, all exact: the planner with its default front end at
/// each thread count (the grid); a Dulmage–Mendelsohn-only reference (plain Ryser on each block:
/// a second path through the decomposition, without the reductions); the whole matrix with no
/// front end under a predicted-time limit (refused, or for small n a third reference); and brute
/// force on the whole matrix for small n, the oracle independent of the planner's structure.
std::vector<RunSpec> plan_front_end_runs(const TestMatrix& matrix, const BenchOptions& options);

/// The runs for one sparse matrix: dense ryser, sparyser and skipper on the whole matrix (front
/// end off) for each arithmetic (exact on 0-1 matrices; double, and dd when --precision has it,
/// on real ones) × thread count, each first planned and skipped when predicted above
/// --dense-max-seconds; then the default planner once at the highest thread count (what a user
/// gets); brute force as an oracle for small n.
std::vector<RunSpec> plan_sparse_runs(const TestMatrix& matrix, const BenchOptions& options);

}  // namespace pmcount::bench::permanents
