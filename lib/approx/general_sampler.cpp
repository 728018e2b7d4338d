// The general graphs' sampler (see general_sampler.hpp).
//
// Workspaces per thread (n vertices): live flags and degrees, the matching, and the blossom
// search's labels (base, parent, even, blossom marks, LCA stamps) with the list of what it
// touched, so that a search resets in the time it took.
#include "approx/general_sampler.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "approx/philox.hpp"
#include "approx/population.hpp"
#include "core/stop.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "structure/general.hpp"

namespace pmcount::approx {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// ln(d!)/(2d) for d = 0 … max_degree (0 at d = 0, which the state counts apart): the
/// Kahn–Lovász bound on perfect matchings, Π_v (d_v!)^(1/(2 d_v)), is the populations' potential
/// (any positive one keeps the estimate unbiased; this one is small where vertices are left with
/// few partners).
std::vector<double> bound_terms(const GeneralProblem& p) {
    std::int64_t most = 0;
    for (vertex_t v = 0; v < p.n; ++v) {
        most = std::max(most, p.offsets[static_cast<std::size_t>(v) + 1] -
                                  p.offsets[static_cast<std::size_t>(v)]);
    }
    std::vector<double> terms(static_cast<std::size_t>(most) + 1, 0.0);
    for (std::size_t d = 1; d < terms.size(); ++d) {
        terms[d] = std::lgamma(static_cast<double>(d) + 1) / (2.0 * static_cast<double>(d));
    }
    return terms;
}

}  // namespace

/// One sample (particle): the live vertices, their live degrees, a perfect matching of the live
/// graph (pruning), the log estimate so far and the potential's sum over live vertices.
struct GeneralState {
    std::vector<char> live;
    std::vector<vertex_t> degree, mate;
    double log_estimate = 0;
    double bound_sum = 0;  ///< Σ_live bound_term(degree)
    vertex_t bare = 0;     ///< live vertices of degree 0 (the potential is then 0)
    vertex_t next = 0;     ///< the lowest live vertex is at or after it
    std::uint32_t step = 0;
    bool dead = false;
};

namespace {

/// The blossom search's labels over the live subgraph of a state, and the steps of a sample.
class Walker {
public:
    explicit Walker(const GeneralProblem& p)
        : p_(&p),
          bound_(bound_terms(p)),
          base_(static_cast<std::size_t>(p.n)),
          parent_(static_cast<std::size_t>(p.n), -1),
          even_(static_cast<std::size_t>(p.n), 0),
          blossom_(static_cast<std::size_t>(p.n), 0),
          stamp_(static_cast<std::size_t>(p.n), 0) {
        for (vertex_t v = 0; v < p.n; ++v) {
            base_[static_cast<std::size_t>(v)] = v;
        }
    }

    /// The state every sample starts from.
    void begin(GeneralState& s, bool prune) const {
        const vertex_t n = p_->n;
        s.live.assign(static_cast<std::size_t>(n), 1);
        s.degree.resize(static_cast<std::size_t>(n));
        s.bound_sum = 0;
        s.bare = 0;
        for (vertex_t v = 0; v < n; ++v) {
            const auto d = static_cast<vertex_t>(p_->offsets[static_cast<std::size_t>(v) + 1] -
                                                 p_->offsets[static_cast<std::size_t>(v)]);
            s.degree[static_cast<std::size_t>(v)] = d;
            if (d == 0) {
                ++s.bare;
            } else {
                s.bound_sum += bound_[static_cast<std::size_t>(d)];
            }
        }
        if (prune) {
            s.mate = p_->mate;
        }
        s.log_estimate = 0;
        s.next = 0;
        s.step = 0;
        s.dead = false;
    }

    /// Steps until `until` (at most n/2) of sample `index`; `least_degree`: v of least live
    /// degree, else the lowest live vertex.
    void advance(GeneralState& s, bool prune, bool least_degree, std::uint64_t seed,
                 std::uint64_t index, std::uint32_t until) {
        s_ = &s;
        while (!s.dead && s.step < until) {
            step(prune, least_degree, seed, index);
        }
    }

