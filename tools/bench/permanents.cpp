// pmcount-bench (the default suite, `pmcount-bench permanents`): times pmcount's dense permanent
// and hafnian engines on seeded random matrices, checks every answer against independent
// references, and, when thewalrus is importable, times thewalrus's
// perm on the same matrices in the same run so that speedups are ratios measured side by side.
//
// For every (case, n) one matrix is generated from the seed; each engine × arithmetic × thread
// count runs --repeat times (repeats interleaved across the combinations, so that a burst of load
// on a shared machine hits all of them alike) and the median wall time is reported.
//
// Output: one JSON object per line on stdout; human notes go to stderr.
//   {"context": {...}}   once: build, compiler, threads, CPU model, date, seed
//   measurement lines    case, engine, device, arithmetic, threads, n, nnz, seconds (median),
//                        samples, value, rel_error (the engine's estimate), error (observed
//                        relative deviation from the most accurate other answer, named by
//                        error_reference), check ("ok", "MISMATCH", "unchecked"), reference (what
//                        the checks compared against), then seed, matrix_seed and matrix_hash
//   ratio lines          {"case", "n", "ratio": "A vs B", "speedup": seconds(B) / seconds(A)}
//   {"note": "..."}      e.g. thewalrus not available
//   {"summary": {...}}   once at the end
//
// Checks (a failed one prints MISMATCH and makes the exit status 2):
//   - every repeat, and every thread count, of one engine and arithmetic gives bit-identical
//     answers (the engines fix the summation order independently of the thread count);
//   - answers of different engines / arithmetics agree within the sum of their error bounds
//     (double against double-double, double against the exact integer on 0-1 matrices, brute force
//     against Ryser); exact answers must be equal.
// thewalrus's answers carry no error bound; they are reported with their observed error only.
//
// --backend cuda: the dense cases' ryser runs go to the GPUs (engine "ryser-gpu", device = the
// GPUs and how the work was split). The run first measures each GPU's FP64 add/multiply rate
// ({"case": "fp64-roofline"} lines); GPU lines add device_seconds (kernels and transfers, after
// run-time compilation) and roofline_fraction = 2n·2^(n−1) / (rate · device_seconds). CPU ryser
// runs on the same matrix up to --cpu-reference-max-n are references, so GPU and CPU answers are
// compared in the same run; beyond it, GPU arithmetics are compared with each other (double
// against exact on 0-1 matrices).
//
// The case reducible-binary measures the structure front end instead of the dense engines: a 0-1
// matrix in hidden block-triangular form (see reducible_entries) is counted exactly by the
// planner with its default front end (Dulmage–Mendelsohn + Forbert–Marx reductions) at each
// thread count; a Dulmage–Mendelsohn-only run (plain Ryser per block) is the reference it must
// equal; and the same matrix without any front end is only planned (explain_only: its predicted
// seconds, and their ratio to the measured front-end time) and then offered with a 60 s limit
// on the predicted time, which the planner is expected to refuse (ProblemTooLarge, reported as
// "refused"). When the planner accepts it (small n) it is counted and checked like a reference.
// Extra fields on these lines: front_end, planted_blocks, structure (what the planner found:
// block orders, leaves, reductions, predicted_s), explain_only and predicted_seconds, refused.
// A front end that misses the planted blocks is a MISMATCH too.
//
// The cases sparse-binary and sparse-real measure the sparse engines against dense Ryser: random
// matrices whose entries are nonzero independently with probability --density (default 0.1 for
// these cases), redrawn until they have a perfect matching (so no permanent is 0; the number of
// redraws is reported). Each of ryser, sparyser and skipper (CountOptions::method) counts the
// whole matrix with the structure front end off (front_end "none"), exact on 0-1 matrices, double
// (and dd when --precision has it) on real ones, at every thread count and repeat. Before an
// engine is timed the planner predicts its time (explain_only); over --dense-max-seconds it is not
// run ("skipped", with predicted_seconds) — in practice that is dense Ryser at large n, and the
// ratios against it are then labelled "predicted". Every line carries predicted_seconds next to
// the measured seconds, to check the cost model. The default planner (front end on, automatic
// engine) runs once per matrix at the highest thread count as "planner", with the engine(s) it
// chose ("chosen_method"): what a user gets. Ratio lines: skipper and sparyser over ryser, skipper
// over sparyser (same threads and arithmetic), and the planner over each engine. With --backend
// cuda the sparse GPU engines run too, at the highest thread count: sparyser-gpu and
// skipper-gpu (table kernels), sparyser-gpu-generated and skipper-gpu-generated (a kernel
// generated for the matrix; its lines add codegen_seconds, compile_seconds and kernel_cache:
// "compiled", "disk" or "memory"); skipper's only on 0-1 matrices. Ratio lines: generated over
// tables, and the GPU engines over the CPU's skipper and sparyser at the same thread count.
// --engines names the engines to run; the others are only predicted ("skipped": "not in
// --engines"), and enter the ratios with their predictions as the skipped ones do.
//
// The hafnian cases (hafnian-binary: the adjacency matrix of a random graph, each edge present
// with probability --density; hafnian-real, hafnian-signed, hafnian-complex: symmetric matrices
// with entries uniform in [0, 1), [−1, 1), and real and imaginary parts uniform in [−1, 1); empty
// diagonals) time the hafnian engine (engine "hafnian", CountOptions::method = hafnian; on
// --backend cuda "hafnian-gpu") at each thread count, exact on 0-1 matrices with --exact, and
// the default planner once (engine "planner": what a user gets), with brute force over pairings
// (up to --brute-force-max-n, at most 16) and a dd run as references. thewalrus's hafnian (its
// default method, numba-parallel on every core it sees) runs on the same matrix through
// scripts/thewalrus_hafnian.py up to --thewalrus-max-n; ratio lines compare it with the hafnian
// engine at equal threads. GPU lines report roofline_fraction against the multiply-adds the
// engine reports (CountStats::multiply_adds).
//
// Exit codes: 0 every check passed, 1 usage error, 2 a check failed, 3 runtime error (an engine
// threw, or --thewalrus require and thewalrus could not run).

#include "permanents.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "common.hpp"
#include "pmcount/pmcount.hpp"

#ifndef PMCOUNT_SOURCE_DIR
#define PMCOUNT_SOURCE_DIR "."
#endif

namespace pmcount::bench {

namespace {

constexpr const char* examples_text = R"(Examples:
  pmcount-bench --quick                                   a few seconds: every case and check
  pmcount-bench --cases dense-real --n 20,24,28 --threads 1,2 --repeat 3
  pmcount-bench --cases dense-binary --n 20:28:4 --exact --out bench.jsonl
  pmcount-bench --cases dense-signed --n 24 --precision double,dd --thewalrus off
  pmcount-bench --cases reducible-binary --n 60 --threads 1,2 --repeat 3
  pmcount-bench --cases sparse-binary,sparse-real --n 24:36:4 --density 0.1 --threads 2
  pmcount-bench --backend cuda --cases sparse-real,sparse-binary --n 40,48 --threads 16
  pmcount-bench --backend cuda --cases sparse-real --n 48 --threads 16 \
                --engines sparyser-gpu,sparyser-gpu-generated
  pmcount-bench --backend cuda --cases dense-real,dense-binary --n 30,36,40 --density 0.8 \
                --precision plain-double,double --exact --thewalrus off
  pmcount-bench --cases hafnian-binary --n 40,48 --exact --precision double --threads 2

Cases: dense-real (uniform [0,1)), dense-binary (0-1, each entry 1 with probability --density),
dense-signed (uniform [-1,1)), reducible-binary (0-1 with hidden diagonal blocks of order
<= --max-block; always exact, times the structure front end against no front end),
sparse-binary and sparse-real (each entry nonzero with probability --density, default 0.1 for
these; 1, or uniform (0,1]; redrawn until a perfect matching exists; times dense ryser, sparyser
and skipper without front end, and the default planner; an engine predicted to take more than
--dense-max-seconds is skipped and its predicted time used in the ratios).
hafnian-binary (the adjacency matrix of a random graph, each edge with probability --density),
hafnian-real, hafnian-signed, hafnian-complex (symmetric, uniform [0,1), [-1,1), complex parts in
[-1,1)) time the hafnian engine and the planner, against pairings brute force, dd and thewalrus's
hafnian (default method).
--backend cuda runs the dense cases' ryser (and the hafnian cases' hafnian) on the GPUs (engine
ryser-gpu, hafnian-gpu), measures the GPUs' FP64 roofline first and reports device_seconds and
roofline_fraction per run, with CPU runs as references up to --cpu-reference-max-n (and a
GPU-vs-CPU ratio line).
--threads accepts N for all cores; --n accepts lists and ranges first:last[:step]. Exit codes:
0 all checks ok, 1 usage error, 2 a check failed (MISMATCH), 3 runtime error.)";

struct CaseSpec {
    const char* name;
    bool binary;
    bool reducible;            // hidden block-triangular form; front-end runs instead of the grid
    bool sparse;               // random sparse with a perfect matching; engine comparison runs
    const char* quick_orders;  // --quick's orders when --n is not given
    bool hafnian = false;      // a symmetric matrix with an empty diagonal: its hafnian
    bool complex = false;      // complex entries
};
constexpr CaseSpec known_cases[] = {
    {"dense-real", false, false, false, "6,10,14"},
    {"dense-binary", true, false, false, "6,10,14"},
    {"dense-signed", false, false, false, "6,10,14"},
    {"reducible-binary", true, true, false, "12"},
    {"sparse-binary", true, false, true, "16"},
    {"sparse-real", false, false, true, "16"},
    {"hafnian-binary", true, false, false, "8,12,16", true},
    {"hafnian-real", false, false, false, "8,12,16", true},
    {"hafnian-signed", false, false, false, "8,12,16", true},
    {"hafnian-complex", false, false, false, "8,12,16", true, true}};
