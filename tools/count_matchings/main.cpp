// count_matchings: the exact number of perfect matchings (of any graph) / cycle covers, or the
// permanent or hafnian, of the graph or matrix in a file. A thin CLI over pmcount::read_input and
// pmcount::count.
//
// Exit codes: 0 ok, 1 usage, 2 input error, 3 runtime error, 130 interrupted (SIGINT or SIGTERM;
// the checkpoint, when asked for, is written first).
//
// Under mpirun every rank runs this program with the same arguments; rank 0 alone prints.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "estimate_output.hpp"
#include "pmcount/distributed.hpp"
#include "pmcount/pmcount.hpp"
#include "progress_bar.hpp"

namespace {

enum ExitCode { kOk = 0, kUsage = 1, kInputError = 2, kRuntimeError = 3, kInterrupted = 130 };

/// SIGINT or SIGTERM seen, and whether run() has returned (its output is complete). Lock-free
/// atomics are async-signal-safe, and sequentially consistent: a signal that arrives as run()
/// returns is seen by main() or itself sees `g_finished` (either way the exit is 130).
std::atomic<int> g_stop_signals{0};
std::atomic<bool> g_finished{false};
static_assert(std::atomic<int>::is_always_lock_free && std::atomic<bool>::is_always_lock_free);

/// The first SIGINT or SIGTERM asks the work under way to stop (generating, planning, counting
/// or estimating: each checks within 0.1 s of work; a count drops its chunks under way and writes
/// its checkpoint with those finished before); a second one ends the process at once. Once
/// run() has returned, the exit is 130 at once.
extern "C" void on_stop_signal(int signal) {
    if (g_finished.load()) {
        constexpr char kMessage[] = "\ncount_matchings: interrupted\n";
        const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
        (void)ignored;
        ::_exit(130);
    }
    if (g_stop_signals.fetch_add(1) != 0) {
        ::signal(signal, SIG_DFL);
        ::raise(signal);
        return;
    }
    pmcount::request_stop();
    if (pmcount::mpi_world().rank == 0) {
        constexpr char kMessage[] = "\ncount_matchings: stopping (again to quit at once)\n";
        const ssize_t ignored = ::write(STDERR_FILENO, kMessage, sizeof kMessage - 1);
        (void)ignored;
    }
}

/// A phase that cannot check for a stop itself (reading the input, writing the DOT file) ends
/// with this check, so that a signal during it still ends the run with 130.
void stop_if_signalled(const char* phase) {
    if (g_stop_signals.load() != 0) {
        pmcount::clear_stop_request();
        throw pmcount::Interrupted(std::string("interrupted while ") + phase);
    }
}

void install_stop_handlers() {
    struct sigaction action = {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
}

constexpr const char* kExamples = R"(Examples:
  count_matchings datasets/grid_6x6.edgelist          perfect matchings (domino tilings)
  count_matchings datasets/petersen.edgelist          perfect matchings of a general graph
  count_matchings --cycle-covers datasets/digraph_7.edgelist   cycle covers of a digraph
  count_matchings --json matrix.mtx                   permanent, as one JSON object
  count_matchings --hafnian symmetric.mtx             hafnian of a symmetric matrix
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

std::string what_is_counted(const pmcount::Input& input, const std::string& mode) {
    if (!mode.empty()) {
        return mode;
    }
    if (std::holds_alternative<pmcount::BipartiteGraph>(input.data) ||
        std::holds_alternative<pmcount::UndirectedGraph>(input.data)) {
        return "perfect matchings";
    }
    if (input.hafnian) {
        return "hafnian";
    }
    if (std::holds_alternative<pmcount::Digraph>(input.data)) {
        return "cycle covers";
    }
    return "permanent";
}

nlohmann::json structure_json(const pmcount::Input& input, const pmcount::StructureReport& s);

/// pmcount::count, except that --permanent of a pattern with unequal sides (given by the file,
/// not 2-coloured) counts its 0-1 matrix's (rectangular) permanent: read as a graph it would
/// count perfect matchings, 0.
pmcount::CountResult count_as_asked(const pmcount::Input& input, const std::string& mode,
                                    const pmcount::CountOptions& options) {
    const auto* graph = std::get_if<pmcount::BipartiteGraph>(&input.data);
    if (mode != "permanent" || graph == nullptr || input.rows() == input.cols() ||
        input.two_coloured) {
        return pmcount::count(input, options);
    }
    std::vector<pmcount::Triplet<std::int64_t>> entries;
    entries.reserve(static_cast<std::size_t>(graph->num_edges()));
    for (const auto& [u, v] : graph->edges()) {
        entries.push_back({u, v, 1});
    }
    pmcount::Input matrix = input;
    matrix.data =
        pmcount::SparseMatrix<std::int64_t>(graph->n_left(), graph->n_right(), std::move(entries));
    pmcount::CountResult r = pmcount::count(matrix, options);
    r.kind = input.kind();
    return r;
}

nlohmann::json to_json(const pmcount::Input& input, const pmcount::CountResult& r,
                       const std::string& counted, double read_s, double total_s) {
    nlohmann::json j;
    j["input"] = input.source;
    j["format"] =
        input.format == pmcount::InputFormat::matrix_market ? "matrix_market" : "edge_list";
    j["counted"] = counted;
    j["kind"] = pmcount::to_string(r.kind);
    if (!r.explained_only) {
        j["value"] = r.value_string();
        j["exact"] = r.is_exact;
        j["log10"] = pmcount::tools::finite_or_null(r.log10_abs);
        j["sign"] = r.sign;
        if (r.kind == pmcount::ValueKind::complex) {
            j["value_re"] = r.complex_value.real();
            j["value_im"] = r.complex_value.imag();
        }
        if (!r.is_exact) {
            j["rel_error"] = pmcount::tools::finite_or_null(r.rel_error);
            j["abs_error"] = r.abs_error;
        }
        j["error_kind"] = r.error_kind;
        // "double" when cancellation made the default precision count again (see the note)
        j["escalated_from"] =
            r.escalated_from.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.escalated_from);
    }
    j["method"] = r.method;
    j["backend"] = r.backend;
    if (!r.device.empty()) {
        j["device"] = r.device;
    }
    j["arithmetic"] = r.arithmetic;
    j["rows"] = input.rows();
    j["cols"] = input.cols();
    j["n"] = r.stats.n;
    j["nnz"] = input.nnz();
    j["threads"] = r.stats.threads;
    j["ranks"] = r.stats.ranks;
    j["resumed_chunks"] = r.stats.resumed_chunks;
    j["primes"] = r.stats.primes;
    j["gray_steps"] = r.stats.gray_steps;
    if (!r.note.empty()) {
        j["note"] = r.note;
    }
    j["warnings"] = input.warnings;
    j["structure"] = structure_json(input, r.structure);
    j["explain_only"] = r.explained_only;
    j["timings"] = {{"read_s", read_s},
                    {"preprocess_s", r.timings.preprocess_s},
                    {"count_s", r.timings.count_s},
                    {"device_s", r.timings.device_s},
                    {"total_s", total_s}};
    if (!r.timings.kernel_cache.empty()) {
        j["timings"]["codegen_s"] = r.timings.codegen_s;
        j["timings"]["compile_s"] = r.timings.compile_s;
        j["timings"]["kernel_cache"] = r.timings.kernel_cache;
    }
    return j;
}

/// "12×12, 40 entries"; a general graph "12 vertices, 20 edges"; a hafnian's matrix "12×12
/// symmetric, 40 entries".
std::string shape_text(const pmcount::Input& input) {
    if (std::holds_alternative<pmcount::UndirectedGraph>(input.data)) {
        return std::to_string(input.rows()) + " vertices, " + std::to_string(input.nnz() / 2) +
               " edges";
    }
    return std::to_string(input.rows()) + "×" + std::to_string(input.cols()) +
           (input.hafnian ? " symmetric, " : ", ") + std::to_string(input.nnz()) + " entries";
}

/// "{3, 7, 9}" (at most 20 shown) with label(item) as text.
template <class Items, class Label>
std::string label_list(const Items& items, Label label) {
    constexpr std::size_t kShown = 20;
    std::string text = "{";
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i) {
        text += (i == 0 ? "" : ", ") + label(items[i]);
    }
    if (items.size() > kShown) {
        text += ", ... " + std::to_string(items.size() - kShown) + " more";
    }
    return text + "}";
}