    /// ln Φ of the state (Φ = Π_live (d!)^(1/(2d)); 0 once a live vertex has no neighbour).
    static double log_potential(const GeneralState& s) {
        return s.dead || s.bare > 0 ? kNegInf : s.bound_sum;
    }

    double sample(bool prune, std::uint64_t seed, std::uint64_t index) {
        begin(state_, prune);
        advance(state_, prune, prune, seed, index, static_cast<std::uint32_t>(p_->n / 2));
        return state_.dead ? kNegInf : state_.log_estimate;
    }

private:
    void step(bool prune, bool least_degree, std::uint64_t seed, std::uint64_t index) {
        GeneralState& s = *s_;
        const vertex_t n = p_->n;
        vertex_t v = -1;
        if (least_degree) {
            vertex_t least = std::numeric_limits<vertex_t>::max();
            for (vertex_t w = 0; w < n && least > 1; ++w) {
                if (s.live[static_cast<std::size_t>(w)] != 0 &&
                    s.degree[static_cast<std::size_t>(w)] < least) {
                    least = s.degree[static_cast<std::size_t>(w)];
                    v = w;
                }
            }
        } else {
            while (s.live[static_cast<std::size_t>(s.next)] == 0) {
                ++s.next;
            }
            v = s.next;
        }
        // Candidates and their total weight.
        candidates_.clear();
        const auto begin = p_->offsets[static_cast<std::size_t>(v)];
        const auto end = p_->offsets[static_cast<std::size_t>(v) + 1];
        for (auto e = begin; e < end; ++e) {
            if (s.live[static_cast<std::size_t>(p_->neighbours[static_cast<std::size_t>(e)])] !=
                0) {
                candidates_.push_back(e);
            }
        }
        if (prune) {
            keep_allowed(v);
        }
        double total = 0;
        for (const std::int64_t e : candidates_) {
            total += p_->weights[static_cast<std::size_t>(e)];
        }
        if (candidates_.empty() || !(total > 0)) {
            s.dead = true;
            return;
        }
        // u with probability a_vu / total.
        const double target = uniform01(seed, index, s.step) * total;
        double running = 0;
        std::int64_t chosen = candidates_.back();
        for (const std::int64_t e : candidates_) {
            running += p_->weights[static_cast<std::size_t>(e)];
            if (target < running) {
                chosen = e;
                break;
            }
        }
        s.log_estimate += std::log(total);
        const vertex_t u = p_->neighbours[static_cast<std::size_t>(chosen)];
        remove(v);
        remove(u);
        if (prune && !repair(v, u)) {
            s.dead = true;
            return;
        }
        ++s.step;
    }

private:
    /// v leaves: its neighbours lose a live neighbour (the potential follows).
    void remove(vertex_t v) {
        GeneralState& s = *s_;
        const auto unbound = [&](vertex_t w) {
            const vertex_t d = s.degree[static_cast<std::size_t>(w)];
            if (d == 0) {
                --s.bare;
            } else {
                s.bound_sum -= bound_[static_cast<std::size_t>(d)];
            }
        };
        const auto bound = [&](vertex_t w) {
            const vertex_t d = s.degree[static_cast<std::size_t>(w)];
            if (d == 0) {
                ++s.bare;
            } else {
                s.bound_sum += bound_[static_cast<std::size_t>(d)];
            }
        };
        unbound(v);
        s.live[static_cast<std::size_t>(v)] = 0;
        for (auto e = p_->offsets[static_cast<std::size_t>(v)];
             e < p_->offsets[static_cast<std::size_t>(v) + 1]; ++e) {
            const vertex_t w = p_->neighbours[static_cast<std::size_t>(e)];
            if (s.live[static_cast<std::size_t>(w)] != 0) {
                unbound(w);
                --s.degree[static_cast<std::size_t>(w)];
                bound(w);
            } else {
                --s.degree[static_cast<std::size_t>(w)];
            }
        }
    }

