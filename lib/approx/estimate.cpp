// The estimators' public entry points: validate and convert the input, settle exact zeros, prune
// (+ variants), scale the whole matrix once (setup.hpp), then draw samples in rounds on CPU
// threads or GPUs (sources.hpp) until a stopping rule fires, and summarise them (log_mean.hpp).
//
// Phases:
//   1. Entries: the positive entries as (row, col, value); a negative or non-finite value is
//      InvalidArgument (InvalidInput naming the file's row and column, given an Input). Unequal
//      sides, or no perfect matching of the pattern (Hopcroft–Karp), give an exact 0 without
//      sampling.
//   2. + variants: drop every entry that lies in no perfect matching — those joining two fine
//      Dulmage–Mendelsohn blocks (O(E·√V), once) — and keep the decomposition's perfect matching:
//      the sampler maintains it to prune the entries that fall out of every perfect matching
//      during a sample (sampler.hpp).
//   3. Scaling variants: Sinkhorn–Knopp on the whole matrix to convergence (every sample starts
//      from this scaling; rescales during a sample are warm-started from it).
//   4. Rounds. Round boundaries follow a fixed schedule (each round half the samples so far, at
//      least 1024 on CPUs and one sample per resident thread on GPUs), so a run stopped by a
//      sample count gives the same result for a seed on any threads or device, and one stopped
//      by a relative error the same on any number of CPU threads (the GPU checks at other
//      counts). Only --time shortens a round to what is predicted to fit.
//   5. With particles > 1 the unit is a population of samples resampled as they go
//      (approx/population.hpp, sources.cpp's run_populations; their size population_choice.hpp):
//      a round is as many populations as fit side by side, and the accumulator averages the
//      populations' estimates.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <numeric>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <variant>

#include "approx/general_sampler.hpp"
#include "approx/host_workspace.hpp"
#include "approx/log_mean.hpp"
#include "approx/monomer_dimer.hpp"
#include "approx/population_choice.hpp"
#include "approx/problem.hpp"
#include "approx/rounds.hpp"
#include "approx/setup.hpp"
#include "approx/sources.hpp"
#include "core/clock.hpp"
#include "core/hash.hpp"
#include "core/memory.hpp"
#include "core/names.hpp"
#include "core/stop.hpp"
#include "pmcount/approx.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "pmcount/structure.hpp"
#include "run/chunked_run.hpp"
#include "run/mpi.hpp"
#include "run/session.hpp"

