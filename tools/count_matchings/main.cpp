// count_matchings: the exact number of perfect matchings / cycle covers, or the permanent, of the
// graph or matrix in a file. A thin CLI over pmcount::read_input and pmcount::count.
//
// Exit codes: 0 ok, 1 usage, 2 input error, 3 runtime error.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <exception>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <string>

#include "progress_bar.hpp"
#include "pmcount/pmcount.hpp"

namespace {

enum ExitCode { kOk = 0, kUsage = 1, kInputError = 2, kRuntimeError = 3 };

constexpr const char* kExamples = R"(Examples:
  count_matchings datasets/grid_6x6.edgelist          perfect matchings (domino tilings)
  count_matchings --cycle-covers datasets/cycle_5.edgelist
  count_matchings --json matrix.mtx                   permanent, as one JSON object
  cat graph.txt | count_matchings -                   read standard input
  count_matchings --precision dd real_matrix.mtx      double-double arithmetic

Input formats: edge lists ('u v' or 'u v weight' per line; optional header '# bipartite L R',
'# directed N' or '# undirected N'; without a header an undirected graph is 2-coloured) and
Matrix Market (coordinate or array; pattern, integer, real, complex). Integer and 0-1 inputs get
exact integer answers; real and complex inputs a double answer with an error estimate.

Exit codes: 0 ok, 1 usage error, 2 input error, 3 runtime error (e.g. a problem too large).)";

std::string what_is_counted(const pmcount::Input& input, const std::string& mode) {
    if (!mode.empty()) {
        return mode;
    }
    if (std::holds_alternative<pmcount::BipartiteGraph>(input.data)) {
        return "perfect matchings";
    }
    if (std::holds_alternative<pmcount::Digraph>(input.data)) {
        return "cycle covers";
    }
    return "permanent";
}

nlohmann::json to_json(const pmcount::Input& input, const pmcount::CountResult& r,
                       const std::string& counted, double read_s, double total_s) {
    nlohmann::json j;
    j["input"] = input.source;
    j["format"] =
        input.format == pmcount::InputFormat::matrix_market ? "matrix_market" : "edge_list";
    j["counted"] = counted;
    j["kind"] = pmcount::to_string(r.kind);
    j["value"] = r.value_string();
    j["exact"] = r.is_exact;
    j["log10"] = std::isfinite(r.log10_abs) ? nlohmann::json(r.log10_abs) : nlohmann::json(nullptr);
    j["sign"] = r.sign;
    if (r.kind == pmcount::ValueKind::complex) {
        j["value_re"] = r.complex_value.real();
        j["value_im"] = r.complex_value.imag();
    }
    if (!r.is_exact) {
        j["rel_error"] =
            std::isfinite(r.rel_error) ? nlohmann::json(r.rel_error) : nlohmann::json(nullptr);
        j["abs_error"] = r.abs_error;
    }
    j["method"] = r.method;
    j["backend"] = r.backend;
    j["arithmetic"] = r.arithmetic;
    j["rows"] = input.rows();
    j["cols"] = input.cols();
    j["n"] = r.stats.n;
    j["nnz"] = input.nnz();
    j["threads"] = r.stats.threads;
    j["primes"] = r.stats.primes;
    j["gray_steps"] = r.stats.gray_steps;
    if (!r.note.empty()) {
        j["note"] = r.note;
    }
    j["warnings"] = input.warnings;
    j["timings"] = {{"read_s", read_s},
                    {"preprocess_s", r.timings.preprocess_s},
                    {"count_s", r.timings.count_s},
                    {"total_s", total_s}};
    return j;
}