    /// Keeps the candidates u of v (live) for which the live graph minus v and u has a perfect
    /// matching: u = M(v), or u even in the search from r = M(v) with v removed.
    void keep_allowed(vertex_t v) {
        const vertex_t r = s_->mate[static_cast<std::size_t>(v)];
        bool others = false;
        for (const std::int64_t e : candidates_) {
            others = others || p_->neighbours[static_cast<std::size_t>(e)] != r;
        }
        if (!others) {
            return;  // only the matched partner: a forced move
        }
        s_->live[static_cast<std::size_t>(v)] = 0;
        s_->mate[static_cast<std::size_t>(r)] = -1;
        search(r, [&]() {
            if (touched_.size() > p_->search_budget) {
                return true;  // undecided candidates stay (GeneralProblem::search_budget)
            }
            for (const std::int64_t e : candidates_) {
                if (even_[static_cast<std::size_t>(p_->neighbours[static_cast<std::size_t>(e)])] ==
                    0) {
                    return false;
                }
            }
            return true;
        });
        const bool undecided = touched_.size() > p_->search_budget;
        std::size_t kept = 0;
        for (const std::int64_t e : candidates_) {
            const vertex_t u = p_->neighbours[static_cast<std::size_t>(e)];
            if (u == r || undecided || even_[static_cast<std::size_t>(u)] != 0) {
                candidates_[kept++] = e;
            }
        }
        candidates_.resize(kept);
        reset();
        s_->mate[static_cast<std::size_t>(r)] = v;
        s_->live[static_cast<std::size_t>(v)] = 1;
    }

    /// After v and u left (both removed): M minus them is perfect again, by an augmenting path
    /// from r = M(v) to M(u) when u was not r; false when there is none (u was a candidate the
    /// budget left undecided and lies in no perfect matching: the sample is 0).
    bool repair(vertex_t v, vertex_t u) {
        const vertex_t r = s_->mate[static_cast<std::size_t>(v)];
        s_->mate[static_cast<std::size_t>(v)] = -1;
        if (r == u) {
            s_->mate[static_cast<std::size_t>(u)] = -1;
            return true;
        }
        const vertex_t w = s_->mate[static_cast<std::size_t>(u)];
        s_->mate[static_cast<std::size_t>(u)] = -1;
        s_->mate[static_cast<std::size_t>(r)] = -1;
        s_->mate[static_cast<std::size_t>(w)] = -1;
        const vertex_t end = search(r, [] { return false; });
        if (end != w) {
            reset();
            return false;
        }
        for (vertex_t x = end; x != -1;) {  // flip the path root … parent(x) – x
            const vertex_t px = parent_[static_cast<std::size_t>(x)];
            const vertex_t ppx = s_->mate[static_cast<std::size_t>(px)];
            s_->mate[static_cast<std::size_t>(x)] = px;
            s_->mate[static_cast<std::size_t>(px)] = x;
            x = ppx;
        }
        reset();
        return true;
    }

