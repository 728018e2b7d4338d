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

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "permanent_cases.hpp"
#include "permanent_checks.hpp"
#include "permanent_lines.hpp"
#include "permanent_runs.hpp"
#include "permanent_walrus.hpp"
#include "pmcount/pmcount.hpp"

#ifndef PMCOUNT_SOURCE_DIR
#define PMCOUNT_SOURCE_DIR "."
#endif

namespace pmcount::bench {

namespace permanents {
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

Json context_line(const BenchOptions& options, const std::string& command) {
    Json context = machine_context(command);
    context["suite"] = "permanents";
    context["seed"] = options.seed;
    context["repeat"] = options.repeat;
    return Json{{"context", context}};
}

// ---- Driver -------------------------------------------------------------------------------------

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
            j["structure"] = structure_json(pmcount::to_json(r));
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
}  // namespace permanents

int permanent_bench_main(int argc, char** argv) {
    using namespace permanents;
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
