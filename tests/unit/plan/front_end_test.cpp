// The whole structure front end (Dulmage–Mendelsohn + Forbert–Marx + planner) against the same
// count with everything switched off, on many seeded random sparse and reducible matrices.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <limits>
#include <numeric>
#include <random>
#include <thread>

#include "plan/cost_model.hpp"
#include "plan/engines.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"

namespace pmcount {
namespace {

/// A random matrix with hidden block triangular structure: irreducible-ish diagonal blocks
/// (identity + random entries), random entries above, then random row and column permutations.
/// Some instances have empty rows or no perfect matching.
template <class T, class Draw>
SparseMatrix<T> random_reducible(vertex_t n, double density, std::uint64_t seed, Draw draw) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::vector<vertex_t> block_of(static_cast<std::size_t>(n));
    vertex_t block = 0;
    for (vertex_t i = 0; i < n; ++i) {
        if (i > 0 && rng() % 4 == 0) {
            ++block;
        }
        block_of[static_cast<std::size_t>(i)] = block;
    }
    const bool keep_diagonal = rng() % 5 != 0;  // a fifth may lack a perfect matching
    std::vector<vertex_t> row_perm(static_cast<std::size_t>(n)),
        col_perm(static_cast<std::size_t>(n));
    std::iota(row_perm.begin(), row_perm.end(), 0);
    std::iota(col_perm.begin(), col_perm.end(), 0);
    std::shuffle(row_perm.begin(), row_perm.end(), rng);
    std::shuffle(col_perm.begin(), col_perm.end(), rng);
    std::vector<Triplet<T>> entries;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            const vertex_t bi = block_of[static_cast<std::size_t>(i)],
                           bj = block_of[static_cast<std::size_t>(j)];
            const bool present = (i == j && keep_diagonal) || (bi <= bj && coin(rng));
            if (present) {
                const T v = draw(rng);
                if (v != T{}) {
                    entries.push_back({row_perm[static_cast<std::size_t>(i)],
                                       col_perm[static_cast<std::size_t>(j)], v});
                }
            }
        }
    }
    return {n, n, entries};
}

CountOptions switched(bool on) {
    CountOptions o;
    o.dulmage_mendelsohn = on;
    o.reductions = on;
    return o;
}

TEST(FrontEnd, ExactCountsMatchWithEverythingOff) {
    int reducible = 0, zero = 0, reduced = 0;
    for (std::uint64_t seed = 0; seed < 520; ++seed) {
        // Orders up to 24, most small so the unreduced Ryser runs stay quick.
        const vertex_t n = 1 + static_cast<vertex_t>(seed % 6 == 0 ? 16 + seed % 9 : seed % 16);
        const double density = 0.08 + 0.04 * static_cast<double>(seed % 8);
        const bool binary = seed % 2 == 0;
        const auto a = random_reducible<std::int64_t>(n, density, seed, [&](std::mt19937_64& rng) {
            return binary ? std::int64_t{1} : static_cast<std::int64_t>(rng() % 7) - 3;
        });
        const CountResult on = permanent(a, switched(true));
        const CountResult off = permanent(a, switched(false));
        ASSERT_TRUE(on.is_exact);
        EXPECT_EQ(on.exact, off.exact) << "seed " << seed << " n " << n;
        reducible += on.structure.block_orders.size() > 1 ? 1 : 0;
        zero += on.exact.is_zero() ? 1 : 0;
        reduced += on.structure.eliminated + on.structure.merged > 0 ? 1 : 0;
    }
    // The sample really exercises the front end.
    EXPECT_GT(reducible, 150);
    EXPECT_GT(zero, 50);
    EXPECT_GT(reduced, 200);
}

