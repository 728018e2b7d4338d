// The estimators' public entry points: validate and convert the input, settle exact zeros, prune
// (+ variants), scale the whole matrix once, then draw samples in rounds on CPU threads or GPUs
// until a stopping rule fires, and summarise them (log_mean.hpp).
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
//      (approx/population.hpp, run_populations below): a round is as many populations as fit
//      side by side, and the accumulator averages the populations' estimates.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <variant>

#include "approx/log_mean.hpp"
#include "approx/population.hpp"
#include "approx/problem.hpp"
#include "approx/rounds.hpp"
#include "approx/sampler.hpp"
#include "approx/sampler_device.hpp"
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

using Clock = std::chrono::steady_clock;
constexpr double kNegInf = -std::numeric_limits<double>::infinity();
constexpr double kLn10 = 2.302585092994045684;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

struct Entry {
    vertex_t row;
    vertex_t col;
    double value;
};

using Problem = approx::SamplerProblem;

/// Per-thread sampler state, contiguous (the GPU interleaves the same fields across threads).
class HostWorkspace {
public:
    explicit HostWorkspace(vertex_t n)
        : row_scale_(n),
          col_scale_(n),
          row_degree_(n),
          col_degree_(n),
          row_match_(n),
          col_match_(n),
          queue_(n),
          row_stamp_(n),
          row_parent_(n),
          row_live_((n + 31) / 32),
          col_live_((n + 31) / 32) {}
    double& row_scale(vertex_t i) noexcept { return row_scale_[i]; }
    double& col_scale(vertex_t j) noexcept { return col_scale_[j]; }
    std::int32_t& row_degree(vertex_t i) noexcept { return row_degree_[i]; }
    std::int32_t& col_degree(vertex_t j) noexcept { return col_degree_[j]; }
    std::uint32_t& row_live(vertex_t k) noexcept { return row_live_[k]; }
    std::uint32_t& col_live(vertex_t k) noexcept { return col_live_[k]; }
    vertex_t& row_match(vertex_t i) noexcept { return row_match_[i]; }
    vertex_t& col_match(vertex_t j) noexcept { return col_match_[j]; }
    vertex_t& queue(std::int32_t k) noexcept { return queue_[k]; }
    std::int32_t& row_stamp(vertex_t i) noexcept { return row_stamp_[i]; }
    vertex_t& row_parent(vertex_t i) noexcept { return row_parent_[i]; }

private:
    std::vector<double> row_scale_, col_scale_;
    std::vector<std::int32_t> row_degree_, col_degree_;
    std::vector<vertex_t> row_match_, col_match_, queue_;
    std::vector<std::int32_t> row_stamp_;
    std::vector<vertex_t> row_parent_;
    std::vector<std::uint32_t> row_live_, col_live_;
};

/// Bytes of one HostWorkspace of order n: its eleven arrays, and per array the allocator's
/// header and rounding (about 32 bytes on glibc).
double host_workspace_bytes(vertex_t n) {
    const double arrays = (2 * sizeof(double) + 7 * sizeof(std::int32_t)) * static_cast<double>(n) +
                          2 * sizeof(std::uint32_t) * std::ceil(n / 32.0);
    return sizeof(HostWorkspace) + arrays + 11 * 32.0;
}

/// What the estimator's set-up was doing when stopped (pmcount::detail::throw_if_stopped).
constexpr const char* kSettingUp = "setting up the estimator";

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

BipartiteGraph pattern_of(vertex_t n, const std::vector<Entry>& entries) {
    std::vector<BipartiteGraph::Edge> edges;
    edges.reserve(entries.size());
    for (const Entry& e : entries) {
        edges.emplace_back(e.row, e.col);
    }
    return BipartiteGraph(n, n, std::move(edges));
}

/// Phase 2: keeps the entries inside one fine Dulmage–Mendelsohn block.
std::vector<Entry> prune(const std::vector<Entry>& entries, const DMDecomposition& dm) {
    std::vector<Entry> kept;
    kept.reserve(entries.size());
    for (const Entry& e : entries) {
        const int block = dm.row_block[static_cast<std::size_t>(e.row)];
        if (block >= 0 && block == dm.col_block[static_cast<std::size_t>(e.col)]) {
            kept.push_back(e);
        }
    }
    return kept;
}

