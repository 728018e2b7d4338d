// pmcount-bench scaling: the parallel efficiency of one count spread over k devices, GPUs
// (--backend cuda) or CPU threads (--backend cpu), in two ways, against the one-device count of
// the same input in the same run:
//   queue  one process, `count_matchings --gpus 0,…,k−1` (the multi-GPU batch queue) or
//          `--threads k`;
//   mpi    `mpiexec -np k count_matchings`: k ranks with the first k GPUs visible, so that
//          each rank's share (run::mpi::gpu_share) is one GPU; or k ranks of one thread each.
// Every measurement is a child count_matchings --json, so the baseline and both ways start alike;
// the time compared is the count's own (timings.count_s less NVRTC's generation and compilation;
// estimate_s for the estimator); the child's wall time is reported beside it.
//
// Cases: dense-real (uniform [0,1) entries, --precision), dense-binary (0-1 entries, 1 with
// probability --density, default 0.5, exact), sparse-real (each entry nonzero with probability
// --density, default 0.1, uniform in (0,1], drawn again until it has a perfect matching:
// sparse_entries; --precision; the planner's sparse engines), estimator (`--approx` on the --grid with a fixed --samples
// budget, so every run draws the same number of samples in total).
//
// One JSON line per run: case, n, way ("single" for the baseline), devices, seconds, wall_s,
// compile_s, value, speedup (baseline seconds / seconds), efficiency (speedup / devices),
// same_value (the baseline's value, every digit), check: "ok"; "MISMATCH" when a count's value
// differs from the baseline's (exit status 2); the estimator's runs are "ok" when the interval
// holds Kasteleyn's count, else "outside-ci" (expected in about 5% of runs), and same_value is
// reported, not required. Then one {"summary": …} line per case with the efficiencies.
#include "scaling.hpp"

#include <unistd.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/io.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/pmcount.hpp"

#ifndef PMCOUNT_MPIEXEC
#define PMCOUNT_MPIEXEC "mpiexec"
#endif

namespace pmcount::bench {

namespace {

namespace fs = std::filesystem;

struct ScalingOptions {
    std::vector<std::string> cases{"dense-real"};
    std::vector<int> orders{40};
    std::vector<int> counts{1, 2};
    std::vector<std::string> ways{"queue", "mpi"};
    Backend backend = Backend::cuda;
    std::string precision = "double";
    double density = -1;  // the case's own default below
    std::string grid = "64x64";
    std::uint64_t samples = 131072;
    int particles = 16384;
    int resample_every = 16;
    std::uint64_t seed = 1;
    std::string count_matchings;
    std::string count_args;  // appended to every child's arguments
    std::string mpiexec = std::string(PMCOUNT_MPIEXEC) + " --bind-to none";
    std::string scratch;
};

/// One child count_matchings run, as measured.
struct Measured {
    bool ok = false;
    std::string failure;
    double seconds = 0;    // the count's own time (see the header)
    double wall_s = 0;     // the child process, start to exit
    double compile_s = 0;  // NVRTC generation + compilation inside the count
    std::string value;     // every digit the tool printed
    Json json;
};

/// Open MPI refuses root and looks for a remote shell even on one host; a benchmark on a
/// container's root account needs neither refusal (only what the user has not set is set).
void prepare_mpi_environment(Backend backend) {
    if (geteuid() == 0) {
        setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 0);
        setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 0);
    }
    if (run_command("command -v ssh || command -v rsh").out.empty()) {
        setenv("OMPI_MCA_plm_rsh_agent", "/bin/false", 0);
    }
    if (backend == Backend::cpu) {
        setenv("OMPI_MCA_rmaps_base_oversubscribe", "1", 0);  // one rank per thread asked for
    }
}

/// The input file (or generator spec) and the arguments of one case.
struct CaseInput {
    std::string input;
    std::string args;
    bool estimator = false;
};