constexpr const char* known_case_names =
    "dense-real, dense-binary, dense-signed, reducible-binary, sparse-binary, sparse-real, "
    "hafnian-binary, hafnian-real, hafnian-signed, hafnian-complex";

/// The predicted-time limit offered to the no-front-end plan of reducible-binary.
constexpr double no_front_end_limit_s = 60;

/// One matrix to benchmark.
struct Job {
    CaseSpec spec;
    int n;
};

enum class ThewalrusMode { automatic, off, require };

struct BenchOptions {
    std::vector<Job> jobs;  // cases × orders, case by case
    std::vector<int> threads;
    std::vector<pmcount::Precision> precisions;
    int repeat = 1;
    std::uint64_t seed = 1;
    double density = 0.5;            // dense-binary, reducible-binary
    double sparse_density = 0.1;     // sparse-binary, sparse-real (--density overrides both)
    double dense_max_seconds = 600;  // sparse cases: skip an engine predicted to take longer
    std::vector<std::string>
        engines;                     // sparse cases: engines to run (empty: all; others predicted)
    int max_block = 26;              // reducible-binary: largest diagonal block
    bool exact = false;
    int dd_reference_max_n = 24;
    int brute_force_max_n = 10;
    int pairings_max_n = 16;  // hafnian cases: brute force over pairings
    ThewalrusMode thewalrus = ThewalrusMode::automatic;
    int thewalrus_max_n = 30;
    double thewalrus_timeout = 0;  // seconds; 0: no limit
    std::string thewalrus_script;
    std::string thewalrus_hafnian_script;
    std::string python;
    std::string out_path;
    // --backend cuda: the dense cases' ryser runs go to the GPUs (engine "ryser-gpu", one run at
    // the highest thread count), with CPU ryser references up to cpu_reference_max_n.
    pmcount::Backend backend = pmcount::Backend::cpu;
    std::vector<int> gpus;  // empty: every visible GPU
    int cpu_reference_max_n = 30;
};

// ---- Argument parsing ---------------------------------------------------------------------------

std::vector<CaseSpec> parse_cases(const std::string& text) {
    std::vector<CaseSpec> cases;
    for (const std::string& item : split(text, ',')) {
        const auto known = std::find_if(std::begin(known_cases), std::end(known_cases),
                                        [&](const CaseSpec& c) { return item == c.name; });
        if (known == std::end(known_cases)) {
            throw CLI::ValidationError("--cases",
                                       "unknown case '" + item + "' (" + known_case_names + ")");
        }
        cases.push_back(*known);
    }
    if (cases.empty()) {
        throw CLI::ValidationError("--cases", "no case given");
    }
    return cases;
}

std::vector<pmcount::Precision> parse_precisions(const std::string& text) {
    std::vector<pmcount::Precision> precisions;
    for (const std::string& item : split(text, ',')) {
        pmcount::Precision precision = pmcount::Precision::automatic;
        try {
            precision = pmcount::precision_from_string(item);
        } catch (const pmcount::InvalidArgument& e) {
            throw CLI::ValidationError("--precision", e.what());
        }
        if (precision != pmcount::Precision::double_precision &&
            precision != pmcount::Precision::double_plain &&
            precision != pmcount::Precision::double_double &&
            precision != pmcount::Precision::certified) {
            throw CLI::ValidationError(
                "--precision",
                "'" + item + "': use double, plain-double, dd or certified (--exact adds exact)");
        }
        if (std::find(precisions.begin(), precisions.end(), precision) == precisions.end()) {
            precisions.push_back(precision);
        }
    }
    if (precisions.empty()) {
        throw CLI::ValidationError("--precision", "no precision given");
    }
    return precisions;
}

// ---- Output -------------------------------------------------------------------------------------

Json context_line(const BenchOptions& options, const std::string& command) {
    Json context = machine_context(command);
    context["suite"] = "permanents";
    context["seed"] = options.seed;
    context["repeat"] = options.repeat;
    return Json{{"context", context}};
}

// ---- Matrices -----------------------------------------------------------------------------------

struct TestMatrix {
    std::string case_name;
    bool binary = false;
    int n = 0;
    std::uint64_t base_seed = 0;  // --seed
    std::uint64_t seed = 0;       // of this matrix's generator, derived from (--seed, case, n)
    pmcount::DenseMatrix<double> real;                   // every real case; what thewalrus gets
    pmcount::DenseMatrix<std::int64_t> integer;          // binary cases: pmcount's integer input
    pmcount::DenseMatrix<std::complex<double>> complex;  // hafnian-complex
    bool hafnian = false;                                // its hafnian, not its permanent
    std::int64_t nnz = 0;
    std::string hash;                 // of n and the doubles' bit patterns
    std::vector<int> planted_blocks;  // reducible-binary: diagonal block orders; else empty
    bool sparse = false;              // sparse-binary, sparse-real
    double density = 0;               // sparse cases: probability of a nonzero
    std::int64_t redraws = 0;         // sparse cases: matrices rejected for lack of a matching

    bool reducible() const { return !planted_blocks.empty(); }
    /// The engine the grid times: dense Ryser for permanents, the recursion for hafnians.
    const char* main_engine() const { return hafnian ? "hafnian" : "ryser"; }
    pmcount::Method main_method() const {
        return hafnian ? pmcount::Method::hafnian : pmcount::Method::ryser;
    }
};

/// Row-major entries of the dense cases, one uniform draw per entry.
std::vector<double> dense_entries(const CaseSpec& spec, int n, double density, Draw& draw) {
    std::vector<double> entries(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (double& x : entries) {
        x = draw.uniform01();
        if (spec.binary) {
            x = x < density ? 1.0 : 0.0;
        } else if (std::strcmp(spec.name, "dense-signed") == 0) {
            x = 2.0 * x - 1.0;
        }
    }
    return entries;
}

/// Row-major entries of the hafnian cases: the upper triangle drawn row by row (one uniform draw
/// per entry, two for complex), mirrored; the diagonal is 0. Complex entries are returned as
/// (re, im) pairs.
std::vector<double> symmetric_entries(const CaseSpec& spec, int n, double density, Draw& draw) {
    const int width = spec.complex ? 2 : 1;
    std::vector<double> entries(
        static_cast<std::size_t>(n) * static_cast<std::size_t>(n) * static_cast<std::size_t>(width),
        0.0);
    auto at = [&](int i, int j, int part) {
        return (static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
                static_cast<std::size_t>(j)) *
                   static_cast<std::size_t>(width) +
               static_cast<std::size_t>(part);
    };
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            for (int part = 0; part < width; ++part) {
                double x = draw.uniform01();
                if (spec.binary) {
                    x = x < density ? 1.0 : 0.0;
                } else if (std::strcmp(spec.name, "hafnian-real") != 0) {
                    x = 2.0 * x - 1.0;
                }
                entries[at(i, j, part)] = entries[at(j, i, part)] = x;
            }
        }
    }
    return entries;
}

/// Diagonal block orders of reducible-binary: max_block while more than max_block remains, then
/// the remainder; a remainder of 1 or 2 takes lines, one at a time, from the rightmost earlier
/// block still above 3, since blocks of order 1-2 are trivial for every engine.
/// n = 60, max 26: 26 26 8; n = 53: 26 24 3; n = 12, max 5: 5 4 3.
std::vector<int> diagonal_block_orders(int n, int max_block) {
    std::vector<int> orders;
    for (int left = n; left > 0; left -= orders.back()) {
        orders.push_back(std::min(left, max_block));
    }
    while (orders.size() > 1 && orders.back() < 3) {
        const auto donor =
            std::find_if(orders.rbegin() + 1, orders.rend(), [](int order) { return order > 3; });
        if (donor == orders.rend()) {
            break;
        }
        --*donor;
        ++orders.back();
    }
    return orders;
}

/// Row-major entries of reducible-binary: block upper triangular with the diagonal blocks
/// `orders`, rows and columns then shuffled by independent random permutations, so that the front
/// end has to find the blocks. Diagonal block of order b: I + the cyclic shift (i → i+1 mod b),
/// which makes it fully indecomposable for b >= 2, plus 1s with probability `density`; above
/// the block diagonal 1s with probability `density`; below it 0s. Its fine Dulmage–Mendelsohn
/// blocks are exactly the diagonal blocks, and perm = the product of theirs.
/// Draws: one uniform per position on or above the block diagonal, row-major, then the row
/// permutation, then the column permutation.
std::vector<double> reducible_entries(int n, const std::vector<int>& orders, double density,
                                      Draw& draw) {
    std::vector<int> block_of;  // line → its diagonal block
    std::vector<int> block_start;
    for (std::size_t b = 0; b < orders.size(); ++b) {
        block_start.push_back(static_cast<int>(block_of.size()));
        block_of.insert(block_of.end(), static_cast<std::size_t>(orders[b]), static_cast<int>(b));
    }
    const auto at = [n](int i, int j) {
        return static_cast<std::size_t>(i) * static_cast<std::size_t>(n) +
               static_cast<std::size_t>(j);
    };
    std::vector<double> planted(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0);
    for (int i = 0; i < n; ++i) {
        const int bi = block_of[static_cast<std::size_t>(i)];
        for (int j = 0; j < n; ++j) {
            const int bj = block_of[static_cast<std::size_t>(j)];
            if (bj < bi) {
                continue;
            }
            bool one = draw.uniform01() < density;
            if (bi == bj) {
                const int b = orders[static_cast<std::size_t>(bi)];
                const int local_i = i - block_start[static_cast<std::size_t>(bi)];
                const int local_j = j - block_start[static_cast<std::size_t>(bi)];
                one = one || local_j == local_i || local_j == (local_i + 1) % b;
            }
            planted[at(i, j)] = one ? 1.0 : 0.0;
        }
    }
    const std::vector<int> row_perm = draw.permutation(n);
    const std::vector<int> col_perm = draw.permutation(n);
    std::vector<double> entries(planted.size());
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            entries[at(i, j)] = planted[at(row_perm[static_cast<std::size_t>(i)],
                                           col_perm[static_cast<std::size_t>(j)])];
        }
    }
    return entries;
}

