// The monomer–dimer estimator's set-up and CPU sources (see monomer_dimer.hpp).
//
// Set-up: (1) relabel the vertices by their sweep position and build the CSR of both directions
// of each edge with the index of each entry's reverse; (2) belief propagation for the messages
// R_{u→v} = 1/(x + S_u − a_uv R_{v→u}), S_u = Σ_w a_uw R_{w→u}, half-damped in log space, O(E)
// per sweep. CPU particles hold their free bits contiguously (n/32 words each) and a cursor;
// resampling copies both. Built with -ffp-contract=off like the rest of approx/, so the GPU
// draws the same samples.
#include "approx/monomer_dimer.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "approx/sampler_device.hpp"
#include "core/stop.hpp"
#include "pmcount/error.hpp"

namespace pmcount::approx {

namespace {

constexpr int kMaxBetheSweeps = 1000;
constexpr double kBetheTolerance = 1e-12;
constexpr double kGuideMonomer = 0.3;
constexpr double kMinMessage = 1e-100;
constexpr double kMaxMessage = 1e100;

/// The messages of MonomerDimerProblem, by damped fixed-point sweeps.
void bethe_messages(MonomerDimerProblem& p, const std::vector<std::int64_t>& reverse) {
    const std::size_t entries = p.neighbours.size();
    // incoming[e] for e = (v, u) is R_{u→v}; outgoing R_{v→u} sits at incoming[reverse[e]].
    // Perfect matchings (x = 0) take the messages of the monomer weight 0.3 × the mean edge
    // weight: those of x → 0 need not converge (on an even cycle they run off to 0 and ∞), and
    // extreme messages made a choice of probability 10^-100 whose weight the samples never saw,
    // and potentials that ranked particles by noise. With x > 0 the messages stay within
    // [1/(x + Σ a/x), 1/x]. On tri:32x32 and grid:32x32 (16 populations of 1024) the sd of a
    // population's log was as small at 0.3 as at 10^-6 … 1.
    double mean_weight = 0;
    for (const double w : p.weights) {
        mean_weight += w / static_cast<double>(entries);
    }
    const double x = p.monomer > 0 ? p.monomer : kGuideMonomer * std::max(mean_weight, 1e-300);
    p.incoming.assign(entries, 1 / (x + 1));
    std::vector<double> sum(static_cast<std::size_t>(p.n));
    std::vector<double> next(entries);
    for (p.bethe_sweeps = 0; p.bethe_sweeps < kMaxBetheSweeps;) {
        for (vertex_t v = 0; v < p.n; ++v) {
            double s = 0;
            for (std::int64_t e = p.offsets[v]; e < p.offsets[v + 1]; ++e) {
                s += p.weights[e] * p.incoming[e];
            }
            sum[static_cast<std::size_t>(v)] = s;
        }
        double change = 0;
        for (vertex_t v = 0; v < p.n; ++v) {
            for (std::int64_t e = p.offsets[v]; e < p.offsets[v + 1]; ++e) {
                // R_{v→u} = 1/(x + S_v − a_vu R_{u→v}); the subtraction cannot go below 0 in
                // exact arithmetic, and max() keeps rounding from doing so.
                const double rest =
                    std::max(0.0, sum[static_cast<std::size_t>(v)] - p.weights[e] * p.incoming[e]);
                // Clamped: on a graph with edges in no perfect matching the messages of x → 0
                // may run off to 0 or ∞ along them, and the sampler needs positive finite ones.
                const double fresh = std::clamp(1 / (x + rest), kMinMessage, kMaxMessage);
                const double old = p.incoming[static_cast<std::size_t>(reverse[e])];
                const double damped = std::sqrt(fresh * old);  // half a step in log space
                change = std::max(change, std::fabs(damped - old) / old);
                next[static_cast<std::size_t>(reverse[e])] = damped;
            }
        }
        p.incoming.swap(next);
        ++p.bethe_sweeps;
        p.bethe_change = change;
        if (change <= kBetheTolerance) {
            break;
        }
        pmcount::detail::throw_if_stopped(kSettingUp);
    }
    p.log_ratio.resize(static_cast<std::size_t>(p.n));
    for (vertex_t v = 0; v < p.n; ++v) {
        double s = x;
        for (std::int64_t e = p.offsets[v]; e < p.offsets[v + 1]; ++e) {
            s += p.weights[e] * p.incoming[e];
        }
        p.log_ratio[static_cast<std::size_t>(v)] = -std::log(s);
    }
}

/// The free bits of one sample, contiguous.
struct FreeBits {
    std::uint32_t* words;
    std::uint32_t& operator()(vertex_t k) const noexcept { return words[k]; }
};

/// Particles for run_populations (population.hpp) on CPU threads.
class MonomerDimerParticles {
public:
    MonomerDimerParticles(const MonomerDimerProblem& p, std::uint64_t seed, double exponent,
                          int threads)
        : p_(p), seed_(seed), exponent_(exponent), threads_(threads), words_((p.n + 31) / 32) {}

