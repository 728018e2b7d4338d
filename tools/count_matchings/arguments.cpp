#include "arguments.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <thread>

namespace pmcount::tools {

namespace {

constexpr const char* kExamples = R"(Examples:
  count_matchings datasets/grid_6x6.edgelist          perfect matchings (domino tilings)
  count_matchings datasets/petersen.edgelist          perfect matchings of a general graph
  count_matchings --cycle-covers datasets/digraph_7.edgelist   cycle covers of a digraph
  count_matchings --json matrix.mtx                   permanent, as one JSON object
  count_matchings --hafnian symmetric.mtx             hafnian of a symmetric matrix
  count_matchings --loop-hafnian symmetric.mtx        loop hafnian (the diagonal as loops)
  count_matchings --all-matchings molecule.edgelist   all matchings (the Hosoya index)
  count_matchings --matching-polynomial g.edgelist    m_0 ... m_floor(n/2), one per line
  count_matchings --monomer-weight 1/2 grid:8x8       monomer-dimer Z(1/2), exact
  cat graph.txt | count_matchings -                   read standard input
  count_matchings --precision dd real_matrix.mtx      double-double arithmetic

Input formats: edge lists ('u v' or 'u v weight' per line; optional header '# bipartite L R',
'# directed N' or '# undirected N'; an undirected graph is 2-coloured when it can be, else
counted as a general graph) and Matrix Market (coordinate or array; pattern, integer, real,
complex; read as a permanent's rows and columns, or with --hafnian as a symmetric matrix).
Integer and 0-1 inputs get exact integer answers; real and complex inputs a double answer with an
error estimate. A non-square matrix has a permanent (over the injective maps of the shorter side
into the longer; computed as a square one of the longer side's order) but no perfect matching.

Exit codes: 0 ok, 1 usage error, 2 input error, 3 runtime error (e.g. a problem too large, or
one that needs more memory than --max-memory), 130 interrupted (SIGINT or SIGTERM; a second one
quits at once).)";

/// Option validators whose messages say what is wrong with the value (CLI11's own ranges print
/// "not in range 0.000000 to 1.79…e308", 310 digits, for a word as for a negative number).
/// `whole`: an integer; `minimum`: the smallest value allowed.
CLI::Validator number_at_least(double minimum, bool whole,
                               double maximum = std::numeric_limits<double>::infinity()) {
    return CLI::Validator(
        [minimum, whole, maximum](std::string& text) -> std::string {
            char* end = nullptr;
            const double v = std::strtod(text.c_str(), &end);
            const bool parsed = !text.empty() && end == text.c_str() + text.size();
            const char* kind = whole ? "a whole number" : "a number";
            if (!parsed || !std::isfinite(v) || (whole && v != std::floor(v))) {
                return "'" + text + "' is not " + kind;
            }
            if (v < minimum) {
                return "'" + text + "' is below " + std::to_string(static_cast<long long>(minimum));
            }
            if (v > maximum) {
                return "'" + text + "' is above " + std::to_string(static_cast<long long>(maximum));
            }
            return "";
        },
        whole ? (minimum > 0 ? "UINT>=1" : "UINT") : "NUMBER>=0");
}

/// "11.7 GiB": a size for --help.
std::string gib_text(std::uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g GiB", static_cast<double>(bytes) / 0x1p30);
    return text;
}

/// A memory size as --max-memory reads it: a number with an optional K, M, G or T (powers of
/// 1024; "B" or "iB" may follow), e.g. 2G, 500M, 1.5GiB, 0 (no limit). nullopt if malformed.
std::optional<std::uint64_t> parse_memory_size(const std::string& text) {
    char* end = nullptr;
    const double number = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || !std::isfinite(number) || number < 0) {
        return std::nullopt;
    }
    std::string unit(end);
    const auto ends_with = [&unit](const std::string& tail) {
        return unit.size() >= tail.size() &&
               unit.compare(unit.size() - tail.size(), tail.size(), tail) == 0;
    };
    if (ends_with("iB")) {
        unit.resize(unit.size() - 2);
    } else if (ends_with("B")) {
        unit.resize(unit.size() - 1);
    }
    double scale = 1;
    if (unit.size() == 1) {
        const std::string units = "KMGT";
        const std::size_t k = units.find(static_cast<char>(std::toupper(unit[0])));
        if (k == std::string::npos) {
            return std::nullopt;
        }
        scale = std::ldexp(1.0, 10 * static_cast<int>(k + 1));
    } else if (!unit.empty()) {
        return std::nullopt;
    }
    const double bytes = std::floor(number * scale);
    if (bytes >= 0x1p64) {
        return std::nullopt;
    }
    return static_cast<std::uint64_t>(bytes);
}

}  // namespace

void add_options(CLI::App& app, Arguments& a) {
    app.footer(kExamples);
    app.add_option(
        "input", a.path,
        "graph or matrix file ('-' for standard input), or a generator spec such as "
        "grid:32x32, torus:8x8, hexagon:3,4,5, aztec:10, complete:8, random:30,0.2,SEED, "
        "regular:30,3,SEED; general graphs tri:RxC, tri-torus:RxC, hex-torus:RxC, kagome:RxC, "
        "kagome-torus:RxC, cubic:LxMxN, cubic-torus:LxMxN, fcc:LxMxN, fcc-torus:LxMxN, "
        "regular-general:N,D,SEED (docs/lattices.md; a file of that name takes precedence)");
    auto* pm = app.add_flag("--perfect-matchings", a.perfect_matchings,
                            "count perfect matchings of the 0-1 pattern (default for graphs; with "
                            "--hafnian, of the pattern read as an undirected graph)");
    auto* cc = app.add_flag("--cycle-covers", a.cycle_covers,
                            "count cycle covers: read an edge list as arcs u→v of a digraph");
    auto* pe = app.add_flag("--permanent", a.permanent,
                            "permanent of the matrix (default for weighted inputs); an m×n "
                            "matrix with m < n: the sum over the injective maps of its rows to "
                            "its columns (m > n: that of its transpose)");
    auto* hf = app.add_flag("--hafnian", a.hafnian,
                            "hafnian: read the file as an undirected graph or a symmetric matrix "
                            "(never split into sides) and count its perfect matchings / hafnian");
    auto* lh = app.add_flag("--loop-hafnian", a.loop_hafnian,
                            "loop hafnian: read the file as a symmetric matrix (or undirected "
                            "graph) whose diagonal (self-loops u u w) are loops, each vertex "
                            "paired or on its own loop (thewalrus's hafnian(A, loop=True))");
    auto* all = app.add_flag("--all-matchings", a.all_matchings,
                             "count all matchings, of every size and the empty one (the Hosoya "
                             "index); edge weights weigh each matching by their product; with "
                             "--approx, an estimate with its interval (any graph size)");
    auto* poly = app.add_flag("--matching-polynomial", a.matching_polynomial,
                              "the matching polynomial's coefficients m_0 ... m_floor(n/2) (m_k: "
                              "matchings of k edges), one per line");
    auto* mw = app.add_option("--monomer-weight", a.monomer_weight,
                              "the monomer-dimer partition function Z(X) = sum_k m_k X^(n-2k) "
                              "at a rational X (3, -1/2, 0.25, 1e-3), exact; with --approx, an "
                              "estimate for X > 0");
    auto* ms = app.add_option("--matchings-of-size", a.matchings_of_size,
                              "the number of matchings of K edges")
                   ->check(number_at_least(0, true));
    app.add_option("--prime-set", a.prime_set,
                   "matchings of every size: count modulo the K-th disjoint set of 62-bit "
                   "primes (0: the largest); two sets that agree check a count independently")
        ->check(number_at_least(0, true, 64));
    for (CLI::Option* mode : {all, poly, mw, ms}) {
        mode->excludes(pm)->excludes(cc)->excludes(pe)->excludes(lh);
        for (CLI::Option* other : {all, poly, mw, ms}) {
            if (other != mode) {
                mode->excludes(other);
            }
        }
    }
    pm->excludes(cc, pe, lh);
    cc->excludes(pe, hf, lh);
    pe->excludes(hf, lh);
    hf->excludes(lh);
    auto* embedding = app.add_option(
        "--embedding", a.embedding_path,
        "the graph's drawing on a surface, for the Pfaffians on it (a torus: four): one "
        "line 'VERTEX: NEIGHBOUR ...' per vertex, its neighbours in cyclic order (an "
        "undirected graph's ids; docs/general_graphs.md)");
    lh->excludes(embedding);
    app.add_flag("--general", a.general,
                 "count through the general-graph path (blossom, hafnian and Pfaffian engines) "
                 "even where the graph or a piece of it is bipartite (to check one path against "
                 "the other)");
    app.add_option("--method", a.method,
                   "engine for every block: auto (the planner chooses), ryser (dense), sparyser, "
                   "skipper (sparse), planar (Kasteleyn, or the FKT Pfaffian for general graphs; "
                   "planar patterns; the four Pfaffians of a generated torus), frontier (DP over a "
                   "narrow vertex order), hafnian "
                   "(Björklund's recursion; any graph), brute-force (the oracle, n <= 12; "
                   "pairings for general graphs, n <= 16)")
        ->capture_default_str();
    app.add_option("--backend", a.backend,
                   "where engines run: auto (GPUs when predicted faster), cpu, cuda")
        ->capture_default_str();
    app.add_option("--gpu-kernels", a.gpu_kernels,
                   "sparse GPU engines (sparyser, skipper on --backend cuda): auto (the planner "
                   "chooses), tables (one kernel per order, the matrix in shared memory), "
                   "generated (a kernel generated for the matrix, compiled by NVRTC, cached)")
        ->capture_default_str();
    // One argument, split at commas: `--gpus 0 FILE` must leave FILE to the positional.
    app.add_option("--gpus", a.gpus, "GPU device indices to use, e.g. --gpus 0,1 (default: all)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->check(CLI::Range(0, 1023));
    app.add_option("--threads", a.threads, "CPU threads (0: all cores)")
        ->check(number_at_least(0, true, kMaxThreads))
        ->capture_default_str();
    app.add_option("--precision", a.precision,
                   "arithmetic: auto (exact for integer inputs, double otherwise, counted again "
                   "certified or in dd when fewer than six digits are left), exact, "
                   "double, dd, plain-double (uncompensated on GPUs; the CPU engines always "
                   "compensate), certified (dense Ryser, CPU or GPU, a proven error bound)")
        ->capture_default_str();
    app.add_option("--format", a.format, "input format: auto, edgelist, mtx")
        ->check(CLI::IsMember({"auto", "edgelist", "mtx"}))
        ->capture_default_str();
    app.add_flag("--sum-duplicates", a.sum_duplicates,
                 "add the values of repeated entries instead of rejecting them");
    app.add_flag("--explain", a.explain,
                 "print the plan (decomposition, reductions, engine and predicted time per block) "
                 "without counting");
    app.add_flag("--no-dulmage-mendelsohn", a.no_dulmage_mendelsohn,
                 "skip the Dulmage–Mendelsohn decomposition (general graphs: the matching, "
                 "component and block split; to measure it)");
    app.add_flag("--no-reductions", a.no_reductions,
                 "skip the Forbert–Marx reductions (general graphs: the forced-edge and degree-2 "
                 "reductions; to measure them)");
    app.add_option("--max-memory", a.max_memory_text,
                   "refuse, in one line, what is predicted to need more memory than this (the "
                   "planner's structures, an engine's tables, the estimator's populations): "
                   "e.g. 2G, 500M; K, M, G, T are powers of 1024; 0: no limit (default: half "
                   "of the physical memory, " +
                       gib_text(default_max_memory()) + " here)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                return parse_memory_size(text) ? ""
                                               : "'" + text +
                                                     "' is not a size (e.g. 2G, 500M, 0 for no "
                                                     "limit)";
            },
            "SIZE"));
    auto* max_predicted = app.add_option("--max-predicted-seconds", a.max_predicted_seconds,
                                         "refuse plans predicted to take longer than this many "
                                         "seconds (0: no limit)")
                              ->check(number_at_least(0, false))
                              ->capture_default_str();
    auto* cp = app.add_option("--checkpoint", a.checkpoint,
                              "record finished work in this file (atomically, every "
                              "--checkpoint-interval seconds and on SIGINT/SIGTERM)");
    app.add_flag("--resume", a.resume,
                 "continue from the --checkpoint file (same input, precision and engines; "
                 "--approx: same estimator, seed and populations)")
        ->needs(cp);
    auto* checkpoint_interval = app.add_option("--checkpoint-interval", a.checkpoint_interval,
                                               "seconds between checkpoint writes")
                                    ->check(number_at_least(0, false))
                                    ->capture_default_str();
    app.add_option("--dot", a.dot_path,
                   "write the Dulmage–Mendelsohn decomposition as Graphviz DOT to this file");
    app.add_flag("--json", a.json, "print one JSON object with the value, method and timings");
    app.add_flag("-q,--quiet", a.quiet, "print only the value (no summary, warnings or progress)");
    app.add_flag("--version", a.version, "print version, build and GPU information");