namespace pmcount {

namespace {

using approx::Entry;
using approx::kSettingUp;
using detail::Clock;
using detail::seconds_since;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kLn10 = 2.302585092994045684;

/// A negative or non-finite entry, which no estimator can use. An InvalidArgument for callers
/// that pass a matrix; estimate(const Input&) restates it against the file's row and column ids.
class UnusableEntry : public InvalidArgument {
public:
    UnusableEntry(vertex_t row, vertex_t col, double value, const std::string& where)
        : InvalidArgument("the estimators need nonnegative finite entries; the entry at " + where +
                          " is " + format_value(value)),
          row_(row),
          col_(col),
          value_(value) {}
    vertex_t row() const noexcept { return row_; }
    vertex_t col() const noexcept { return col_; }
    double value() const noexcept { return value_; }
    static std::string format_value(double v) {
        std::ostringstream text;
        text << v;
        return text.str();
    }

private:
    vertex_t row_, col_;
    double value_;
};

template <class T>
double checked_value(T v, vertex_t r, vertex_t c) {
    const double d = static_cast<double>(v);
    if (!(d >= 0) || !std::isfinite(d)) {
        throw UnusableEntry(r, c, d,
                            "(" + std::to_string(r) + ", " + std::to_string(c) + ") (0-based)");
    }
    return d;
}

EstimateResult zero_result(const EstimateOptions& o, vertex_t n, edge_t nnz, std::string note) {
    EstimateResult r;
    r.estimator = to_string(o.estimator);
    r.backend = "cpu";
    r.log10_value = r.log10_ci_low = r.log10_ci_high = kNegInf;
    r.value = 0;
    r.confidence = o.confidence;
    r.stopped = StopReason::exact;
    r.n = n;
    r.nnz = nnz;
    r.seed = o.seed;
    r.note = std::move(note);
    return r;
}

/// What an estimate's checkpoint must match: the library version, the entries as given, and
/// the options that decide the samples' values (not the stopping rules, threads, GPUs or ranks;
/// the caller adds the layout and backend once they are resolved).
run::Identity estimate_identity(vertex_t rows, vertex_t cols, const std::vector<Entry>& entries,
                                const EstimateOptions& o, const PopulationChoice& c) {
    std::uint64_t input = fnv1a_value(fnv1a_value(fnv1a("estimate"), rows), cols);
    for (const Entry& e : entries) {
        input = fnv1a_value(fnv1a_value(fnv1a_value(input, e.row), e.col), e.value);
    }
    char text[200];
    std::snprintf(text, sizeof text, "%d×%d, %zu entries, hash %016llx", rows, cols, entries.size(),
                  static_cast<unsigned long long>(input));
    run::Identity id;
    id.version = build_info().version;
    id.input = text;
    std::snprintf(text, sizeof text,
                  "seed %llu, %llu particles, resample every %d, potential exponent %.17g, "
                  "scale every %d × %d",
                  static_cast<unsigned long long>(o.seed),
                  static_cast<unsigned long long>(c.particles), c.resample_every,
                  c.potential_exponent, o.scale_every, o.scale_iters);
    id.plan = "estimate: " + std::string(to_string(o.estimator)) + ", " + text;
    return id;
}

void validate(const EstimateOptions& o) {
    if (o.scale_every < 1 || o.scale_iters < 1) {
        throw InvalidArgument("scale_every and scale_iters must be at least 1");
    }
    if (!std::isfinite(o.potential_exponent) || o.potential_exponent < 0) {
        throw InvalidArgument("potential_exponent must be finite and at least 0");
    }
    if (o.resample_every < 0) {
        throw InvalidArgument("resample_every must be at least 1 (0: automatic)");
    }
    if (o.particles > (std::uint64_t{1} << 30)) {
        throw InvalidArgument("particles must be at most 2^30");
    }
    if (!(o.confidence > 0 && o.confidence < 1)) {
        throw InvalidArgument("confidence must lie in (0, 1)");
    }
    if (o.time_s < 0 || o.rel_error < 0) {
        throw InvalidArgument("time and relative error limits must be nonnegative");
    }
    run::check_run_options(o);
}

EstimateResult estimate_unguarded(vertex_t rows, vertex_t cols, std::vector<Entry> entries,
                                  const EstimateOptions& options, bool general);

/// Every estimate; the stop request that interrupts it is withdrawn as it leaves. `general`:
/// the entries are a general graph's edges (row < col, each once) and its perfect matchings are
/// estimated (general_sampler.hpp), not a permanent.
EstimateResult estimate_entries(vertex_t rows, vertex_t cols, std::vector<Entry> entries,
                                const EstimateOptions& options, bool general = false) {
    return detail::stop_boundary(
        [&] { return estimate_unguarded(rows, cols, std::move(entries), options, general); });
}

/// Phase 4 on, for any source: rounds until a stopping rule fires, then the summary in `result`
/// (whose set-up fields the caller filled).
EstimateResult draw_rounds(approx::SampleSource& source, const EstimateOptions& options,
                           const PopulationChoice& choice, const approx::PopulationPlan& plan,
                           run::Identity identity, EstimateResult result,
                           Clock::time_point start_time) {
    const bool populations = plan.particles > 1;
    // Phase 4: rounds. With populations, a unit of the rounds is one population (its estimate
    // is what the accumulator averages) and the sample limit counts particles.
    const std::uint64_t max_particles = choice.samples;
    const double rel_error = choice.rel_error;
    const double time_limit_s = choice.time_s;
    const std::uint64_t max_samples =
        populations ? (max_particles + plan.particles - 1) / plan.particles : max_particles;
    // Populations are i.i.d. and nearly normal in log: 16 of them give an interval.
    const std::uint64_t kMinSamplesForRelError = populations ? 16 : 1024;
    const std::uint64_t min_round = populations ? source.population_round() : source.min_round();
    source.stop_inside = !options.distributed || run::mpi::size() <= 1;
    // MPI: each round is split over the ranks, each drawing a contiguous share, and every rank
    // gets every estimate, so all accumulate the same values in the same order (samples and
    // populations are drawn by index: the values do not depend on who draws them). Rank 0
    // decides each round's size and when to stop, so that a time limit stops every rank alike.
    const int ranks = options.distributed ? std::max(1, run::mpi::size()) : 1;
    const int rank = ranks > 1 ? run::mpi::rank() : 0;
    auto rank0_decides = [ranks](std::uint64_t value) {
        std::vector<std::uint64_t> v{value};
        if (ranks > 1) {
            run::mpi::broadcast(v);
        }
        return v[0];
    };
    approx::LogMeanAccumulator acc;
    std::vector<double> logs;
    // The estimates drawn so far are the checkpoint's stream, in index order: a resumed run adds
    // them to the accumulator first and draws on from the next index.
    identity.plan += ", layout " + result.layout + ", backend " + result.backend;
    run::Session session(identity,
                         run::SessionOptions{options.checkpoint, options.resume,
                                             options.checkpoint_interval_s, options.distributed});
    {
        // (A budget below the checkpoint's count takes its first estimates: the same as a run
        // of that budget.)
        const run::Task& resumed = session.open_stream(sizeof(double));
        const std::uint64_t taken =
            max_samples > 0 ? std::min(resumed.chunks, max_samples) : resumed.chunks;
        for (std::uint64_t k = 0; k < taken; ++k) {
            double l = 0;
            std::memcpy(&l, resumed.records.data() + k * sizeof l, sizeof l);
            acc.add(l);
        }
        result.resumed_samples = taken * plan.particles;
    }
    const auto sampling_start = Clock::now();
    StopReason stopped = StopReason::samples;
    while (true) {
        const std::uint64_t done = acc.count();
        if (max_samples > 0 && done >= max_samples) {  // a resumed run that was already done
            break;
        }
        const std::uint64_t busy_round = min_round * static_cast<std::uint64_t>(ranks);
        std::uint64_t round = approx::scheduled_round(done, busy_round);
        if (max_samples > 0) {
            round = std::min(round, max_samples - done);
        }
        const double elapsed = seconds_since(sampling_start);
        if (time_limit_s > 0 && done > 0) {
            // Only a time limit makes round sizes depend on the speed of the machine.
            round = approx::time_capped_round(round, busy_round, elapsed,
                                              elapsed / static_cast<double>(done), time_limit_s);
        }
        round = rank0_decides(round);
        if (round == 0) {
            stopped = StopReason::time;
            break;
        }
        std::vector<std::uint64_t> shares(static_cast<std::size_t>(ranks));
        for (int r = 0; r < ranks; ++r) {
            shares[static_cast<std::size_t>(r)] =
                round * static_cast<std::uint64_t>(r + 1) / static_cast<std::uint64_t>(ranks) -
                round * static_cast<std::uint64_t>(r) / static_cast<std::uint64_t>(ranks);
        }
        const std::uint64_t first =
            done + round * static_cast<std::uint64_t>(rank) / static_cast<std::uint64_t>(ranks);
        std::vector<double> mine(shares[static_cast<std::size_t>(rank)]);
        if (!mine.empty() && populations) {
            source.populations(first, mine.size(), mine.data());
        } else if (!mine.empty()) {
            source.sample(first, mine.size(), mine.data());
        }
        if (source.stop_inside && detail::stop_requested()) {
            // The round may be cut short: its estimates are not kept.
            session.stop(std::to_string(acc.count()) + (populations ? " populations" : " samples"));
        }
        logs = ranks > 1 ? run::mpi::gather_parts(mine, shares) : std::move(mine);
        for (const double l : logs) {
            acc.add(l);
        }
        session.append(reinterpret_cast<const unsigned char*>(logs.data()), logs.size());
        const double now = seconds_since(sampling_start);
        const double half_width = acc.log_half_width(options.confidence);
        const bool precise = rel_error > 0 && acc.count() >= kMinSamplesForRelError &&
                             acc.zeros() < acc.count() && half_width <= rel_error;
        if (options.progress && rank == 0) {
            double fraction = 0;
            if (max_samples > 0) {
                fraction = static_cast<double>(acc.count()) / static_cast<double>(max_samples);
            }
            if (time_limit_s > 0) {
                fraction = std::max(fraction, now / time_limit_s);
            }
            if (rel_error > 0 && std::isfinite(half_width) && half_width > 0) {
                const double ratio = rel_error / half_width;
                fraction = std::max(fraction, std::min(1.0, ratio * ratio));
            }
            options.progress(Progress{std::min(1.0, fraction), now});
        }
        // (0: go on; kInterrupt: request_stop(); else 1 + the StopReason)
        constexpr std::uint64_t kInterrupt = 1000;
        std::uint64_t stop = 0;
        if (detail::stop_requested()) {
            stop = kInterrupt;
        } else if (max_samples > 0 && acc.count() >= max_samples) {
            stop = 1 + static_cast<std::uint64_t>(StopReason::samples);
        } else if (precise) {
            stop = 1 + static_cast<std::uint64_t>(StopReason::rel_error);
        } else if (time_limit_s > 0 && now >= time_limit_s) {
            stop = 1 + static_cast<std::uint64_t>(StopReason::time);
        }
        stop = rank0_decides(stop);
        if (stop == kInterrupt) {
            session.stop(std::to_string(acc.count()) + (populations ? " populations" : " samples"));
        }
        if (stop != 0) {
            stopped = static_cast<StopReason>(stop - 1);
            break;
        }
    }
    session.save();
    result.ranks = ranks;
    result.sample_seconds = seconds_since(sampling_start);

    const double log_mean = acc.log_mean();
    // Rounding: a sample's log sums up to n logs, each within a few ulps; where every sample
    // agrees (a graph whose choices all weigh alike) the statistical width is 0 and this is
    // what keeps the interval around the value it rounded.
    const double rounding = 4.0 * std::numeric_limits<double>::epsilon() *
                            (1.0 + static_cast<double>(result.n)) * (1.0 + std::fabs(log_mean));
    const double half_width =
        acc.log_half_width(options.confidence) + (std::isfinite(log_mean) ? rounding : 0.0);
    result.log10_value = log_mean / kLn10;
    result.value = std::exp(log_mean);
    result.rel_std_error = acc.rel_std_error();
    result.log10_ci_low = (log_mean - half_width) / kLn10;
    result.log10_ci_high = (log_mean + half_width) / kLn10;
    result.log_sd = std::sqrt(acc.log_variance());
    result.samples = acc.count() * plan.particles;
    result.particles = plan.particles;
    result.populations = populations ? acc.count() : 0;
    result.zero_fraction = static_cast<double>(acc.zeros()) /
                           static_cast<double>(std::max<std::uint64_t>(1, acc.count()));
    result.effective_samples = acc.effective_samples();
    result.max_share = acc.max_share();
    result.stopped = stopped;
    // A single sample carrying a tenth of the mean means the tail has barely been explored.
    constexpr double kShareWarning = 0.1;
    if (acc.zeros() == acc.count()) {
        result.note =
            "every sample was 0: the estimate is 0 and the interval is (0, inf); take "
            "more samples or a + estimator";
    } else if (result.max_share > kShareWarning) {
        result.note = std::string(populations ? "one population" : "one sample") + " carries " +
                      std::to_string(100 * result.max_share) +
                      "% of the mean: the tail is under-explored and the interval may be too "
                      "narrow; take more samples";
    }
    result.seconds = seconds_since(start_time);
    return result;
}

/// The sweep sampler's estimate (approx/monomer_dimer.hpp) of Z(x) for the graph of `edges` on
/// `vertices` vertices taken in `order` (x = 0: its perfect matchings), on GPUs or CPU threads;
/// `result` carries the caller's name, order and entry count.
EstimateResult draw_sweep(vertex_t vertices, const std::vector<Entry>& edges,
                          const std::vector<vertex_t>& order, double monomer,
                          const EstimateOptions& options, const PopulationChoice& choice,
                          run::Identity identity, EstimateResult result,
                          Clock::time_point start_time) {
    pmcount::detail::throw_if_stopped(kSettingUp);
    const approx::MonomerDimerProblem problem =
        approx::monomer_dimer_problem(vertices, edges, order, monomer);
    result.layout = "sparse";
    result.confidence = options.confidence;
    result.seed = options.seed;
    const std::vector<int> gpus =
        options.backend == Backend::cpu
            ? std::vector<int>{}
            : approx::visible_gpus(options, options.backend == Backend::cuda);
    PopulationChoice chosen = choice;
    std::unique_ptr<approx::SampleSource> source;
    auto plan = [&] { return approx::PopulationPlan{chosen.particles, chosen.resample_every}; };
    if (!gpus.empty()) {
        source = approx::monomer_dimer_gpu_source(problem, options.seed, gpus, plan(),
                                                  chosen.potential_exponent);
        result.backend = "cuda";
        result.device = source->description();
    } else {
        result.threads = run::resolve_threads(options.threads);
        result.backend = "cpu";
        if (chosen.time_pilot) {
            approx::particles_within_time(
                [&](std::uint64_t particles) {
                    return approx::monomer_dimer_cpu_source(
                        problem, options.seed, result.threads,
                        approx::PopulationPlan{particles, chosen.resample_every},
                        chosen.potential_exponent);
                },
                chosen, options.distributed ? std::max(1, run::mpi::size()) : 1);
        }
        source = approx::monomer_dimer_cpu_source(problem, options.seed, result.threads, plan(),
                                                  chosen.potential_exponent);
    }
    result.particles_reason = chosen.reason;
    // Two copies of each particle's free bits and cursor (resampling copies one into the
    // other), its weight and ancestor; GPUs check their own memory.
    const double side_by_side = static_cast<double>(
        chosen.particles > 1 ? source->population_round() * chosen.particles : 0);
    const double per_particle =
        (gpus.empty() ? 2 * (4.0 * ((vertices + 31) / 32) + sizeof(approx::MonomerDimerCursor))
                      : 0) +
        sizeof(double) + sizeof(std::uint32_t);
    pmcount::detail::require_memory(side_by_side * per_particle, options.max_memory,
                                    "the estimator's populations need",
                                    std::to_string(static_cast<std::uint64_t>(side_by_side)) +
                                        " particles of " + std::to_string(vertices) +
                                        " vertices side by side; ask for fewer --particles");
    const std::string guide = "Bethe guide from " + std::to_string(problem.bethe_sweeps) +
                              " belief-propagation sweeps";
    std::string note = monomer > 0 ? "monomer weight " + UnusableEntry::format_value(monomer) + "; " + guide
                                   : guide;
    result = draw_rounds(*source, options, chosen, plan(), std::move(identity), std::move(result),
                         start_time);
    result.note = result.note.empty() ? note : note + "; " + result.note;
    return result;
}

/// A general graph's estimate (general_sampler.hpp) from its edges: the zero checks, the
/// pruning, then draw_rounds on CPU threads.
EstimateResult estimate_general(vertex_t n, const std::vector<Entry>& edges,
                                const EstimateOptions& options, const PopulationChoice& choice,
                                run::Identity identity, Clock::time_point start_time) {
    // The scaling estimators need two sides: their names (the default) take the sweep.
    const bool sweep = options.estimator != Estimator::rasmussen &&
                       options.estimator != Estimator::rasmussen_plus;
    const bool prune = options.estimator != Estimator::rasmussen;
    if (options.backend == Backend::cuda && !sweep) {
        throw InvalidArgument(std::string("--backend cuda: the ") +
                              to_string(options.estimator) +
                              " sampler of general graphs runs on CPU threads; the bethe sampler "
                              "(the default) runs on GPUs too");
    }
    const edge_t input_nnz = static_cast<edge_t>(edges.size());
    if (n % 2 != 0) {
        return zero_result(options, n, input_nnz, "an odd number of vertices: no perfect matching");
    }
    pmcount::detail::throw_if_stopped(kSettingUp);
    approx::GeneralSetup setup = approx::general_setup(n, edges, prune);
    if (!setup.zero_reason.empty()) {
        return zero_result(options, n, input_nnz, setup.zero_reason);
    }
    EstimateResult result;
    result.estimator = sweep ? "bethe" : prune ? "rasmussen+" : "rasmussen";
    result.n = n;
    result.nnz = input_nnz - setup.dropped;
    if (sweep) {
        // The edges that lie in some perfect matching, the vertices in index order.
        const approx::GeneralProblem& p = setup.problem;
        std::vector<Entry> allowed;
        for (vertex_t v = 0; v < n; ++v) {
            for (std::int64_t e = p.offsets[static_cast<std::size_t>(v)];
                 e < p.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
                const vertex_t u = p.neighbours[static_cast<std::size_t>(e)];
                if (v < u) {
                    allowed.push_back({v, u, p.weights[static_cast<std::size_t>(e)]});
                }
            }
        }
        std::vector<vertex_t> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        result = draw_sweep(n, allowed, order, 0.0, options, choice, std::move(identity),
                            std::move(result), start_time);
        if (options.estimator != Estimator::bethe) {
            result.note = "a general graph is sampled by the bethe rule (the scaling estimators "
                          "need two sides); " +
                          result.note;
        }
        return result;
    }
    std::string note;
    result.layout = "sparse";
    result.confidence = options.confidence;
    result.seed = options.seed;
    result.threads = run::resolve_threads(options.threads);
    result.backend = "cpu";
    PopulationChoice chosen = choice;
    if (chosen.time_pilot) {
        approx::particles_within_time(
            [&](std::uint64_t particles) {
                return approx::general_cpu_source(
                    setup.problem, prune, options.seed, result.threads,
                    approx::PopulationPlan{particles, chosen.resample_every},
                    chosen.potential_exponent);
            },
            chosen, options.distributed ? std::max(1, run::mpi::size()) : 1);
    }
    result.particles_reason = chosen.reason;
    const approx::PopulationPlan plan{chosen.particles, chosen.resample_every};
    const std::unique_ptr<approx::SampleSource> source = approx::general_cpu_source(
        setup.problem, prune, options.seed, result.threads, plan, chosen.potential_exponent);
    // Two states a particle (resampling copies one into the other): live flags, degrees, matching.
    const double side_by_side = static_cast<double>(
        plan.particles > 1 ? source->population_round() * plan.particles : std::uint64_t{0});
    detail::require_memory(side_by_side * 2 * (128.0 + 9.0 * n), options.max_memory,
                           "the estimator's populations need",
                           std::to_string(static_cast<std::uint64_t>(side_by_side)) +
                               " particles of order " + std::to_string(n) +
                               " side by side; ask for fewer --particles");
    result = draw_rounds(*source, options, chosen, plan, std::move(identity), std::move(result),
                         start_time);
    if (!note.empty()) {
        result.note = result.note.empty() ? note : note + "; " + result.note;
    }
    return result;
}

EstimateResult estimate_unguarded(vertex_t rows, vertex_t cols, std::vector<Entry> entries,
                                  const EstimateOptions& options, bool general) {
    const auto start_time = Clock::now();
    validate(options);
    pmcount::detail::throw_if_stopped(kSettingUp);
    const edge_t input_nnz = static_cast<edge_t>(entries.size());
    if (rows != cols) {
        return zero_result(options, rows, input_nnz,
                           "unequal sides (" + std::to_string(rows) + " × " + std::to_string(cols) +
                               "): no perfect matching");
    }
    const vertex_t n = rows;
    PopulationChoice choice = choose_populations(n, options);

    run::Identity identity;
    if (!options.checkpoint.empty()) {
        identity = estimate_identity(rows, cols, entries, options, choice);
        identity.plan += general ? ", general graph" : "";
    }
    if (general) {
        return estimate_general(n, entries, options, choice, identity, start_time);
    }
    // Phase 1: the pattern must have a perfect matching.
    const BipartiteGraph pattern = approx::pattern_of(n, entries);
    if (options.estimator == Estimator::bethe) {
        // The sweep over the graph of both sides: row i is vertex 2i, column j vertex 2j + 1, in
        // index order; the entries outside the fine Dulmage–Mendelsohn blocks dropped first.
        const DMDecomposition dm = dulmage_mendelsohn(pattern);
        if (!dm.has_perfect_matching()) {
            return zero_result(options, n, input_nnz,
                               "the nonzero pattern has no perfect matching");
        }
        std::vector<Entry> edges;
        for (const Entry& e : approx::prune(entries, dm)) {
            edges.push_back({2 * e.row, 2 * e.col + 1, e.value});
        }
        std::vector<vertex_t> order(2 * static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        EstimateResult result;
        result.estimator = "bethe";
        result.n = n;
        result.nnz = static_cast<edge_t>(edges.size());
        return draw_sweep(2 * n, edges, order, 0.0, options, choice, std::move(identity),
                          std::move(result), start_time);
    }
    approx::PopulationPlan plan{choice.particles, choice.resample_every};
    const bool populations = plan.particles > 1;
    const approx::SamplerConfig config = approx::sampler_config(options, plan.particles);
    Matching matching;
    if (config.sparsest_line) {
        DMDecomposition dm = dulmage_mendelsohn(pattern);
        if (!dm.has_perfect_matching()) {
            return zero_result(options, n, input_nnz,
                               "the nonzero pattern has no perfect matching");
        }
        entries = approx::prune(entries, dm);  // phase 2
        // Its edges lie in perfect matchings, hence inside fine blocks: it survives the pruning.
        matching = std::move(dm.matching);
    } else if (!maximum_matching(pattern).is_perfect()) {
        return zero_result(options, n, input_nnz, "the nonzero pattern has no perfect matching");
    }

    const bool dense = options.layout == EstimatorLayout::dense ||
                       (options.layout == EstimatorLayout::automatic && n > 0 &&
                        static_cast<double>(entries.size()) * 4 >= static_cast<double>(n) * n);
    if (dense) {
        detail::require_memory(static_cast<double>(n) * n * sizeof(double), options.max_memory,
                               "the estimator's dense matrix needs",
                               std::to_string(n) + "×" + std::to_string(n) + " doubles");
    }
    pmcount::detail::throw_if_stopped(kSettingUp);
    approx::SamplerProblem problem = approx::build_problem(n, entries, dense);
    if (config.prune) {
        problem.row_match = matching.row_match;
        problem.col_match = matching.col_match;
    }
    if (config.scaled) {  // phase 3
        approx::scale_whole_matrix(problem);
    }

    EstimateResult result;
    result.estimator = to_string(options.estimator);
    result.layout = dense ? "dense" : "sparse";
    result.confidence = options.confidence;
    result.n = n;
    result.nnz = static_cast<edge_t>(entries.size());
    result.seed = options.seed;

    const std::vector<int> gpus =
        options.backend == Backend::cpu
            ? std::vector<int>{}
            : approx::visible_gpus(options, options.backend == Backend::cuda);
    std::unique_ptr<approx::SampleSource> source;
    if (!gpus.empty()) {
        source = approx::gpu_source(problem, config, gpus, plan);
        result.backend = "cuda";
        result.device = source->description();
    } else {
        result.threads = run::resolve_threads(options.threads);
        result.backend = "cpu";
        const int ranks = options.distributed ? std::max(1, run::mpi::size()) : 1;
        if (choice.time_pilot) {
            plan.particles = approx::particles_within_time(problem, config, result.threads,
                                                           plan.every, choice, ranks);
        }
        source = approx::cpu_source(problem, config, result.threads, plan);
    }
    result.particles_reason = choice.reason;
    {
        // The particles drawn side by side (a round's populations), each with two sampler
        // states and cursors (resampling copies one set into the other) and its weight and
        // ancestor; on GPUs only the weights and ancestors live here (the GPU's own memory is
        // checked by its sampler).
        const double side_by_side = static_cast<double>(
            populations ? source->population_round() * plan.particles : std::uint64_t{0});
        const double per_particle =
            (gpus.empty() ? 2 * (approx::host_workspace_bytes(n) + sizeof(approx::SampleCursor))
                          : 0) +
            sizeof(double) + sizeof(std::uint32_t);
        detail::require_memory(
            side_by_side * per_particle, options.max_memory, "the estimator's populations need",
            std::to_string(static_cast<std::uint64_t>(side_by_side)) + " particles of order " +
                std::to_string(n) + " side by side; ask for fewer --particles");
        if (!options.checkpoint.empty() && choice.samples > 0) {
            // The checkpoint keeps every estimate (a double and a flag) in memory and on disk.
            const double estimates = static_cast<double>(
                populations ? (choice.samples + plan.particles - 1) / plan.particles
                            : choice.samples);
            detail::require_memory(
                estimates * (sizeof(double) + 1), options.max_memory,
                "the checkpoint's record of every estimate needs",
                std::to_string(static_cast<std::uint64_t>(estimates)) + " estimates");
        }
    }

    return draw_rounds(*source, options, choice, plan, std::move(identity), std::move(result),
                       start_time);
}

template <class T>
std::vector<Entry> entries_of(const SparseMatrix<T>& m) {
    std::vector<Entry> entries;
    entries.reserve(static_cast<std::size_t>(m.nnz()));
    for (vertex_t r = 0; r < m.rows(); ++r) {
        for (edge_t e = m.row_offsets()[static_cast<std::size_t>(r)];
             e < m.row_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = m.col_indices()[static_cast<std::size_t>(e)];
            const double v = checked_value(m.values()[static_cast<std::size_t>(e)], r, c);
            if (v > 0) {
                entries.push_back({r, c, v});
            }
        }
    }
    return entries;
}

std::vector<Entry> entries_of(const BipartiteGraph& g) {
    std::vector<Entry> entries;
    entries.reserve(static_cast<std::size_t>(g.num_edges()));
    for (const auto& [u, v] : g.edges()) {
        entries.push_back({u, v, 1.0});
    }
    return entries;
}

}  // namespace

EstimateResult approx::estimate_monomer_dimer(vertex_t n, const std::vector<Entry>& edges,
                                              const std::vector<vertex_t>& order, double monomer,
                                              const EstimateOptions& options) {
    return pmcount::detail::stop_boundary([&] {
        const auto start_time = Clock::now();
        validate(options);
        if (!(monomer >= 0) || !std::isfinite(monomer)) {
            throw InvalidArgument("the monomer-dimer estimator needs a finite monomer weight, 0 "
                                  "or more");
        }
        const PopulationChoice choice = choose_populations(n, options);
        run::Identity identity;
        if (!options.checkpoint.empty()) {
            identity = estimate_identity(n, n, edges, options, choice);
            char text[64];
            std::snprintf(text, sizeof text, ", monomer-dimer x = %.17g", monomer);
            identity.plan += text;
        }
        EstimateResult result;
        result.estimator = "monomer-dimer";
        result.n = n;
        result.nnz = static_cast<edge_t>(edges.size());
        return draw_sweep(n, edges, order, monomer, options, choice, std::move(identity),
                          std::move(result), start_time);
    });
}

EstimateResult estimate_perfect_matchings(const BipartiteGraph& graph,
                                          const EstimateOptions& options) {
    return estimate_entries(graph.n_left(), graph.n_right(), entries_of(graph), options);
}

namespace {

/// The estimators sample permutations: a non-square matrix's (rectangular) permanent is not
/// theirs to estimate, and 0 would be wrong; pmcount::permanent counts it exactly.
void refuse_rectangular(vertex_t rows, vertex_t cols) {
    if (rows != cols) {
        throw DimensionMismatch("the estimators take square matrices; this one is " +
                                std::to_string(rows) + "×" + std::to_string(cols) +
                                " (its rectangular permanent is counted exactly without "
                                "estimating)");
    }
}

}  // namespace

template <class T>
EstimateResult estimate_permanent(const SparseMatrix<T>& matrix, const EstimateOptions& options) {
    refuse_rectangular(matrix.rows(), matrix.cols());
    return estimate_entries(matrix.rows(), matrix.cols(), entries_of(matrix), options);
}

template <class T>
EstimateResult estimate_permanent(const DenseMatrix<T>& matrix, const EstimateOptions& options) {
    refuse_rectangular(matrix.rows(), matrix.cols());
    std::vector<Entry> entries;
    for (vertex_t r = 0; r < matrix.rows(); ++r) {
        for (vertex_t c = 0; c < matrix.cols(); ++c) {
            const double v = checked_value(matrix(r, c), r, c);
            if (v > 0) {
                entries.push_back({r, c, v});
            }
        }
    }
    return estimate_entries(matrix.rows(), matrix.cols(), std::move(entries), options);
}

EstimateResult estimate_perfect_matchings(const UndirectedGraph& graph,
                                          const EstimateOptions& options) {
    std::vector<Entry> edges;
    edges.reserve(static_cast<std::size_t>(graph.num_edges()));
    for (const auto& [u, v] : graph.edges()) {
        edges.push_back({u, v, 1.0});
    }
    const vertex_t n = graph.num_vertices();
    return estimate_entries(n, n, std::move(edges), options, true);
}

template <class T>
EstimateResult estimate_hafnian(const SparseMatrix<T>& matrix, const EstimateOptions& options) {
    if (!matrix.is_square()) {
        throw DimensionMismatch("a hafnian needs a square matrix, got " +
                                std::to_string(matrix.rows()) + "×" +
                                std::to_string(matrix.cols()));
    }
    std::vector<Entry> edges;
    for (const Entry& e : entries_of(matrix)) {
        if (matrix.at(e.col, e.row) != matrix.at(e.row, e.col)) {
            throw InvalidArgument("a hafnian needs a symmetric matrix: entry (" +
                                  std::to_string(e.row) + ", " + std::to_string(e.col) +
                                  ") differs from entry (" + std::to_string(e.col) + ", " +
                                  std::to_string(e.row) + ")");
        }
        if (e.row < e.col) {  // the diagonal never takes part
            edges.push_back(e);
        }
    }
    return estimate_entries(matrix.rows(), matrix.cols(), std::move(edges), options, true);
}

EstimateResult estimate(const Input& input, const EstimateOptions& options) {
    const bool matrix = std::holds_alternative<SparseMatrix<std::int64_t>>(input.data) ||
                        std::holds_alternative<SparseMatrix<double>>(input.data);
    if (matrix && !input.hafnian && !input.directed && !input.two_coloured &&
        input.rows() != input.cols()) {
        // A permanent, not a count of perfect matchings: refused (estimate_permanent), even
        // where vertices beyond the file leave a line of the longer side empty.
        throw InvalidInput(input.source, 0,
                           "the estimators take square matrices; this one is " +
                               std::to_string(input.rows()) + "×" + std::to_string(input.cols()) +
                               " (its rectangular permanent is counted exactly without --approx)");
    }
    if (input.loops) {
        throw InvalidArgument("the loop hafnian has no estimator: count it exactly");
    }
    if (input.isolated && input.kind() != ValueKind::complex) {
        validate(options);
        return zero_result(options, std::max(input.rows(), input.cols()), input.nnz(),
                           input.isolated->witness + ": no perfect matching");
    }
    try {
        return std::visit(
            [&](const auto& data) -> EstimateResult {
                using D = std::decay_t<decltype(data)>;
                if constexpr (std::is_same_v<D, BipartiteGraph>) {
                    return estimate_perfect_matchings(data, options);
                } else if constexpr (std::is_same_v<D, Digraph>) {
                    return estimate_perfect_matchings(data.as_bipartite(), options);
                } else if constexpr (std::is_same_v<D, SparseMatrix<std::complex<double>>>) {
                    throw InvalidInput(
                        input.source, 0,
                        "the estimators need a nonnegative matrix, not a complex one");
                } else if constexpr (std::is_same_v<D, UndirectedGraph>) {
                    return estimate_perfect_matchings(data, options);
                } else if (input.hafnian) {
                    return estimate_hafnian(data, options);
                } else {
                    return estimate_permanent(data, options);
                }
            },
            input.data);
    } catch (const UnusableEntry& e) {
        throw InvalidInput(input.source, 0,
                           "the estimators need nonnegative finite entries; the entry at row " +
                               std::to_string(input.row_label(e.row())) + ", column " +
                               std::to_string(input.col_label(e.col())) + " is " +
                               UnusableEntry::format_value(e.value()));
    }
}

template EstimateResult estimate_hafnian(const SparseMatrix<std::int64_t>&, const EstimateOptions&);
template EstimateResult estimate_hafnian(const SparseMatrix<double>&, const EstimateOptions&);
template EstimateResult estimate_permanent(const SparseMatrix<std::int64_t>&,
                                           const EstimateOptions&);
template EstimateResult estimate_permanent(const SparseMatrix<double>&, const EstimateOptions&);
template EstimateResult estimate_permanent(const DenseMatrix<std::int64_t>&,
                                           const EstimateOptions&);
template EstimateResult estimate_permanent(const DenseMatrix<double>&, const EstimateOptions&);

}  // namespace pmcount