Problem build_problem(vertex_t n, const std::vector<Entry>& entries, bool dense) {
    Problem p;
    p.n = n;
    p.dense = dense;
    const auto un = static_cast<std::size_t>(n);
    p.row_degree.assign(un, 0);
    p.col_degree.assign(un, 0);
    for (const Entry& e : entries) {
        ++p.row_degree[static_cast<std::size_t>(e.row)];
        ++p.col_degree[static_cast<std::size_t>(e.col)];
    }
    if (dense) {
        p.dense_values.assign(un * un, 0.0);
        for (const Entry& e : entries) {
            p.dense_values[static_cast<std::size_t>(e.row) * un + static_cast<std::size_t>(e.col)] =
                e.value;
        }
        return p;
    }
    p.row_ptr.assign(un + 1, 0);
    p.col_ptr.assign(un + 1, 0);
    for (std::size_t k = 0; k < un; ++k) {
        p.row_ptr[k + 1] = p.row_ptr[k] + p.row_degree[k];
        p.col_ptr[k + 1] = p.col_ptr[k] + p.col_degree[k];
    }
    p.col_idx.resize(entries.size());
    p.row_val.resize(entries.size());
    p.row_idx.resize(entries.size());
    p.col_val.resize(entries.size());
    std::vector<std::int64_t> row_fill(p.row_ptr.begin(), p.row_ptr.end() - 1);
    std::vector<std::int64_t> col_fill(p.col_ptr.begin(), p.col_ptr.end() - 1);
    std::vector<Entry> sorted = entries;
    std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    for (const Entry& e : sorted) {
        const auto r = static_cast<std::size_t>(row_fill[static_cast<std::size_t>(e.row)]++);
        p.col_idx[r] = e.col;
        p.row_val[r] = e.value;
        const auto c = static_cast<std::size_t>(col_fill[static_cast<std::size_t>(e.col)]++);
        p.row_idx[c] = e.row;
        p.col_val[c] = e.value;
    }
    return p;
}

/// Phase 3: Sinkhorn–Knopp on the whole matrix until every row sum of the scaled matrix is
/// within 1e-9 of 1 (after the column pass the column sums are exactly 1), at most 10000 sweeps.
/// The matrix has total support after pruning, so this converges (Sinkhorn and Knopp, Pacific
/// J. Math. 1967); without pruning (scaling) the partial scaling is still a valid start.
template <class Matrix>
void scale_whole_matrix(const Matrix& a, Problem& p) {
    const vertex_t n = p.n;
    HostWorkspace w(n);
    for (vertex_t k = 0; k < n; ++k) {
        w.row_scale(k) = 1;
        w.col_scale(k) = 1;
    }
    for (vertex_t k = 0; k < (n + 31) / 32; ++k) {
        w.row_live(k) = w.col_live(k) = 0xFFFFFFFFu;
    }
    constexpr int kMaxSweeps = 10000;
    constexpr double kTolerance = 1e-9;
    for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
        pmcount::detail::throw_if_stopped(kSettingUp);  // a sweep is O(nnz)
        if (approx::detail::sinkhorn(a, w, 1) == approx::detail::Rescale::empty_line) {
            break;
        }
        double worst = 0;
        for (vertex_t i = 0; i < n; ++i) {
            double s = 0;
            a.for_row(i, [&](vertex_t j, double v) { s += v * w.col_scale(j); });
            worst = std::max(worst, std::abs(s * w.row_scale(i) - 1));
        }
        if (worst < kTolerance) {
            break;
        }
    }
    p.row_scale.resize(static_cast<std::size_t>(n));
    p.col_scale.resize(static_cast<std::size_t>(n));
    for (vertex_t k = 0; k < n; ++k) {
        p.row_scale[static_cast<std::size_t>(k)] = w.row_scale(k);
        p.col_scale[static_cast<std::size_t>(k)] = w.col_scale(k);
    }
}