    // The names these options had before they took the library's (CountOptions): still accepted.
    const char* deprecated = "Deprecated names (before pmcount 0.2)";
    app.add_flag("--no-dm", a.no_dulmage_mendelsohn, "deprecated: --no-dulmage-mendelsohn")
        ->group(deprecated);
    app.add_flag("--no-reduce", a.no_reductions, "deprecated: --no-reductions")->group(deprecated);
    app.add_option("--max-time", a.max_predicted_seconds, "deprecated: --max-predicted-seconds")
        ->check(number_at_least(0, false))
        ->excludes(max_predicted)
        ->group(deprecated);
    app.add_option("--checkpoint-every", a.checkpoint_interval, "deprecated: --checkpoint-interval")
        ->check(number_at_least(0, false))
        ->excludes(checkpoint_interval)
        ->group(deprecated);

    // Estimators (pmcount/approx.hpp): an estimate with a confidence interval instead of the
    // exact count. Stops at whichever of --samples, --time, --rel-error comes first.
    app.add_flag("--approx", a.approx,
                 "estimate instead of counting exactly (default estimator scaling+); the options "
                 "of an exact count (--method, --precision, --gpu-kernels, --general, "
                 "--no-dulmage-mendelsohn, --no-reductions, --max-predicted-seconds) are refused "
                 "with it, and those marked --approx below without it");
    app.add_option("--estimator", a.estimator,
                   "rasmussen, rasmussen+, scaling, scaling+, bethe (implies --approx; general "
                   "graphs: bethe unless rasmussen or rasmussen+)")
        ->capture_default_str();
    app.add_option("--samples", a.estimate_options.samples,
                   "--approx: stop after this many samples")
        ->check(number_at_least(0, true));
    app.add_option("--time", a.estimate_options.time_s, "--approx: stop after this many seconds")
        ->check(number_at_least(0, false));
    app.add_option("--rel-error", a.estimate_options.rel_error,
                   "--approx: stop when the 95% interval's relative half-width is below this")
        ->check(number_at_least(0, false));
    app.add_option("--seed", a.estimate_options.seed, "--approx: random seed")
        ->capture_default_str();
    app.add_option("--scale-every", a.estimate_options.scale_every,
                   "--approx, scaling estimators: rescale every this many steps")
        ->check(number_at_least(1, true))
        ->capture_default_str();
    app.add_option("--scale-iters", a.estimate_options.scale_iters,
                   "--approx, scaling estimators: Sinkhorn-Knopp sweeps per rescale")
        ->check(number_at_least(1, true))
        ->capture_default_str();
    app.add_option("--particles", a.estimate_options.particles,
                   "--approx: samples per population, resampled as they go (sequential "
                   "Monte Carlo; 0: chosen from the input and the budget, --explain shows it; "
                   "1: independent samples)")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30))
        ->capture_default_str();
    app.add_option("--resample-every", a.estimate_options.resample_every,
                   "--approx with populations: resample every this many steps (0: 16)")
        ->check(number_at_least(0, true))
        ->capture_default_str();
    app.add_option("--potential-exponent", a.estimate_options.potential_exponent,
                   "--approx with populations: resample on weight x potential^this")
        ->check(number_at_least(0, false))
        ->capture_default_str();
    app.add_option("--layout", a.layout,
                   "--approx: how the sampler reads the matrix: auto, dense, sparse")
        ->check(CLI::IsMember({"auto", "dense", "sparse"}))
        ->capture_default_str();
}