/// "rows {3, 7, 9} have only the 2 neighbours {1, 4}", labelled as in the file (capped).
std::string hall_witness(const pmcount::Input& input, const pmcount::StructureReport& s) {
    auto row = [&](pmcount::vertex_t r) { return std::to_string(input.row_label(r)); };
    auto col = [&](pmcount::vertex_t c) { return std::to_string(input.col_label(c)); };
    return "rows " + label_list(s.hall_rows, row) + " have only the " +
           std::to_string(s.hall_cols.size()) + " neighbour(s) " + label_list(s.hall_cols, col);
}

/// A vertex of the general-graph path as the file named it. A bipartite input counted with
/// --general has its rows first, then its columns: their ids when the file's ids were kept (an
/// undirected edge list), else "left 3" / "right 5" (edge lists) or "row 3" / "column 5".
nlohmann::json vertex_label(const pmcount::Input& input, pmcount::vertex_t v) {
    if (input.is_general()) {
        return input.row_label(v);
    }
    const bool row = v < input.rows();
    const std::int64_t id = row ? input.row_label(v) : input.col_label(v - input.rows());
    if (!input.left_ids.empty()) {
        return id;
    }
    const bool mtx = input.format == pmcount::InputFormat::matrix_market;
    return std::string(row ? (mtx ? "row " : "left ") : (mtx ? "column " : "right ")) +
           std::to_string(id);
}