CaseInput make_input(const std::string& name, int n, const ScalingOptions& o) {
    if (name == "estimator") {
        return {"grid:" + o.grid,
                "--approx --samples " + std::to_string(o.samples) + " --particles " +
                    std::to_string(o.particles) + " --resample-every " +
                    std::to_string(o.resample_every) + " --seed " + std::to_string(o.seed),
                true};
    }
    const std::uint64_t stream = static_cast<std::uint64_t>(n) * 2 + (name == "dense-real") +
                                 (name == "sparse-real" ? std::uint64_t{1} << 32 : 0);
    Draw draw(mix64(o.seed ^ mix64(stream)));
    const fs::path file = fs::path(o.scratch) / (name + "-" + std::to_string(n) + ".mtx");
    std::ofstream out(file);
    if (name == "sparse-real") {
        std::int64_t redraws = 0;
        const std::vector<double> dense =
            sparse_entries(name, n, o.density < 0 ? 0.1 : o.density, false, draw, redraws);
        std::vector<Triplet<double>> entries;
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                const double x = dense[static_cast<std::size_t>(i * n + j)];
                if (x != 0.0) {
                    entries.push_back({i, j, x});
                }
            }
        }
        write_matrix_market(out, SparseMatrix<double>(n, n, std::move(entries)));
        out.close();
        return {file.string(), "--precision " + o.precision, false};
    }
    if (name == "dense-real") {
        std::vector<Triplet<double>> entries;
        for (int i = 0; i < n; ++i) {
            for (int j = 0; j < n; ++j) {
                entries.push_back({i, j, draw.uniform01()});
            }
        }
        write_matrix_market(out, SparseMatrix<double>(n, n, std::move(entries)));
        out.close();
        return {file.string(), "--precision " + o.precision, false};
    }
    std::vector<Triplet<std::int64_t>> entries;
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            if (draw.uniform01() < (o.density < 0 ? 0.5 : o.density)) {
                entries.push_back({i, j, 1});
            }
        }
    }
    write_matrix_market(out, SparseMatrix<std::int64_t>(n, n, std::move(entries)));
    out.close();
    return {file.string(), "--precision exact", false};
}

std::string device_list(int k) {
    std::string list;
    for (int g = 0; g < k; ++g) {
        list += (g == 0 ? "" : ",") + std::to_string(g);
    }
    return list;
}

/// The first k GPUs for k ranks: CUDA_VISIBLE_DEVICES narrowed to its first k entries (0..k−1
/// when unset), so that each rank's share is one GPU.
std::string first_gpus_visible(int k) {
    const char* set = std::getenv("CUDA_VISIBLE_DEVICES");
    if (set == nullptr || *set == '\0') {
        return "CUDA_VISIBLE_DEVICES=" + device_list(k);
    }
    const std::vector<std::string> all = split(set, ',');
    std::string list;
    for (std::size_t g = 0; g < all.size() && g < static_cast<std::size_t>(k); ++g) {
        list += (g == 0 ? "" : ",") + all[g];
    }
    return "CUDA_VISIBLE_DEVICES=" + shell_quote(list);
}

std::string command_for(const CaseInput& in, const std::string& way, int k,
                        const ScalingOptions& o) {
    const bool cuda = o.backend == Backend::cuda;
    const std::string tool = shell_quote(o.count_matchings) + " " + shell_quote(in.input) +
                             " --json " + in.args + (cuda ? " --backend cuda" : " --backend cpu") +
                             (o.count_args.empty() ? "" : " " + o.count_args);
    if (way == "mpi") {
        return (cuda ? first_gpus_visible(k) + " " : std::string()) + o.mpiexec + " -np " +
               std::to_string(k) + " " + tool + (cuda ? std::string() : " --threads 1") +
               " < /dev/null";
    }
    return tool + (cuda ? " --gpus " + device_list(k) : " --threads " + std::to_string(k)) +
           " < /dev/null";
}

Measured measure(const std::string& command, bool estimator) {
    Measured m;
    const auto start = std::chrono::steady_clock::now();
    const ProcessOutput output = run_command(command);
    m.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::optional<Json> parsed = parse_script_output(output, m.failure);
    if (!parsed) {
        return m;
    }
    m.json = *parsed;
    const Json& t = m.json["timings"];
    if (estimator) {
        m.seconds = t.value("estimate_s", 0.0);
        m.value = format_double(m.json.value("log10_value", 0.0));
    } else {
        m.compile_s = t.value("codegen_s", 0.0) + t.value("compile_s", 0.0);
        m.seconds = t.value("count_s", 0.0) - m.compile_s;
        m.value = m.json.value("value", std::string());
    }
    m.ok = true;
    return m;
}

}  // namespace