approx::SamplerConfig sampler_config(const EstimateOptions& o, std::uint64_t particles) {
    approx::SamplerConfig c;
    c.sparsest_line =
        o.estimator == Estimator::rasmussen_plus || o.estimator == Estimator::scaling_plus;
    c.scaled = o.estimator == Estimator::scaling || o.estimator == Estimator::scaling_plus;
    c.scale_every = o.scale_every;
    c.scale_iters = o.scale_iters;
    c.prune = c.sparsest_line;
    // Exponent 0 resamples on plain weights: no potential to compute.
    c.potential = c.scaled && particles > 1 && o.potential_exponent > 0;
    c.potential_exponent = o.potential_exponent;
    c.seed = o.seed;
    return c;
}

/// How populations are drawn (EstimateOptions::particles, resample_every); particles = 1: none.
struct PopulationPlan {
    std::uint64_t particles = 1;
    vertex_t every = 16;
};

/// Runs populations [first, first + count) of plan.particles particles each — population r's
/// particle k draws as sample (first + r)·P + k — resampling every plan.every steps
/// (population.hpp), at most `batch` populations side by side on `engine`; logs[r] is the log
/// of population r's estimate. Resampling draws Philox(seed; stage, 1, population). With
/// `stop_inside`, a stop request ends it between two stages (the logs are then meaningless).
template <class Engine>
void run_populations(Engine& engine, vertex_t n, const PopulationPlan& plan, std::uint64_t seed,
                     std::uint64_t batch, std::uint64_t first, std::uint64_t count, double* logs,
                     bool stop_inside) {
    const std::uint64_t p = plan.particles;
    std::vector<double> weights;
    std::vector<std::uint32_t> ancestors;
    for (std::uint64_t begin = 0; begin < count; begin += batch) {
        const std::uint64_t size = std::min(batch, count - begin);
        weights.resize(size * p);
        ancestors.resize(size * p);
        engine.begin_particles((first + begin) * p, size * p);
        std::fill(logs + begin, logs + begin + size, 0.0);
        for (std::uint32_t stage = 0;; ++stage) {
            if (stop_inside && pmcount::detail::stop_requested()) {
                return;  // a stage of a large population takes seconds
            }
            const vertex_t until = static_cast<vertex_t>(
                std::min<std::int64_t>(n, static_cast<std::int64_t>(stage + 1) * plan.every));
            engine.advance_particles(until);
            engine.particle_log_weights(weights.data());
            for (std::uint64_t r = 0; r < size; ++r) {
                logs[begin + r] += approx::log_mean_weight(weights.data() + r * p, p);
            }
            if (until >= n) {
                break;
            }
            for (std::uint64_t r = 0; r < size; ++r) {
                std::uint32_t* a = ancestors.data() + r * p;
                approx::systematic_ancestors(weights.data() + r * p, p,
                                             approx::uniform01(seed, first + begin + r, stage, 1),
                                             a);
                for (std::uint64_t k = 0; k < p; ++k) {
                    a[k] += static_cast<std::uint32_t>(r * p);
                }
            }
            engine.select_particles(ancestors.data());
        }
    }
}

/// Draws samples [first, first + count) into logs, or populations of samples; one
/// implementation per backend.
class SampleSource {
public:
    virtual ~SampleSource() = default;
    /// A stop request cuts a call short (between samples, or between a population's stages),
    /// leaving meaningless logs: set where one process draws them all (under MPI a round is
    /// finished everywhere, and rank 0 decides the stop).
    bool stop_inside = false;
    virtual void sample(std::uint64_t first, std::uint64_t count, double* logs) = 0;
    virtual double device_seconds() const { return 0; }
    /// Samples that keep the source busy; rounds are never shorter.
    virtual std::uint64_t min_round() const { return 1024; }
    /// Populations per round that keep the source busy (all side by side).
    virtual std::uint64_t population_round() = 0;
    /// log estimates of populations [first, first + count).
    virtual void populations(std::uint64_t first, std::uint64_t count, double* logs) = 0;
};

/// Particles on CPU threads, each with a contiguous workspace; resampling copies workspaces.
class CpuParticles {
public:
    CpuParticles(const Problem& p, approx::SamplerConfig config, int threads)
        : problem_(p), config_(config), threads_(threads) {}

    /// As SampleSource::stop_inside (the workspaces of a large population take seconds).
    bool stop_inside = false;