    void begin_particles(std::uint64_t first, std::uint64_t count) {
        first_ = first;
        bits_.resize(count * static_cast<std::size_t>(words_));
        next_bits_.resize(bits_.size());
        cursors_.resize(count);
        next_cursors_.resize(count);
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            monomer_dimer_begin(p_.n, live(bits_, k), cursors_[static_cast<std::size_t>(k)]);
        }
    }
    void advance_particles(vertex_t until) {
        const MonomerDimerView g = p_.view();
        const auto total = static_cast<std::int64_t>(cursors_.size());
#pragma omp parallel for schedule(dynamic, 16) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            monomer_dimer_advance(g, live(bits_, k), cursors_[static_cast<std::size_t>(k)], seed_,
                                  first_ + static_cast<std::uint64_t>(k), until);
        }
    }
    void particle_log_weights(double* out) const {
        for (std::size_t k = 0; k < cursors_.size(); ++k) {
            out[k] = cursors_[k].log_estimate + exponent_ * cursors_[k].log_taken;
        }
    }
    void select_particles(const std::uint32_t* ancestors) {
        const auto total = static_cast<std::int64_t>(cursors_.size());
        const auto words = static_cast<std::size_t>(words_);
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            const auto to = static_cast<std::size_t>(k);
            const std::size_t from = ancestors[to];
            std::copy_n(bits_.begin() + static_cast<std::ptrdiff_t>(from * words), words,
                        next_bits_.begin() + static_cast<std::ptrdiff_t>(to * words));
            next_cursors_[to] = cursors_[from];
            if (next_cursors_[to].log_estimate > -HUGE_VAL) {  // a zero stays 0
                next_cursors_[to].log_estimate = -exponent_ * next_cursors_[to].log_taken;
            }
        }
        bits_.swap(next_bits_);
        cursors_.swap(next_cursors_);
    }

private:
    FreeBits live(std::vector<std::uint32_t>& bits, std::int64_t k) const {
        return {bits.data() + k * words_};
    }

    const MonomerDimerProblem& p_;
    std::uint64_t seed_;
    double exponent_;
    int threads_;
    std::int64_t words_;
    std::uint64_t first_ = 0;
    std::vector<std::uint32_t> bits_, next_bits_;
    std::vector<MonomerDimerCursor> cursors_, next_cursors_;
};

class MonomerDimerCpuSource : public SampleSource {
public:
    MonomerDimerCpuSource(const MonomerDimerProblem& p, std::uint64_t seed, int threads,
                          PopulationPlan plan, double exponent)
        : p_(p),
          seed_(seed),
          threads_(threads),
          plan_(plan),
          particles_(p, seed, exponent, threads),
          scratch_(static_cast<std::size_t>(threads) * static_cast<std::size_t>((p.n + 31) / 32)) {}
    void sample(std::uint64_t first, std::uint64_t count, double* logs) override {
        const MonomerDimerView g = p_.view();
        const std::size_t words = static_cast<std::size_t>((p_.n + 31) / 32);
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            if (stop_inside && pmcount::detail::stop_requested()) {
                continue;
            }
            const FreeBits bits{scratch_.data() +
                                static_cast<std::size_t>(omp_get_thread_num()) * words};
            MonomerDimerCursor cursor;
            monomer_dimer_begin(p_.n, bits, cursor);
            monomer_dimer_advance(g, bits, cursor, seed_, first + static_cast<std::uint64_t>(k),
                                  p_.n);
            logs[k] = cursor.log_estimate;
        }
    }
    /// Enough particles for 64 per thread, at least one population.
    std::uint64_t population_round() override {
        constexpr std::uint64_t kParticlesPerThread = 64;
        return std::max<std::uint64_t>(
            1, kParticlesPerThread * static_cast<std::uint64_t>(threads_) / plan_.particles);
    }
    void populations(std::uint64_t first, std::uint64_t count, double* logs) override {
        run_populations(particles_, p_.n, plan_, seed_, population_round(), first, count, logs,
                        stop_inside);
    }

private:
    const MonomerDimerProblem& p_;
    std::uint64_t seed_;
    int threads_;
    PopulationPlan plan_;
    MonomerDimerParticles particles_;
    std::vector<std::uint32_t> scratch_;
};

}  // namespace