int scaling_bench_main(int argc, char** argv) {
    CLI::App app{
        "pmcount-bench scaling — one count on 1, 2, 4 … GPUs or threads, in one process and as "
        "MPI ranks, against the one-device count in the same run"};
    app.footer(R"(Examples:
  pmcount-bench scaling --backend cuda --cases dense-real --n 44,46 --precision plain-double \
      --counts 1,2,4
  pmcount-bench scaling --backend cuda --cases estimator --grid 64x64 --samples 131072
  pmcount-bench scaling --backend cuda --cases sparse-real --n 50 --counts 1,2,4 \
      --count-args "--method sparyser --no-dm --no-reduce"
  pmcount-bench scaling --backend cpu --cases dense-binary --n 24 --counts 1,2)");
    ScalingOptions o;
    std::string cases = "dense-real", orders = "40", counts = "1,2", ways = "queue,mpi";
    std::string backend = "cuda", out_path;
    app.add_option("--cases", cases,
                   "dense-real, dense-binary, sparse-real, estimator (comma list)")
        ->capture_default_str();
    app.add_option("--n", orders, "orders of the dense cases: list and/or first:last[:step]")
        ->capture_default_str();
    app.add_option("--counts", counts, "devices per run, comma list; the first must be 1")
        ->capture_default_str();
    app.add_option("--ways", ways, "queue, mpi (comma list)")->capture_default_str();
    app.add_option("--backend", backend, "cuda: devices are GPUs; cpu: devices are threads")
        ->capture_default_str();
    app.add_option("--precision", o.precision, "dense-real, sparse-real: plain-double, double, dd")
        ->capture_default_str();
    app.add_option("--density", o.density,
                   "probability of a nonzero: dense-binary (default 0.5), sparse-real (0.1)");
    app.add_option("--grid", o.grid, "estimator: RxC")->capture_default_str();
    app.add_option("--samples", o.samples, "estimator: samples in total")->capture_default_str();
    app.add_option("--particles", o.particles, "estimator: particles per population")
        ->capture_default_str();
    app.add_option("--resample-every", o.resample_every, "estimator")->capture_default_str();
    app.add_option("--seed", o.seed, "seed of the matrices and the estimator")
        ->capture_default_str();
    app.add_option("--count-matchings", o.count_matchings,
                   "the count_matchings to run (default: the one beside this program)");
    app.add_option("--count-args", o.count_args,
                   "further count_matchings arguments for every run, e.g. \"--method sparyser "
                   "--no-dm --no-reduce\" (the sparse engine on the whole matrix)");
    app.add_option("--mpiexec", o.mpiexec, "MPI launcher and its options (before -np)")
        ->capture_default_str();
    app.add_option("--out", out_path, "also append the JSON lines to this file");
    try {
        app.parse(argc, argv);
        o.cases = split(cases, ',');
        for (const std::string& c : o.cases) {
            if (c != "dense-real" && c != "dense-binary" && c != "sparse-real" &&
                c != "estimator") {
                throw CLI::ValidationError("--cases", "unknown case '" + c + "'");
            }
        }
        o.orders = parse_orders(orders);
        o.counts.clear();
        for (const std::string& c : split(counts, ',')) {
            o.counts.push_back(parse_int(c, "--counts"));
            if (o.counts.back() < 1) {
                throw CLI::ValidationError("--counts", "device counts are 1 or more");
            }
        }
        if (o.counts.empty() || o.counts.front() != 1) {
            throw CLI::ValidationError("--counts", "the first count is the baseline and must be 1");
        }
        o.ways = split(ways, ',');
        for (const std::string& w : o.ways) {
            if (w != "queue" && w != "mpi") {
                throw CLI::ValidationError("--ways", "unknown way '" + w + "'");
            }
        }
        o.backend = backend_from_string(backend);
        if (o.backend != Backend::cuda && o.backend != Backend::cpu) {
            throw CLI::ValidationError("--backend", "cuda or cpu");
        }
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::cerr << "pmcount-bench scaling: " << e.what() << "\n";
        return exit_code::usage;
    }
    if (o.count_matchings.empty()) {
        o.count_matchings = default_count_matchings();
    }
    const fs::path scratch =
        fs::temp_directory_path() / ("pmcount-bench-scaling-" + std::to_string(getpid()));
    fs::create_directories(scratch);
    o.scratch = scratch.string();
    prepare_mpi_environment(o.backend);

    Emitter emit(out_path);
    std::string command_line;
    for (int i = 0; i < argc; ++i) {
        command_line += (i == 0 ? "pmcount-bench scaling" : " " + std::string(argv[i]));
    }
    emit.line(Json{{"context", machine_context(command_line)}});
    bool mismatch = false, failed = false;
    for (const std::string& name : o.cases) {
        const std::vector<int> case_orders = name == "estimator" ? std::vector<int>{0} : o.orders;
        for (const int n : case_orders) {
            const CaseInput in = make_input(name, n, o);
            Json summary{{"summary", name}};
            if (in.estimator) {
                summary["input"] = in.input;
            } else {
                summary["n"] = n;
            }
            double baseline = 0;
            std::string baseline_value;
            auto run = [&](const std::string& way, int k) {
                const std::string command = command_for(in, way == "single" ? "queue" : way, k, o);
                std::cerr << "pmcount-bench scaling: " << name
                          << (n > 0 ? " n=" + std::to_string(n) : "") << ", " << way << ", " << k
                          << " device(s)\n";
                const Measured m = measure(command, in.estimator);
                Json line{{"case", name}};
                if (in.estimator) {
                    line["input"] = in.input;
                } else {
                    line["n"] = n;
                }
                line["way"] = way;
                line["devices"] = k;
                if (!m.ok) {
                    failed = true;
                    line["check"] = "FAILED";
                    line["error"] = m.failure;
                    line["command"] = command;
                    emit.line(line);
                    return;
                }
                if (way == "single") {
                    baseline = m.seconds;
                    baseline_value = m.value;
                }
                const double speedup = m.seconds > 0 ? baseline / m.seconds : 0;
                const bool same = m.value == baseline_value;
                line["seconds"] = m.seconds;
                line["wall_s"] = m.wall_s;
                line["compile_s"] = m.compile_s;
                line["value"] = m.value;
                line["speedup"] = speedup;
                line["efficiency"] = speedup / k;
                line["same_value"] = same;
                line["ranks"] = m.json.value("ranks", 1);
                line["device"] = m.json.value("device", std::string());
                std::string check = "ok";
                if (in.estimator) {
                    const auto dims = split(o.grid, 'x');
                    const double truth =
                        static_cast<double>(log_grid_tilings(parse_int(dims.at(0), "--grid"),
                                                             parse_int(dims.at(1), "--grid"))) /
                        std::log(10.0);
                    const bool covered = m.json.value("log10_ci_low", 0.0) <= truth &&
                                         truth <= m.json.value("log10_ci_high", 0.0);
                    line["log10_truth"] = truth;
                    line["rel_std_error"] = m.json.value("rel_std_error", 0.0);
                    check = covered ? "ok" : "outside-ci";
                } else if (!same) {
                    check = "MISMATCH";
                    mismatch = true;
                }
                line["check"] = check;
                emit.line(line);
                if (way != "single") {
                    summary[way + "_" + std::to_string(k)] = speedup / k;
                }
            };
            run("single", 1);
            if (baseline <= 0) {
                continue;
            }
            for (const std::string& way : o.ways) {
                for (const int k : o.counts) {
                    if (k > 1) {
                        run(way, k);
                    }
                }
            }
            emit.line(summary);
        }
    }
    std::error_code ignored;
    fs::remove_all(scratch, ignored);
    return mismatch ? exit_code::check_failed : failed ? exit_code::runtime_error : exit_code::ok;
}

}  // namespace pmcount::bench
