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
#include "core/stop.hpp"
#include "pmcount/error.hpp"
#include "pmcount/structure.hpp"
#include "structure/general.hpp"

namespace pmcount::approx {

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

/// One sample's state and the blossom search's labels over the live subgraph.
class Walker {
public:
    explicit Walker(const GeneralProblem& p)
        : p_(p),
          live_(static_cast<std::size_t>(p.n)),
          degree_(static_cast<std::size_t>(p.n)),
          mate_(static_cast<std::size_t>(p.n)),
          base_(static_cast<std::size_t>(p.n)),
          parent_(static_cast<std::size_t>(p.n), -1),
          even_(static_cast<std::size_t>(p.n), 0),
          blossom_(static_cast<std::size_t>(p.n), 0),
          stamp_(static_cast<std::size_t>(p.n), 0) {
        for (vertex_t v = 0; v < p.n; ++v) {
            base_[static_cast<std::size_t>(v)] = v;
        }
    }

    double sample(bool prune, std::uint64_t seed, std::uint64_t index) {
        const vertex_t n = p_.n;
        std::fill(live_.begin(), live_.end(), 1);
        for (vertex_t v = 0; v < n; ++v) {
            degree_[static_cast<std::size_t>(v)] =
                static_cast<vertex_t>(p_.offsets[static_cast<std::size_t>(v) + 1] -
                                      p_.offsets[static_cast<std::size_t>(v)]);
        }
        if (prune) {
            mate_ = p_.mate;
        }
        double log_estimate = 0;
        vertex_t next = 0;  // rasmussen: the lowest live vertex is at or after it
        for (std::uint32_t step = 0; 2 * static_cast<vertex_t>(step) < n; ++step) {
            vertex_t v = -1;
            if (prune) {
                vertex_t least = std::numeric_limits<vertex_t>::max();
                for (vertex_t w = 0; w < n && least > 1; ++w) {
                    if (live_[static_cast<std::size_t>(w)] != 0 &&
                        degree_[static_cast<std::size_t>(w)] < least) {
                        least = degree_[static_cast<std::size_t>(w)];
                        v = w;
                    }
                }
            } else {
                while (live_[static_cast<std::size_t>(next)] == 0) {
                    ++next;
                }
                v = next;
            }
            // Candidates and their total weight.
            candidates_.clear();
            const auto begin = p_.offsets[static_cast<std::size_t>(v)];
            const auto end = p_.offsets[static_cast<std::size_t>(v) + 1];
            for (auto e = begin; e < end; ++e) {
                if (live_[static_cast<std::size_t>(p_.neighbours[static_cast<std::size_t>(e)])] !=
                    0) {
                    candidates_.push_back(e);
                }
            }
            if (prune) {
                keep_allowed(v);
            }
            double total = 0;
            for (const std::int64_t e : candidates_) {
                total += p_.weights[static_cast<std::size_t>(e)];
            }
            if (candidates_.empty() || !(total > 0)) {
                return kNegInf;
            }
            // u with probability a_vu / total.
            const double target = uniform01(seed, index, step) * total;
            double running = 0;
            std::int64_t chosen = candidates_.back();
            for (const std::int64_t e : candidates_) {
                running += p_.weights[static_cast<std::size_t>(e)];
                if (target < running) {
                    chosen = e;
                    break;
                }
            }
            log_estimate += std::log(total);
            const vertex_t u = p_.neighbours[static_cast<std::size_t>(chosen)];
            remove(v);
            remove(u);
            if (prune) {
                repair(v, u);
            }
        }
        return log_estimate;
    }

private:
    void remove(vertex_t v) {
        live_[static_cast<std::size_t>(v)] = 0;
        for (auto e = p_.offsets[static_cast<std::size_t>(v)];
             e < p_.offsets[static_cast<std::size_t>(v) + 1]; ++e) {
            --degree_[static_cast<std::size_t>(p_.neighbours[static_cast<std::size_t>(e)])];
        }
    }