    /// Edmonds' search from the exposed vertex `root` over live vertices: returns the exposed
    /// vertex it reaches (parent_ then holds the augmenting path), or −1 when it finishes without
    /// one or when done() says enough is labelled. even_ marks the even (outer) vertices.
    template <class Done>
    vertex_t search(vertex_t root, Done done) {
        touch(root);
        even_[static_cast<std::size_t>(root)] = 1;
        queue_.assign(1, root);
        for (std::size_t head = 0; head < queue_.size(); ++head) {
            if (done()) {
                return -1;
            }
            const vertex_t x = queue_[head];
            for (auto e = p_->offsets[static_cast<std::size_t>(x)];
                 e < p_->offsets[static_cast<std::size_t>(x) + 1]; ++e) {
                const vertex_t to = p_->neighbours[static_cast<std::size_t>(e)];
                if (s_->live[static_cast<std::size_t>(to)] == 0 ||
                    base_[static_cast<std::size_t>(x)] == base_[static_cast<std::size_t>(to)] ||
                    s_->mate[static_cast<std::size_t>(x)] == to) {
                    continue;
                }
                const vertex_t mt = s_->mate[static_cast<std::size_t>(to)];
                if (to == root || (mt != -1 && parent_[static_cast<std::size_t>(mt)] != -1)) {
                    contract(x, to);
                } else if (parent_[static_cast<std::size_t>(to)] == -1) {
                    touch(to);
                    parent_[static_cast<std::size_t>(to)] = x;
                    if (mt == -1) {
                        return to;
                    }
                    touch(mt);
                    even_[static_cast<std::size_t>(mt)] = 1;
                    queue_.push_back(mt);
                }
            }
        }
        return -1;
    }

    /// The blossom closed by the edge x–to: its vertices take the base of their least common
    /// ancestor, and its odd vertices become even (queued).
    void contract(vertex_t x, vertex_t to) {
        const vertex_t b = common_base(x, to);
        for (const vertex_t t : touched_) {
            blossom_[static_cast<std::size_t>(t)] = 0;
        }
        mark_path(x, b, to);
        mark_path(to, b, x);
        for (const vertex_t t : touched_) {
            if (blossom_[static_cast<std::size_t>(base_[static_cast<std::size_t>(t)])] != 0) {
                base_[static_cast<std::size_t>(t)] = b;
                if (even_[static_cast<std::size_t>(t)] == 0) {
                    even_[static_cast<std::size_t>(t)] = 1;
                    queue_.push_back(t);
                }
            }
        }
    }

    vertex_t common_base(vertex_t a, vertex_t b) {
        ++clock_;
        for (;;) {
            a = base_[static_cast<std::size_t>(a)];
            stamp_[static_cast<std::size_t>(a)] = clock_;
            const vertex_t m = s_->mate[static_cast<std::size_t>(a)];
            if (m == -1) {
                break;  // the root
            }
            a = parent_[static_cast<std::size_t>(m)];
        }
        for (;;) {
            b = base_[static_cast<std::size_t>(b)];
            if (stamp_[static_cast<std::size_t>(b)] == clock_) {
                return b;
            }
            b = parent_[static_cast<std::size_t>(s_->mate[static_cast<std::size_t>(b)])];
        }
    }

    void mark_path(vertex_t x, vertex_t b, vertex_t child) {
        while (base_[static_cast<std::size_t>(x)] != b) {
            const vertex_t m = s_->mate[static_cast<std::size_t>(x)];
            blossom_[static_cast<std::size_t>(base_[static_cast<std::size_t>(x)])] = 1;
            blossom_[static_cast<std::size_t>(base_[static_cast<std::size_t>(m)])] = 1;
            parent_[static_cast<std::size_t>(x)] = child;
            child = m;
            x = parent_[static_cast<std::size_t>(m)];
        }
    }

    void touch(vertex_t v) {
        if (touched_flag(v)) {
            return;
        }
        touched_.push_back(v);
    }
    bool touched_flag(vertex_t v) {
        // A vertex is touched when any label differs from its reset value.
        return even_[static_cast<std::size_t>(v)] != 0 ||
               parent_[static_cast<std::size_t>(v)] != -1;
    }

    void reset() {
        for (const vertex_t t : touched_) {
            base_[static_cast<std::size_t>(t)] = t;
            parent_[static_cast<std::size_t>(t)] = -1;
            even_[static_cast<std::size_t>(t)] = 0;
            blossom_[static_cast<std::size_t>(t)] = 0;
        }
        touched_.clear();
    }