TEST(FrontEnd, FloatingCountsAgreeWithinTheirErrorBounds) {
    for (std::uint64_t seed = 0; seed < 120; ++seed) {
        const vertex_t n = 1 + static_cast<vertex_t>(seed % 14);
        const int kind = static_cast<int>(seed % 3);  // nonnegative real, signed real, complex
        std::uniform_real_distribution<double> unit(0.1, 1.0);
        if (kind < 2) {
            const auto a = random_reducible<double>(n, 0.3, 900 + seed, [&](std::mt19937_64& rng) {
                return kind == 0 ? unit(rng) : (rng() % 2 == 0 ? -unit(rng) : unit(rng));
            });
            const CountResult on = permanent(a, switched(true)),
                              off = permanent(a, switched(false));
            EXPECT_LE(std::fabs(on.value - off.value), on.abs_error + off.abs_error + 1e-300)
                << "seed " << seed;
        } else {
            const auto a = random_reducible<std::complex<double>>(
                n, 0.3, 900 + seed, [&](std::mt19937_64& rng) {
                    return std::complex<double>(unit(rng) - 0.5, unit(rng) - 0.5);
                });
            const CountResult on = permanent(a, switched(true)),
                              off = permanent(a, switched(false));
            EXPECT_LE(std::abs(on.complex_value - off.complex_value),
                      on.abs_error + off.abs_error + 1e-300)
                << "seed " << seed;
        }
    }
}

TEST(FrontEnd, BlockTriangularCountsOnlyTheDiagonalBlocks) {
    // Diagonal blocks J_3 (3! = 6) and J_4 (4! = 24) with everything above filled with 1s:
    // perm = 6·24 = 144, and every entry above the blocks is dropped.
    std::vector<Triplet<std::int64_t>> entries;
    for (vertex_t i = 0; i < 7; ++i) {
        for (vertex_t j = 0; j < 7; ++j) {
            if ((i < 3 && j < 3) || (i >= 3 && j >= 3) || (i < 3 && j >= 3)) {
                entries.push_back({i, j, 1});
            }
        }
    }
    const CountResult r = permanent(SparseMatrix<std::int64_t>(7, 7, entries));
    EXPECT_EQ(r.exact.to_string(), "144");
    EXPECT_EQ(r.structure.block_orders, (std::vector<vertex_t>{3, 4}));
    EXPECT_EQ(r.structure.dropped_entries, 12);
}

TEST(FrontEnd, NoPerfectMatchingReportsAHallWitness) {
    // Rows 1, 2, 3 only reach columns 0 and 1.
    std::vector<Triplet<std::int64_t>> entries = {{0, 0, 1}, {0, 2, 1}, {0, 3, 1}, {1, 0, 1},
                                                  {1, 1, 1}, {2, 0, 1}, {2, 1, 1}, {3, 1, 1}};
    const CountResult r = permanent(SparseMatrix<std::int64_t>(4, 4, entries));
    EXPECT_TRUE(r.exact.is_zero());
    EXPECT_EQ(r.structure.hall_rows, (std::vector<vertex_t>{1, 2, 3}));
    EXPECT_EQ(r.structure.hall_cols, (std::vector<vertex_t>{0, 1}));
    EXPECT_NE(r.note.find("Hall"), std::string::npos) << r.note;
}

TEST(FrontEnd, DisconnectedGraphIsTheProductOfItsComponents) {
    // Two disjoint 6-cycles (2 perfect matchings each) and a K_{3,3} (6): 24.
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t c = 0; c < 2; ++c) {
        for (vertex_t k = 0; k < 3; ++k) {
            edges.emplace_back(3 * c + k, 3 * c + k);
            edges.emplace_back(3 * c + k, 3 * c + (k + 1) % 3);
        }
    }
    for (vertex_t i = 6; i < 9; ++i) {
        for (vertex_t j = 6; j < 9; ++j) {
            edges.emplace_back(i, j);
        }
    }
    const CountResult r = count_perfect_matchings(BipartiteGraph(9, 9, edges));
    EXPECT_EQ(r.exact.to_string(), "24");
    EXPECT_EQ(r.structure.block_orders.size(), 3u);
}

TEST(FrontEnd, UnequalSidesGiveZeroWithAReason) {
    const CountResult r = count_perfect_matchings(BipartiteGraph(3, 4, {{0, 0}, {1, 1}, {2, 2}}));
    EXPECT_TRUE(r.exact.is_zero());
    EXPECT_NE(r.note.find("3 vertices"), std::string::npos) << r.note;
}