TestMatrix make_matrix(const CaseSpec& spec, int n, const BenchOptions& options) {
    TestMatrix m;
    m.case_name = spec.name;
    m.binary = spec.binary;
    m.n = n;
    m.base_seed = options.seed;
    Fnv1a case_hash;
    case_hash.add(spec.name, std::strlen(spec.name));
    m.seed = mix64(options.seed ^ mix64(case_hash.value() ^ static_cast<std::uint64_t>(n)));

    Draw draw(m.seed);
    std::vector<double> entries;
    if (spec.reducible) {
        m.planted_blocks = diagonal_block_orders(n, options.max_block);
        entries = reducible_entries(n, m.planted_blocks, options.density, draw);
    } else if (spec.sparse) {
        m.sparse = true;
        m.density = options.sparse_density;
        entries = sparse_entries(spec.name, n, m.density, spec.binary, draw, m.redraws);
    } else if (spec.hafnian) {
        m.hafnian = true;
        entries = symmetric_entries(spec, n, options.density, draw);
    } else {
        entries = dense_entries(spec, n, options.density, draw);
    }
    const auto order = static_cast<pmcount::vertex_t>(n);
    if (spec.complex) {
        m.complex = pmcount::DenseMatrix<std::complex<double>>(order, order);
    } else {
        m.real = pmcount::DenseMatrix<double>(order, order);
    }
    if (m.binary) {
        m.integer = pmcount::DenseMatrix<std::int64_t>(order, order);
    }
    Fnv1a hash;
    hash.add(&n, sizeof n);
    auto x = entries.begin();
    for (pmcount::vertex_t i = 0; i < order; ++i) {
        for (pmcount::vertex_t j = 0; j < order; ++j) {
            if (spec.complex) {
                m.complex(i, j) = {x[0], x[1]};
                m.nnz += x[0] != 0.0 || x[1] != 0.0 ? 1 : 0;
                hash.add(&*x, 2 * sizeof *x);
                x += 2;
                continue;
            }
            m.real(i, j) = *x;
            if (m.binary) {
                m.integer(i, j) = static_cast<std::int64_t>(*x);
            }
            m.nnz += *x != 0.0 ? 1 : 0;
            hash.add(&*x, sizeof *x);
            ++x;
        }
    }
    char text[20];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.value()));
    m.hash = text;
    return m;
}

// ---- Measurements -------------------------------------------------------------------------------

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
    double fp64_rate = 0;                // GPU runs: the measured FP64 roofline of the GPUs used

    double multiply_adds = 0;  // CountStats::multiply_adds (the hafnian recursion's work)
    double value = 0;          // nearest double of the answer (its real part)
    double value_im = 0;       // complex answers: the imaginary part
    std::string value_text;
    bool is_exact = false;
    pmcount::BigInt exact;
    double rel_error = 0;
    double abs_error = 0;
    pmcount::StructureReport structure;  // of the first repeat

    int checks = 0;
    std::vector<std::string> references;
    std::vector<std::string> mismatches;
    std::optional<double> observed_error;
    std::string observed_reference;

    std::string family() const { return engine + "/" + arithmetic; }
    std::string label() const { return family() + "/threads=" + std::to_string(threads); }
    bool ran() const { return run_error.empty() && !samples.empty(); }
};

double seconds(const Measurement& m) {
    return median(m.samples);
}

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

std::string precision_name(pmcount::Precision precision) {
    return pmcount::to_string(precision);
}

bool same_bits(double a, double b) {
    std::uint64_t a_bits = 0;
    std::uint64_t b_bits = 0;
    std::memcpy(&a_bits, &a, sizeof a);
    std::memcpy(&b_bits, &b, sizeof b);
    return a_bits == b_bits;
}

/// True when two runs of one engine gave the same answer to the last bit (value and estimate).
bool identical(const Measurement& a, const Measurement& b) {
    if (a.is_exact || b.is_exact) {
        return a.is_exact && b.is_exact && a.exact == b.exact;
    }
    return same_bits(a.value, b.value) && same_bits(a.value_im, b.value_im) &&
           same_bits(a.abs_error, b.abs_error);
}

void record(Measurement& m, const pmcount::CountResult& r) {
    m.is_exact = r.is_exact;
    m.exact = r.exact;
    m.value = r.is_exact ? r.exact.to_double() : r.value;
    m.value_im = r.is_exact ? 0.0 : r.complex_value.imag();
    m.multiply_adds = r.stats.multiply_adds;
    m.value_text = r.value_string();
    m.rel_error = r.is_exact ? 0.0 : r.rel_error;
    m.abs_error = r.is_exact ? 0.0 : r.abs_error;
    m.arithmetic_detail = r.arithmetic;
    m.threads_used = r.stats.threads;
    m.note = r.note;
    m.method_ran = r.method;
    m.structure = r.structure;
    m.device = r.backend == "cpu" ? "cpu" : r.device;
}

pmcount::CountOptions count_options(const RunSpec& spec) {
    pmcount::CountOptions options;
    options.method = spec.method;
    options.precision = spec.precision;
    options.threads = spec.threads;
    options.dulmage_mendelsohn = spec.dulmage_mendelsohn;
    options.reductions = spec.reductions;
    options.max_predicted_seconds = spec.max_predicted_seconds;
    options.backend = spec.backend;
    options.gpus = spec.gpus;
    options.gpu_kernels = spec.gpu_kernels;
    return options;
}

pmcount::CountResult count(const TestMatrix& matrix, const pmcount::CountOptions& options) {
    if (matrix.hafnian) {
        return matrix.binary               ? pmcount::hafnian(matrix.integer, options)
               : matrix.complex.rows() > 0 ? pmcount::hafnian(matrix.complex, options)
                                           : pmcount::hafnian(matrix.real, options);
    }
    return matrix.binary ? pmcount::permanent(matrix.integer, options)
                         : pmcount::permanent(matrix.real, options);
}

/// The planner's predicted seconds for the spec (the same options, explain_only), recorded on m;
/// m.skipped is set when they exceed the spec's limit or are infinite (an order beyond the
/// engine).
void predict(const TestMatrix& matrix, const RunSpec& spec, Measurement& m) {
    pmcount::CountOptions options = count_options(spec);
    options.explain_only = true;
    try {
        const double predicted = count(matrix, options).structure.predicted_s;
        m.predicted_seconds = predicted;
        if (spec.predict_only) {
            m.skipped = "not in --engines";
        } else if (!(predicted <= spec.skip_above_predicted_s)) {
            m.skipped = "predicted " + format_short(predicted) + " s > --dense-max-seconds " +
                        format_short(spec.skip_above_predicted_s);
        }
    } catch (const pmcount::Error& e) {
        m.run_error = std::string("planning: ") + e.what();
    }
}

/// Runs every spec on the matrix. Repeats are interleaved (repeat 1 of every spec, then repeat 2,
/// ...) so that load that comes and goes on a shared machine spreads over all of them.
std::vector<Measurement> run_pmcount(const TestMatrix& matrix, const std::vector<RunSpec>& specs) {
    std::vector<Measurement> measurements(specs.size());
    int rounds = 0;
    for (std::size_t k = 0; k < specs.size(); ++k) {
        measurements[k].engine = specs[k].engine;
        measurements[k].arithmetic = precision_name(specs[k].precision);
        measurements[k].threads = specs[k].threads;
        measurements[k].reference_only = specs[k].reference_only;
        measurements[k].front_end = specs[k].front_end;
        measurements[k].max_predicted_seconds = specs[k].max_predicted_seconds;
        rounds = std::max(rounds, specs[k].repeats);
    }
    for (int round = 0; round < rounds; ++round) {
        for (std::size_t k = 0; k < specs.size(); ++k) {
            Measurement& m = measurements[k];
            if (round >= specs[k].repeats || !m.run_error.empty() || !m.refused.empty() ||
                !m.skipped.empty()) {
                continue;
            }
            if (round == 0 && specs[k].predict) {
                predict(matrix, specs[k], m);
                if (!m.skipped.empty() || !m.run_error.empty()) {
                    std::cerr << "  " << matrix.case_name << " n=" << matrix.n << " " << m.label()
                              << ": " << (m.skipped.empty() ? "error: " + m.run_error : m.skipped)
                              << "\n";
                    continue;
                }
            }
            const pmcount::CountOptions options = count_options(specs[k]);
            try {
                const auto start = std::chrono::steady_clock::now();
                const pmcount::CountResult r = count(matrix, options);
                const double wall =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                Measurement run;
                record(run, r);
                if (m.samples.empty()) {
                    record(m, r);
                    m.codegen_seconds = r.timings.codegen_s;
                    m.compile_seconds = r.timings.compile_s;
                    m.kernel_cache = r.timings.kernel_cache;
                } else if (!identical(m, run)) {
                    m.mismatches.push_back("repeat " + std::to_string(round + 1) + " gave " +
                                           run.value_text + ", repeat 1 gave " + m.value_text);
                }
                m.samples.push_back(wall);
                m.engine_samples.push_back(r.timings.count_s);
                m.device_samples.push_back(r.timings.device_s);
            } catch (const pmcount::ProblemTooLarge& e) {
                // Under a finite limit the refusal is the outcome being measured.
                if (std::isfinite(m.max_predicted_seconds)) {
                    m.refused = e.what();
                } else {
                    m.run_error = e.what();
                }
            } catch (const pmcount::Error& e) {
                m.run_error = e.what();
            }
            std::cerr << "  " << matrix.case_name << " n=" << matrix.n << " " << m.label()
                      << (m.front_end.empty() ? "" : " front end " + m.front_end) << " repeat "
                      << round + 1 << ": "
                      << (!m.run_error.empty() ? "error: " + m.run_error
                          : !m.refused.empty() ? "refused: " + m.refused
                                               : format_short(m.samples.back()) + " s")
                      << (m.predicted_seconds && m.run_error.empty()
                              ? " (predicted " + format_short(*m.predicted_seconds) + " s)"
                              : std::string())
                      << "\n";
        }
    }
    for (Measurement& m : measurements) {
        if (m.samples.size() > 1) {
            ++m.checks;
            m.references.push_back("its own repeats (bit-identical)");
        }
    }
    return measurements;
}