    void begin_particles(std::uint64_t first, std::uint64_t count) {
        first_ = first;
        while (states_.size() < count) {
            if (stop_inside && detail::stop_requested()) {
                return;  // run_populations leaves before the first stage
            }
            states_.emplace_back(problem_.n);
            next_.emplace_back(problem_.n);
        }
        cursors_.resize(count);
        next_cursors_.resize(count);
        const approx::SamplerStart start = problem_.start();
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            approx::begin_sample(problem_.n, start, config_, states_[static_cast<std::size_t>(k)],
                                 cursors_[static_cast<std::size_t>(k)]);
        }
    }
    void advance_particles(vertex_t until) {
        if (problem_.dense) {
            advance(problem_.dense_view(), until);
        } else {
            advance(problem_.sparse_view(), until);
        }
    }
    void particle_log_weights(double* out) const {
        for (std::size_t k = 0; k < cursors_.size(); ++k) {
            out[k] = cursors_[k].log_estimate + cursors_[k].log_potential;
        }
    }
    void select_particles(const std::uint32_t* ancestors) {
        const auto total = static_cast<std::int64_t>(cursors_.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            const auto to = static_cast<std::size_t>(k);
            const std::size_t from = ancestors[to];
            next_[to] = states_[from];
            next_cursors_[to] = cursors_[from];
            if (next_cursors_[to].log_estimate > kNegInf) {
                next_cursors_[to].log_estimate = -next_cursors_[to].log_potential;
            }
        }
        std::swap(states_, next_);
        std::swap(cursors_, next_cursors_);
    }

private:
    template <class Matrix>
    void advance(const Matrix& a, vertex_t until) {
        const auto total = static_cast<std::int64_t>(cursors_.size());
#pragma omp parallel for schedule(dynamic, 4) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            const auto i = static_cast<std::size_t>(k);
            approx::advance_sample(a, config_, states_[i], cursors_[i],
                                   first_ + static_cast<std::uint64_t>(k), until);
        }
    }

    const Problem& problem_;
    approx::SamplerConfig config_;
    int threads_;
    std::uint64_t first_ = 0;
    std::vector<HostWorkspace> states_, next_;
    std::vector<approx::SampleCursor> cursors_, next_cursors_;
};

class CpuSource : public SampleSource {
public:
    CpuSource(const Problem& p, approx::SamplerConfig config, int threads, PopulationPlan plan)
        : problem_(p),
          config_(config),
          threads_(threads),
          plan_(plan),
          particles_(p, config, threads) {
        for (int t = 0; t < threads; ++t) {
            workspaces_.emplace_back(p.n);
        }
    }
    void sample(std::uint64_t first, std::uint64_t count, double* logs) override {
        if (problem_.dense) {
            run(problem_.dense_view(), first, count, logs);
        } else {
            run(problem_.sparse_view(), first, count, logs);
        }
    }
    /// Enough particles for 64 per thread, at least one population.
    std::uint64_t population_round() override {
        constexpr std::uint64_t kParticlesPerThread = 64;
        const std::uint64_t wanted = kParticlesPerThread * static_cast<std::uint64_t>(threads_);
        return std::max<std::uint64_t>(1, wanted / plan_.particles);
    }
    void populations(std::uint64_t first, std::uint64_t count, double* logs) override {
        particles_.stop_inside = stop_inside;
        run_populations(particles_, problem_.n, plan_, config_.seed, population_round(), first,
                        count, logs, stop_inside);
    }

private:
    template <class Matrix>
    void run(const Matrix& a, std::uint64_t first, std::uint64_t count, double* logs) {
        const approx::SamplerStart start = problem_.start();
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            if (stop_inside && detail::stop_requested()) {
                continue;
            }
            HostWorkspace& w = workspaces_[static_cast<std::size_t>(omp_get_thread_num())];
            logs[k] = approx::sample_log_estimate(a, start, config_, w,
                                                  first + static_cast<std::uint64_t>(k));
        }
    }

    const Problem& problem_;
    approx::SamplerConfig config_;
    int threads_;
    PopulationPlan plan_;
    CpuParticles particles_;
    std::vector<HostWorkspace> workspaces_;
};