TEST(FrontEnd, ExplainReportsThePlanWithoutCounting) {
    const auto a = random_reducible<std::int64_t>(40, 0.3, 7,
                                                  [](std::mt19937_64&) { return std::int64_t{1}; });
    CountOptions options;
    options.explain_only = true;
    const CountResult r = permanent(a, options);
    EXPECT_TRUE(r.explained_only);
    EXPECT_FALSE(r.structure.plan_text.empty());
    EXPECT_FALSE(r.structure.leaves.empty());
    EXPECT_EQ(r.stats.gray_steps, 0u);
    // Switched off, the whole 40×40 is one Ryser leaf with a predicted time far larger.
    options.dulmage_mendelsohn = options.reductions = false;
    const CountResult off = permanent(a, options);
    ASSERT_EQ(off.structure.leaves.size(), 1u);
    EXPECT_EQ(off.structure.leaves[0].order, 40);
    EXPECT_GT(off.structure.predicted_s, 100 * r.structure.predicted_s);
}

TEST(FrontEnd, PlansOverTheTimeLimitAreRefused) {
    const auto a = random_reducible<std::int64_t>(60, 0.3, 11,
                                                  [](std::mt19937_64&) { return std::int64_t{1}; });
    CountOptions options = switched(false);
    options.max_predicted_seconds = 3600;
    EXPECT_THROW(permanent(a, options), ProblemTooLarge);
}

TEST(FrontEnd, PlanarityIsTestedOnlyWhereTheTimeLimitLeavesThePlanarEngineAChance) {
    // The 60×60 grid: too wide for the frontier engine, too large for Ryser: the planar engine
    // is the plan if the pattern is planar (Boyer–Myrvold decides, the slowest fact to compute).
    const BipartiteGraph grid = grid_graph(60, 60);
    CountOptions options;
    options.explain_only = true;
    const CountResult tested = count_perfect_matchings(grid, options);
    ASSERT_EQ(tested.structure.leaves.size(), 1u);
    EXPECT_EQ(tested.structure.leaves[0].engine, "planar");
    // Under a limit the planar engine cannot meet, the test is skipped, and the leaf's predicted
    // time is the planar engine's, a lower bound either way, so the plan is refused.
    options.max_predicted_seconds = tested.structure.predicted_s / 10;
    const CountResult untested = count_perfect_matchings(grid, options);
    ASSERT_EQ(untested.structure.leaves.size(), 1u);
    EXPECT_EQ(untested.structure.leaves[0].engine.rfind("planar (planarity not tested", 0), 0u)
        << untested.structure.leaves[0].engine;
    EXPECT_NEAR(untested.structure.predicted_s, tested.structure.predicted_s,
                1e-9 * tested.structure.predicted_s);
    options.explain_only = false;
    EXPECT_THROW(count_perfect_matchings(grid, options), ProblemTooLarge);
    // A non-planar pattern under no limit is still found out: no planar leaf.
    options.explain_only = true;
    options.max_predicted_seconds = std::numeric_limits<double>::infinity();
    const CountResult torus = count_perfect_matchings(torus_graph(60, 60), options);
    for (const BlockReport& leaf : torus.structure.leaves) {
        EXPECT_NE(leaf.engine.rfind("planar", 0), 0u) << leaf.engine;
    }
}

/// The engine of a plan's only leaf ("" and a failure when it has several).
std::string only_leaf_engine(const CountResult& r) {
    EXPECT_EQ(r.structure.leaves.size(), 1u);
    return r.structure.leaves.size() == 1 ? r.structure.leaves[0].engine : std::string();
}

TEST(FrontEnd, DensePatternsSkipTheFrontierSearch) {
    // Every vertex order puts the first vertex's 2047 neighbours on the frontier: the least
    // degree rules the frontier engine out without the order search, whose copies of 4·10^6
    // edges took seconds and a gigabyte (the plan took minutes with the old generator).
    CountOptions options;
    options.explain_only = true;
    const std::string engine = only_leaf_engine(
        count_perfect_matchings(random_regular_bipartite_graph(2048, 2047, 1), options));
    EXPECT_NE(engine.find("the pattern is not planar, and frontier width at least 2047 (the least "
                          "degree) is beyond the frontier engine's limit of 40"),
              std::string::npos)
        << engine;
}