std::string option_of_the_other_mode(const CLI::App& app, const Arguments& a) {
    // An exact count's options given to an estimate, or an estimator's to an exact count, would be
    // dropped silently (--approx --method ryser estimated with Scaling+): refused in one line, as
    // a pair of counting flags is.
    static const std::vector<const char*> kExactOnly{"--method",
                                                     "--precision",
                                                     "--gpu-kernels",
                                                     "--general",
                                                     "--no-dm",
                                                     "--no-reduce",
                                                     "--max-time",
                                                     "--embedding",
                                                     "--no-reductions",
                                                     "--no-dulmage-mendelsohn",
                                                     "--max-predicted-seconds"};
    static const std::vector<const char*> kEstimateOnly{
        "--samples",   "--time",           "--rel-error",
        "--seed",      "--scale-every",    "--scale-iters",
        "--particles", "--resample-every", "--potential-exponent",
        "--layout"};
    if (a.approx && a.loop_hafnian) {
        return "--loop-hafnian has no estimator: count it exactly (without --approx)";
    }
    if (counts_all_sizes(a) && a.explain) {
        return "--explain shows the plan of a perfect-matching count or estimate; a count of "
               "matchings of every size names its engines and primes in its result (--json)";
    }
    if (counts_all_sizes(a) && a.approx) {
        if (a.matching_polynomial || a.matchings_of_size >= 0) {
            return std::string(a.matching_polynomial ? "--matching-polynomial"
                                                     : "--matchings-of-size") +
                   " is counted exactly; --approx estimates --all-matchings and "
                   "--monomer-weight X";
        }
        for (const char* name : {"--estimator", "--scale-every", "--scale-iters", "--layout",
                                 "--prime-set"}) {
            if (app.count(name) > 0) {
                return std::string(name) +
                       " does not apply to the monomer-dimer estimator (--approx with "
                       "--all-matchings or --monomer-weight)";
            }
        }
    }
    for (const char* name : a.approx ? kExactOnly : kEstimateOnly) {
        if (app.count(name) > 0) {
            return std::string(name) + (a.approx ? " applies to exact counts, not to --approx"
                                                 : " applies to --approx (estimates) only");
        }
    }
    return "";
}

