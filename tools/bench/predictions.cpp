// pmcount-bench predictions: how far the planner's predicted time (structure.predicted_s, what
// --explain and --max-time go by) is from the time the count took, case by case. Each case is a
// child `count_matchings INPUT --json ARGS`, run --repeat times; the last run is reported (kernel
// caches warm, as a user's second run would find them; the child's own calibration probes are
// part of its time, as they are of the user's). measured = timings.total_s (reading, front end,
// engines), ratio = predicted / measured, within = |ratio − 1| ≤ --tolerance.
//
// The default cases are the table of docs/long_runs.md: dense, sparse, hafnian, planar and
// frontier engines, on the CPU and on the GPU (`--backend cuda` cases are skipped where no GPU
// is visible), sized for a 16-core host with one GPU (about 40 s in all there; far longer on 2
// cores). --cases replaces them: a ';'-separated list of "INPUT [ARGS]".
//
// One JSON line per case: input, args, engine (the plan's leaf methods), backend, device,
// predicted_s, measured_s, count_s, ratio, count_ratio (against count_s), within, runs; "skipped"
// with the reason instead when the case cannot run here, "FAILED" with the child's error. Then
// {"summary": …}: cases run, within, the smallest and largest ratio. Exit 0 unless a child failed
// (3); a prediction off by more than the tolerance is a finding, not a failed check.
#include "predictions.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>
#include <string>
#include <vector>

#include "common.hpp"

namespace pmcount::bench {

namespace {

/// docs/long_runs.md's table: engine by engine, CPU and GPU.
const std::vector<std::string> kDefaultCases = {
    "random:36,0.5,1 --backend cuda",
    "random:40,0.5,2 --precision double --backend cuda",
    "random:36,0.25,7 --precision double --backend cuda --gpu-kernels tables",
    "random:28,0.5,1 --general --backend cuda",
    "grid:120x120",
    "random:34,0.5,1 --backend cpu",
    "random:33,0.5,3 --precision double --backend cpu",
    "random:34,0.3,4 --precision double --backend cpu",
    "random:22,0.5,1 --general --backend cpu",
    "random:40,0.25,7 --precision double --backend cuda --gpu-kernels generated",
    "random:40,0.2,5 --backend cuda",
    "random:40,0.2,5 --backend cpu",
    "torus:12x12",
    "grid:20x24",
    "torus:10x14",
    "grid:60x60",
    // Structured inputs, where sampled walk estimates break (issue 32): SkipPer's estimate read
    // 0 on the first three, and the plan was SkipPer (0.3 ms predicted, 0.9 s to minutes).
    "torus:8x12",
    "torus:10x10",
    "torus:8x16",
    "torus:14x14",
    "grid:16x16",
    "grid:10x40",
};

struct Options {
    std::vector<std::string> cases = kDefaultCases;
    int repeat = 2;
    double tolerance = 0.3;
    std::string count_matchings;
};

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) {
        return "";
    }
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

}  // namespace

int prediction_bench_main(int argc, char** argv) {
    CLI::App app{
        "pmcount-bench predictions — the planner's predicted time against the measured one, case "
        "by case (count_matchings --json)"};
    app.footer(R"(Examples:
  pmcount-bench predictions                      the default cases (a 16-core host with a GPU)
  pmcount-bench predictions --cases "torus:12x12;grid:20x24 --threads 8" --repeat 3)");
    Options o;
    std::string cases, out_path;
    app.add_option("--cases", cases,
                   "';'-separated \"INPUT [count_matchings ARGS]\" (default: "
                   "docs/long_runs.md's table)");
    app.add_option("--repeat", o.repeat, "runs per case; the last is reported")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    app.add_option("--tolerance", o.tolerance, "within: |predicted/measured − 1| ≤ this")
        ->check(CLI::Range(0.0, 100.0))
        ->capture_default_str();
    app.add_option("--count-matchings", o.count_matchings,
                   "the count_matchings to run (default: the one beside this program)");
    app.add_option("--out", out_path, "also append the JSON lines to this file");
    try {
        app.parse(argc, argv);
        if (!cases.empty()) {
            o.cases.clear();
            for (const std::string& c : split(cases, ';')) {
                if (!trim(c).empty()) {
                    o.cases.push_back(trim(c));
                }
            }
            if (o.cases.empty()) {
                throw CLI::ValidationError("--cases", "no case given");
            }
        }
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    }
    if (o.count_matchings.empty()) {
        o.count_matchings = default_count_matchings();
    }

    Emitter emit(out_path);
    std::string command_line;
    for (int i = 0; i < argc; ++i) {
        command_line += (i == 0 ? "pmcount-bench predictions" : " " + std::string(argv[i]));
    }
    const Json context = machine_context(command_line);
    emit.line(Json{{"context", context}});
    const bool have_gpu = context.value("gpus", 0) > 0;

    int ran = 0, within = 0;
    bool failed = false;
    double lowest = std::numeric_limits<double>::infinity(), highest = 0;
    for (const std::string& c : o.cases) {
        const auto space = c.find(' ');
        const std::string input = c.substr(0, space);
        const std::string args = space == std::string::npos ? "" : trim(c.substr(space + 1));
        Json line{{"input", input}, {"args", args}};
        if (!have_gpu && args.find("--backend cuda") != std::string::npos) {
            line["skipped"] = "no GPU visible";
            emit.line(line);
            continue;
        }
        std::cerr << "pmcount-bench predictions: " << c << "\n";
        const std::string command = shell_quote(o.count_matchings) + " " + shell_quote(input) +
                                    " --json " + args + " < /dev/null";
        std::optional<Json> result;
        std::string failure;
        for (int run = 0; run < o.repeat && failure.empty(); ++run) {
            result = parse_script_output(run_command(command), failure);
        }
        if (!result) {
            failed = true;
            line["check"] = "FAILED";
            line["error"] = failure;
            line["command"] = command;
            emit.line(line);
            continue;
        }
        const Json& r = *result;
        const double predicted = r["structure"].value("predicted_s", 0.0);
        const double measured = r["timings"].value("total_s", 0.0);
        const double ratio = measured > 0 ? predicted / measured : 0;
        const bool ok = std::fabs(ratio - 1) <= o.tolerance;
        line["engine"] = r.value("method", std::string());
        line["backend"] = r.value("backend", std::string());
        line["device"] = r.value("device", std::string());
        line["threads"] = r.value("threads", 0);
        line["predicted_s"] = predicted;
        line["measured_s"] = measured;
        const double count_s = r["timings"].value("count_s", 0.0);
        line["count_s"] = count_s;
        line["ratio"] = ratio;
        // Against the engines' time alone (without start-up, reading and the front end, which
        // dominate cases of milliseconds).
        line["count_ratio"] = count_s > 0 ? predicted / count_s : 0;
        line["within"] = ok;
        line["runs"] = o.repeat;
        emit.line(line);
        ++ran;
        within += ok ? 1 : 0;
        lowest = std::min(lowest, ratio);
        highest = std::max(highest, ratio);
    }
    Json summary{
        {"summary", "predictions"}, {"cases", ran}, {"within", within}, {"tolerance", o.tolerance}};
    if (ran > 0) {
        summary["lowest_ratio"] = lowest;
        summary["highest_ratio"] = highest;
    }
    emit.line(summary);
    return failed ? exit_code::runtime_error : exit_code::ok;
}

}  // namespace pmcount::bench