MonomerDimerProblem monomer_dimer_problem(vertex_t n, const std::vector<Entry>& edges,
                                          const std::vector<vertex_t>& order, double monomer) {
    if (!(monomer >= 0) || !std::isfinite(monomer)) {
        throw InvalidArgument(
            "the monomer-dimer estimator needs a finite monomer weight, 0 or more");
    }
    if (static_cast<vertex_t>(order.size()) != n) {
        throw InvalidArgument("monomer-dimer sweep: the order must list every vertex once");
    }
    std::vector<vertex_t> position(static_cast<std::size_t>(n), -1);
    for (vertex_t t = 0; t < n; ++t) {
        const vertex_t v = order[static_cast<std::size_t>(t)];
        if (v < 0 || v >= n || position[static_cast<std::size_t>(v)] >= 0) {
            throw InvalidArgument("monomer-dimer sweep: the order must list every vertex once");
        }
        position[static_cast<std::size_t>(v)] = t;
    }
    // (1) Both directions of each edge in position labels, sorted; parallel entries add.
    struct Arc {
        vertex_t from, to;
        double weight;
    };
    std::vector<Arc> arcs;
    arcs.reserve(2 * edges.size());
    for (const Entry& e : edges) {
        if (e.row == e.col || !(e.value > 0) || !std::isfinite(e.value)) {
            throw InvalidArgument(
                "monomer-dimer estimator: edges need two ends and a positive "
                "finite weight");
        }
        const vertex_t a = position[static_cast<std::size_t>(e.row)];
        const vertex_t b = position[static_cast<std::size_t>(e.col)];
        arcs.push_back({a, b, e.value});
        arcs.push_back({b, a, e.value});
    }
    std::sort(arcs.begin(), arcs.end(), [](const Arc& x, const Arc& y) {
        return x.from != y.from ? x.from < y.from : x.to < y.to;
    });
    MonomerDimerProblem p;
    p.n = n;
    p.monomer = monomer;
    p.offsets.assign(static_cast<std::size_t>(n) + 1, 0);
    for (std::size_t k = 0; k < arcs.size(); ++k) {
        const Arc& a = arcs[k];
        if (k > 0 && arcs[k - 1].from == a.from && arcs[k - 1].to == a.to) {
            p.weights.back() += a.weight;
            continue;
        }
        p.neighbours.push_back(a.to);
        p.weights.push_back(a.weight);
        ++p.offsets[static_cast<std::size_t>(a.from) + 1];
    }
    for (vertex_t v = 0; v < n; ++v) {
        p.offsets[static_cast<std::size_t>(v) + 1] += p.offsets[static_cast<std::size_t>(v)];
    }
    // (2) The reverse of each entry (lists are sorted), then the messages.
    std::vector<std::int64_t> reverse(p.neighbours.size());
    for (vertex_t v = 0; v < n; ++v) {
        for (std::int64_t e = p.offsets[v]; e < p.offsets[v + 1]; ++e) {
            const vertex_t u = p.neighbours[static_cast<std::size_t>(e)];
            const auto begin = p.neighbours.begin() + p.offsets[u];
            const auto end = p.neighbours.begin() + p.offsets[u + 1];
            reverse[static_cast<std::size_t>(e)] =
                std::lower_bound(begin, end, v) - p.neighbours.begin();
        }
    }
    bethe_messages(p, reverse);
    return p;
}

double monomer_dimer_log_estimate(const MonomerDimerProblem& p, std::uint64_t seed,
                                  std::uint64_t sample) {
    std::vector<std::uint32_t> words(static_cast<std::size_t>((p.n + 31) / 32));
    const FreeBits bits{words.data()};
    MonomerDimerCursor cursor;
    monomer_dimer_begin(p.n, bits, cursor);
    monomer_dimer_advance(p.view(), bits, cursor, seed, sample, p.n);
    return cursor.log_estimate;
}

std::unique_ptr<SampleSource> monomer_dimer_cpu_source(const MonomerDimerProblem& p,
                                                       std::uint64_t seed, int threads,
                                                       PopulationPlan plan, double exponent) {
    return std::make_unique<MonomerDimerCpuSource>(p, seed, threads, plan, exponent);
}

std::unique_ptr<SampleSource> monomer_dimer_gpu_source(const MonomerDimerProblem& p,
                                                       std::uint64_t seed,
                                                       const std::vector<int>& gpus,
                                                       PopulationPlan plan, double exponent) {
    std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers;
    for (const int device : gpus) {
        samplers.push_back(backend::cuda::make_gpu_monomer_dimer({device, &p, seed, exponent}));
    }
    return gpu_source(std::move(samplers), p.n, seed, plan);
}

}  // namespace pmcount::approx