/// "the Tutte set {3, 7} (2 vertices) leaves 4 odd components".
std::string tutte_witness(const pmcount::Input& input, const pmcount::StructureReport& s) {
    auto label = [&](pmcount::vertex_t v) {
        const nlohmann::json j = vertex_label(input, v);
        return j.is_string() ? j.get<std::string>() : j.dump();
    };
    return "the Tutte set " + label_list(s.tutte_set, label) + " (" +
           std::to_string(s.tutte_set.size()) + " vertices) leaves " +
           std::to_string(s.tutte_odd_components) + " odd components when removed";
}

nlohmann::json structure_json(const pmcount::Input& input, const pmcount::StructureReport& s) {
    nlohmann::json j;
    j["dulmage_mendelsohn"] = s.dulmage_mendelsohn;
    j["reductions_enabled"] = s.reductions;
    j["matching_size"] = s.matching_size;
    j["blocks"] = s.block_orders;
    j["dropped_entries"] = s.dropped_entries;
    j["reductions"] = {{"eliminated", s.eliminated}, {"merged", s.merged}, {"split", s.split}};
    nlohmann::json leaves = nlohmann::json::array();
    for (const auto& leaf : s.leaves) {
        leaves.push_back({{"order", leaf.order},
                          {"nnz", leaf.nnz},
                          {"engine", leaf.engine},
                          {"origin", leaf.origin},
                          {"predicted_s", pmcount::tools::finite_or_null(leaf.predicted_s)},
                          {"seconds", leaf.seconds}});
    }
    j["leaves"] = leaves;
    j["predicted_s"] = pmcount::tools::finite_or_null(s.predicted_s);
    j["machine_speed_measured"] = s.machine_speed_measured;
    j["general"] = s.general;
    if (s.general && s.tutte_odd_components > 0) {
        nlohmann::json set = nlohmann::json::array();
        for (const auto v : s.tutte_set) {
            set.push_back(vertex_label(input, v));
        }
        j["tutte_set"] = {{"vertices", set}, {"odd_components", s.tutte_odd_components}};
    }
    if (!s.hall_rows.empty()) {
        nlohmann::json rows = nlohmann::json::array(), cols = nlohmann::json::array();
        for (const auto r : s.hall_rows) {
            rows.push_back(input.row_label(r));
        }
        for (const auto c : s.hall_cols) {
            cols.push_back(input.col_label(c));
        }
        j["hall_violator"] = {{"rows", rows}, {"neighbours", cols}};
    }
    j["plan"] = s.plan_text;
    return j;
}

void print_explanation(const pmcount::Input& input, const pmcount::CountResult& r,
                       const std::string& counted) {
    const pmcount::StructureReport& s = r.structure;
    std::cout << "plan for " << counted << " of " << input.source << " (" << shape_text(input)
              << ", " << pmcount::to_string(r.kind) << ")\n";
    if (!r.note.empty()) {
        std::cout << "note: " << r.note << "\n";
    }
    if (!s.hall_rows.empty()) {
        std::cout << "witness: " << hall_witness(input, s) << "\n";
    }
    if (s.general && s.tutte_odd_components > 0) {
        std::cout << "witness: " << tutte_witness(input, s) << "\n";
    }
    if (s.general) {
        if (s.dulmage_mendelsohn) {
            std::cout << "maximum matching (blossom): " << s.matching_size
                      << " edges; pieces (components, blocks): " << s.block_orders.size()
                      << "; edges in no perfect matching: " << s.dropped_entries << "\n";
        }
        std::cout << "reductions: " << s.eliminated << " forced edges, " << s.merged
                  << " degree-2 contractions (bipartite pieces: Forbert–Marx " << s.split
                  << " split); " << s.leaves.size() << " leaf problem(s)\n";
    } else {
        if (s.dulmage_mendelsohn) {
            std::cout << "maximum matching: " << s.matching_size
                      << "; fine Dulmage–Mendelsohn blocks: " << s.block_orders.size()
                      << "; entries in no perfect matching: " << s.dropped_entries << "\n";
        }
        std::cout << "Forbert–Marx: " << s.eliminated << " eliminated, " << s.merged << " merged, "
                  << s.split << " split; " << s.leaves.size() << " leaf problem(s)\n";
    }
    std::cout << s.plan_text << "predicted total: " << s.predicted_s << " s on " << r.stats.threads
              << " thread(s)\n";
}

