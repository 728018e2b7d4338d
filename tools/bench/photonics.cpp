// pmcount-bench photonics: times the torontonian (and the loop torontonian) of seeded random
// Gaussian-state matrices on the backends asked for, and checks the answers.
//
// For every number of modes N × backend (cpu, cuda) × loop: O = I − M with M = B·B^H/(2N) + 0.1·I
// (B uniform in [−1, 1], complex, seeded by N), γ uniform in [−0.3, 0.3] (complex). One JSON
// line per run: case, modes, backend, threads, loop, seconds, value, error (the figure),
// error_kind, arithmetic, sets (2^N), device; then, when both backends ran, a check line:
// "ok" when the values agree within the sum of their figures, "MISMATCH" (exit status 2)
// otherwise. A backend that cannot run (no GPU) gives a line with "skipped" and its reason.
#include "photonics.hpp"

#include <CLI/CLI.hpp>
#include <chrono>
#include <cmath>
#include <complex>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "common.hpp"
#include "pmcount/pmcount.hpp"

namespace pmcount::bench {

namespace {

using C = std::complex<double>;

DenseMatrix<C> seeded_o(int modes) {
    std::mt19937_64 rng(1000 + static_cast<std::uint64_t>(modes));
    std::uniform_real_distribution<double> u(-1, 1);
    const int n2 = 2 * modes;
    std::vector<C> b(static_cast<std::size_t>(n2) * n2);
    for (auto& x : b) {
        x = C(u(rng), u(rng));
    }
    DenseMatrix<C> o(n2, n2);
    for (int i = 0; i < n2; ++i) {
        for (int j = 0; j <= i; ++j) {
            C m{};
            for (int k = 0; k < n2; ++k) {
                m += b[static_cast<std::size_t>(i) * n2 + k] *
                     std::conj(b[static_cast<std::size_t>(j) * n2 + k]);
            }
            m = m / static_cast<double>(n2) + (i == j ? C(0.1) : C{});
            o(i, j) = (i == j ? C(1) : C{}) - m;
            o(j, i) = std::conj(o(i, j));
        }
        o(i, i) = C(o(i, i).real());
    }
    return o;
}

std::vector<C> seeded_gamma(int modes) {
    std::mt19937_64 rng(2000 + static_cast<std::uint64_t>(modes));
    std::uniform_real_distribution<double> u(-0.3, 0.3);
    std::vector<C> g(static_cast<std::size_t>(2 * modes));
    for (auto& x : g) {
        x = C(u(rng), u(rng));
    }
    return g;
}

}  // namespace

int photonics_bench_main(int argc, char** argv) {
    CLI::App app("pmcount-bench photonics: torontonians on CPU threads and GPUs");
    std::string modes_list = "16,20,24", backends = "cpu", out_path;
    int threads = 0;
    bool loop = false;
    app.add_option("--modes", modes_list, "comma list of numbers of modes N")
        ->capture_default_str();
    app.add_option("--backends", backends, "comma list: cpu, cuda")->capture_default_str();
    app.add_option("--threads", threads, "CPU threads (0: all)")->capture_default_str();
    app.add_flag("--loop", loop, "the loop torontonian (a seeded gamma)");
    app.add_option("--out", out_path, "also append the JSON lines to this file");
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e) == 0 ? 0 : 1;
    }
    std::string command;
    for (int i = 0; i < argc; ++i) {
        command += (i > 0 ? " " : "") + std::string(argv[i]);
    }
    Emitter out(out_path);
    Json context = machine_context(command);
    context["suite"] = "photonics";
    out.line(Json{{"context", context}});
    int mismatches = 0;
    for (const std::string& m : split(modes_list, ',')) {
        const int modes = parse_int(m, "--modes");
        const DenseMatrix<C> o = seeded_o(modes);
        const std::vector<C> gamma = seeded_gamma(modes);
        std::map<std::string, CountResult> results;
        for (const std::string& backend : split(backends, ',')) {
            CountOptions options;
            options.threads = threads;
            options.backend = backend == "cuda" ? Backend::cuda : Backend::cpu;
            options.precision = Precision::double_precision;
            Json j{{"case", loop ? "loop-torontonian" : "torontonian"},
                   {"modes", modes},
                   {"backend", backend},
                   {"loop", loop}};
            try {
                const auto start = std::chrono::steady_clock::now();
                const CountResult r =
                    loop ? loop_torontonian(o, gamma, options) : torontonian(o, options);
                j["seconds"] =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                j["threads"] = r.stats.threads;
                j["value"] = format_double(r.value);
                j["error"] = finite_or_null(r.abs_error);
                j["rel_error"] = finite_or_null(r.rel_error);
                j["error_kind"] = r.error_kind;
                j["arithmetic"] = r.arithmetic;
                j["sets"] = r.stats.gray_steps;
                j["device"] = r.device;
                results[backend] = r;
            } catch (const Error& e) {
                j["skipped"] = e.what();
            }
            out.line(j);
        }
        if (results.count("cpu") != 0 && results.count("cuda") != 0) {
            const CountResult& a = results["cpu"];
            const CountResult& b = results["cuda"];
            const double diff = std::fabs(a.value - b.value);
            const bool ok = diff <= a.abs_error + b.abs_error;
            mismatches += ok ? 0 : 1;
            out.line(Json{{"case", loop ? "loop-torontonian" : "torontonian"},
                          {"modes", modes},
                          {"check", ok ? "ok" : "MISMATCH"},
                          {"difference", diff},
                          {"speedup_cuda_vs_cpu",
                           results["cpu"].timings.total_s / results["cuda"].timings.total_s}});
        }
    }
    return mismatches == 0 ? exit_code::ok : exit_code::check_failed;
}

}  // namespace pmcount::bench
