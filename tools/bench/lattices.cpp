// pmcount-bench lattices: times the engines that count large structured graphs (planar,
// Pfaffians on the torus, frontier, and whatever the planner picks) on generated lattices,
// bipartite or general, each with its drawing where the generator gives one (as
// count_matchings SPEC), and checks every answer.
//
// For every graph spec (pmcount/generate.hpp) × method × precision × thread count: the planner
// first predicts the time (explain_only); over --max-seconds the run is "skipped". Otherwise it
// counts --repeat times and reports the median wall time. One JSON line per run:
//   case (the spec), method (asked), precision, engine (what ran: the leaves' engines), arithmetic,
//   threads, n, nnz, predicted_seconds, seconds, frontier_width (when frontier ran), log10_value,
//   digits (exact runs), log10_truth (closed form), error (relative, of log10), check
// then a summary. Closed forms: Kasteleyn's products for grids and square tori, 2^(k(k+1)/2) for
// Aztec diamonds, MacMahon's formula for hexagons, n! for K_{n,n}; other specs are checked only
// against each other.
//
// check: "ok" when log10 agrees with the closed form to 1e-9 relative and every exact answer
// for the same graph is the same integer; "MISMATCH" otherwise (exit status 2); "skipped".
#include "lattices.hpp"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "common.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/pmcount.hpp"

