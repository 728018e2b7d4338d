// pmcount-bench calibrate: measures the cost model's CPU rates on this machine
// (pmcount::calibrate_cost_rates: seeded matrices counted by one engine on one thread, each group's
// rates fitted by least squares on the model's relative error) and compares them with the rates in
// force (lib/plan/rates/*.txt compiled in, or $PMCOUNT_RATES's).
//
// Output: {"context": …}; one line per experiment (group, experiment, n, seconds measured, model_s
// with the rates in force, fitted_s with the fitted ones); one line per rate (key, unit, before,
// fitted, ratio = fitted / before, within_15pct of it, at_this_speed); one per probe (reference in
// force, measured here); then {"summary": …}. Rates are stored at the speed of the probe's
// reference in force (the model scales them by this machine's probe over it), so the fitted ones
// are brought there from the probes taken around each group (the machine's speed drifts while
// they run: pmcount/calibrate.hpp), and at_this_speed is the rate as it runs here. With --out-dir,
// also runs.jsonl (those lines) and rates.txt (the fitted rates with their provenance, the file
// format of lib/plan/rates/*.txt; the probe is not a rate and stays out) in that folder, for
// docs/benchmarks/calibration/<machine>/. A host uses its rates with
// PMCOUNT_RATES=<dir>/rates.txt, alone or with others. Exit 0; 3 on a runtime error.
#include "calibrate.hpp"

#include <CLI/CLI.hpp>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "common.hpp"
#include "pmcount/calibrate.hpp"

