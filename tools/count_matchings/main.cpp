// count_matchings: the exact number of perfect matchings (of any graph) / cycle covers, or the
// permanent or hafnian, of the graph or matrix in a file. A thin CLI over pmcount::read_input and
// pmcount::count: its options in arguments.cpp, the input in input.cpp, the output in
// count_output.cpp and estimate_output.hpp; here the signals, the run and the exit codes.
//
// Exit codes: 0 ok, 1 usage, 2 input error, 3 runtime error, 130 interrupted (SIGINT or SIGTERM;
// the checkpoint, when asked for, is written first).
//
// Under mpirun every rank runs this program with the same arguments; rank 0 alone prints.
#include <signal.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <exception>
#include <iostream>
#include <new>
#include <sstream>
#include <string>

#include "arguments.hpp"
#include "count_output.hpp"
#include "estimate_output.hpp"
#include "input.hpp"
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

}  // namespace

int run(int argc, char** argv, const pmcount::MpiWorld& world) {
    CLI::App app{"count_matchings — exact perfect matchings, cycle covers and permanents"};
    pmcount::tools::Arguments a;
    pmcount::tools::add_options(app, a);
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
    a.approx = a.approx || app.count("--estimator") > 0;
    if (a.version) {
        pmcount::tools::print_version();
        return kOk;
    }
    if (a.path.empty()) {
        std::cerr << "count_matchings: missing input file (see --help)\n";
        return kUsage;
    }
    if (const std::string error = pmcount::tools::option_of_the_other_mode(app, a);
        !error.empty()) {
        std::cerr << "count_matchings: " << error << " (see --help)\n";
        return kUsage;
    }
    pmcount::CountOptions options;
    try {
        options = pmcount::tools::count_options(a, world.local_size);
    } catch (const pmcount::InvalidArgument& e) {
        std::cerr << "count_matchings: " << e.what() << "\n";
        return kUsage;
    }
    const std::string mode = pmcount::tools::counting_mode(a);

    pmcount::tools::ProgressBar bar(!a.quiet && !a.json && isatty(STDERR_FILENO) != 0);
    options.progress = [&bar](const pmcount::Progress& p) { bar.update(p.fraction, p.elapsed_s); };

    const auto start = std::chrono::steady_clock::now();
    auto seconds = [&start] {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
    try {
        pmcount::Input input = pmcount::tools::read_named_input(
            a.path, pmcount::tools::read_options(a), a.embedding_path);
        stop_if_signalled("reading the input");
        const double read_s = seconds();
        if (!a.quiet && !a.json) {
            for (const auto& w : input.warnings) {
                std::cerr << "warning: " << w << "\n";
            }
        }
        if (!a.dot_path.empty()) {
            pmcount::tools::write_dot_file(a.dot_path, input);
            stop_if_signalled("writing the DOT file");
        }
        // An estimate on stdout (JSON, or the value with its interval on stderr).
        auto show_estimate = [&](const pmcount::EstimateResult& estimate,
                                 const std::string& counted) {
            bar.clear();
            if (a.json) {
                std::cout << pmcount::tools::estimate_json(input, estimate, counted, read_s,
                                                           seconds())
                                 .dump()
                          << std::endl;
            } else {
                pmcount::tools::print_estimate(input, estimate, counted, !a.quiet, seconds());
            }
        };
        if (pmcount::tools::counts_all_sizes(a) && a.approx) {
            pmcount::EstimateOptions& estimate_options = a.estimate_options;
            static_cast<pmcount::RunOptions&>(estimate_options) = options;
            const pmcount::MatchingQuery query = pmcount::tools::matching_query(a);
            const pmcount::EstimateResult estimate =
                pmcount::estimate_matchings(input, query, a.monomer_weight, estimate_options);
            show_estimate(estimate, query == pmcount::MatchingQuery::all
                                        ? "all matchings"
                                        : "monomer-dimer Z(" + a.monomer_weight + ")");
            return kOk;
        }
        if (pmcount::tools::counts_all_sizes(a)) {
            const pmcount::MatchingsResult r =
                pmcount::count_matchings(input, pmcount::tools::matching_query(a), options,
                                         a.matchings_of_size, a.monomer_weight);
            bar.clear();
            if (a.json) {
                std::cout << pmcount::tools::matchings_json(input, r, read_s, seconds()).dump()
                          << std::endl;
            } else {
                pmcount::tools::print_matchings(input, r, !a.quiet, seconds());
            }
            return kOk;
        }
        const std::string counted = pmcount::tools::what_is_counted(input, mode);
        if (a.approx) {
            pmcount::EstimateOptions& estimate_options = a.estimate_options;
            estimate_options.estimator = pmcount::estimator_from_string(a.estimator);
            estimate_options.layout = pmcount::estimator_layout_from_string(a.layout);
            static_cast<pmcount::RunOptions&>(estimate_options) = options;
            if (a.explain) {
                const pmcount::PopulationChoice c =
                    pmcount::choose_populations(input.rows(), estimate_options);
                if (a.json) {
                    std::cout << pmcount::tools::estimate_plan_json(input, estimate_options, c,
                                                                    counted)
                                     .dump()
                              << std::endl;
                } else {
                    pmcount::tools::print_estimate_plan(input, estimate_options, c, counted);
                }
                return kOk;
            }
            show_estimate(pmcount::estimate(input, estimate_options), counted);
            return kOk;
        }
        const pmcount::CountResult result = pmcount::tools::count_as_asked(input, mode, options);
        bar.clear();
        if (a.json) {
            std::cout
                << pmcount::tools::count_json(input, result, counted, read_s, seconds()).dump()
                << std::endl;
        } else if (result.explained_only) {
            pmcount::tools::print_explanation(input, result, counted);
        } else {
            pmcount::tools::print_count(input, result, counted, !a.quiet, seconds());
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