/// The GPUs share each round in equal contiguous parts (populations: in proportion to what each
/// holds), one host thread per GPU.
class GpuSource : public SampleSource {
public:
    GpuSource(const Problem& p, approx::SamplerConfig config, const std::vector<int>& gpus,
              PopulationPlan plan)
        : n_(p.n), seed_(config.seed), plan_(plan) {
        for (const int device : gpus) {
            samplers_.push_back(backend::cuda::make_gpu_sampler({device, &p, config}));
        }
    }
    /// Every GPU holds as many whole populations as fit at once.
    std::uint64_t population_round() override {
        std::uint64_t round = 0;
        for (const auto& g : samplers_) {
            round += g->population_capacity(plan_.particles) / plan_.particles;
        }
        return round;
    }
    /// The GPUs split the populations in proportion to what they hold, one host thread each.
    void populations(std::uint64_t first, std::uint64_t count, double* logs) override {
        std::vector<std::uint64_t> batch;
        std::uint64_t total = 0;
        for (const auto& g : samplers_) {
            batch.push_back(g->population_capacity(plan_.particles) / plan_.particles);
            total += batch.back();
        }
        std::vector<std::uint64_t> bounds{0};  // GPU g takes populations [bounds[g], bounds[g + 1])
        for (std::size_t g = 0; g < samplers_.size(); ++g) {
            bounds.push_back(g + 1 == samplers_.size() ? count
                                                       : bounds[g] + count * batch[g] / total);
        }
        on_each_gpu([&](std::size_t g) {
            run_populations(*samplers_[g], n_, plan_, seed_, batch[g], first + bounds[g],
                            bounds[g + 1] - bounds[g], logs + bounds[g], stop_inside);
        });
    }
    void sample(std::uint64_t first, std::uint64_t count, double* logs) override {
        const std::uint64_t parts = samplers_.size();
        on_each_gpu([&](std::size_t g) {
            const std::uint64_t begin = count * g / parts, end = count * (g + 1) / parts;
            samplers_[g]->sample(first + begin, end - begin, logs + begin);
        });
    }
    std::uint64_t min_round() const override {
        std::uint64_t slots = 0;
        for (const auto& g : samplers_) {
            slots += g->slots();
        }
        return std::max<std::uint64_t>(1024, slots);
    }
    double device_seconds() const override {
        double s = 0;
        for (const auto& g : samplers_) {
            s = std::max(s, g->device_seconds());
        }
        return s;
    }
    std::string description() const {
        std::string d;
        for (const auto& g : samplers_) {
            d += (d.empty() ? "" : ", ") + g->description();
        }
        return d;
    }

private:
    /// work(g) for every GPU g, one host thread each (none for a single GPU); the first
    /// exception is rethrown after all have finished.
    template <class Work>
    void on_each_gpu(Work&& work) {
        if (samplers_.size() == 1) {
            work(std::size_t{0});
            return;
        }
        std::vector<std::thread> workers;
        std::vector<std::exception_ptr> errors(samplers_.size());
        for (std::size_t g = 0; g < samplers_.size(); ++g) {
            workers.emplace_back([&, g] {
                try {
                    work(g);
                } catch (...) {
                    errors[g] = std::current_exception();
                }
            });
        }
        for (auto& w : workers) {
            w.join();
        }
        for (const auto& e : errors) {
            if (e) {
                std::rethrow_exception(e);
            }
        }
    }

    vertex_t n_;
    std::uint64_t seed_;
    PopulationPlan plan_;
    std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers_;
};

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

// ---- Automatic populations (EstimateOptions::particles = 0) ----------------------------------
// Measured on grids (docs/estimators.md): with P ≈ 8n particles resampled every 16 steps on the
// potential Φ^0.6, a population's log has sd ≈ 0.04 from 16×16 to 64×64, where independent
// samples' logs spread like 0.15·√n (1.6, 3.4, 6.8) and their relative variance like
// exp(sd²): populations win from n ≈ 100 on, and cost no more per sample. The interval needs 16
// populations or more, so a sample budget caps P at budget / 16; below kMinAutoParticles the
// samples are drawn independently.
constexpr std::uint64_t kParticlesPerRow = 8;
constexpr std::uint64_t kMinAutoParticles = 64;
constexpr std::uint64_t kMaxAutoParticles = 16384;
constexpr vertex_t kAutoResampleEvery = 16;
constexpr std::uint64_t kMinPopulations = 16;
// Without a stopping rule, populations run until the 95% interval's half-width is 1%, for at
// most kDefaultTime_s (the 64×64 grid: about 1.2% in that time on one H100).
constexpr double kDefaultRelError = 0.01;
constexpr double kDefaultTime_s = 120;

