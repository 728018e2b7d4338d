// The planner's engine table (plan/engines.hpp): every row is complete and named once, each
// engine's predicted time grows with the order on dense and on sparse leaves, and a forced method
// or backend gives only leaves counted by engines of that method or on that backend.
#include "plan/engines.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "exact/ryser/ryser_gpu.hpp"
#include "plan/cost_model.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/count.hpp"
#include "pmcount/generate.hpp"
#include "support/general_graphs.hpp"

namespace pmcount::plan {
namespace {

TEST(EngineTable, EveryRowHasANameACostAndItsCounts) {
    std::set<std::pair<std::string, Problem>> seen;
    int automatic[2] = {0, 0};
    for (const Engine& e : engines()) {
        ASSERT_NE(e.name, nullptr);
        const std::string name = e.name;
        EXPECT_FALSE(name.empty());
        EXPECT_NE(e.applies, nullptr) << name;
        EXPECT_NE(e.predict_s, nullptr) << name;
        EXPECT_NE(e.count_exact, nullptr) << name;
        EXPECT_NE(e.count_real, nullptr) << name;
        EXPECT_NE(e.count_complex, nullptr) << name;
        EXPECT_TRUE(e.backend == Backend::cpu || e.backend == Backend::cuda) << name;
        // engine_named finds a leaf's engine again by (name, problem): one row each.
        EXPECT_TRUE(seen.insert({name, e.problem}).second) << name << " is in the table twice";
        EXPECT_EQ(&engine_named(name, e.problem), &e) << name;
        // Only the direct formulas run for every method; the others are forced by their own.
        EXPECT_EQ(e.method == Method::automatic, name == "direct") << name;
        // Certified arithmetic is dense Ryser's (CPU and GPU).
        if (e.certifies) {
            EXPECT_EQ(e.method, Method::ryser) << name;
        }
        automatic[e.problem == Problem::hafnian ? 1 : 0] += e.automatic ? 1 : 0;
    }
    EXPECT_GT(automatic[0], 0) << "no engine the planner may choose for permanents";
    EXPECT_GT(automatic[1], 0) << "no engine the planner may choose for hafnians";
}

/// Four H100s' throughput, so that the GPU engines' predictions have a rate to use.
GpuThroughput four_gpus() {
    std::vector<DeviceInfo> host;
    for (int g = 0; g < 4; ++g) {
        host.push_back({g, "H100", 9, 0, 132, 0});
    }
    return gpu_throughput(host, {}, 1, 1, false);
}

/// The facts of a leaf of order n: dense (every entry, real) or sparse (degree 4, 0-1, exact,
/// planar, a frontier of width 8), as the builder would measure them on such matrices except
/// that the walk's fractions are held fixed.
LeafFacts leaf(Problem problem, vertex_t n, bool dense, int threads) {
    LeafFacts f;
    f.problem = problem;
    f.order = n;
    f.threads = threads;
    f.gpus = four_gpus();
    if (dense) {
        f.nnz = static_cast<edge_t>(n) * n;
        f.arithmetic = Arithmetic::double_precision;
        f.entries_per_step = n;
        f.bound_log2 = n * std::log2(std::max<double>(n, 2));
    } else {
        f.nnz = 4 * static_cast<edge_t>(n);
        f.binary = f.binary_walk = true;
        f.arithmetic = Arithmetic::exact;
        f.primes = 2;
        f.gpu_exact_fits = true;
        f.term_fraction = 0.01;
        f.visit_fraction = 0.05;
        f.entries_per_step = 4;
        f.tested_rows = n / 2;
        f.planar = true;
        f.frontier_width = 8;
        f.frontier_slots = 12;
        f.frontier_peak_states = 70;  // C(8, 4)
        f.frontier_states = 2.0 * n * f.frontier_peak_states;
        f.bound_log2 = 2.0 * n;
    }
    return f;
}

/// Whether an engine takes the facts. GPU rows are asked what their predictions assume (the
/// order within the kernels' limits), since no GPU need be visible where the tests run; the
/// surface Pfaffians count whole embedded graphs (plan.hpp's prefer_surface), never a leaf, and
/// are asked of planar leaves.
bool takes(const Engine& e, const LeafFacts& f) {
    if (e.backend == Backend::cuda) {
        return f.order >= 4 && f.order <= 40;
    }
    if (std::string(e.name) == "pfaffian-surface") {
        return f.planar;
    }
    return e.applies(f);
}

TEST(EngineTable, PredictedTimeGrowsWithTheOrder) {
    // Between consecutive orders that an engine takes (even ones: hafnians need them), on dense
    // and sparse leaves: a smaller leaf is never predicted slower. The planner compares engines
    // by these predictions, and a model that got cheaper as a leaf grew would send large leaves
    // to it. Below 2^18 Gray steps (order 19) the engines run on one thread (chunked_run.cpp),
    // so across that order a run on more threads may be predicted faster (two threads: dense
    // Ryser 1.16 ms at order 18, 1.10 ms at order 20); the orders up to 18 are compared on one
    // thread, those from 20 on one and on two.
    struct Range {
        vertex_t first, last;
        int threads;
    };
    const Range ranges[] = {{2, 18, 1}, {20, 60, 1}, {20, 60, 2}};
    for (const Engine& e : engines()) {
        int compared = 0;
        for (const bool dense : {true, false}) {
            for (const Range& range : ranges) {
                double previous = -1;
                for (vertex_t n = range.first; n <= range.last; n += 2) {
                    const LeafFacts f = leaf(e.problem, n, dense, range.threads);
                    if (!takes(e, f)) {
                        previous = -1;
                        continue;
                    }
                    const double s = e.predict_s(f);
                    EXPECT_TRUE(s >= 0 && !std::isnan(s)) << e.name << " n=" << n << ": " << s;
                    if (previous >= 0) {
                        EXPECT_GE(s, previous)
                            << e.name << (dense ? " dense" : " sparse") << ", " << range.threads
                            << " thread(s): order " << n << " predicted faster than " << n - 2;
                        ++compared;
                    }
                    previous = s;
                }
            }
        }
        // Every engine but the fixed-size direct formulas meets two orders it takes.
        if (std::string(e.name) != "direct") {
            EXPECT_GT(compared, 0) << e.name << " took no two orders of these leaves";
        }
    }
}

TEST(EngineChoice, AForcedMethodOrBackendChoosesOnlyItsEngines) {
    const Method methods[] = {Method::ryser,      Method::sparyser, Method::skipper,
                              Method::planar,     Method::frontier, Method::hafnian,
                              Method::brute_force};
    int chosen = 0;
    for (const Problem problem : {Problem::permanent, Problem::hafnian}) {
        for (const bool dense : {true, false}) {
            for (vertex_t n = 2; n <= 40; n += 2) {
                const LeafFacts f = leaf(problem, n, dense, 2);
                for (const Method m : methods) {
                    for (const Backend b : {Backend::automatic, Backend::cpu}) {
                        const Engine* e = choose_engine(f, m, b);
                        if (e == nullptr) {
                            continue;
                        }
                        ++chosen;
                        EXPECT_EQ(e->method, m) << e->name << " chosen for --method "
                                                << static_cast<int>(m) << " at order " << n;
                        EXPECT_EQ(e->problem, problem) << e->name;
                        if (b == Backend::cpu) {
                            EXPECT_EQ(e->backend, Backend::cpu) << e->name << " at order " << n;
                        }
                    }
                }
                const Engine* automatic = choose_engine(f, Method::automatic, Backend::cpu);
                ASSERT_NE(automatic, nullptr) << "order " << n;
                EXPECT_EQ(automatic->backend, Backend::cpu) << automatic->name;
                EXPECT_TRUE(automatic->automatic) << automatic->name;
                if (exact::gpu_available() && n >= 4) {
                    // Asked for GPUs, a GPU engine wherever one applies.
                    const Engine* gpu = choose_engine(f, Method::automatic, Backend::cuda);
                    ASSERT_NE(gpu, nullptr);
                    EXPECT_EQ(gpu->backend, Backend::cuda) << gpu->name << " at order " << n;
                }
            }
        }
    }
    EXPECT_GT(chosen, 100);
}

/// The engines of a plan's leaves, named in `problem`'s rows (an empty leaf, or one no engine
/// takes, "none (why)", names none).
std::vector<const Engine*> leaf_engines(const CountResult& r, Problem problem) {
    std::vector<const Engine*> out;
    for (const BlockReport& l : r.structure.leaves) {
        if (l.engine != "empty" && l.engine.rfind("none", 0) != 0) {
            out.push_back(&engine_named(l.engine, problem));
        }
    }
    return out;
}

TEST(EngineChoice, PlansWithAForcedMethodUseItOnEveryLeaf) {
    // Whole plans (--explain): a reducible sparse graph splits into several leaves, each of which
    // the forced engine must count.
    const BipartiteGraph bipartite[] = {random_bipartite_graph(24, 0.15, 7), grid_graph(6, 8)};
    const UndirectedGraph general = test::triangular_lattice(4, 5, 0);  // planar, not bipartite
    int leaves = 0;
    for (const Backend b : {Backend::automatic, Backend::cpu}) {
        CountOptions o;
        o.backend = b;
        o.explain_only = true;
        for (const Method m : {Method::ryser, Method::sparyser, Method::skipper, Method::frontier,
                               Method::hafnian, Method::planar}) {
            o.method = m;
            for (const BipartiteGraph& g : bipartite) {
                for (const Engine* e :
                     leaf_engines(count_perfect_matchings(g, o), Problem::permanent)) {
                    ++leaves;
                    EXPECT_EQ(e->method, m) << e->name;
                    EXPECT_TRUE(b != Backend::cpu || e->backend == Backend::cpu) << e->name;
                }
            }
        }
        for (const Method m : {Method::hafnian, Method::planar, Method::brute_force}) {
            o.method = m;
            for (const Engine* e :
                 leaf_engines(count_perfect_matchings(general, o), Problem::hafnian)) {
                ++leaves;
                EXPECT_EQ(e->method, m) << e->name;
                EXPECT_TRUE(b != Backend::cpu || e->backend == Backend::cpu) << e->name;
            }
        }
    }
    EXPECT_GT(leaves, 20);
}

}  // namespace
}  // namespace pmcount::plan
