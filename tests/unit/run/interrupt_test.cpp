// A stop request (request_stop(): a CLI's SIGINT, Python's Ctrl-C) ends every engine within a
// few milliseconds of work, not at the end of a chunk or of the whole count: each case below runs
// for tens of seconds or more when nothing stops it (a chunk alone takes longer than the limit on
// the dense, sparse and hafnian loops), is asked to stop after 0.2 s, and must throw Interrupted
// well within the limit, leaving no stop request behind for the next count.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <iostream>
#include <limits>
#include <string>
#include <thread>

#include "pmcount/approx.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "support/closed_forms.hpp"
#include "support/random_matrices.hpp"

namespace pmcount {
namespace {

using Clock = std::chrono::steady_clock;

/// Seconds from the request to the Interrupted exception. 2 s leaves a loaded 2-core CI machine
/// (where a poll interval of work can take ten times longer than on a quiet one) a wide margin;
/// without the polls inside the chunks each case here takes 20 s or more to stop.
constexpr double kLimit_s = 2.0;

/// When to ask for the stop: 0.2 s after the start, or at the engine's first progress report
/// (for engines whose planning alone may take longer on a slow machine).
enum class Trigger { after_a_moment, first_progress };

/// Runs count(options), asks for a stop, and returns the seconds from the request to the
/// Interrupted exception.
double seconds_to_stop(const std::function<void(const CountOptions&)>& count, CountOptions options,
                       Trigger trigger) {
    std::atomic<bool> requested{false};
    Clock::time_point requested_at;
    auto request = [&] {
        if (!requested.exchange(true)) {
            requested_at = Clock::now();
            request_stop();
        }
    };
    std::atomic<bool> finished{false};
    std::thread stopper;
    if (trigger == Trigger::after_a_moment) {
        stopper = std::thread([&] {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
            if (!finished) {
                request();
            }
        });
    } else {
        options.progress_interval_s = 0;
        options.progress = [&](const Progress&) { request(); };
    }
    bool interrupted = false;
    try {
        count(options);
    } catch (const Interrupted&) {
        interrupted = true;
    }
    const Clock::time_point stopped_at = Clock::now();
    finished = true;
    if (stopper.joinable()) {
        stopper.join();
    }
    EXPECT_TRUE(requested.load()) << "the count ended before the stop was asked for";
    EXPECT_TRUE(interrupted) << "the count ended without being interrupted";
    clear_stop_request();  // (only if the count missed it: then the test has failed)
    return std::chrono::duration<double>(stopped_at - requested_at).count();
}

CountOptions cpu(Method method, Precision precision = Precision::automatic) {
    CountOptions o;
    o.method = method;
    o.precision = precision;
    o.backend = Backend::cpu;
    o.threads = 2;
    o.dulmage_mendelsohn = false;
    o.reductions = false;
    return o;
}

DenseMatrix<std::int64_t> symmetric_binary(int n, double density, std::uint64_t seed) {
    const auto b = test::random_binary(n, density, seed);
    DenseMatrix<std::int64_t> s(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < i; ++j) {
            s(i, j) = s(j, i) = b(i, j);
        }
    }
    return s;
}

void expect_prompt_stop(const char* what, const std::function<void(const CountOptions&)>& count,
                        CountOptions options, Trigger trigger = Trigger::after_a_moment) {
    const double seconds = seconds_to_stop(count, std::move(options), trigger);
    std::cout << what << ": stopped " << seconds << " s after the request\n";
    EXPECT_LT(seconds, kLimit_s) << what;
    // The request was consumed: nothing is left to stop the next count.
    EXPECT_EQ(permanent(test::all_ones(6), cpu(Method::ryser)).exact, 720) << what;
}

TEST(Interrupts, DenseRyserStopsInsideItsChunks) {
    // Order 44: 2^43 steps in 1024 chunks, 2^33 steps (tens of seconds) each.
    const auto integer = test::random_integer(44, -3, 5, 1.0, 1);
    const auto real = test::random_real(44, -1, 1, 1.0, 2);
    const auto on = [](const auto& a) { return [&a](const CountOptions& o) { permanent(a, o); }; };
    expect_prompt_stop("ryser, exact", on(integer), cpu(Method::ryser));
    expect_prompt_stop("ryser, double", on(real), cpu(Method::ryser));
    expect_prompt_stop("ryser, double-double", on(real),
                       cpu(Method::ryser, Precision::double_double));
}

TEST(Interrupts, SparseEnginesStopInsideTheirChunks) {
    const auto binary = test::random_binary_with_matching(52, 0.3, 3);
    const auto real = test::random_real(52, -1, 1, 0.3, 4);
    for (const Method method : {Method::sparyser, Method::skipper}) {
        expect_prompt_stop(
            to_string(method), [&](const CountOptions& o) { permanent(binary, o); }, cpu(method));
        expect_prompt_stop(
            to_string(method), [&](const CountOptions& o) { permanent(real, o); }, cpu(method));
    }
}

TEST(Interrupts, TheHafnianStopsInsideItsSubtrees) {
    // Order 72: chunks of 2^26 leaves.
    const auto a = symmetric_binary(72, 0.5, 5);
    expect_prompt_stop(
        "hafnian", [&](const CountOptions& o) { hafnian(a, o); }, cpu(Method::hafnian));
}

TEST(Interrupts, PolynomialEnginesAndBruteForceStop) {
    expect_prompt_stop(
        "frontier", [](const CountOptions& o) { count_perfect_matchings(grid_graph(16, 4000), o); },
        cpu(Method::frontier), Trigger::first_progress);
    // (The planarity test of this grid's planning takes seconds on a busy machine.)
    expect_prompt_stop(
        "planar", [](const CountOptions& o) { count_perfect_matchings(grid_graph(200, 200), o); },
        cpu(Method::planar), Trigger::first_progress);
    expect_prompt_stop(
        "brute force", [](const CountOptions& o) { permanent(test::all_ones(12), o); },
        cpu(Method::brute_force));
}

TEST(Interrupts, EstimatorsStopInsideARound) {
    for (const std::uint64_t particles : {std::uint64_t{1}, std::uint64_t{8192}}) {
        EstimateOptions o;
        o.backend = Backend::cpu;
        o.threads = 2;
        o.particles = particles;
        o.samples = std::uint64_t{1} << 40;
        expect_prompt_stop(
            particles == 1 ? "estimator, samples" : "estimator, populations",
            [o](const CountOptions&) { estimate_perfect_matchings(grid_graph(48, 48), o); },
            CountOptions{});
    }
}

}  // namespace
}  // namespace pmcount