std::uint64_t power_of_two_at_most(std::uint64_t x) {
    std::uint64_t p = 1;
    while (p * 2 <= x) {
        p *= 2;
    }
    return p;
}

std::uint64_t power_of_two_at_least(std::uint64_t x) {
    std::uint64_t p = 1;
    while (p < x) {
        p *= 2;
    }
    return p;
}

/// Without a stopping rule: 100 000 independent samples, or populations until the interval's
/// half-width is kDefaultRelError (at most kDefaultTime_s).
PopulationChoice with_stopping_rules(PopulationChoice c, const EstimateOptions& o) {
    c.samples = o.samples;
    c.rel_error = o.rel_error;
    c.time_s = o.time_s;
    if (o.samples == 0 && o.time_s == 0 && o.rel_error == 0) {
        if (c.particles > 1) {
            c.rel_error = kDefaultRelError;
            c.time_s = kDefaultTime_s;
        } else {
            c.samples = 100000;
        }
    }
    return c;
}

}  // namespace

PopulationChoice choose_populations(vertex_t n, const EstimateOptions& o) {
    PopulationChoice c;
    c.resample_every = o.resample_every > 0 ? o.resample_every : kAutoResampleEvery;
    c.potential_exponent = o.potential_exponent;
    if (o.particles > 0) {
        c.particles = o.particles;
        c.reason = o.particles == 1 ? "independent samples (asked for)" : "particles asked for";
        return with_stopping_rules(c, o);
    }
    std::uint64_t p =
        std::clamp(power_of_two_at_least(kParticlesPerRow * static_cast<std::uint64_t>(n)),
                   kMinAutoParticles, kMaxAutoParticles);
    c.reason = "automatic: about 8 particles per row (" + std::to_string(n) + " rows)";
    if (o.samples > 0 && p * kMinPopulations > o.samples) {
        p = power_of_two_at_most(o.samples / kMinPopulations);
        c.reason = "automatic: the sample budget allows 16 populations of " + std::to_string(p);
        if (p < kMinAutoParticles) {
            p = 1;
            c.reason = "automatic: independent samples (a budget of " + std::to_string(o.samples) +
                       " is too small for 16 populations of " + std::to_string(kMinAutoParticles) +
                       ")";
        }
    }
    c.particles = p;
    c = with_stopping_rules(c, o);
    // (Not under a checkpoint: a resumed run must draw populations of the same size.)
    c.time_pilot = p > kMinAutoParticles && c.time_s > 0 && o.checkpoint.empty();
    return c;
}