TEST(FrontEnd, AStopRequestInterruptsPlanning) {
    CountOptions options;
    options.explain_only = true;
    // Asked before: the structure front end's first check throws, and withdraws the request.
    for (const BipartiteGraph& g : {grid_graph(100, 100), random_bipartite_graph(300, 0.02, 3)}) {
        request_stop();
        EXPECT_THROW(count_perfect_matchings(g, options), Interrupted);
        EXPECT_NO_THROW(count_perfect_matchings(g, options));
    }
    request_stop();
    EXPECT_THROW(
        count_perfect_matchings(UndirectedGraph(4, {{0, 1}, {1, 2}, {2, 3}, {3, 0}}), options),
        Interrupted);
    clear_stop_request();
    // Asked during the plan of the 500×500 grid (seconds here; most of it in Boost's planarity
    // test, which cannot check the flag and runs on a thread of its own): the plan ends within
    // the 0.1 s between checks, with a generous margin for a loaded machine.
    const BipartiteGraph grid = grid_graph(500, 500);
    const auto start = std::chrono::steady_clock::now();
    std::thread stopper([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        request_stop();
    });
    double stopped_at = -1;
    try {
        count_perfect_matchings(grid, options);
    } catch (const Interrupted& e) {
        stopped_at =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        EXPECT_NE(std::string(e.what()).find("interrupted while"), std::string::npos) << e.what();
    }
    stopper.join();
    clear_stop_request();
    EXPECT_GE(stopped_at, 0.3) << "the plan was not interrupted";
    EXPECT_LT(stopped_at, 1.5);
}

/// The message of the ProblemTooLarge that counting `g` under `options` throws ("" if none).
template <class Graph>
std::string refusal(const Graph& g, const CountOptions& options) {
    try {
        count_perfect_matchings(g, options);
    } catch (const ProblemTooLarge& e) {
        return e.what();
    }
    return "";
}

TEST(FrontEnd, MemoryPastTheLimitIsRefusedBeforeItIsAllocated) {
    CountOptions options;
    options.explain_only = true;
    // The planner's own structures (1.8 KB a vertex, 210 bytes an entry): refused before
    // planning. A small limit makes each refusal cheap to meet.
    options.max_memory = 1 << 20;
    EXPECT_EQ(refusal(grid_graph(100, 100), options),
              "planning needs ~21.1 MiB (10000 vertices, 19800 entries); the memory limit "
              "(--max-memory) is 1 MiB");
    // The planar engine's elimination (the 60×60 grid's, ~10 MiB): no other engine takes it.
    options.max_memory = 9500 << 10;
    const std::string planar =
        only_leaf_engine(count_perfect_matchings(grid_graph(60, 60), options));
    EXPECT_NE(planar.find("the planar engine's elimination needs ~10.4 MiB, over the memory limit "
                          "(--max-memory) of 9.28 MiB"),
              std::string::npos)
        << planar;
    options.explain_only = false;
    EXPECT_NE(refusal(grid_graph(60, 60), options).find("no exact engine fits the memory limit"),
              std::string::npos);
    options.max_memory = 0;  // no limit: counted
    EXPECT_EQ(count_perfect_matchings(grid_graph(8, 8), options).exact, BigInt(12988816));
    // The hafnian recursion's tables (60 vertices, exact lanes, per thread).
    options.explain_only = true;
    options.general = true;
    options.threads = 2;
    options.max_memory = 300 << 10;
    const std::string hafnian =
        only_leaf_engine(count_perfect_matchings(random_bipartite_graph(30, 0.5, 1), options));
    EXPECT_NE(hafnian.find("the hafnian engine's tables need ~"), std::string::npos) << hafnian;
}