// ---- thewalrus ----------------------------------------------------------------------------------

class Thewalrus {
public:
    explicit Thewalrus(const BenchOptions& options) : options_(options) {}

    /// Checks once that the script runs and thewalrus imports; fills why_not() otherwise.
    bool probe() {
        if (!std::filesystem::exists(options_.thewalrus_script)) {
            why_not_ =
                "script " + options_.thewalrus_script + " not found (see --thewalrus-script)";
            return false;
        }
        const ProcessOutput output =
            run_command(shell_quote(options_.python) + " " +
                        shell_quote(options_.thewalrus_script) + " --probe");
        const std::optional<Json> versions = parse_script_output(output, why_not_);
        if (!versions) {
            return false;
        }
        version_ = versions->value("version", "unknown");
        numba_ = versions->value("numba", Json()).is_string()
                     ? (*versions)["numba"].get<std::string>()
                     : std::string("absent");
        numba_threads_ = versions->value("numba_threads", 1);
        return true;
    }
    const std::string& why_not() const { return why_not_; }
    const std::string& version() const { return version_; }

    /// Times perm(A, "bbfg") and perm(A, "ryser") — or, for a hafnian case, hafnian(A) with its
    /// default method; the measurements, or why it failed.
    std::vector<Measurement> time(const TestMatrix& matrix, int repeat, std::string& failure) {
        const std::filesystem::path path =
            std::filesystem::temp_directory_path() /
            ("pmcount-bench-" + std::to_string(getpid()) + "-" + matrix.case_name + "-" +
             std::to_string(matrix.n) + ".txt");
        {
            // %.17g round-trips every double, so thewalrus sees exactly our matrix; a complex
            // entry is written as its real and imaginary parts.
            std::ofstream file(path);
            for (pmcount::vertex_t i = 0; i < matrix.n; ++i) {
                for (pmcount::vertex_t j = 0; j < matrix.n; ++j) {
                    file << (j == 0 ? "" : " ");
                    if (matrix.complex.rows() > 0) {
                        file << format_double(matrix.complex(i, j).real()) << " "
                             << format_double(matrix.complex(i, j).imag());
                    } else {
                        file << format_double(matrix.real(i, j));
                    }
                }
                file << "\n";
            }
        }
        const std::string& script =
            matrix.hafnian ? options_.thewalrus_hafnian_script : options_.thewalrus_script;
        std::cerr << "  " << matrix.case_name << " n=" << matrix.n << " thewalrus (" << repeat
                  << (matrix.hafnian ? " repeat(s) of hafnian)...\n"
                                     : " repeat(s) of bbfg and ryser)...\n");
        // coreutils timeout exits with 124 when it had to stop the script.
        const bool limited = options_.thewalrus_timeout > 0;
        const std::string limit =
            limited ? "timeout " + format_double(options_.thewalrus_timeout) + " " : "";
        const ProcessOutput output =
            run_command(limit + shell_quote(options_.python) + " " + shell_quote(script) + " " +
                        shell_quote(path.string()) + " " + std::to_string(repeat));
        std::error_code ignored;
        std::filesystem::remove(path, ignored);
        if (limited && output.status == 124) {
            return {stopped_at_timeout(matrix)};
        }
        const std::optional<Json> result = parse_script_output(output, failure);
        if (!result) {
            return {};
        }
        std::vector<Measurement> measurements;
        try {
            const std::vector<const char*> methods =
                matrix.hafnian ? std::vector<const char*>{"hafnian"}
                               : std::vector<const char*>{"bbfg", "ryser"};
            for (const char* method : methods) {
                const Json& timing = result->at(method);
                Measurement m;
                m.engine = std::string("thewalrus-") + method;
                m.arithmetic = "double";
                m.arithmetic_detail =
                    (matrix.complex.rows() > 0 || matrix.hafnian ? "numpy complex128 (thewalrus "
                                                                 : "numpy float64 (thewalrus ") +
                    version_ + ", numba " + numba_ + ")";
                // perm_bbfg / perm_ryser are serial numba functions; the hafnian's default
                // method is numba-parallel over the threads numba was given.
                m.threads = matrix.hafnian ? result->value("numba_threads", 1) : 1;
                m.threads_used = m.threads;
                m.pmcount = false;
                m.samples = timing.at("samples").get<std::vector<double>>();
                m.value = timing.at("value").get<double>();
                m.value_text = format_double(m.value);
                if (matrix.complex.rows() > 0) {
                    m.value_im = timing.value("value_im", 0.0);
                    m.value_text += (std::signbit(m.value_im) ? "-" : "+") +
                                    format_double(std::fabs(m.value_im)) + "i";
                }
                m.rel_error = std::numeric_limits<double>::infinity();
                m.abs_error = std::numeric_limits<double>::infinity();
                measurements.push_back(std::move(m));
            }
        } catch (const Json::exception& e) {
            failure = std::string("unexpected output from the script: ") + e.what();
            return {};
        }
        return measurements;
    }

private:
    /// thewalrus's line when it was stopped: no value, --thewalrus-timeout as its seconds, so
    /// that a ratio against it is a lower bound.
    Measurement stopped_at_timeout(const TestMatrix& matrix) const {
        Measurement m;
        m.engine = matrix.hafnian ? "thewalrus-hafnian" : "thewalrus-ryser";
        m.arithmetic = "double";
        m.arithmetic_detail = "thewalrus " + version_ + ", numba " + numba_ +
                              ": stopped after --thewalrus-timeout " +
                              format_double(options_.thewalrus_timeout) + " s";
        m.pmcount = false;
        m.timed_out = true;
        m.threads = m.threads_used = matrix.hafnian ? numba_threads_ : 1;
        m.samples = {options_.thewalrus_timeout};
        m.value = std::numeric_limits<double>::quiet_NaN();
        m.rel_error = m.abs_error = std::numeric_limits<double>::infinity();
        return m;
    }

    const BenchOptions& options_;
    std::string why_not_;
    std::string version_;
    std::string numba_;
    int numba_threads_ = 1;
};

// ---- Checks -------------------------------------------------------------------------------------

/// |a - b| relative to |b| (absolute when b is 0).
double relative_difference(std::complex<double> a, std::complex<double> b) {
    const double difference = std::abs(a - b);
    return b == 0.0 ? difference : difference / std::abs(b);
}

std::complex<double> value_of(const Measurement& m) {
    return {m.value, m.value_im};
}

/// Compares two answers of different engines or arithmetics, recording the outcome on both.
/// Exact answers must be equal. Otherwise the true value lies within abs_error of each computed
/// value, and each reported double is that value rounded once more (half an ulp, 2^-53
/// relative), so two correct answers differ by at most the sum of these four amounts.
void check_agreement(Measurement& a, Measurement& b) {
    bool agree = false;
    std::string detail;
    if (a.is_exact && b.is_exact) {
        agree = a.exact == b.exact;
        detail = a.value_text + " != " + b.value_text;
    } else {
        // Complex answers: each part carries a rounding, so the distance bound doubles it.
        const double tolerance =
            a.abs_error + b.abs_error + 0x1p-52 * (std::abs(value_of(a)) + std::abs(value_of(b)));
        const double difference = std::abs(value_of(a) - value_of(b));
        agree = !(difference > tolerance);  // an unbounded (NaN / inf) estimate cannot fail
        detail = a.value_text + " vs " + b.value_text + ": relative difference " +
                 format_short(relative_difference(value_of(a), value_of(b))) +
                 " exceeds the bound " +
                 format_short(b.value == 0 && b.value_im == 0 ? tolerance
                                                              : tolerance / std::abs(value_of(b)));
    }
    for (auto [self, other] : {std::pair{&a, &b}, std::pair{&b, &a}}) {
        ++self->checks;
        self->references.push_back(other->label());
        if (!agree) {
            self->mismatches.push_back("differs from " + other->label() + ": " + detail);
        }
    }
}

void check_identical(Measurement& m, const Measurement& anchor) {
    ++m.checks;
    m.references.push_back(anchor.label() + " (bit-identical)");
    if (!identical(m, anchor)) {
        m.mismatches.push_back("not bit-identical to " + anchor.label() + ": value " +
                               format_double(m.value) + " vs " + format_double(anchor.value) +
                               ", abs_error " + format_double(m.abs_error) + " vs " +
                               format_double(anchor.abs_error));
    }
}

/// The most accurate pmcount answer outside m's own engine/arithmetic whose error bound is no
/// larger than m's: exact first, then the smallest abs_error.
const Measurement* best_reference(const Measurement& m, const std::vector<Measurement>& all) {
    const Measurement* best = nullptr;
    auto better = [](const Measurement& x, const Measurement& y) {
        if (x.is_exact != y.is_exact) {
            return x.is_exact;
        }
        return x.abs_error < y.abs_error;
    };
    for (const Measurement& candidate : all) {
        if (!candidate.pmcount || !candidate.ran() || candidate.family() == m.family()) {
            continue;
        }
        if (m.pmcount && better(m, candidate)) {
            continue;
        }
        if (best == nullptr || better(candidate, *best)) {
            best = &candidate;
        }
    }
    return best;
}