namespace {

// Under a time limit, a population of 16384 particles on the 64×64 grid takes about 250 s on 2
// cores: the default's 16 populations would overrun 120 s sixteenfold. The CPU estimator (GPUs
// run a population in seconds) therefore times a pilot, populations of kMinAutoParticles drawn
// on all threads and discarded, and halves an automatic P until kMinPopulations populations are
// predicted within kPopulationTimeShare of the limit (a population's time is linear in P; one
// population runs on all threads, and ranks run populations side by side). Independent samples
// make a poor pilot: on the 32×32 grid they cost 4.5× a population's particle.
constexpr double kPopulationTimeShare = 0.5;
constexpr double kPilotSeconds = 0.05;
constexpr std::uint64_t kPilotFirstPopulation = std::uint64_t{1} << 50;  // clear of the run's

/// Wall seconds per particle of populations of `pilot` (all threads busy): draws one round of
/// populations, doubling the count until a draw takes kPilotSeconds.
double seconds_per_particle(SampleSource& pilot, std::uint64_t particles) {
    std::uint64_t count = pilot.population_round();
    std::vector<double> logs;
    while (true) {
        logs.resize(count);
        const auto start = Clock::now();
        pilot.populations(kPilotFirstPopulation, count, logs.data());
        pmcount::detail::throw_if_stopped(kSettingUp);  // (the pilot's populations stop early)
        const double seconds = seconds_since(start);
        if (seconds >= kPilotSeconds || count >= 1024) {
            return seconds / static_cast<double>(count * particles);
        }
        count *= 2;
    }
}

/// The automatic P halved until kMinPopulations populations are predicted within
/// kPopulationTimeShare of the time limit, from the pilot's time per particle (rank 0's, so that
/// every rank agrees); the halving is added to choice.reason and choice.particles.
std::uint64_t particles_within_time(SampleSource& pilot, PopulationChoice& choice, int ranks) {
    double per_particle = seconds_per_particle(pilot, kMinAutoParticles);
    if (ranks > 1) {
        std::vector<std::uint64_t> bits(1);
        std::memcpy(bits.data(), &per_particle, sizeof per_particle);
        run::mpi::broadcast(bits);
        std::memcpy(&per_particle, bits.data(), sizeof per_particle);
    }
    const double rounds = std::ceil(static_cast<double>(kMinPopulations) / ranks);
    auto predicted = [&](std::uint64_t p) {
        return rounds * static_cast<double>(p) * per_particle;
    };
    std::uint64_t p = choice.particles;
    while (p > kMinAutoParticles && predicted(p) > kPopulationTimeShare * choice.time_s) {
        p /= 2;
    }
    if (p != choice.particles) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "; halved to %llu: %llu populations predicted in %.3g s of the %.3g s limit "
                      "(pilot: %.3g ms per particle)",
                      static_cast<unsigned long long>(p),
                      static_cast<unsigned long long>(kMinPopulations), predicted(p), choice.time_s,
                      per_particle * 1e3);
        choice.reason += text;
        choice.particles = p;
    }
    return p;
}

std::vector<int> visible_gpus(const EstimateOptions& o, bool required) {
    std::string status;
    const auto devices =
        backend::cuda::compiled() ? backend::cuda::devices(status) : std::vector<DeviceInfo>{};
    if (devices.empty()) {
        if (required) {
            if (!backend::cuda::compiled()) {
                throw NotCompiled("--backend cuda: this build has no CUDA backend");
            }
            throw DeviceError("--backend cuda: no GPU visible (" + status + ")");
        }
        return {};
    }
    return run::mpi::gpus_to_use(devices, o.gpus, o.distributed);
}

EstimateResult estimate_unguarded(vertex_t rows, vertex_t cols, std::vector<Entry> entries,
                                  const EstimateOptions& options);

/// Every estimate; the stop request that interrupts it is withdrawn as it leaves.
EstimateResult estimate_entries(vertex_t rows, vertex_t cols, std::vector<Entry> entries,
                                const EstimateOptions& options) {
    return detail::stop_boundary(
        [&] { return estimate_unguarded(rows, cols, std::move(entries), options); });
}