void write_dot_file(const std::string& path, const pmcount::Input& input) {
    if (input.isolated) {
        // The drawing would hold every declared vertex, far more than the file has bytes.
        throw pmcount::InvalidInput(
            input.source, 0,
            "--dot would draw every declared vertex (" + std::to_string(input.rows()) + "×" +
                std::to_string(input.cols()) + " for " + std::to_string(input.nnz()) +
                " entries); " + input.isolated->witness + ", so the count is 0 (without --dot)");
    }
    std::ofstream out(path);
    if (!out) {
        throw pmcount::InvalidArgument("cannot write --dot file '" + path + "'");
    }
    const pmcount::BipartiteGraph pattern = input.pattern();
    pmcount::write_dot(out, pattern, pmcount::dulmage_mendelsohn(pattern));
}

void print_version() {
    const pmcount::BuildInfo info = pmcount::build_info();
    std::cout << "count_matchings (pmcount) " << info.version << "\n"
              << "compiler: " << info.compiler << ", build " << info.build_type << "\n"
              << "OpenMP: " << info.max_threads << " threads\n"
              << "CUDA: "
              << (info.cuda_compiled ? "built with CUDA " + info.cuda_version : "not built") << "\n"
              << "MPI: " << (info.mpi_library.empty() ? "not built" : info.mpi_library) << "\n";
    if (info.devices.empty()) {
        std::cout << "GPUs: none (" << info.device_status << ")\n";
    }
    for (const auto& d : info.devices) {
        std::cout << "GPU " << d.index << ": " << d.name << " (sm_" << d.compute_major
                  << d.compute_minor << ", " << d.multiprocessors << " SMs, "
                  << d.memory_bytes / (1024 * 1024) << " MiB)\n";
    }
}

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