namespace pmcount::bench {

namespace {

/// A folder name for this machine: its CPU model in lower case, words joined by '-', and its
/// core count ("intel-xeon-platinum-8481c-2-cores").
std::string machine_slug() {
    std::string slug;
    for (const char c : cpu_model()) {
        if (std::isalnum(static_cast<unsigned char>(c)) != 0) {
            slug += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else if (!slug.empty() && slug.back() != '-') {
            slug += '-';
        }
    }
    for (const char* noise : {"r-", "tm-", "cpu-"}) {
        for (std::size_t at = slug.find(noise); at != std::string::npos; at = slug.find(noise)) {
            if (at != 0 && slug[at - 1] != '-') {
                break;
            }
            slug.erase(at, std::string(noise).size());
        }
    }
    while (!slug.empty() && slug.back() == '-') {
        slug.pop_back();
    }
    return (slug.empty() ? "unknown-cpu" : slug) + "-" +
           std::to_string(std::max(1U, std::thread::hardware_concurrency())) + "-cores";
}

void write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream file(path, std::ios::trunc);
    file << text;
    if (!file) {
        throw std::runtime_error("cannot write '" + path.string() + "'");
    }
}

}  // namespace

int calibrate_bench_main(int argc, char** argv) {
    CLI::App app{
        "pmcount-bench calibrate — the cost model's CPU rates measured on this machine, against "
        "the rates in force"};
    app.footer(R"(Examples:
  pmcount-bench calibrate --out-dir docs/benchmarks/calibration/$(hostname)
  pmcount-bench calibrate --groups cpu.ryser,cpu.probe --repeats 5
  PMCOUNT_RATES=docs/benchmarks/calibration/<machine>/rates.txt count_matchings --explain ...)");
    CalibrationOptions options;
    std::string groups, out_path, out_dir, machine = machine_slug();
    std::string group_list;
    for (const auto& [name, keys] : calibration_groups()) {
        group_list += (group_list.empty() ? "" : ", ") + name;
    }
    app.add_option(
        "--groups", groups,
        "comma-separated prefixes of the groups to measure (default: all): " + group_list);
    app.add_option("--repeats", options.repeats, "runs per experiment; the fastest counts")
        ->check(CLI::Range(1, 100))
        ->capture_default_str();
    app.add_flag("--quick", options.quick,
                 "smaller orders, about a tenth of the time: a check, not rates to keep");
    app.add_option("--seed", options.seed, "seeds the matrices")->capture_default_str();
    app.add_option("--machine", machine, "the machine's name in the rates' provenance")
        ->capture_default_str();
    app.add_option("--out-dir", out_dir,
                   "also write runs.jsonl and rates.txt there (created if missing)");
    app.add_option("--out", out_path, "also append the JSON lines to this file");
    try {
        app.parse(argc, argv);
        options.groups = split(groups, ',');
        for (const std::string& g : options.groups) {
            bool known = false;
            for (const auto& [name, keys] : calibration_groups()) {
                known = known || name.compare(0, g.size(), g) == 0;
            }
            if (!known) {
                throw CLI::ValidationError(
                    "--groups", "no group starts with '" + g + "' (groups: " + group_list + ")");
            }
        }
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? exit_code::ok : exit_code::usage;
    }

    Emitter emit(out_path);
    std::string command_line;
    for (int i = 0; i < argc; ++i) {
        command_line += (i == 0 ? "pmcount-bench calibrate" : " " + std::string(argv[i]));
    }
    std::string jsonl;
    const auto line = [&](const Json& object) {
        emit.line(object);
        jsonl += object.dump() + "\n";
    };
    Json context = machine_context(command_line);
    context["machine"] = machine;
    line(Json{{"context", context}});
    options.on_run = [](const CalibrationRun& run) {
        std::cerr << "calibrate: " << run.group << ": " << run.experiment << " "
                  << format_short(run.seconds) << " s\n";
    };
    const Calibration result = calibrate_cost_rates(options, machine, command_line);
    for (const CalibrationRun& run : result.runs) {
        Json j{
            {"group", run.group},     {"experiment", run.experiment}, {"n", run.n},
            {"seconds", run.seconds}, {"model_s", run.model_s},       {"fitted_s", run.fitted_s}};
        if (run.model_s > 0) {
            j["model_over_measured"] = run.model_s / run.seconds;
            j["fitted_over_measured"] = run.fitted_s / run.seconds;
        }
        line(j);
    }
    // The fitted rates are at the probe reference's speed, as the rates in force are: their
    // ratio is what within_15pct judges. at_this_speed is the rate as it runs here.
    const double speed = result.reference_probe_ns > 0 && result.probe_ns > 0
                             ? result.probe_ns / result.reference_probe_ns
                             : std::nan("");
    int within = 0;
    double worst = 1;
    for (std::size_t k = 0; k < result.rates.size(); ++k) {
        const CostRate& fitted = result.rates[k];
        const double before = result.before[k].value;
        const double ratio = before > 0 ? fitted.value / before : std::nan("");
        const bool close = std::abs(ratio - 1) <= 0.15;
        within += close ? 1 : 0;
        if (std::isfinite(ratio) && std::abs(std::log(ratio)) > std::abs(std::log(worst))) {
            worst = ratio;
        }
        line(Json{{"rate", fitted.key},
                  {"unit", fitted.unit},
                  {"before", before},
                  {"fitted", fitted.value},
                  {"ratio", finite_or_null(ratio)},
                  {"at_this_speed", finite_or_null(fitted.value * speed)},
                  {"within_15pct", close},
                  {"residuals", fitted.residuals}});
    }
    for (std::size_t k = 0; k < result.probes.size(); ++k) {
        const double reference = result.probe_before[k].value;
        line(Json{{"probe", result.probes[k].key},
                  {"unit", result.probes[k].unit},
                  {"reference", reference},
                  {"measured", result.probes[k].value},
                  {"ratio", finite_or_null(result.probes[k].value / reference)}});
    }
    line(Json{{"summary",
               {{"rates", result.rates.size()},
                {"speed_against_reference", finite_or_null(speed)},
                {"within_15pct", within},
                {"furthest_ratio", worst},
                {"experiments", result.runs.size()}}}});
    if (!out_dir.empty()) {
        std::filesystem::create_directories(out_dir);
        write_file(std::filesystem::path(out_dir) / "runs.jsonl", jsonl);
        write_file(std::filesystem::path(out_dir) / "rates.txt",
                   format_cost_rates(result.rates,
                                     "The cost model's CPU rates measured on " + machine + " by\n" +
                                         command_line +
                                         "\n(runs.jsonl beside it holds the experiments). Use "
                                         "them with PMCOUNT_RATES=<this file>."));
        std::cerr << "calibrate: wrote " << out_dir << "/runs.jsonl and rates.txt\n";
    }
    return exit_code::ok;
}

}  // namespace pmcount::bench