void print_version() {
    const pmcount::BuildInfo info = pmcount::build_info();
    std::cout << "count_matchings (pmcount) " << info.version << "\n"
              << "compiler: " << info.compiler << ", build " << info.build_type << "\n"
              << "OpenMP: " << info.max_threads << " threads\n"
              << "CUDA: "
              << (info.cuda_compiled ? "built with CUDA " + info.cuda_version : "not built")
              << "\n";
    if (info.devices.empty()) {
        std::cout << "GPUs: none (" << info.device_status << ")\n";
    }
    for (const auto& d : info.devices) {
        std::cout << "GPU " << d.index << ": " << d.name << " (sm_" << d.compute_major
                  << d.compute_minor << ", " << d.multiprocessors << " SMs, "
                  << d.memory_bytes / (1024 * 1024) << " MiB)\n";
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{"count_matchings — exact perfect matchings, cycle covers and permanents"};
    app.footer(kExamples);
    std::string path;
    bool perfect_matchings = false, cycle_covers = false, permanent = false;
    std::string method = "auto", precision = "auto", format = "auto";
    int threads = 0;
    bool json = false, quiet = false, version = false, sum_duplicates = false;

    app.add_option("input", path, "graph or matrix file ('-' for standard input)");
    auto* pm = app.add_flag("--perfect-matchings", perfect_matchings,
                            "count perfect matchings of the 0-1 pattern (default for graphs)");
    auto* cc = app.add_flag("--cycle-covers", cycle_covers,
                            "count cycle covers: read an edge list as arcs u→v of a digraph");
    auto* pe = app.add_flag("--permanent", permanent,
                            "permanent of the weighted matrix (default for weighted inputs)");
    pm->excludes(cc, pe);
    cc->excludes(pe);
    app.add_option("--method", method, "engine: auto, brute-force, ryser")->capture_default_str();
    app.add_option("--threads", threads, "CPU threads (0: all cores)")
        ->check(CLI::NonNegativeNumber)
        ->capture_default_str();
    app.add_option(
           "--precision", precision,
           "arithmetic: auto (exact for integer inputs, double otherwise), exact, double, dd")
        ->capture_default_str();
    app.add_option("--format", format, "input format: auto, edgelist, mtx")
        ->check(CLI::IsMember({"auto", "edgelist", "mtx"}))
        ->capture_default_str();
    app.add_flag("--sum-duplicates", sum_duplicates,
                 "add the values of repeated entries instead of rejecting them");
    app.add_flag("--json", json, "print one JSON object with the value, method and timings");
    app.add_flag("-q,--quiet", quiet, "print only the value (no summary, warnings or progress)");
    app.add_flag("--version", version, "print version, build and GPU information");

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? kOk : kUsage;
    }
    if (version) {
        print_version();
        return kOk;
    }
    if (path.empty()) {
        std::cerr << "count_matchings: missing input file (see --help)\n";
        return kUsage;
    }

    pmcount::CountOptions options;
    pmcount::ReadOptions read_options;
    std::string mode;
    try {
        options.method = pmcount::method_from_string(method);
        options.precision = pmcount::precision_from_string(precision);
    } catch (const pmcount::InvalidArgument& e) {
        std::cerr << "count_matchings: " << e.what() << "\n";
        return kUsage;
    }
    options.threads = threads;
    read_options.sum_duplicates = sum_duplicates;
    read_options.format = format == "mtx"        ? pmcount::InputFormat::matrix_market
                          : format == "edgelist" ? pmcount::InputFormat::edge_list
                                                 : pmcount::InputFormat::automatic;
    if (perfect_matchings) {
        read_options.pattern_only = true;
        mode = "perfect matchings";
    } else if (cycle_covers) {
        read_options.interpretation = pmcount::GraphInterpretation::directed;
        mode = "cycle covers";
    } else if (permanent) {
        mode = "permanent";
    }

    pmcount::tools::ProgressBar bar(!quiet && !json && isatty(STDERR_FILENO) != 0);
    options.progress = [&bar](const pmcount::Progress& p) { bar.update(p.fraction, p.elapsed_s); };

    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    try {
        const pmcount::Input input = pmcount::read_input(path, read_options);
        const double read_s = seconds();
        if (!quiet && !json) {
            for (const auto& w : input.warnings) {
                std::cerr << "warning: " << w << "\n";
            }
        }
        const pmcount::CountResult result = pmcount::count(input, options);
        bar.clear();
        const std::string counted = what_is_counted(input, mode);
        if (json) {
            std::cout << to_json(input, result, counted, read_s, seconds()).dump() << std::endl;
            return kOk;
        }
        std::cout << result.value_string() << std::endl;
        if (!quiet) {
            std::cerr << counted << " of " << input.source << " (" << input.rows() << "×"
                      << input.cols() << ", " << input.nnz() << " entries, "
                      << pmcount::to_string(result.kind) << "): ";
            if (result.is_exact) {
                std::cerr << "exact";
            } else {
                std::cerr << "relative error ≤ " << result.rel_error << " (estimated)";
            }
            std::cerr << "; " << result.method << ", " << result.arithmetic << ", "
                      << result.stats.threads << " thread(s), " << seconds() << " s\n";
            if (!result.note.empty()) {
                std::cerr << "note: " << result.note << "\n";
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