int run(int argc, char** argv, const pmcount::MpiWorld& world) {
    CLI::App app{"count_matchings — exact perfect matchings, cycle covers and permanents"};
    app.footer(kExamples);
    std::string path;
    bool perfect_matchings = false, cycle_covers = false, permanent = false;
    std::string method = "auto", precision = "auto", format = "auto", backend = "auto",
                gpu_kernels = "auto";
    std::vector<int> gpus;
    int threads = 0;
    bool json = false, quiet = false, version = false, sum_duplicates = false;
    bool explain = false, no_dm = false, no_reduce = false, general = false, hafnian = false;
    double max_time = 86400;
    std::string max_memory_text;
    std::string dot_path;
    std::string checkpoint;
    bool resume = false;
    double checkpoint_every = 10;

    app.add_option(
        "input", path,
        "graph or matrix file ('-' for standard input), or a generator spec such as "
        "grid:32x32, torus:8x8, hexagon:3,4,5, aztec:10, complete:8, random:30,0.2,SEED, "
        "regular:30,3,SEED (a file of that name takes precedence)");
    auto* pm = app.add_flag("--perfect-matchings", perfect_matchings,
                            "count perfect matchings of the 0-1 pattern (default for graphs; with "
                            "--hafnian, of the pattern read as an undirected graph)");
    auto* cc = app.add_flag("--cycle-covers", cycle_covers,
                            "count cycle covers: read an edge list as arcs u→v of a digraph");
    auto* pe = app.add_flag("--permanent", permanent,
                            "permanent of the matrix (default for weighted inputs); an m×n "
                            "matrix with m < n: the sum over the injective maps of its rows to "
                            "its columns (m > n: that of its transpose)");
    auto* hf = app.add_flag("--hafnian", hafnian,
                            "hafnian: read the file as an undirected graph or a symmetric matrix "
                            "(never split into sides) and count its perfect matchings / hafnian");
    pm->excludes(cc, pe);
    cc->excludes(pe, hf);
    pe->excludes(hf);
    std::string embedding_path;
    app.add_option("--embedding", embedding_path,
                   "the graph's drawing on a surface, for the Pfaffians on it (a torus: four): one "
                   "line 'VERTEX: NEIGHBOUR ...' per vertex, its neighbours in cyclic order (an "
                   "undirected graph's ids; docs/general_graphs.md)");
    app.add_flag("--general", general,
                 "count through the general-graph path (blossom, hafnian and Pfaffian engines) "
                 "even where the graph or a piece of it is bipartite (to check one path against "
                 "the other)");
    app.add_option("--method", method,
                   "engine for every block: auto (the planner chooses), ryser (dense), sparyser, "
                   "skipper (sparse), planar (Kasteleyn, or the FKT Pfaffian for general graphs; "
                   "planar patterns; the four Pfaffians of a generated torus), frontier (DP over a "
                   "narrow vertex order), hafnian "
                   "(Björklund's recursion; any graph), brute-force (the oracle, n <= 12; "
                   "pairings for general graphs, n <= 16)")
        ->capture_default_str();
    app.add_option("--backend", backend,
                   "where engines run: auto (GPUs when predicted faster), cpu, cuda")
        ->capture_default_str();
    app.add_option("--gpu-kernels", gpu_kernels,
                   "sparse GPU engines (sparyser, skipper on --backend cuda): auto (the planner "
                   "chooses), tables (one kernel per order, the matrix in shared memory), "
                   "generated (a kernel generated for the matrix, compiled by NVRTC, cached)")
        ->capture_default_str();
    // One argument, split at commas: `--gpus 0 FILE` must leave FILE to the positional.
    app.add_option("--gpus", gpus, "GPU device indices to use, e.g. --gpus 0,1 (default: all)")
        ->delimiter(',')
        ->allow_extra_args(false)
        ->check(CLI::Range(0, 1023));
    app.add_option("--threads", threads, "CPU threads (0: all cores)")
        ->check(number_at_least(0, true, pmcount::kMaxThreads))
        ->capture_default_str();
    app.add_option("--precision", precision,
                   "arithmetic: auto (exact for integer inputs, double otherwise, counted again "
                   "certified or in dd when fewer than six digits are left), exact, "
                   "double, dd, plain-double (uncompensated on GPUs; the CPU engines always "
                   "compensate), certified (dense Ryser, CPU or GPU, a proven error bound)")
        ->capture_default_str();
    app.add_option("--format", format, "input format: auto, edgelist, mtx")
        ->check(CLI::IsMember({"auto", "edgelist", "mtx"}))
        ->capture_default_str();
    app.add_flag("--sum-duplicates", sum_duplicates,
                 "add the values of repeated entries instead of rejecting them");
    app.add_flag("--explain", explain,
                 "print the plan (decomposition, reductions, engine and predicted time per block) "
                 "without counting");
    app.add_flag("--no-dulmage-mendelsohn", no_dm,
                 "skip the Dulmage–Mendelsohn decomposition (general graphs: the matching, "
                 "component and block split; to measure it)");
    app.add_flag("--no-reductions", no_reduce,
                 "skip the Forbert–Marx reductions (general graphs: the forced-edge and degree-2 "
                 "reductions; to measure them)");
    app.add_option("--max-memory", max_memory_text,
                   "refuse, in one line, what is predicted to need more memory than this (the "
                   "planner's structures, an engine's tables, the estimator's populations): "
                   "e.g. 2G, 500M; K, M, G, T are powers of 1024; 0: no limit (default: half "
                   "of the physical memory, " +
                       gib_text(pmcount::default_max_memory()) + " here)")
        ->check(CLI::Validator(
            [](std::string& text) -> std::string {
                return parse_memory_size(text) ? ""
                                               : "'" + text +
                                                     "' is not a size (e.g. 2G, 500M, 0 for no "
                                                     "limit)";
            },
            "SIZE"));
    auto* max_predicted = app.add_option("--max-predicted-seconds", max_time,
                                         "refuse plans predicted to take longer than this many "
                                         "seconds (0: no limit)")
                              ->check(number_at_least(0, false))
                              ->capture_default_str();
    auto* cp = app.add_option("--checkpoint", checkpoint,
                              "record finished work in this file (atomically, every "
                              "--checkpoint-interval seconds and on SIGINT/SIGTERM)");
    app.add_flag("--resume", resume,
                 "continue from the --checkpoint file (same input, precision and engines; "
                 "--approx: same estimator, seed and populations)")
        ->needs(cp);
    auto* checkpoint_interval =
        app.add_option("--checkpoint-interval", checkpoint_every,
                       "seconds between checkpoint writes")
            ->check(number_at_least(0, false))
            ->capture_default_str();
    app.add_option("--dot", dot_path,
                   "write the Dulmage–Mendelsohn decomposition as Graphviz DOT to this file");
    app.add_flag("--json", json, "print one JSON object with the value, method and timings");
    app.add_flag("-q,--quiet", quiet, "print only the value (no summary, warnings or progress)");
    app.add_flag("--version", version, "print version, build and GPU information");

    // The names these options had before they took the library's (CountOptions): still accepted.
    const char* deprecated = "Deprecated names (before pmcount 0.2)";
    app.add_flag("--no-dm", no_dm, "deprecated: --no-dulmage-mendelsohn")->group(deprecated);
    app.add_flag("--no-reduce", no_reduce, "deprecated: --no-reductions")->group(deprecated);
    app.add_option("--max-time", max_time, "deprecated: --max-predicted-seconds")
        ->check(number_at_least(0, false))
        ->excludes(max_predicted)
        ->group(deprecated);
    app.add_option("--checkpoint-every", checkpoint_every, "deprecated: --checkpoint-interval")
        ->check(number_at_least(0, false))
        ->excludes(checkpoint_interval)
        ->group(deprecated);

    // Estimators (pmcount/approx.hpp): an estimate with a confidence interval instead of the
    // exact count. Stops at whichever of --samples, --time, --rel-error comes first.
    bool approx = false;
    std::string estimator = "scaling+", layout = "auto";
    pmcount::EstimateOptions estimate_options;
    app.add_flag("--approx", approx,
                 "estimate instead of counting exactly (default estimator scaling+); the options "
                 "of an exact count (--method, --precision, --gpu-kernels, --general, "
                 "--no-dulmage-mendelsohn, --no-reductions, --max-predicted-seconds) are refused "
                 "with it, and those marked --approx below without it");
    app.add_option("--estimator", estimator,
                   "rasmussen, rasmussen+, scaling, scaling+ (implies --approx)")
        ->capture_default_str();
    app.add_option("--samples", estimate_options.samples, "--approx: stop after this many samples")
        ->check(number_at_least(0, true));
    app.add_option("--time", estimate_options.time_s, "--approx: stop after this many seconds")
        ->check(number_at_least(0, false));
    app.add_option("--rel-error", estimate_options.rel_error,
                   "--approx: stop when the 95% interval's relative half-width is below this")
        ->check(number_at_least(0, false));
    app.add_option("--seed", estimate_options.seed, "--approx: random seed")->capture_default_str();
    app.add_option("--scale-every", estimate_options.scale_every,
                   "--approx, scaling estimators: rescale every this many steps")
        ->check(number_at_least(1, true))
        ->capture_default_str();
    app.add_option("--scale-iters", estimate_options.scale_iters,
                   "--approx, scaling estimators: Sinkhorn-Knopp sweeps per rescale")
        ->check(number_at_least(1, true))
        ->capture_default_str();
    app.add_option("--particles", estimate_options.particles,
                   "--approx: samples per population, resampled as they go (sequential "
                   "Monte Carlo; 0: chosen from the input and the budget, --explain shows it; "
                   "1: independent samples)")
        ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 30))
        ->capture_default_str();
    app.add_option("--resample-every", estimate_options.resample_every,
                   "--approx with populations: resample every this many steps (0: 16)")
        ->check(number_at_least(0, true))
        ->capture_default_str();
    app.add_option("--potential-exponent", estimate_options.potential_exponent,
                   "--approx with populations: resample on weight x potential^this")
        ->check(number_at_least(0, false))
        ->capture_default_str();
    app.add_option("--layout", layout,
                   "--approx: how the sampler reads the matrix: auto, dense, sparse")
        ->check(CLI::IsMember({"auto", "dense", "sparse"}))
        ->capture_default_str();

    // Usage errors in one line, like every other error.
    app.failure_message([](const CLI::App*, const CLI::Error& e) {
        return "count_matchings: " + std::string(e.what()) + " (see --help)\n";
    });
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kOk : kUsage;
    }
    approx = approx || app.count("--estimator") > 0;
    if (version) {
        print_version();
        return kOk;
    }
    if (path.empty()) {
        std::cerr << "count_matchings: missing input file (see --help)\n";
        return kUsage;
    }
    // An exact count's options given to an estimate, or an estimator's to an exact count, would be
    // dropped silently (--approx --method ryser estimated with Scaling+): refused in one line, as
    // a pair of counting flags is.
    static const std::vector<const char*> kExactOnly{
        "--method",         "--precision",     "--gpu-kernels",           "--general",
        "--no-dm",          "--no-reduce",     "--max-time",              "--embedding",
        "--no-reductions", "--no-dulmage-mendelsohn", "--max-predicted-seconds"};
    static const std::vector<const char*> kEstimateOnly{
        "--samples",   "--time",           "--rel-error",
        "--seed",      "--scale-every",    "--scale-iters",
        "--particles", "--resample-every", "--potential-exponent",
        "--layout"};
    for (const char* name : approx ? kExactOnly : kEstimateOnly) {
        if (app.count(name) > 0) {
            std::cerr << "count_matchings: " << name
                      << (approx ? " applies to exact counts, not to --approx"
                                 : " applies to --approx (estimates) only")
                      << " (see --help)\n";
            return kUsage;
        }
    }

    pmcount::CountOptions options;
    pmcount::ReadOptions read_options;
    std::string mode;
    try {
        options.method = pmcount::method_from_string(method);
        options.precision = pmcount::precision_from_string(precision);
        options.backend = pmcount::backend_from_string(backend);
        options.gpu_kernels = pmcount::gpu_kernels_from_string(gpu_kernels);
    } catch (const pmcount::InvalidArgument& e) {
        std::cerr << "count_matchings: " << e.what() << "\n";
        return kUsage;
    }
    options.threads = threads;
    options.gpus = gpus;
    options.explain_only = explain;
    options.dulmage_mendelsohn = !no_dm;
    options.reductions = !no_reduce;
    options.general = general;
    options.max_predicted_seconds =
        max_time > 0 ? max_time : std::numeric_limits<double>::infinity();
    options.max_memory = max_memory_text.empty() ? pmcount::default_max_memory()
                                                 : *parse_memory_size(max_memory_text);
    options.checkpoint = checkpoint;
    options.resume = resume;
    options.checkpoint_interval_s = checkpoint_every;
    if (threads == 0 && world.local_size > 1) {
        // Ranks on one host share its cores.
        options.threads =
            std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / world.local_size);
    }
    read_options.sum_duplicates = sum_duplicates;
    read_options.format = format == "mtx"        ? pmcount::InputFormat::matrix_market
                          : format == "edgelist" ? pmcount::InputFormat::edge_list
                                                 : pmcount::InputFormat::automatic;
    // The counting flags exclude each other (CLI11 refuses a pair in one line, exit 1) except
    // --perfect-matchings with --hafnian, which say two compatible things: count perfect matchings
    // of the pattern (values ignored), and read the file as an undirected graph (never split into
    // sides). Both hold: K4 as a symmetric pattern gives 3, never the bipartite reading's 9.
    if (perfect_matchings) {
        read_options.pattern_only = true;
        mode = "perfect matchings";
    } else if (cycle_covers) {
        read_options.interpretation = pmcount::GraphInterpretation::directed;
        mode = "cycle covers";
    } else if (permanent) {
        mode = "permanent";
    } else if (hafnian) {
        mode = "hafnian";
    }
    if (hafnian) {
        read_options.interpretation = pmcount::GraphInterpretation::general;
    }

    pmcount::tools::ProgressBar bar(!quiet && !json && isatty(STDERR_FILENO) != 0);
    options.progress = [&bar](const pmcount::Progress& p) { bar.update(p.fraction, p.elapsed_s); };

    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    try {
        // A generator spec names a file when a file of that name exists.
        pmcount::Input input = pmcount::is_generator_spec(path) && !std::filesystem::exists(path)
                                   ? pmcount::generated_input(path)
                                   : pmcount::read_input(path, read_options);
        if (!embedding_path.empty()) {
            pmcount::read_embedding(embedding_path, input);
        }
        stop_if_signalled("reading the input");
        const double read_s = seconds();
        if (!quiet && !json) {
            for (const auto& w : input.warnings) {
                std::cerr << "warning: " << w << "\n";
            }
        }
        if (!dot_path.empty()) {
            write_dot_file(dot_path, input);
            stop_if_signalled("writing the DOT file");
        }
        if (approx) {
            estimate_options.estimator = pmcount::estimator_from_string(estimator);
            estimate_options.layout = pmcount::estimator_layout_from_string(layout);
            static_cast<pmcount::RunOptions&>(estimate_options) = options;
            if (explain) {
                const std::string counted = what_is_counted(input, mode);
                const pmcount::PopulationChoice c =
                    pmcount::choose_populations(input.rows(), estimate_options);
                if (json) {
                    std::cout << pmcount::tools::estimate_plan_json(input, estimate_options, c,
                                                                    counted)
                                     .dump()
                              << std::endl;
                } else {
                    pmcount::tools::print_estimate_plan(input, estimate_options, c, counted);
                }
                return kOk;
            }
            const pmcount::EstimateResult estimate = pmcount::estimate(input, estimate_options);
            bar.clear();
            const std::string counted = what_is_counted(input, mode);
            if (json) {
                std::cout << pmcount::tools::estimate_json(input, estimate, counted, read_s,
                                                           seconds())
                                 .dump()
                          << std::endl;
            } else {
                pmcount::tools::print_estimate(input, estimate, counted, !quiet, seconds());
            }
            return kOk;
        }
        const pmcount::CountResult result = count_as_asked(input, mode, options);
        bar.clear();
        const std::string counted = what_is_counted(input, mode);
        if (json) {
            std::cout << to_json(input, result, counted, read_s, seconds()).dump() << std::endl;
            return kOk;
        }
        if (result.explained_only) {
            print_explanation(input, result, counted);
            return kOk;
        }
        std::cout << result.value_string() << std::endl;
        if (!quiet) {
            std::cerr << counted << " of " << input.source << " (" << shape_text(input) << ", "
                      << pmcount::to_string(result.kind) << "): ";
            if (result.is_exact) {
                std::cerr << "exact";
            } else {
                std::cerr << "relative error ≤ " << result.rel_error
                          << (result.error_kind == "bound" ? " (certified bound)" : " (estimated)");
            }
            std::cerr << "; " << result.method << ", " << result.arithmetic << ", "
                      << (result.device.empty()
                              ? std::to_string(result.stats.threads) + " thread(s)"
                              : result.device)
                      << (result.stats.ranks > 1
                              ? " on each of " + std::to_string(result.stats.ranks) + " MPI ranks"
                              : "")
                      << (result.stats.resumed_chunks > 0
                              ? ", " + std::to_string(result.stats.resumed_chunks) +
                                    " chunks from the checkpoint"
                              : "")
                      << ", " << seconds() << " s\n";
            if (!result.note.empty()) {
                std::cerr << "note: " << result.note << "\n";
            }
            if (!result.structure.hall_rows.empty()) {
                std::cerr << "witness: " << hall_witness(input, result.structure) << "\n";
            }
            if (result.structure.general && result.structure.tutte_odd_components > 0) {
                std::cerr << "witness: " << tutte_witness(input, result.structure) << "\n";
            }
        }
        return kOk;
    } catch (const pmcount::InvalidInput& e) {
        bar.clear();
        std::cerr << "error: " << e.what() << "\n";
        return kInputError;
    } catch (const pmcount::InvalidArgument& e) {
        bar.clear();
        std::cerr << "error: " << e.what() << "\n";
        return kUsage;
    } catch (const pmcount::Interrupted& e) {
        bar.clear();
        std::cerr << "count_matchings: " << e.what() << "\n";
        return kInterrupted;
    } catch (const pmcount::Error& e) {
        bar.clear();
        std::cerr << "error: " << e.what() << "\n";
        return kRuntimeError;
    } catch (const std::bad_alloc&) {
        bar.clear();
        std::cerr << "error: out of memory\n";
        return kRuntimeError;
    } catch (const std::exception& e) {
        // Anything else (a thread that could not start, ...) still ends with one line and code 3.
        bar.clear();
        std::cerr << "error: " << e.what() << "\n";
        return kRuntimeError;
    }
}