    const GeneralProblem* p_;
    std::vector<double> bound_;  ///< bound_terms(*p_)
    GeneralState* s_ = nullptr;
    GeneralState state_;  ///< sample()'s
    std::vector<vertex_t> base_, parent_;
    std::vector<char> even_, blossom_;
    std::vector<std::uint64_t> stamp_;
    std::uint64_t clock_ = 0;
    std::vector<vertex_t> touched_, queue_;
    std::vector<std::int64_t> candidates_;
};

/// Particles for run_populations (population.hpp): states advanced in index order of their
/// vertices (every particle then has the same front, which is what resampling compares),
/// weighted by the Kahn–Lovász potential raised to `exponent`.
class GeneralParticles {
public:
    GeneralParticles(const GeneralProblem& p, bool prune, double exponent, std::uint64_t seed,
                     int threads)
        : problem_(p), prune_(prune), exponent_(exponent), seed_(seed), threads_(threads) {
        for (int t = 0; t < threads; ++t) {
            walkers_.emplace_back(p);
        }
    }

    bool stop_inside = false;

    void begin_particles(std::uint64_t first, std::uint64_t count) {
        first_ = first;
        states_.resize(count);
        next_.resize(count);
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            // log_estimate starts at 0: the first stage's Φ(then) is 1, so that the factors
            // telescope to Φ(end) = 1 along every line.
            walkers_[static_cast<std::size_t>(omp_get_thread_num())].begin(
                states_[static_cast<std::size_t>(k)], prune_);
        }
    }
    void advance_particles(vertex_t until) {
        const auto total = static_cast<std::int64_t>(states_.size());
#pragma omp parallel for schedule(dynamic, 4) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            walkers_[static_cast<std::size_t>(omp_get_thread_num())].advance(
                states_[static_cast<std::size_t>(k)], prune_, false, seed_,
                first_ + static_cast<std::uint64_t>(k), static_cast<std::uint32_t>(until));
        }
    }
    /// log of each particle's factors since it was last selected, times Φ(now)/Φ(then).
    void particle_log_weights(double* out) const {
        for (std::size_t k = 0; k < states_.size(); ++k) {
            out[k] = states_[k].dead
                         ? kNegInf
                         : states_[k].log_estimate + log_potential(static_cast<std::int64_t>(k));
        }
    }
    void select_particles(const std::uint32_t* ancestors) {
        const auto total = static_cast<std::int64_t>(states_.size());
#pragma omp parallel for schedule(static) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            const auto to = static_cast<std::size_t>(k);
            next_[to] = states_[ancestors[to]];
        }
        std::swap(states_, next_);
        for (std::size_t k = 0; k < states_.size(); ++k) {
            if (!states_[k].dead) {
                states_[k].log_estimate = -log_potential(static_cast<std::int64_t>(k));
            }
        }
    }

private:
    double log_potential(std::int64_t k) const {
        const GeneralState& s = states_[static_cast<std::size_t>(k)];
        if (!s.dead && 2 * static_cast<vertex_t>(s.step) >= problem_.n) {
            return 0;  // Φ of the empty graph, exactly (the running sum has rounded)
        }
        const double l = Walker::log_potential(s);
        return exponent_ > 0 && l > kNegInf ? exponent_ * l : 0.0;
    }

    const GeneralProblem& problem_;
    bool prune_;
    double exponent_;
    std::uint64_t seed_;
    int threads_;
    std::uint64_t first_ = 0;
    std::vector<Walker> walkers_;
    std::vector<GeneralState> states_, next_;
};