TEST(FrontEnd, AnEngineOverTheMemoryLimitGivesWayToOneThatFits) {
    // A planar leaf of order 2000 that the frontier engine (width 14) also takes: whichever is
    // faster is chosen; with the limit between the two engines' memory, the one that fits.
    plan::LeafFacts facts;
    facts.order = 2000;
    facts.nnz = 7000;
    facts.arithmetic = plan::Arithmetic::double_precision;
    facts.planar = true;
    facts.frontier_width = 14;
    facts.frontier_slots = 16;
    facts.frontier_states = 2000 * 3432.0;
    facts.frontier_peak_states = 3432;
    const auto chosen = [&] {
        const plan::Engine* e = plan::choose_engine(facts, Method::automatic, Backend::cpu);
        return e == nullptr ? std::string("none") : std::string(e->name);
    };
    const double planar = plan::planar_bytes(facts), frontier = plan::frontier_bytes(facts);
    ASSERT_NE(planar, frontier);
    const bool planar_smaller = planar < frontier;
    facts.max_memory = (planar + frontier) / 2;
    EXPECT_EQ(chosen(), planar_smaller ? "planar" : "frontier");
    facts.max_memory = std::min(planar, frontier) / 2;
    EXPECT_EQ(chosen(), "none");
}

TEST(FrontEnd, AnUntrustedWalkEstimateGivesWayToAPolynomialEngine) {
    // A leaf where SkipPer's walk estimate met almost no term (as the windows did on tori of
    // order 48: 0.3 ms predicted for 0.9 s): trusted, the estimate makes SkipPer the plan;
    // untrusted, the frontier engine, whose cost is known, takes the leaf.
    plan::LeafFacts facts;
    facts.order = 48;
    facts.nnz = 192;
    facts.binary = true;
    facts.binary_walk = true;
    facts.arithmetic = plan::Arithmetic::exact;
    facts.primes = 2;
    facts.tested_rows = 48;
    facts.visit_fraction = facts.term_fraction = 1e-12;
    facts.frontier_width = 16;
    facts.frontier_slots = 18;
    facts.frontier_states = 2e6;
    facts.frontier_peak_states = 2e4;
    facts.bound_log2 = 40;
    const auto chosen = [&] {
        const plan::Engine* e = plan::choose_engine(facts, Method::automatic, Backend::cpu);
        return e == nullptr ? std::string("none") : std::string(e->name);
    };
    ASSERT_LT(plan::skipper_seconds(facts), plan::frontier_seconds(facts));
    EXPECT_EQ(chosen(), "skipper");
    EXPECT_EQ(plan::engine_choice_detail(
                  facts, plan::choose_engine(facts, Method::automatic, Backend::cpu)),
              "");
    facts.walk_trusted = false;
    EXPECT_EQ(chosen(), "frontier");
    // --explain says why.
    EXPECT_EQ(plan::engine_choice_detail(
                  facts, plan::choose_engine(facts, Method::automatic, Backend::cpu)),
              "width 16; SkipPer's walk estimate untrusted: few terms met");
    // Asked for by name, SkipPer is still planned.
    const plan::Engine* named = plan::choose_engine(facts, Method::skipper, Backend::cpu);
    ASSERT_NE(named, nullptr);
    EXPECT_EQ(std::string(named->name), "skipper");
}

TEST(FrontEnd, DoubleDoubleOnADenseMatrixPredictsTheDenseGpuKernelFaster) {
    // --precision dd --backend cuda on a dense random 40×40 real matrix: the H100 took the
    // generated sparse walk 104.8 s (14.3 s compiling), predicted 11 s, and the plan preferred
    // it to dense Ryser's kernel (predicted 57 s). The GPU engines need a GPU to be chosen
    // (choose_engine), so their predictions are compared here, on one H100's throughput.
    DeviceInfo h100;
    h100.compute_major = 9;
    h100.multiprocessors = 132;
    plan::LeafFacts facts;
    facts.order = 40;
    facts.nnz = 1600;
    facts.arithmetic = plan::Arithmetic::double_double;
    facts.gpus = plan::gpu_throughput({h100}, {}, 1, 1, false);
    facts.entries_per_step = 40;  // every column full
    const double dense = plan::gpu_ryser_seconds(facts);
    for (const bool cached : {false, true}) {
        facts.generated_cached_sparyser = facts.generated_cached_skipper = cached;
        for (const bool skipper : {false, true}) {
            for (const bool generated : {false, true}) {
                EXPECT_LT(dense, plan::gpu_sparse_seconds(facts, skipper, generated))
                    << "skipper " << skipper << " generated " << generated << " cached " << cached;
            }
        }
    }
    // Uncached, the generated walk's prediction is the measured 104.8 s within 10%.
    facts.generated_cached_sparyser = false;
    EXPECT_NEAR(plan::gpu_sparse_seconds(facts, false, true) / 104.8, 1.0, 0.1);
}