CountOptions count_options(const Arguments& a, int local_ranks) {
    CountOptions options;
    options.method = method_from_string(a.method);
    options.precision = precision_from_string(a.precision);
    options.backend = backend_from_string(a.backend);
    options.gpu_kernels = gpu_kernels_from_string(a.gpu_kernels);
    options.threads = a.threads;
    options.gpus = a.gpus;
    options.explain_only = a.explain;
    options.dulmage_mendelsohn = !a.no_dulmage_mendelsohn;
    options.reductions = !a.no_reductions;
    options.general = a.general;
    options.prime_set = a.prime_set;
    options.max_predicted_seconds = a.max_predicted_seconds > 0
                                        ? a.max_predicted_seconds
                                        : std::numeric_limits<double>::infinity();
    options.max_memory =
        a.max_memory_text.empty() ? default_max_memory() : *parse_memory_size(a.max_memory_text);
    options.checkpoint = a.checkpoint;
    options.resume = a.resume;
    options.checkpoint_interval_s = a.checkpoint_interval;
    if (a.threads == 0 && local_ranks > 1) {
        // Ranks on one host share its cores.
        options.threads =
            std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / local_ranks);
    }
    return options;
}

ReadOptions read_options(const Arguments& a) {
    ReadOptions options;
    options.sum_duplicates = a.sum_duplicates;
    options.format = a.format == "mtx"        ? InputFormat::matrix_market
                     : a.format == "edgelist" ? InputFormat::edge_list
                                              : InputFormat::automatic;
    // The counting flags exclude each other (CLI11 refuses a pair in one line, exit 1) except
    // --perfect-matchings with --hafnian, which say two compatible things: count perfect matchings
    // of the pattern (values ignored), and read the file as an undirected graph (never split into
    // sides). Both hold: K4 as a symmetric pattern gives 3, never the bipartite reading's 9.
    options.pattern_only = a.perfect_matchings;
    if (a.cycle_covers) {
        options.interpretation = GraphInterpretation::directed;
    }
    if (a.hafnian || a.loop_hafnian) {
        options.interpretation = GraphInterpretation::general;
    }
    options.loops = a.loop_hafnian;
    return options;
}

bool counts_all_sizes(const Arguments& a) {
    return a.all_matchings || a.matching_polynomial || !a.monomer_weight.empty() ||
           a.matchings_of_size >= 0;
}

MatchingQuery matching_query(const Arguments& a) {
    return a.matching_polynomial       ? MatchingQuery::polynomial
           : !a.monomer_weight.empty() ? MatchingQuery::monomer_dimer
           : a.matchings_of_size >= 0  ? MatchingQuery::size
                                       : MatchingQuery::all;
}

std::string counting_mode(const Arguments& a) {
    return a.perfect_matchings ? "perfect matchings"
           : a.cycle_covers    ? "cycle covers"
           : a.permanent       ? "permanent"
           : a.hafnian         ? "hafnian"
           : a.loop_hafnian    ? "loop hafnian"
                               : "";
}

}  // namespace pmcount::tools