class GeneralCpuSource : public SampleSource {
public:
    GeneralCpuSource(const GeneralProblem& p, bool prune, std::uint64_t seed, int threads,
                     PopulationPlan plan, double exponent)
        : n_(p.n),
          prune_(prune),
          seed_(seed),
          threads_(threads),
          plan_(plan),
          particles_(p, prune, exponent, seed, threads) {
        for (int t = 0; t < threads; ++t) {
            walkers_.emplace_back(p);
        }
    }
    void sample(std::uint64_t first, std::uint64_t count, double* logs) override {
        const auto total = static_cast<std::int64_t>(count);
#pragma omp parallel for schedule(dynamic, 8) num_threads(threads_)
        for (std::int64_t k = 0; k < total; ++k) {
            if (stop_inside && pmcount::detail::stop_requested()) {
                continue;
            }
            Walker& w = walkers_[static_cast<std::size_t>(omp_get_thread_num())];
            logs[k] = w.sample(prune_, seed_, first + static_cast<std::uint64_t>(k));
        }
    }
    /// Enough particles for 64 per thread, at least one population.
    std::uint64_t population_round() override {
        constexpr std::uint64_t kParticlesPerThread = 64;
        return std::max<std::uint64_t>(
            1, kParticlesPerThread * static_cast<std::uint64_t>(threads_) / plan_.particles);
    }
    void populations(std::uint64_t first, std::uint64_t count, double* logs) override {
        particles_.stop_inside = stop_inside;
        run_populations(particles_, n_ / 2, plan_, seed_, population_round(), first, count, logs,
                        stop_inside);
    }

private:
    vertex_t n_;
    bool prune_;
    std::uint64_t seed_;
    int threads_;
    PopulationPlan plan_;
    GeneralParticles particles_;
    std::vector<Walker> walkers_;
};

}  // namespace

GeneralSetup general_setup(vertex_t n, const std::vector<Entry>& edges, bool prune) {
    GeneralSetup out;
    std::vector<UndirectedGraph::Edge> pairs;
    pairs.reserve(edges.size());
    for (const Entry& e : edges) {
        pairs.emplace_back(e.row, e.col);
    }
    UndirectedGraph graph(n, pairs);
    const GeneralMatching matching = maximum_matching(graph);
    if (!matching.is_perfect()) {
        out.zero_reason = "the graph has no perfect matching (maximum matching " +
                          std::to_string(matching.size) + " of " + std::to_string(n / 2) +
                          " edges)";
        return out;
    }
    if (prune) {
        const UndirectedGraph allowed = structure::allowed_edges(graph, matching.mate);
        out.dropped = graph.num_edges() - allowed.num_edges();
        graph = allowed;
    }
    // Weights by edge: the entries are sorted by (row, col) once the graph has them.
    std::vector<Entry> sorted = edges;
    std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
        return a.row != b.row ? a.row < b.row : a.col < b.col;
    });
    const auto weight = [&](vertex_t a, vertex_t b) {
        const vertex_t lo = std::min(a, b), hi = std::max(a, b);
        const auto it = std::lower_bound(sorted.begin(), sorted.end(), Entry{lo, hi, 0},
                                         [](const Entry& x, const Entry& y) {
                                             return x.row != y.row ? x.row < y.row : x.col < y.col;
                                         });
        return it->value;  // every edge of the graph is an entry
    };
    GeneralProblem& p = out.problem;
    p.n = n;
    p.offsets.assign(1, 0);
    for (vertex_t v = 0; v < n; ++v) {
        for (const vertex_t u : graph.neighbours(v)) {
            p.neighbours.push_back(u);
            p.weights.push_back(weight(v, u));
        }
        p.offsets.push_back(static_cast<std::int64_t>(p.neighbours.size()));
    }
    if (prune) {
        p.mate = matching.mate;
    }
    return out;
}

double general_log_estimate(const GeneralProblem& p, bool prune, std::uint64_t seed,
                            std::uint64_t sample) {
    Walker w(p);
    return w.sample(prune, seed, sample);
}

std::unique_ptr<SampleSource> general_cpu_source(const GeneralProblem& p, bool prune,
                                                 std::uint64_t seed, int threads,
                                                 PopulationPlan plan, double exponent) {
    return std::make_unique<GeneralCpuSource>(p, prune, seed, threads, plan, exponent);
}

}  // namespace pmcount::approx