/// Runs every check among the answers of one matrix.
void check_all(std::vector<Measurement>& all) {
    // The first measurement of each engine/arithmetic is its anchor: the others of the family
    // (other thread counts) must match it bit for bit, and anchors are compared pairwise.
    std::vector<std::size_t> anchors;
    for (std::size_t k = 0; k < all.size(); ++k) {
        if (!all[k].pmcount || !all[k].ran()) {
            continue;
        }
        const auto anchor = std::find_if(anchors.begin(), anchors.end(), [&](std::size_t a) {
            return all[a].family() == all[k].family();
        });
        if (anchor == anchors.end()) {
            anchors.push_back(k);
        } else {
            check_identical(all[k], all[*anchor]);
        }
    }
    for (std::size_t i = 0; i < anchors.size(); ++i) {
        for (std::size_t j = i + 1; j < anchors.size(); ++j) {
            check_agreement(all[anchors[i]], all[anchors[j]]);
        }
    }
    for (Measurement& m : all) {
        if (const Measurement* reference = best_reference(m, all);
            reference != nullptr && m.ran() && !m.timed_out) {
            m.observed_error = relative_difference(value_of(m), value_of(*reference));
            m.observed_reference = reference->label();
        }
    }
}

std::string join(const std::vector<int>& values) {
    std::string text;
    for (const int v : values) {
        text += (text.empty() ? "" : " ") + std::to_string(v);
    }
    return text;
}

/// reducible-binary: each run whose Dulmage–Mendelsohn decomposition ran must have found the
/// planted diagonal blocks (fully indecomposable, so they are the fine blocks; any order).
void check_planted_blocks(std::vector<Measurement>& all, const TestMatrix& matrix) {
    std::vector<int> planted = matrix.planted_blocks;
    std::sort(planted.begin(), planted.end());
    for (Measurement& m : all) {
        if (!m.pmcount || !m.ran() || !m.structure.dulmage_mendelsohn) {
            continue;
        }
        std::vector<int> found(m.structure.block_orders.begin(), m.structure.block_orders.end());
        std::sort(found.begin(), found.end());
        ++m.checks;
        m.references.push_back("planted blocks (" + join(matrix.planted_blocks) + ")");
        if (found != planted) {
            m.mismatches.push_back("the front end found blocks of orders " + join(found) +
                                   ", the planted blocks have orders " + join(planted));
        }
    }
}

/// Sparse cases: a run that forced an engine on the whole matrix (no front end) must have been
/// counted by that engine, or its time is not the engine's.
void check_engines_ran(std::vector<Measurement>& all) {
    for (Measurement& m : all) {
        if (!m.pmcount || !m.ran() || m.front_end != "none" || m.engine == "brute-force") {
            continue;
        }
        ++m.checks;
        m.references.push_back("engine that ran");
        if (m.method_ran != m.engine) {
            m.mismatches.push_back("asked for " + m.engine + ", the planner ran " + m.method_ran);
        }
    }
}

// ---- Report -------------------------------------------------------------------------------------

/// What the planner found and planned (the fields that --explain prints, less the tree).
Json structure_json(const pmcount::StructureReport& s) {
    Json j;
    j["block_orders"] = s.block_orders;
    j["leaves"] = s.leaves.size();
    pmcount::vertex_t largest = 0;
    for (const pmcount::BlockReport& leaf : s.leaves) {
        largest = std::max(largest, leaf.order);
    }
    j["largest_leaf"] = largest;
    j["eliminated"] = s.eliminated;
    j["merged"] = s.merged;
    j["split"] = s.split;
    j["dropped_entries"] = s.dropped_entries;
    j["predicted_s"] = finite_or_null(s.predicted_s);
    return j;
}

Json measurement_line(const TestMatrix& matrix, const Measurement& m) {
    Json j;
    j["case"] = matrix.case_name;
    j["engine"] = m.engine;
    j["device"] = m.device;
    j["arithmetic"] = m.arithmetic;
    j["threads"] = m.threads;
    j["n"] = matrix.n;
    j["nnz"] = matrix.nnz;
    if (!m.front_end.empty()) {
        j["front_end"] = m.front_end;
    }
    if (matrix.sparse) {
        j["density"] = matrix.density;
        j["redraws"] = matrix.redraws;
    }
    if (!m.skipped.empty()) {
        j["predicted_seconds"] = finite_or_null(m.predicted_seconds.value_or(0));
        j["skipped"] = m.skipped;
        j["check"] = "skipped";
        j["seed"] = matrix.base_seed;
        j["matrix_seed"] = matrix.seed;
        j["matrix_hash"] = matrix.hash;
        return j;
    }
    if (m.ran() && m.threads_used != m.threads) {
        j["threads_used"] = m.threads_used;
    }
    if (!m.note.empty()) {
        j["note"] = m.note;
    }
    if (!m.refused.empty()) {
        j["max_predicted_seconds"] = m.max_predicted_seconds;
        j["refused"] = m.refused;
        j["check"] = "refused";
        j["seed"] = matrix.base_seed;
        j["matrix_seed"] = matrix.seed;
        j["matrix_hash"] = matrix.hash;
        return j;
    }
    if (!m.ran()) {
        j["error_message"] = m.run_error;
        j["check"] = "ERROR";
        return j;
    }
    j["seconds"] = seconds(m);
    if (m.predicted_seconds) {
        j["predicted_seconds"] = finite_or_null(*m.predicted_seconds);
    }
    j["samples"] = m.samples;
    if (!m.kernel_cache.empty()) {
        j["codegen_seconds"] = m.codegen_seconds;
        j["compile_seconds"] = m.compile_seconds;
        j["kernel_cache"] = m.kernel_cache;
    }
    if (!m.engine_samples.empty()) {
        j["engine_seconds"] = median(m.engine_samples);
    }
    if (m.device != "cpu" && !m.device_samples.empty()) {
        // Kernels and transfers only (run-time compilation and set-up excluded), against the
        // FP64 roofline measured in this run: 2n FP64 instructions per Gray step (SUPERMAN's
        // count), 2^(n−1) steps.
        const double device_seconds = median(m.device_samples);
        j["device_seconds"] = device_seconds;
        if (m.fp64_rate > 0 && device_seconds > 0) {
            j["fp64_rate"] = m.fp64_rate;
            // Hafnians: the multiply-adds the engine reports (all primes' in exact arithmetic,
            // whose 32-bit integer multiply-adds are counted at the FP64 rate; four FP64
            // multiply-adds per complex one).
            const double per_multiply_add = matrix.complex.rows() > 0 ? 4.0 : 1.0;
            const double work = matrix.hafnian ? per_multiply_add * m.multiply_adds
                                               : std::ldexp(2.0 * matrix.n, matrix.n - 1);
            if (matrix.hafnian) {
                j["multiply_adds"] = m.multiply_adds;
            }
            j["roofline_fraction"] = work / (m.fp64_rate * device_seconds);
        }
    }
    if (m.timed_out) {
        j["timed_out"] = true;
        j["note"] = m.arithmetic_detail;
        j["value"] = nullptr;
        return j;
    }
    j["value"] = m.value_text;
    j["rel_error"] = m.pmcount ? finite_or_null(m.rel_error) : Json(nullptr);
    j["error"] = m.observed_error ? finite_or_null(*m.observed_error) : Json(nullptr);
    j["error_reference"] = m.observed_reference;
    j["check"] = !m.mismatches.empty() ? "MISMATCH" : (m.checks > 0 ? "ok" : "unchecked");
    std::string references;
    for (const std::string& r : m.references) {
        references += (references.empty() ? "" : "; ") + r;
    }
    j["reference"] = references;
    if (!m.mismatches.empty()) {
        j["mismatches"] = m.mismatches;
    }
    if (m.reference_only) {
        j["role"] = "reference";
    }
    if (matrix.reducible() && m.pmcount) {
        j["planted_blocks"] = matrix.planted_blocks;
        j["structure"] = structure_json(m.structure);
    }
    if (matrix.sparse && m.engine == "planner") {
        j["chosen_method"] = m.method_ran;
        j["structure"] = structure_json(m.structure);
    }
    j["arithmetic_detail"] = m.arithmetic_detail;
    j["seed"] = matrix.base_seed;
    j["matrix_seed"] = matrix.seed;
    j["matrix_hash"] = matrix.hash;
    return j;
}

/// How much faster `measured` ran than `baseline`: seconds(baseline) / seconds(measured).
Json ratio_line(const TestMatrix& matrix, const Measurement& measured,
                const Measurement& baseline) {
    auto name = [](const Measurement& m) {
        return m.family() + "(threads=" + std::to_string(m.threads) + ")";
    };
    Json j;
    j["case"] = matrix.case_name;
    j["n"] = matrix.n;
    j["ratio"] = name(measured) + " vs " + name(baseline);
    j["speedup"] = seconds(baseline) / seconds(measured);
    if (baseline.timed_out) {
        j["speedup_is_lower_bound"] = true;  // the baseline was stopped, unfinished
    }
    return j;
}

/// Speedups measured in this run: thread scaling per arithmetic, the cost of dd and exact over
/// double at equal threads, and pmcount against thewalrus (with the relative difference of the
/// values, since thewalrus reports no error bound).
std::vector<Json> ratio_lines(const TestMatrix& matrix, const std::vector<Measurement>& all,
                              const std::string& baseline_arithmetic) {
    std::vector<Json> lines;
    auto grid = [](const Measurement& m) { return m.pmcount && !m.reference_only && m.ran(); };
    for (const Measurement& m : all) {
        if (!grid(m)) {
            continue;
        }
        // Thread scaling against the family's first thread count (the first of --threads).
        const auto first = std::find_if(all.begin(), all.end(), [&](const Measurement& x) {
            return grid(x) && x.family() == m.family();
        });
        if (&*first != &m) {
            lines.push_back(ratio_line(matrix, m, *first));
        }
        // The price of a more accurate arithmetic at equal threads.
        if (m.arithmetic != baseline_arithmetic) {
            for (const Measurement& base : all) {
                if (grid(base) && base.engine == m.engine && base.threads == m.threads &&
                    base.arithmetic == baseline_arithmetic) {
                    lines.push_back(ratio_line(matrix, m, base));
                }
            }
        }
    }
    // GPU against CPU on the same matrix and arithmetic (the CPU runs are references here).
    for (const Measurement& m : all) {
        if (!grid(m) || m.device == "cpu") {
            continue;
        }
        for (const Measurement& cpu : all) {
            if (cpu.pmcount && cpu.ran() && cpu.device == "cpu" &&
                cpu.engine == matrix.main_engine() && cpu.arithmetic == m.arithmetic) {
                lines.push_back(ratio_line(matrix, m, cpu));
            }
        }
    }
    std::vector<const Measurement*> walrus;
    for (const Measurement& m : all) {
        if (!m.pmcount && m.ran()) {
            walrus.push_back(&m);
        }
    }
    for (const Measurement& m : all) {
        // thewalrus's double against each of our arithmetics (exact included: the speedup a
        // user gets for the exact integer) at its thread count; the permanent's serial
        // methods against the baseline arithmetic at every thread count.
        if (!grid(m) || m.engine != matrix.main_engine() ||
            (!matrix.hafnian && m.arithmetic != baseline_arithmetic)) {
            continue;
        }
        for (const Measurement* other : walrus) {
            if (matrix.hafnian && m.threads != other->threads) {
                continue;
            }
            Json line = ratio_line(matrix, m, *other);
            if (!other->timed_out) {
                line["rel_difference"] = relative_difference(value_of(*other), value_of(m));
            }
            lines.push_back(std::move(line));
        }
    }
    if (walrus.size() == 2) {
        Json line = ratio_line(matrix, *walrus[0], *walrus[1]);
        line["rel_difference"] = relative_difference(value_of(*walrus[0]), value_of(*walrus[1]));
        lines.push_back(std::move(line));
    }
    return lines;
}