namespace pmcount::bench {

namespace {

/// Natural log of the closed-form count of a generator spec, when it has one.
std::optional<long double> closed_form_log(const std::string& spec) {
    const auto colon = spec.find(':');
    const std::string name = spec.substr(0, colon);
    std::vector<int> p;
    std::stringstream in(spec.substr(colon + 1));
    std::string item;
    while (std::getline(in, item, name == "grid" || name == "torus" ? 'x' : ',')) {
        p.push_back(std::stoi(item));
    }
    if (name == "grid" && p.size() == 2) {
        return log_grid_tilings(p[0], p[1]);
    }
    if (name == "torus" && p.size() == 2) {
        return log_torus_tilings(p[0], p[1]);
    }
    if (name == "aztec" && p.size() == 1) {
        return log_aztec_tilings(p[0]);
    }
    if (name == "hexagon" && p.size() == 3) {
        return log_hexagon_tilings(p[0], p[1], p[2]);
    }
    if (name == "complete" && p.size() == 1) {
        return std::lgamma(static_cast<long double>(p[0]) + 1);
    }
    return std::nullopt;
}

std::string leaf_engines(const CountResult& r) {
    std::vector<std::string> names;
    for (const BlockReport& leaf : r.structure.leaves) {
        if (std::find(names.begin(), names.end(), leaf.engine) == names.end()) {
            names.push_back(leaf.engine);
        }
    }
    std::string joined;
    for (const auto& n : names) {
        joined += (joined.empty() ? "" : "+") + n;
    }
    return joined.empty() ? "structure" : joined;
}

/// "frontier (width 16)" → 16 from the plan text; −1 when frontier did not run.
int frontier_width(const CountResult& r) {
    const std::string key = "frontier (width ";
    int width = -1;
    for (std::size_t at = r.structure.plan_text.find(key); at != std::string::npos;
         at = r.structure.plan_text.find(key, at + 1)) {
        width = std::max(width, std::stoi(r.structure.plan_text.substr(at + key.size())));
    }
    return width;
}

}  // namespace

int lattice_bench_main(int argc, char** argv) {
    CLI::App app("pmcount-bench lattices: the polynomial engines on generated lattices");
    std::vector<std::string> graphs = {"grid:32x32", "grid:100x100", "grid:16x1000",
                                       "hexagon:10,10,10", "aztec:20"};
    std::string methods = "auto,planar,frontier", precisions = "exact,double", thread_list = "2";
    int repeat = 1;
    double max_seconds = 600;
    app.add_option("--graphs", graphs,
                   "generator specs (space separated), e.g. grid:100x100 hexagon:5,6,7")
        ->capture_default_str();
    app.add_option("--methods", methods, "comma list of --method values")->capture_default_str();
    app.add_option("--precision", precisions, "comma list: exact, double")->capture_default_str();
    app.add_option("--threads", thread_list, "comma list of thread counts")->capture_default_str();
    app.add_option("--repeat", repeat, "runs per measurement; the median is reported")
        ->check(CLI::PositiveNumber)
        ->capture_default_str();
    app.add_option("--max-seconds", max_seconds, "skip runs predicted to take longer")
        ->capture_default_str();
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 1;
    }
    const auto split = [](const std::string& text) {
        std::vector<std::string> out;
        std::stringstream in(text);
        std::string item;
        while (std::getline(in, item, ',')) {
            out.push_back(item);
        }
        return out;
    };
    int runs = 0, mismatches = 0, skipped = 0;
    for (const std::string& spec : graphs) {
        Input graph;  // bipartite or general, with the tori's drawings (as count_matchings)
        try {
            graph = generated_input(spec);
        } catch (const Error& e) {
            std::cerr << "pmcount-bench lattices: " << e.what() << "\n";
            return 1;
        }
        const std::optional<long double> truth = closed_form_log(spec);
        std::optional<BigInt> exact_answer;
        for (const std::string& method_name : split(methods)) {
            for (const std::string& precision_name : split(precisions)) {
                for (const std::string& threads_text : split(thread_list)) {
                    CountOptions options;
                    options.method = method_from_string(method_name);
                    options.precision = precision_from_string(precision_name);
                    options.threads = std::stoi(threads_text);
                    Json j;
                    j["case"] = spec;
                    j["method"] = method_name;
                    j["precision"] = precision_name;
                    j["threads"] = options.threads;
                    CountOptions explain = options;
                    explain.explain_only = true;
                    const CountResult plan = count(graph, explain);
                    j["n"] = plan.stats.n;
                    j["nnz"] = plan.stats.nnz;
                    j["predicted_seconds"] = plan.structure.predicted_s;
                    if (!(plan.structure.predicted_s <= max_seconds)) {
                        j["engine"] = leaf_engines(plan);
                        j["check"] = "skipped";
                        ++skipped;
                        std::cout << j.dump() << std::endl;
                        continue;
                    }
                    std::vector<double> seconds;
                    CountResult r;
                    for (int k = 0; k < repeat; ++k) {
                        const auto start = std::chrono::steady_clock::now();
                        r = count(graph, options);
                        seconds.push_back(
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
                                .count());
                    }
                    std::sort(seconds.begin(), seconds.end());
                    ++runs;
                    j["engine"] = leaf_engines(r);
                    j["arithmetic"] = r.arithmetic;
                    j["seconds"] = seconds[seconds.size() / 2];
                    if (const int w = frontier_width(r); w >= 0) {
                        j["frontier_width"] = w;
                    }
                    j["log10_value"] = r.log10_abs;
                    bool ok = true;
                    if (r.is_exact) {
                        j["digits"] = r.exact.to_string().size();
                        if (!exact_answer) {
                            exact_answer = r.exact;
                        }
                        ok = ok && *exact_answer == r.exact;
                    }
                    if (truth) {
                        const double log10_truth = static_cast<double>(*truth / std::log(10.0L));
                        const double error =
                            log10_truth == 0 ? r.log10_abs : r.log10_abs / log10_truth - 1;
                        j["log10_truth"] = log10_truth;
                        j["error"] = error;
                        ok = ok && std::fabs(error) <= 1e-9;
                    }
                    j["check"] = ok ? "ok" : "MISMATCH";
                    mismatches += ok ? 0 : 1;
                    std::cout << j.dump() << std::endl;
                }
            }
        }
    }
    std::cout << Json{{"summary",
                       {{"runs", runs}, {"skipped", skipped}, {"mismatches", mismatches}}}}
                     .dump()
              << std::endl;
    return mismatches == 0 ? 0 : 2;
}

}  // namespace pmcount::bench