TEST(FrontEnd, ToriGoToTheFrontierEngine) {
    // SkipPer's walk on tori of order 48–64 takes 0.9 s to minutes (8×12: 1.9·10^7 visits) and
    // the frontier engine 0.1 s; the walk estimate read 0 there (no term met) and the plan was
    // SkipPer, predicted 0.3 ms. The tree estimate sees the walk.
    CountOptions options;
    options.explain_only = true;
    options.threads = 2;
    for (const auto& [rows, cols] : {std::pair{8, 12}, std::pair{10, 10}, std::pair{8, 16}}) {
        const CountResult r = count_perfect_matchings(torus_graph(rows, cols), options);
        EXPECT_EQ(only_leaf_engine(r), "frontier") << rows << "x" << cols << "\n"
                                                   << r.structure.plan_text;
        // SkipPer's prediction (seconds to minutes) asks for this machine's speed, but cannot
        // win at any speed: no probe (it was 0.3 s of 8×16's 0.65 s on the loaded 2-core machine).
        EXPECT_FALSE(r.structure.machine_speed_measured) << rows << "x" << cols;
    }
}

TEST(FrontEnd, FloatingPrecisionRefusesIntegersWithoutAnExactDouble) {
    DenseMatrix<std::int64_t> a(3, 3, 1);
    a(1, 2) = (std::int64_t{1} << 53) + 1;
    CountOptions options;
    options.precision = Precision::double_double;
    EXPECT_THROW(permanent(a, options), InvalidArgument);
    options.precision = Precision::automatic;  // exact: fine
    EXPECT_TRUE(permanent(a, options).is_exact);
    a(1, 2) = std::int64_t{1} << 53;  // exactly representable: allowed
    options.precision = Precision::double_double;
    EXPECT_FALSE(permanent(a, options).is_exact);
}

TEST(FrontEnd, RefusalsSayWhyNoEngineTakesTheBlock) {
    CountOptions options;
    options.explain_only = true;
    auto only_leaf = [](const CountResult& r) {
        EXPECT_EQ(r.structure.leaves.size(), 1u);
        return r.structure.leaves.empty() ? std::string() : r.structure.leaves[0].engine;
    };
    // The 20×20 torus: not planar, frontier width 39, whose states would need terabytes: the
    // frontier engine is refused for memory (it used to be chosen, and the system killed it).
    const BipartiteGraph torus = torus_graph(20, 20);
    const std::string automatic = only_leaf(count_perfect_matchings(torus, options));
    EXPECT_EQ(automatic.rfind("none (order 200 is beyond Ryser's engines (≤ 64), the pattern is "
                              "not planar, and the frontier DP's state tables (width 39) need ~",
                              0),
              0u)
        << automatic;
    options.method = Method::frontier;
    options.explain_only = false;
    try {
        count_perfect_matchings(torus, options);
        ADD_FAILURE() << "the 20×20 torus was counted";
    } catch (const ProblemTooLarge& e) {
        EXPECT_NE(std::string(e.what()).find("--method frontier cannot count a block of order 200: "
                                             "the frontier DP's state tables (width 39) need ~"),
                  std::string::npos)
            << e.what();
    }
    // Forced methods name their own limit.
    options.method = Method::brute_force;
    options.dulmage_mendelsohn = options.reductions = false;
    EXPECT_THROW(
        {
            try {
                count_perfect_matchings(complete_bipartite_graph(14), options);
            } catch (const ProblemTooLarge& e) {
                EXPECT_NE(std::string(e.what()).find("brute force handles order ≤ 12"),
                          std::string::npos)
                    << e.what();
                throw;
            }
        },
        ProblemTooLarge);
    options.method = Method::planar;
    options.explain_only = true;
    EXPECT_EQ(only_leaf(count_perfect_matchings(torus_graph(6, 6), options)),
              "none (the pattern is not planar)");
}

}  // namespace
}  // namespace pmcount