/// Sparse cases: skipper and sparyser against dense ryser, skipper against sparyser (equal
/// threads and arithmetic), and the planner against each engine. An engine that was skipped
/// enters with its predicted seconds: the line then names it "predicted ..." and has basis
/// "predicted". predicted_speedup is the cost model's view of the same ratio.
std::vector<Json> sparse_ratio_lines(const TestMatrix& matrix,
                                     const std::vector<Measurement>& all) {
    auto timed = [](const Measurement& m) {
        return m.pmcount && !m.reference_only &&
               (m.ran() ||
                (!m.skipped.empty() && m.predicted_seconds && std::isfinite(*m.predicted_seconds)));
    };
    auto find = [&](const std::string& engine, const std::string& arithmetic,
                    int threads) -> const Measurement* {
        const auto it = std::find_if(all.begin(), all.end(), [&](const Measurement& m) {
            return timed(m) && m.engine == engine && m.arithmetic == arithmetic &&
                   m.threads == threads;
        });
        return it == all.end() ? nullptr : &*it;
    };
    auto time_of = [](const Measurement& m) { return m.ran() ? seconds(m) : *m.predicted_seconds; };
    auto name = [](const Measurement& m) {
        return (m.ran() ? "" : "predicted ") + m.family() +
               "(threads=" + std::to_string(m.threads) + ")";
    };
    auto line = [&](const Measurement& measured, const Measurement& baseline) {
        Json j;
        j["case"] = matrix.case_name;
        j["n"] = matrix.n;
        j["density"] = matrix.density;
        j["ratio"] = name(measured) + " vs " + name(baseline);
        j["speedup"] = time_of(baseline) / time_of(measured);
        j["basis"] = measured.ran() && baseline.ran() ? "measured" : "predicted";
        if (measured.predicted_seconds && baseline.predicted_seconds) {
            j["predicted_speedup"] =
                finite_or_null(*baseline.predicted_seconds / *measured.predicted_seconds);
        }
        return j;
    };
    constexpr std::pair<const char*, const char*> pairs[] = {
        {"skipper", "ryser"},
        {"sparyser", "ryser"},
        {"skipper", "sparyser"},
        {"sparyser-gpu-generated", "sparyser-gpu"},
        {"skipper-gpu-generated", "skipper-gpu"},
        {"sparyser-gpu-generated", "sparyser"},
        {"skipper-gpu", "skipper"},
        {"skipper-gpu-generated", "skipper"}};
    std::vector<Json> lines;
    for (const Measurement& m : all) {
        // Each (arithmetic, threads) once: at its ryser measurement, which every grid point has.
        if (!timed(m) || m.engine != "ryser") {
            continue;
        }
        for (const auto& [fast, slow] : pairs) {
            const Measurement* measured = find(fast, m.arithmetic, m.threads);
            const Measurement* baseline = find(slow, m.arithmetic, m.threads);
            if (measured != nullptr && baseline != nullptr) {
                lines.push_back(line(*measured, *baseline));
            }
        }
    }
    for (const Measurement& planner : all) {
        if (planner.engine != "planner" || !planner.ran()) {
            continue;
        }
        for (const char* engine : {"ryser", "sparyser", "skipper"}) {
            if (const Measurement* other = find(engine, planner.arithmetic, planner.threads)) {
                Json j = line(planner, *other);
                j["chosen_method"] = planner.method_ran;
                lines.push_back(std::move(j));
            }
        }
    }
    return lines;
}

// ---- Driver -------------------------------------------------------------------------------------

/// The runs for one matrix: the requested grid (each arithmetic × thread count), then the
/// references that the grid is checked against, run once: a dd answer for moderate n when dd is
/// not in the grid, brute force for small n.
std::vector<RunSpec> plan_runs(const TestMatrix& matrix, const BenchOptions& options) {
    using pmcount::Method;
    using pmcount::Precision;
    std::vector<RunSpec> specs;
    std::vector<Precision> arithmetics;
    for (const Precision precision : options.precisions) {
        // A complex matrix has no double-double arithmetic; plain-double is a GPU mode.
        if (matrix.complex.rows() == 0 || precision == Precision::double_precision) {
            arithmetics.push_back(precision);
        }
    }
    if (matrix.binary && options.exact) {
        arithmetics.push_back(Precision::exact);
    }
    const std::string engine = matrix.main_engine();
    const Method method = matrix.main_method();
    const int most_threads = *std::max_element(options.threads.begin(), options.threads.end());
    for (const Precision precision : arithmetics) {
        if (options.backend == pmcount::Backend::cuda) {
            RunSpec gpu{engine + "-gpu", method, precision, most_threads, options.repeat, false};
            gpu.backend = pmcount::Backend::cuda;
            gpu.gpus = options.gpus;
            specs.push_back(gpu);
            if (matrix.n <= options.cpu_reference_max_n) {
                specs.push_back({engine, method, precision, most_threads, 1, true});
            }
            continue;
        }
        for (const int threads : options.threads) {
            specs.push_back({engine, method, precision, threads, options.repeat, false});
        }
    }
    if (matrix.hafnian) {
        // What a user gets: the default plan (structure front end, the cheapest engine; with
        // --backend cuda the default backend, which takes a GPU when it is predicted faster).
        RunSpec planner{"planner", Method::automatic, arithmetics.front(), most_threads, 1, false};
        if (options.backend == pmcount::Backend::cuda) {
            planner.backend = pmcount::Backend::automatic;
        }
        specs.push_back(planner);
    }
    const bool has_dd = std::find(arithmetics.begin(), arithmetics.end(),
                                  Precision::double_double) != arithmetics.end();
    if (!has_dd && matrix.complex.rows() == 0 && matrix.n <= options.dd_reference_max_n) {
        specs.push_back({engine, method, Precision::double_double, most_threads, 1, true});
    }
    if (matrix.n <= (matrix.hafnian ? options.pairings_max_n : options.brute_force_max_n)) {
        specs.push_back(
            {"brute-force", Method::brute_force, Precision::double_precision, 1, 1, true});
        if (matrix.binary && options.exact) {
            specs.push_back({"brute-force", Method::brute_force, Precision::exact, 1, 1, true});
        }
    }
    return specs;
}

/// The runs for one reducible-binary matrix, all exact: the planner with its default front end at
/// each thread count (the grid); a Dulmage–Mendelsohn-only reference (plain Ryser on each block:
/// a second path through the decomposition, without the reductions); the whole matrix with no
/// front end under a predicted-time limit (refused, or for small n a third reference); and brute
/// force on the whole matrix for small n, the oracle independent of the planner's structure.
std::vector<RunSpec> plan_front_end_runs(const TestMatrix& matrix, const BenchOptions& options) {
    using pmcount::Method;
    using pmcount::Precision;
    std::vector<RunSpec> specs;
    for (const int threads : options.threads) {
        specs.push_back({"planner", Method::automatic, Precision::exact, threads, options.repeat,
                         false, true, true, "dm+reductions"});
    }
    const int most_threads = *std::max_element(options.threads.begin(), options.threads.end());
    specs.push_back(
        {"dm+ryser", Method::ryser, Precision::exact, most_threads, 1, true, true, false, "dm"});
    specs.push_back({"ryser", Method::ryser, Precision::exact, most_threads, 1, true, false, false,
                     "none", no_front_end_limit_s});
    if (matrix.n <= options.brute_force_max_n) {
        specs.push_back({"brute-force", Method::brute_force, Precision::exact, 1, 1, true, false,
                         false, "none"});
    }
    return specs;
}