    /// Keeps the candidates u of v (live) for which the live graph minus v and u has a perfect
    /// matching: u = M(v), or u even in the search from r = M(v) with v removed.
    void keep_allowed(vertex_t v) {
        const vertex_t r = mate_[static_cast<std::size_t>(v)];
        bool others = false;
        for (const std::int64_t e : candidates_) {
            others = others || p_.neighbours[static_cast<std::size_t>(e)] != r;
        }
        if (!others) {
            return;  // only the matched partner: a forced move
        }
        live_[static_cast<std::size_t>(v)] = 0;
        mate_[static_cast<std::size_t>(r)] = -1;
        search(r, [&]() {
            for (const std::int64_t e : candidates_) {
                if (even_[static_cast<std::size_t>(p_.neighbours[static_cast<std::size_t>(e)])] ==
                    0) {
                    return false;
                }
            }
            return true;
        });
        std::size_t kept = 0;
        for (const std::int64_t e : candidates_) {
            const vertex_t u = p_.neighbours[static_cast<std::size_t>(e)];
            if (u == r || even_[static_cast<std::size_t>(u)] != 0) {
                candidates_[kept++] = e;
            }
        }
        candidates_.resize(kept);
        reset();
        mate_[static_cast<std::size_t>(r)] = v;
        live_[static_cast<std::size_t>(v)] = 1;
    }

    /// After v and u left (both removed): M minus them is perfect again, by an augmenting path
    /// from r = M(v) to M(u) when u was not r.
    void repair(vertex_t v, vertex_t u) {
        const vertex_t r = mate_[static_cast<std::size_t>(v)];
        mate_[static_cast<std::size_t>(v)] = -1;
        if (r == u) {
            mate_[static_cast<std::size_t>(u)] = -1;
            return;
        }
        const vertex_t w = mate_[static_cast<std::size_t>(u)];
        mate_[static_cast<std::size_t>(u)] = -1;
        mate_[static_cast<std::size_t>(r)] = -1;
        mate_[static_cast<std::size_t>(w)] = -1;
        const vertex_t end = search(r, [] { return false; });
        if (end != w) {
            throw InternalError("general sampler: no augmenting path after an allowed choice");
        }
        for (vertex_t x = end; x != -1;) {  // flip the path root … parent(x) – x
            const vertex_t px = parent_[static_cast<std::size_t>(x)];
            const vertex_t ppx = mate_[static_cast<std::size_t>(px)];
            mate_[static_cast<std::size_t>(x)] = px;
            mate_[static_cast<std::size_t>(px)] = x;
            x = ppx;
        }
        reset();
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
            for (auto e = p_.offsets[static_cast<std::size_t>(x)];
                 e < p_.offsets[static_cast<std::size_t>(x) + 1]; ++e) {
                const vertex_t to = p_.neighbours[static_cast<std::size_t>(e)];
                if (live_[static_cast<std::size_t>(to)] == 0 ||
                    base_[static_cast<std::size_t>(x)] == base_[static_cast<std::size_t>(to)] ||
                    mate_[static_cast<std::size_t>(x)] == to) {
                    continue;
                }
                const vertex_t mt = mate_[static_cast<std::size_t>(to)];
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
            const vertex_t m = mate_[static_cast<std::size_t>(a)];
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
            b = parent_[static_cast<std::size_t>(mate_[static_cast<std::size_t>(b)])];
        }
    }

    void mark_path(vertex_t x, vertex_t b, vertex_t child) {
        while (base_[static_cast<std::size_t>(x)] != b) {
            const vertex_t m = mate_[static_cast<std::size_t>(x)];
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

    const GeneralProblem& p_;
    std::vector<char> live_;
    std::vector<vertex_t> degree_, mate_, base_, parent_;
    std::vector<char> even_, blossom_;
    std::vector<std::uint64_t> stamp_;
    std::uint64_t clock_ = 0;
    std::vector<vertex_t> touched_, queue_;
    std::vector<std::int64_t> candidates_;
};

class GeneralCpuSource : public SampleSource {
public:
    GeneralCpuSource(const GeneralProblem& p, bool prune, std::uint64_t seed, int threads)
        : prune_(prune), seed_(seed), threads_(threads) {
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
    std::uint64_t population_round() override {
        return 1;
    }
    void populations(std::uint64_t, std::uint64_t, double*) override {
        throw InternalError("the general sampler draws independent samples only");
    }

private:
    bool prune_;
    std::uint64_t seed_;
    int threads_;
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
                                                 std::uint64_t seed, int threads) {
    return std::make_unique<GeneralCpuSource>(p, prune, seed, threads);
}

}  // namespace pmcount::approx