/// run()'s exit code, or 130 when a SIGINT or SIGTERM arrived after the last phase checked (as
/// the answer was printed, or as a count finished its last chunk): after a signal the exit is
/// never 0.
int exit_code(int code) {
    g_finished.store(true);
    if (code == kOk && g_stop_signals.load() != 0) {
        std::cerr << "count_matchings: interrupted (the output above is complete)\n";
        return kInterrupted;
    }
    return code;
}

int main(int argc, char** argv) {
    const pmcount::MpiWorld world = pmcount::mpi_start(&argc, &argv);
    install_stop_handlers();
    if (world.size == 1) {
        const int code = exit_code(run(argc, argv, world));
        pmcount::mpi_finish();
        return code;
    }
    // Rank 0 prints; the others keep what they would print and show it only for a failure of
    // their own (input and usage errors, interrupts, are met by every rank alike).
    std::ostringstream kept;
    std::streambuf* out = std::cout.rdbuf();
    std::streambuf* err = std::cerr.rdbuf();
    if (world.rank != 0) {
        std::cout.rdbuf(kept.rdbuf());
        std::cerr.rdbuf(kept.rdbuf());
    }
    const int code = exit_code(run(argc, argv, world));
    std::cout.rdbuf(out);
    std::cerr.rdbuf(err);
    if (code == kRuntimeError) {
        // Perhaps this rank's alone, with the others waiting for it: end them all.
        if (world.rank != 0) {
            std::cerr << "count_matchings, rank " << world.rank << ": " << kept.str();
        }
        std::cerr.flush();
        pmcount::mpi_abort(code);
    }
    pmcount::mpi_finish();
    return code;
}