/// The runs for one sparse matrix: dense ryser, sparyser and skipper on the whole matrix (front
/// end off) for each arithmetic (exact on 0-1 matrices; double, and dd when --precision has it,
/// on real ones) × thread count, each first planned and skipped when predicted above
/// --dense-max-seconds; then the default planner once at the highest thread count (what a user
/// gets); brute force as an oracle for small n.
std::vector<RunSpec> plan_sparse_runs(const TestMatrix& matrix, const BenchOptions& options) {
    using pmcount::Method;
    using pmcount::Precision;
    std::vector<Precision> arithmetics{matrix.binary ? Precision::exact
                                                     : Precision::double_precision};
    if (!matrix.binary && std::find(options.precisions.begin(), options.precisions.end(),
                                    Precision::double_double) != options.precisions.end()) {
        arithmetics.push_back(Precision::double_double);
    }
    constexpr std::pair<const char*, Method> engines[] = {
        {"ryser", Method::ryser}, {"sparyser", Method::sparyser}, {"skipper", Method::skipper}};
    std::vector<RunSpec> specs;
    const int most_threads = *std::max_element(options.threads.begin(), options.threads.end());
    auto whole_matrix = [&](const char* name, Method method, Precision precision, int threads) {
        RunSpec spec{name, method, precision, threads, options.repeat, false};
        spec.dulmage_mendelsohn = false;
        spec.reductions = false;
        spec.front_end = "none";
        spec.predict = true;
        spec.skip_above_predicted_s = options.dense_max_seconds;
        return spec;
    };
    // --backend cuda: the sparse GPU engines with table and generated kernels, at the highest
    // thread count (the host threads do not matter to them), next to the CPU engines.
    struct GpuEngine {
        const char* name;
        Method method;
        pmcount::GpuKernels kernels;
    };
    constexpr GpuEngine gpu_engines[] = {
        {"sparyser-gpu", Method::sparyser, pmcount::GpuKernels::tables},
        {"sparyser-gpu-generated", Method::sparyser, pmcount::GpuKernels::generated},
        {"skipper-gpu", Method::skipper, pmcount::GpuKernels::tables},
        {"skipper-gpu-generated", Method::skipper, pmcount::GpuKernels::generated}};
    for (const Precision precision : arithmetics) {
        for (const int threads : options.threads) {
            for (const auto& [name, method] : engines) {
                specs.push_back(whole_matrix(name, method, precision, threads));
            }
        }
        if (options.backend == pmcount::Backend::cuda) {
            for (const GpuEngine& g : gpu_engines) {
                if (g.method == Method::skipper && !matrix.binary) {
                    continue;  // on real matrices the GPU SkipPer runs the SpaRyser walk
                }
                RunSpec spec = whole_matrix(g.name, g.method, precision, most_threads);
                spec.backend = pmcount::Backend::cuda;
                spec.gpus = options.gpus;
                spec.gpu_kernels = g.kernels;
                specs.push_back(std::move(spec));
            }
        }
    }
    RunSpec planner{"planner", Method::automatic, arithmetics.front(), most_threads, 1, false};
    planner.front_end = "dm+reductions";
    planner.predict = true;
    planner.skip_above_predicted_s = options.dense_max_seconds;
    specs.push_back(std::move(planner));
    if (!options.engines.empty()) {
        for (RunSpec& spec : specs) {
            spec.predict_only = std::find(options.engines.begin(), options.engines.end(),
                                          spec.engine) == options.engines.end();
        }
    }
    if (matrix.n <= options.brute_force_max_n) {
        specs.push_back({"brute-force", Method::brute_force, arithmetics.front(), 1, 1, true, false,
                         false, "none"});
    }
    return specs;
}

struct Predictions {
    std::vector<Json> lines;   // one per thread count
    std::vector<Json> ratios;  // predicted no-front-end seconds / measured front-end seconds
    int errors = 0;
};

/// reducible-binary with no front end, planned but not counted (explain_only) at each thread
/// count: the planner's predicted seconds, and how many times the measured front-end time at the
/// same thread count they are.
Predictions predict_no_front_end(const TestMatrix& matrix, const std::vector<Measurement>& all,
                                 const std::vector<int>& thread_counts) {
    Predictions out;
    for (const int threads : thread_counts) {
        pmcount::CountOptions options;
        options.method = pmcount::Method::ryser;
        options.precision = pmcount::Precision::exact;
        options.threads = threads;
        options.dulmage_mendelsohn = false;
        options.reductions = false;
        options.explain_only = true;
        Json j;
        j["case"] = matrix.case_name;
        j["engine"] = "ryser";
        j["device"] = "cpu";
        j["arithmetic"] = "exact";
        j["threads"] = threads;
        j["n"] = matrix.n;
        j["nnz"] = matrix.nnz;
        j["front_end"] = "none";
        j["explain_only"] = true;
        std::optional<double> predicted;
        try {
            const auto start = std::chrono::steady_clock::now();
            const pmcount::CountResult r = pmcount::permanent(matrix.integer, options);
            const double wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            predicted = r.structure.predicted_s;
            j["predicted_seconds"] = finite_or_null(*predicted);
            j["planning_seconds"] = wall;
            j["structure"] = structure_json(r.structure);
        } catch (const pmcount::Error& e) {
            j["error_message"] = e.what();
            j["check"] = "ERROR";
            ++out.errors;
        }
        j["seed"] = matrix.base_seed;
        j["matrix_seed"] = matrix.seed;
        j["matrix_hash"] = matrix.hash;
        out.lines.push_back(std::move(j));
        std::cerr << "  " << matrix.case_name << " n=" << matrix.n
                  << " no front end, threads=" << threads << ": predicted "
                  << (predicted ? format_short(*predicted) + " s" : std::string("(failed)"))
                  << "\n";

        const auto measured = std::find_if(all.begin(), all.end(), [&](const Measurement& m) {
            return m.engine == "planner" && !m.reference_only && m.ran() && m.threads == threads;
        });
        if (predicted && measured != all.end()) {
            Json ratio;
            ratio["case"] = matrix.case_name;
            ratio["n"] = matrix.n;
            ratio["ratio"] =
                "predicted no-front-end vs measured front-end(threads=" + std::to_string(threads) +
                ")";
            ratio["speedup"] = finite_or_null(*predicted / seconds(*measured));
            out.ratios.push_back(std::move(ratio));
        }
    }
    return out;
}

struct Totals {
    int measurements = 0;
    int mismatches = 0;
    int errors = 0;
    int predictions = 0;  // explain-only lines
    int refusals = 0;     // expected refusals under a predicted-time limit
    int skipped = 0;      // sparse cases: predicted above --dense-max-seconds, not run
};

/// Starts OpenMP's thread pool (and faults in the code) before the first timed run, so that the
/// first measurement does not pay for it.
void warm_up(int threads) {
    pmcount::DenseMatrix<double> a(12, 12, 0.5);
    pmcount::CountOptions options;
    options.method = pmcount::Method::ryser;
    options.precision = pmcount::Precision::double_precision;
    options.threads = threads;
    (void)pmcount::permanent(a, options);
}

int run(const BenchOptions& options, const std::string& command) {
    Emitter emit(options.out_path);
    emit.line(context_line(options, command));
    Totals totals;

    Thewalrus thewalrus(options);
    bool use_thewalrus = false;
    if (options.thewalrus != ThewalrusMode::off) {
        use_thewalrus = thewalrus.probe();
        if (!use_thewalrus) {
            emit.line(Json{{"note", "thewalrus not available: " + thewalrus.why_not()}});
            if (options.thewalrus == ThewalrusMode::require) {
                std::cerr << "pmcount-bench: --thewalrus require, but thewalrus is not available ("
                          << thewalrus.why_not()
                          << "); scripts/install-bench-deps.sh installs it\n";
                return exit_code::runtime_error;
            }
        } else {
            std::cerr << "pmcount-bench: timing thewalrus " << thewalrus.version()
                      << " alongside (first call per matrix compiles its numba kernels)\n";
        }
    }

    warm_up(*std::max_element(options.threads.begin(), options.threads.end()));
    double fp64_rate = 0;  // --backend cuda: Σ of the measured rates of the GPUs used
    if (options.backend == pmcount::Backend::cuda) {
        // The roofline of the GPUs used, measured now (the sum of their rates).
        std::vector<int> gpus = options.gpus;
        if (gpus.empty()) {
            for (const pmcount::DeviceInfo& d : pmcount::build_info().devices) {
                gpus.push_back(d.index);
            }
        }
        try {
            for (const int g : gpus) {
                const double rate = pmcount::measure_gpu_fp64_rate(g);
                fp64_rate += rate;
                emit.line(
                    Json{{"case", "fp64-roofline"},
                         {"gpu", g},
                         {"fp64_instructions_per_s", rate},
                         {"note", "independent DMUL/DADD chains; the dense GPU engine's ceiling"}});
            }
        } catch (const pmcount::Error& e) {
            std::cerr << "pmcount-bench: --backend cuda, but " << e.what() << "\n";
            return exit_code::runtime_error;
        }
        if (gpus.empty()) {
            std::cerr << "pmcount-bench: --backend cuda, but no GPU is visible\n";
            return exit_code::runtime_error;
        }
    }
    const std::string baseline_arithmetic = precision_name(options.precisions.front());
    for (const auto& [spec, n] : options.jobs) {
        const TestMatrix matrix = make_matrix(spec, n, options);
        std::cerr << "pmcount-bench: " << spec.name << " n=" << n << " (seed " << matrix.seed
                  << ", hash " << matrix.hash
                  << (matrix.reducible() ? ", blocks " + join(matrix.planted_blocks) : "")
                  << (matrix.sparse ? ", density " + format_short(matrix.density) + ", nnz " +
                                          std::to_string(matrix.nnz) + ", redraws " +
                                          std::to_string(matrix.redraws)
                                    : "")
                  << ")\n";
        std::vector<Measurement> all =
            run_pmcount(matrix, matrix.reducible() ? plan_front_end_runs(matrix, options)
                                : matrix.sparse    ? plan_sparse_runs(matrix, options)
                                                   : plan_runs(matrix, options));
        for (Measurement& m : all) {
            if (m.device != "cpu") {
                m.fp64_rate = fp64_rate;
            }
        }
        // reducible-binary is about the front end at sizes beyond a serial thewalrus; the sparse
        // cases compare pmcount's own engines.
        const bool walrus_size =
            n <= options.thewalrus_max_n && (!matrix.reducible() || n <= options.brute_force_max_n);
        if (use_thewalrus && matrix.sparse) {
            emit.line(Json{{"note", "thewalrus skipped for " + std::string(spec.name) +
                                        " n=" + std::to_string(n) +
                                        " (the sparse cases compare pmcount's engines)"}});
        } else if (use_thewalrus && walrus_size) {
            std::string failure;
            std::vector<Measurement> walrus = thewalrus.time(matrix, options.repeat, failure);
            if (walrus.empty()) {
                emit.line(Json{{"note", "thewalrus failed on " + std::string(spec.name) +
                                            " n=" + std::to_string(n) + ": " + failure}});
                if (options.thewalrus == ThewalrusMode::require) {
                    ++totals.errors;
                }
            }
            all.insert(all.end(), walrus.begin(), walrus.end());
        } else if (use_thewalrus) {
            emit.line(Json{{"note", "thewalrus skipped for " + std::string(spec.name) +
                                        " n=" + std::to_string(n) +
                                        (matrix.reducible() ? " (above --brute-force-max-n)"
                                                            : " (above --thewalrus-max-n)")}});
        }
        check_all(all);
        if (matrix.reducible()) {
            check_planted_blocks(all, matrix);
        }
        if (matrix.sparse) {
            check_engines_ran(all);
        }
        for (const Measurement& m : all) {
            emit.line(measurement_line(matrix, m));
            ++totals.measurements;
            totals.mismatches += m.mismatches.empty() ? 0 : 1;
            totals.errors += m.ran() || !m.refused.empty() || !m.skipped.empty() ? 0 : 1;
            totals.refusals += m.refused.empty() ? 0 : 1;
            totals.skipped += m.skipped.empty() ? 0 : 1;
        }
        Predictions predictions;
        if (matrix.reducible()) {
            predictions = predict_no_front_end(matrix, all, options.threads);
            for (const Json& line : predictions.lines) {
                emit.line(line);
            }
            totals.predictions += static_cast<int>(predictions.lines.size());
            totals.errors += predictions.errors;
        }
        for (const Json& line : ratio_lines(matrix, all, baseline_arithmetic)) {
            emit.line(line);
        }
        for (const Json& line : predictions.ratios) {
            emit.line(line);
        }
        if (matrix.sparse) {
            for (const Json& line : sparse_ratio_lines(matrix, all)) {
                emit.line(line);
            }
        }
    }
    emit.line(Json{{"summary",
                    {{"measurements", totals.measurements},
                     {"mismatches", totals.mismatches},
                     {"errors", totals.errors},
                     {"predictions", totals.predictions},
                     {"refusals", totals.refusals},
                     {"skipped", totals.skipped}}}});
    if (totals.mismatches > 0) {
        std::cerr << "pmcount-bench: " << totals.mismatches << " measurement(s) MISMATCH\n";
        return exit_code::check_failed;
    }
    if (totals.errors > 0) {
        std::cerr << "pmcount-bench: " << totals.errors << " run(s) failed\n";
        return exit_code::runtime_error;
    }
    return exit_code::ok;
}

}  // namespace

