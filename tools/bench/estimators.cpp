// pmcount-bench estimators: times the estimators on m×n grids (--grids), or on any lattices
// given as generator specs (--lattices), on the CPU and the GPUs in the same run, against the
// truth: Kasteleyn's closed form for the number of domino tilings of a grid, the exact engines'
// count for the others (planar or frontier: independent of the sampler).
//
// For every lattice × estimator × backend, --runs runs with seeds seed, seed + 1, … each stop at
// --samples, --rel-error or --time (whichever first). One JSON line per run:
//   case, estimator, backend, device, threads, n, nnz, seed, samples, particles (per population,
//   1: independent samples), populations, resample_every and potential_exponent (populations
//   only), seconds (whole call),
//   sample_seconds, us_per_sample, log10_value, log10_truth, error (estimate / truth − 1),
//   log10_ci_low, log10_ci_high, covered (the interval holds the truth), rel_std_error,
//   zero_fraction, log_sd (sd of the samples' logs), stopped, check
// then per lattice × estimator × backend {"coverage": k of runs}, and with both backends a ratio
// line {"ratio": "cuda vs cpu", "per_sample_speedup": us_per_sample(cpu) / us_per_sample(cuda)}
// (medians over the runs), and a summary.
//
// check: "ok" when the interval covers the truth, "outside-ci" when it does not (expected in
// about 1 − confidence of runs), "MISMATCH" when the estimate is more than 6 standard errors off
// (the estimator or the interval is broken): exit status 2; with --min-coverage F, also when a
// combination's intervals cover the truth in fewer than F of its runs. This is the statistical
// coverage measurement (docs/estimators.md); the unit tests run smaller versions of it.
#include "estimators.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "common.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/pmcount.hpp"

namespace pmcount::bench {

namespace {

/// A graph and log10 of its number of perfect matchings.
struct Lattice {
    std::string name;
    BipartiteGraph graph;
    double log10_truth = 0;
};

std::vector<Lattice> parse_grids(const std::string& text) {
    std::vector<Lattice> grids;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        const auto x = item.find('x');
        if (x == std::string::npos) {
            throw CLI::ValidationError("--grids", "expected RxC, got '" + item + "'");
        }
        const int rows = std::stoi(item.substr(0, x)), cols = std::stoi(item.substr(x + 1));
        if (rows < 1 || cols < 1 || (rows * cols) % 2 != 0) {
            throw CLI::ValidationError("--grids", "'" + item + "' has no domino tiling");
        }
        grids.push_back(
            {"grid-" + item, grid_graph(rows, cols),
             static_cast<double>(log_grid_tilings(rows, cols) / 2.302585092994045684L)});
    }
    return grids;
}

/// Generator specs separated by ';' (regular:40,3,11 has commas), each counted exactly.
std::vector<Lattice> parse_lattices(const std::string& text) {
    std::vector<Lattice> lattices;
    std::stringstream in(text);
    std::string spec;
    while (std::getline(in, spec, ';')) {
        BipartiteGraph graph = generate_graph(spec);
        CountOptions exact;
        exact.backend = Backend::cpu;
        const CountResult truth = count_perfect_matchings(graph, exact);
        if (truth.sign <= 0) {
            throw CLI::ValidationError("--lattices", "'" + spec + "' has no perfect matching");
        }
        lattices.push_back({spec, std::move(graph), truth.log10_abs});
    }
    return lattices;
}

template <class T>
std::vector<T> parse_list(const std::string& text, T (*parse)(std::string_view)) {
    std::vector<T> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        out.push_back(parse(item));
    }
    return out;
}

}  // namespace