EstimateResult estimate_unguarded(vertex_t rows, vertex_t cols, std::vector<Entry> entries,
                                  const EstimateOptions& options) {
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
    run::Identity identity;
    if (!options.checkpoint.empty()) {
        identity = estimate_identity(rows, cols, entries, options, choose_populations(n, options));
    }
    // Phase 1: the pattern must have a perfect matching.
    const BipartiteGraph pattern = pattern_of(n, entries);
    PopulationChoice choice = choose_populations(n, options);
    PopulationPlan plan{choice.particles, choice.resample_every};
    const bool populations = plan.particles > 1;
    const approx::SamplerConfig config = sampler_config(options, plan.particles);
    Matching matching;
    if (config.sparsest_line) {
        DMDecomposition dm = dulmage_mendelsohn(pattern);
        if (!dm.has_perfect_matching()) {
            return zero_result(options, n, input_nnz,
                               "the nonzero pattern has no perfect matching");
        }
        entries = prune(entries, dm);  // phase 2
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
    Problem problem = build_problem(n, entries, dense);
    if (config.prune) {
        problem.row_match = matching.row_match;
        problem.col_match = matching.col_match;
    }
    if (config.scaled) {  // phase 3
        if (dense) {
            scale_whole_matrix(problem.dense_view(), problem);
        } else {
            scale_whole_matrix(problem.sparse_view(), problem);
        }
    }

    EstimateResult result;
    result.estimator = to_string(options.estimator);
    result.layout = dense ? "dense" : "sparse";
    result.confidence = options.confidence;
    result.n = n;
    result.nnz = static_cast<edge_t>(entries.size());
    result.seed = options.seed;

    const std::vector<int> gpus = options.backend == Backend::cpu
                                      ? std::vector<int>{}
                                      : visible_gpus(options, options.backend == Backend::cuda);
    std::unique_ptr<SampleSource> source;
    if (!gpus.empty()) {
        auto gpu = std::make_unique<GpuSource>(problem, config, gpus, plan);
        result.backend = "cuda";
        result.device = gpu->description();
        source = std::move(gpu);
    } else {
        result.threads = run::resolve_threads(options.threads);
        result.backend = "cpu";
        const int ranks = options.distributed ? std::max(1, run::mpi::size()) : 1;
        if (choice.time_pilot) {
            CpuSource pilot(problem, config, result.threads,
                            PopulationPlan{kMinAutoParticles, plan.every});
            pilot.stop_inside = ranks == 1;
            plan.particles = particles_within_time(pilot, choice, ranks);
        }
        source = std::make_unique<CpuSource>(problem, config, result.threads, plan);
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
            (gpus.empty() ? 2 * (host_workspace_bytes(n) + sizeof(approx::SampleCursor)) : 0) +
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

    // Phase 4: rounds. With populations, a unit of the rounds is one population (its estimate
    // is what the accumulator averages) and the sample limit counts particles.
    const std::uint64_t max_particles = choice.samples;
    const double rel_error = choice.rel_error;
    const double time_limit_s = choice.time_s;
    const std::uint64_t max_samples =
        populations ? (max_particles + plan.particles - 1) / plan.particles : max_particles;
    // Populations are i.i.d. and nearly normal in log: 16 of them give an interval.
    const std::uint64_t kMinSamplesForRelError = populations ? 16 : 1024;
    const std::uint64_t min_round = populations ? source->population_round() : source->min_round();
    source->stop_inside = !options.distributed || run::mpi::size() <= 1;
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
            source->populations(first, mine.size(), mine.data());
        } else if (!mine.empty()) {
            source->sample(first, mine.size(), mine.data());
        }
        if (source->stop_inside && detail::stop_requested()) {
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
    const double half_width = acc.log_half_width(options.confidence);
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

EstimateResult estimate(const Input& input, const EstimateOptions& options) {
    // Every estimator samples permutations (rows matched to columns): a general graph's perfect
    // matchings are not permutations of anything.
    const auto general = [&input] {
        return InvalidInput(input.source, 0,
                            "the estimators count perfect matchings of bipartite graphs and "
                            "permanents; this is a general graph (or a hafnian), which they "
                            "cannot estimate — count it exactly instead");
    };
    if (input.hafnian) {
        throw general();
    }
    const bool matrix = std::holds_alternative<SparseMatrix<std::int64_t>>(input.data) ||
                        std::holds_alternative<SparseMatrix<double>>(input.data);
    if (matrix && !input.directed && !input.two_coloured && input.rows() != input.cols()) {
        // A permanent, not a count of perfect matchings: refused (estimate_permanent), even
        // where vertices beyond the file leave a line of the longer side empty.
        throw InvalidInput(input.source, 0,
                           "the estimators take square matrices; this one is " +
                               std::to_string(input.rows()) + "×" + std::to_string(input.cols()) +
                               " (its rectangular permanent is counted exactly without --approx)");
    }
    if (input.isolated && !std::holds_alternative<UndirectedGraph>(input.data) &&
        input.kind() != ValueKind::complex) {
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
                    throw general();
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

template EstimateResult estimate_permanent(const SparseMatrix<std::int64_t>&,
                                           const EstimateOptions&);
template EstimateResult estimate_permanent(const SparseMatrix<double>&, const EstimateOptions&);
template EstimateResult estimate_permanent(const DenseMatrix<std::int64_t>&,
                                           const EstimateOptions&);
template EstimateResult estimate_permanent(const DenseMatrix<double>&, const EstimateOptions&);

}  // namespace pmcount