int permanent_bench_main(int argc, char** argv) {
    CLI::App app{"pmcount-bench — times pmcount's permanent engines and checks their answers"};
    app.footer(examples_text);
    const int all_cores = std::max(1, pmcount::build_info().max_threads);

    std::string cases = "dense-real,dense-binary";
    std::string orders = "16:24:4";
    std::string threads = "1,N";
    std::string precisions = "double";
    std::string thewalrus = "auto";
    BenchOptions options;
    options.thewalrus_script = std::string(PMCOUNT_SOURCE_DIR) + "/scripts/thewalrus_perm.py";
    options.thewalrus_hafnian_script =
        std::string(PMCOUNT_SOURCE_DIR) + "/scripts/thewalrus_hafnian.py";
    options.python = "python3";
    bool quick = false;

    auto* cases_option =
        app.add_option("--cases", cases, std::string("comma list: ") + known_case_names)
            ->capture_default_str();
    auto* orders_option =
        app.add_option("--n", orders, "orders: list '20,24,28' and/or ranges 'first:last[:step]'")
            ->capture_default_str();
    app.add_option("--threads", threads, "thread counts, comma list; N = every core")
        ->capture_default_str();
    auto* repeat_option =
        app.add_option("--repeat", options.repeat, "runs per measurement; the median is reported")
            ->check(CLI::PositiveNumber)
            ->capture_default_str();
    app.add_option("--seed", options.seed, "seed of the random matrices")->capture_default_str();
    auto* precision_option =
        app.add_option("--precision", precisions, "floating arithmetics: double, dd (comma list)")
            ->capture_default_str();
    auto* density_option =
        app.add_option("--density", options.density,
                       "probability of a 1 in dense-binary, of a random 1 in reducible-binary, "
                       "and of a nonzero in sparse-binary and sparse-real (there default 0.1)")
            ->check(CLI::Range(0.0, 1.0))
            ->capture_default_str();
    app.add_option("--dense-max-seconds", options.dense_max_seconds,
                   "sparse cases: skip an engine (in practice dense ryser) whose predicted time "
                   "exceeds this; its prediction stands in for it in the ratios")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--engines", options.engines,
                   "sparse cases: run only these engines (comma list of ryser, sparyser, "
                   "skipper, sparyser-gpu, sparyser-gpu-generated, skipper-gpu, "
                   "skipper-gpu-generated, planner); the others are predicted, not run")
        ->delimiter(',')
        ->check(
            CLI::IsMember({"ryser", "sparyser", "skipper", "sparyser-gpu", "sparyser-gpu-generated",
                           "skipper-gpu", "skipper-gpu-generated", "planner"}));
    auto* max_block_option =
        app.add_option("--max-block", options.max_block,
                       "reducible-binary: largest diagonal block (greedy, then the remainder)")
            ->check(CLI::PositiveNumber)
            ->capture_default_str();
    auto* exact_option =
        app.add_flag("--exact", options.exact, "also run exact integer arithmetic on binary cases");
    app.add_option("--dd-reference-max-n", options.dd_reference_max_n,
                   "check double against a dd run up to this n (dd in --precision: always)")
        ->capture_default_str();
    app.add_option("--brute-force-max-n", options.brute_force_max_n,
                   "check against brute force up to this n (at most 12)")
        ->check(CLI::Range(0, 12))
        ->capture_default_str();
    app.add_option("--pairings-max-n", options.pairings_max_n,
                   "hafnian cases: check against brute force over pairings up to this n (at most "
                   "16)")
        ->check(CLI::Range(0, 16))
        ->capture_default_str();
    auto* thewalrus_option =
        app.add_option("--thewalrus", thewalrus,
                       "time thewalrus's perm too: auto (when importable), off, require")
            ->check(CLI::IsMember({"auto", "off", "require"}))
            ->capture_default_str();
    app.add_option("--thewalrus-max-n", options.thewalrus_max_n,
                   "largest n given to thewalrus (serial; its time doubles with each n)")
        ->capture_default_str();
    app.add_option("--thewalrus-timeout", options.thewalrus_timeout,
                   "stop thewalrus after this many seconds (0: never); a ratio against a stopped "
                   "run is a lower bound (speedup_is_lower_bound)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option("--thewalrus-script", options.thewalrus_script, "path of thewalrus_perm.py")
        ->capture_default_str();
    app.add_option("--thewalrus-hafnian-script", options.thewalrus_hafnian_script,
                   "path of thewalrus_hafnian.py")
        ->capture_default_str();
    app.add_option("--python", options.python, "Python interpreter for thewalrus")
        ->capture_default_str();
    app.add_option("--out", options.out_path, "also append the JSON lines to this file");
    std::string backend = "cpu";
    app.add_option("--backend", backend,
                   "cpu, or cuda: the dense cases' ryser runs on the GPUs (engine ryser-gpu), with "
                   "the FP64 roofline measured in the same run and CPU references up to "
                   "--cpu-reference-max-n")
        ->check(CLI::IsMember({"cpu", "cuda"}))
        ->capture_default_str();
    app.add_option("--gpus", options.gpus, "--backend cuda: GPU indices, e.g. 0,1 (default: all)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->check(CLI::Range(0, 1023));
    app.add_option("--cpu-reference-max-n", options.cpu_reference_max_n,
                   "--backend cuda: check the GPU against CPU ryser up to this n")
        ->capture_default_str();
    app.add_flag("--quick", quick,
                 "small preset that finishes in seconds (all cases, n 6,10,14, reducible-binary "
                 "n 12 with --max-block 5, sparse cases n 16 at density 0.2, double and dd, "
                 "--exact, thewalrus off); explicit options override it");

    try {
        app.parse(argc, argv);
        if (quick) {
            // Every case and every check path (brute force at n <= 10, dd, exact, the front end
            // against Dulmage–Mendelsohn only and no front end, the sparse engines against dense
            // Ryser and the planner) on small n.
            if (cases_option->count() == 0) {
                cases = known_case_names;
            }
            if (max_block_option->count() == 0) {
                options.max_block = 5;
            }
            if (precision_option->count() == 0) {
                precisions = "double,dd";
            }
            if (exact_option->count() == 0) {
                options.exact = true;
            }
            if (thewalrus_option->count() == 0) {
                thewalrus = "off";
            }
            if (repeat_option->count() == 0) {
                options.repeat = 1;
            }
            if (density_option->count() == 0) {
                // n = 16 at 0.1 has 1.6 nonzeros a row: mostly redraws, and permanents of 1 or 2.
                options.sparse_density = 0.2;
            }
        }
        if (density_option->count() > 0) {
            options.sparse_density = options.density;
        }
        for (const CaseSpec& spec : parse_cases(cases)) {
            const bool quick_orders = quick && orders_option->count() == 0;
            for (const int n : parse_orders(quick_orders ? spec.quick_orders : orders)) {
                options.jobs.push_back({spec, n});
            }
        }
        options.threads = parse_threads(threads, all_cores);
        options.backend = backend == "cuda" ? pmcount::Backend::cuda : pmcount::Backend::cpu;
        options.precisions = parse_precisions(precisions);
        options.thewalrus = thewalrus == "off"       ? ThewalrusMode::off
                            : thewalrus == "require" ? ThewalrusMode::require
                                                     : ThewalrusMode::automatic;
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? exit_code::ok : exit_code::usage;
    }

    std::string command;
    for (int i = 0; i < argc; ++i) {
        command += (i == 0 ? "" : " ") + std::string(argv[i]);
    }
    return run(options, command);
}

}  // namespace pmcount::bench