int estimator_bench_main(int argc, char** argv) {
    CLI::App app{
        "pmcount-bench estimators — the estimators on grids, CPU and GPU, against "
        "Kasteleyn's count"};
    app.footer(R"(Examples:
  pmcount-bench estimators --grids 8x8,16x16 --backends cpu --rel-error 0.01
  pmcount-bench estimators --grids 32x32 --backends cpu,cuda --rel-error 0.004 --cpu-time 20
  pmcount-bench estimators --grids 8x8 --estimators scaling+,rasmussen+ --samples 500 --runs 200
  pmcount-bench estimators --lattices "torus:12x12;aztec:10;regular:40,3,11" --samples 4096
      --runs 200 --seed 7000 --min-coverage 0.9)");
    std::string grids_text = "8x8,16x16", lattices_text;
    double min_coverage = 0;
    std::string estimators_text = "scaling+";
    std::string backends_text = "cpu";
    EstimateOptions base;
    double cpu_time = 0;
    int runs = 1;
    std::string out_path;
    app.add_option("--grids", grids_text, "grids RxC, comma list")->capture_default_str();
    app.add_option("--lattices", lattices_text,
                   "instead of --grids: generator specs separated by ';' (torus:12x12;aztec:10;"
                   "regular:40,3,11), each counted exactly for the truth");
    app.add_option("--min-coverage", min_coverage,
                   "exit 2 when a combination's intervals cover the truth in fewer than this "
                   "fraction of its runs")
        ->check(CLI::Range(0.0, 1.0));
    app.add_option("--estimators", estimators_text, "rasmussen, rasmussen+, scaling, scaling+")
        ->capture_default_str();
    app.add_option("--backends", backends_text, "cpu, cuda (comma list)")->capture_default_str();
    app.add_option("--samples", base.samples, "stop after this many samples (0: no limit)");
    app.add_option("--rel-error", base.rel_error,
                   "stop when the interval's relative half-width is below this");
    app.add_option("--time", base.time_s, "stop after this many seconds (0: no limit)");
    app.add_option("--cpu-time", cpu_time,
                   "CPU runs: stop after this many seconds instead (enough to time a sample)");
    app.add_option("--runs", runs, "runs per combination (seeds seed, seed+1, ...)")
        ->check(CLI::PositiveNumber);
    app.add_option("--seed", base.seed)->capture_default_str();
    app.add_option("--threads", base.threads, "CPU threads (0: all)")->capture_default_str();
    app.add_option("--scale-every", base.scale_every)->capture_default_str();
    app.add_option("--scale-iters", base.scale_iters)->capture_default_str();
    app.add_option("--particles", base.particles,
                   "samples per population (1: independent samples)")
        ->capture_default_str();
    app.add_option("--resample-every", base.resample_every)->capture_default_str();
    app.add_option("--potential-exponent", base.potential_exponent)->capture_default_str();
    app.add_option("--out", out_path, "also append the JSON lines to this file");
    std::vector<Lattice> lattices;
    std::vector<Estimator> estimators;
    std::vector<Backend> backends;
    try {
        app.parse(argc, argv);
        lattices = lattices_text.empty() ? parse_grids(grids_text) : parse_lattices(lattices_text);
        estimators = parse_list<Estimator>(estimators_text, &estimator_from_string);
        backends = parse_list<Backend>(backends_text, &backend_from_string);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 1;
    } catch (const Error& e) {
        std::cerr << "pmcount-bench estimators: " << e.what() << "\n";
        return 1;
    }
    if (base.samples == 0 && base.rel_error == 0 && base.time_s == 0) {
        base.rel_error = 0.01;
    }
    std::ofstream out_file;
    if (!out_path.empty()) {
        out_file.open(out_path, std::ios::app);
        if (!out_file) {
            std::cerr << "pmcount-bench estimators: cannot write " << out_path << "\n";
            return 1;
        }
    }
    auto emit = [&](const Json& j) {
        std::cout << j.dump() << std::endl;
        if (out_file) {
            out_file << j.dump() << std::endl;
        }
    };
    const BuildInfo info = build_info();
    emit({{"context",
           {{"version", info.version},
            {"compiler", info.compiler},
            {"build", info.build_type},
            {"threads", info.max_threads},
            {"cuda", info.cuda_compiled ? info.cuda_version : "not built"},
            {"gpus", info.devices.size()},
            {"gpu", info.devices.empty() ? "" : info.devices[0].name}}}});

    int total = 0, covered_total = 0, mismatches = 0, failures = 0, undercovered = 0;
    for (const Lattice& lattice : lattices) {
        const BipartiteGraph& graph = lattice.graph;
        const double log10_truth = lattice.log10_truth;
        const std::string& name = lattice.name;
        for (const Estimator e : estimators) {
            std::vector<double> us_cpu, us_gpu;
            for (const Backend b : backends) {
                int covered = 0;
                for (int run = 0; run < runs; ++run) {
                    EstimateOptions o = base;
                    o.estimator = e;
                    o.backend = b;
                    o.seed = base.seed + static_cast<std::uint64_t>(run);
                    if (b == Backend::cpu && cpu_time > 0) {
                        o.time_s = cpu_time;
                    }
                    Json j;
                    j["case"] = name;
                    j["estimator"] = to_string(e);
                    j["backend"] = to_string(b);
                    try {
                        const EstimateResult r = estimate_perfect_matchings(graph, o);
                        const double us = 1e6 * r.sample_seconds / static_cast<double>(r.samples);
                        const bool in =
                            r.log10_ci_low <= log10_truth && log10_truth <= r.log10_ci_high;
                        const double log_error = (r.log10_value - log10_truth) * std::log(10.0);
                        const bool wild = std::abs(log_error) > 6 * r.rel_std_error;
                        (b == Backend::cpu ? us_cpu : us_gpu).push_back(us);
                        covered += in ? 1 : 0;
                        ++total;
                        covered_total += in ? 1 : 0;
                        mismatches += wild ? 1 : 0;
                        j["device"] = r.device;
                        j["threads"] = r.threads;
                        j["n"] = r.n;
                        j["nnz"] = r.nnz;
                        j["seed"] = r.seed;
                        j["samples"] = r.samples;
                        j["particles"] = r.particles;
                        j["populations"] = r.populations;
                        if (r.particles > 1) {
                            j["resample_every"] = base.resample_every;
                            j["potential_exponent"] = base.potential_exponent;
                        }
                        j["seconds"] = r.seconds;
                        j["sample_seconds"] = r.sample_seconds;
                        j["us_per_sample"] = us;
                        j["log10_value"] = r.log10_value;
                        j["log10_truth"] = log10_truth;
                        j["error"] = std::expm1(log_error);
                        j["log10_ci_low"] = r.log10_ci_low;
                        j["log10_ci_high"] = r.log10_ci_high;
                        j["covered"] = in;
                        j["rel_std_error"] = r.rel_std_error;
                        j["zero_fraction"] = r.zero_fraction;
                        j["log_sd"] = r.log_sd;
                        j["stopped"] = to_string(r.stopped);
                        j["check"] = wild ? "MISMATCH" : in ? "ok" : "outside-ci";
                    } catch (const Error& err) {
                        ++failures;
                        j["error_message"] = err.what();
                        j["check"] = "failed";
                    }
                    emit(j);
                }
                const bool enough = covered >= min_coverage * runs;
                undercovered += enough ? 0 : 1;
                emit({{"case", name},
                      {"estimator", to_string(e)},
                      {"backend", to_string(b)},
                      {"coverage", std::to_string(covered) + " of " + std::to_string(runs)},
                      {"check", enough ? "ok" : "UNDERCOVERED"}});
            }
            if (!us_cpu.empty() && !us_gpu.empty()) {
                emit({{"case", name},
                      {"estimator", to_string(e)},
                      {"ratio", "cuda vs cpu"},
                      {"us_per_sample_cpu", median(us_cpu)},
                      {"us_per_sample_cuda", median(us_gpu)},
                      {"per_sample_speedup", median(us_cpu) / median(us_gpu)}});
            }
        }
    }
    emit({{"summary",
           {{"runs", total},
            {"covered", covered_total},
            {"mismatches", mismatches},
            {"undercovered", undercovered},
            {"failed", failures}}}});
    return mismatches > 0 || undercovered > 0 ? 2 : failures > 0 ? 3 : 0;
}

}  // namespace pmcount::bench
