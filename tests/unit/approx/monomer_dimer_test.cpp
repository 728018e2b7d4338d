// The monomer–dimer estimator (approx/monomer_dimer.hpp, pmcount::estimate_matchings) against
// exact counts: the 95% interval's coverage over 200 seeded runs on each of a square grid, a
// triangular patch, random 3-regular general graphs and weighted graphs at x = 7/10; unbiased
// independent samples; zero variance where the Bethe guide is exact (a path swept in order);
// populations against independent samples; threads; the Input route; what it refuses. A correct
// estimator whose interval holds its level misses more than 7% of 200 runs with probability
// below 10⁻³.
#include "approx/monomer_dimer.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/io.hpp"
#include "pmcount/matchings.hpp"

namespace pmcount {
namespace {

EstimateOptions budget(std::uint64_t samples, std::uint64_t seed) {
    EstimateOptions o;
    o.samples = samples;
    o.seed = seed;
    o.threads = 2;
    return o;
}

/// A graph with weights: the symmetric matrix and its exact Z at `x` (log10).
struct Weighted {
    SparseMatrix<std::int64_t> exact;
    SparseMatrix<double> real;
};

/// An Erdős–Rényi graph on n vertices with weights 1 … 5.
Weighted random_weighted(vertex_t n, double p, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> coin(0, 1);
    std::uniform_int_distribution<int> weight(1, 5);
    std::vector<Triplet<std::int64_t>> e;
    std::vector<Triplet<double>> d;
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = i + 1; j < n; ++j) {
            if (coin(rng) < p) {
                const int w = weight(rng);
                e.push_back({i, j, w});
                e.push_back({j, i, w});
                d.push_back({i, j, static_cast<double>(w)});
                d.push_back({j, i, static_cast<double>(w)});
            }
        }
    }
    return {SparseMatrix<std::int64_t>(n, n, std::move(e)),
            SparseMatrix<double>(n, n, std::move(d))};
}

/// log10 of an exact count a/b.
double log10_of(const MatchingsResult& r) {
    return r.numerator.log10_abs() - r.denominator.log10_abs();
}

bool covers(const EstimateResult& r, double truth) {
    return r.log10_ci_low <= truth && truth <= r.log10_ci_high;
}

TEST(MonomerDimerEstimate, CoverageOnGridsPatchesRandomAndWeightedGraphs) {
    const std::vector<std::pair<std::string, std::function<UndirectedGraph(int)>>> families{
        {"grid 6x6 (both sides as one graph)",
         [](int) {
             const BipartiteGraph g = grid_graph(6, 6);
             std::vector<UndirectedGraph::Edge> edges;
             for (const auto& [u, v] : g.edges()) {
                 edges.emplace_back(u, g.n_left() + v);
             }
             return UndirectedGraph(g.n_left() + g.n_right(), edges);
         }},
        {"tri:5x6", [](int) { return triangular_graph(5, 6, false); }},
        {"regular-general:40,3", [](int k) {
             return generate_undirected_graph("regular-general:40,3," + std::to_string(k + 1));
         }}};
    for (const auto& [name, graph] : families) {
        int hits = 0;
        for (int k = 0; k < 200; ++k) {
            const UndirectedGraph g = graph(k);
            const double truth = count_all_matchings(g).numerator.log10_abs();
            const EstimateResult r =
                estimate_all_matchings(g, budget(4096, 3000 + static_cast<std::uint64_t>(k)));
            EXPECT_EQ(r.zero_fraction, 0.0);
            hits += covers(r, truth) ? 1 : 0;
        }
        std::printf("%s: %d of 200 intervals cover the count\n", name.c_str(), hits);
        EXPECT_GE(hits, 186) << name;
    }
    // Weighted graphs at x = 7/10 (the exact count as a fraction).
    int hits = 0;
    for (int k = 0; k < 200; ++k) {
        const Weighted w = random_weighted(24, 0.2, 77 + static_cast<std::uint64_t>(k));
        const double truth = log10_of(monomer_dimer(w.exact, "7/10"));
        const EstimateResult r =
            estimate_monomer_dimer(w.real, 0.7, budget(4096, 5000 + static_cast<std::uint64_t>(k)));
        hits += covers(r, truth) ? 1 : 0;
    }
    std::printf("weighted G(24, 0.2) at x = 0.7: %d of 200 intervals cover the value\n", hits);
    EXPECT_GE(hits, 186);
}

TEST(MonomerDimerEstimate, IndependentSamplesAreUnbiased) {
    // 200 000 independent samples on the 4×6 triangular patch: the mean within 4 standard errors
    // of the count, at x = 1 and at x = 3.
    const UndirectedGraph g = triangular_graph(4, 6, false);
    for (const char* x : {"1", "3"}) {
        const double truth = std::pow(10.0, log10_of(monomer_dimer(g, x)));
        EstimateOptions o = budget(200000, 11);
        o.particles = 1;
        const EstimateResult r = estimate_monomer_dimer(g, std::stod(x), o);
        EXPECT_EQ(r.particles, 1U);
        EXPECT_EQ(r.estimator, "monomer-dimer");
        EXPECT_LE(std::fabs(r.value / truth - 1), 4 * r.rel_std_error) << "x = " << x;
        EXPECT_LT(r.rel_std_error, 0.01) << "x = " << x;
    }
}

TEST(MonomerDimerEstimate, EverySampleIsExactWhereTheBetheGuideIs) {
    // On a path swept from one end, the messages of the whole path are those of what is left, so
    // each choice has its exact probability and every sample equals Z: the Fibonacci number
    // F(n+1) for the matchings of P_n.
    const vertex_t n = 60;
    std::vector<approx::Entry> edges;
    std::vector<vertex_t> order(static_cast<std::size_t>(n));
    std::iota(order.begin(), order.end(), 0);
    for (vertex_t v = 0; v + 1 < n; ++v) {
        edges.push_back({v, v + 1, 1.0});
    }
    const approx::MonomerDimerProblem p = approx::monomer_dimer_problem(n, edges, order, 1.0);
    double f0 = 1, f1 = 1;  // F(1), F(2): matchings of P_0, P_1
    for (vertex_t k = 2; k <= n; ++k) {
        const double f2 = f0 + f1;
        f0 = f1;
        f1 = f2;
    }
    for (std::uint64_t s = 0; s < 20; ++s) {
        EXPECT_NEAR(approx::monomer_dimer_log_estimate(p, 5, s), std::log(f1), 1e-11);
    }
}

TEST(MonomerDimerEstimate, PopulationsBeatIndependentSamplesAndThreadsAgree) {
    const UndirectedGraph g = triangular_graph(12, 12, false);
    EstimateOptions independent = budget(4000, 9);
    independent.particles = 1;
    EstimateOptions populations = budget(128 * 40, 9);
    populations.particles = 128;
    const double sd_one = estimate_all_matchings(g, independent).log_sd;
    const EstimateResult two = estimate_all_matchings(g, populations);
    EXPECT_LT(two.log_sd, 0.5 * sd_one) << two.log_sd << " against " << sd_one;
    EXPECT_EQ(two.populations, 40U);
    populations.threads = 1;
    const EstimateResult one = estimate_all_matchings(g, populations);
    EXPECT_EQ(one.log10_value, two.log10_value);
    EXPECT_EQ(one.log10_ci_high, two.log10_ci_high);
}

TEST(MonomerDimerEstimate, InputsEstimateAsTheyCount) {
    // A bipartite input is the graph of both sides; declared vertices without edges are single in
    // every matching (a factor x each); a symmetric matrix read as a hafnian is its weighted graph.
    const Input grid = generated_input("grid:4x5");
    const double truth = log10_of(count_matchings(grid, MatchingQuery::all));
    const EstimateResult r = estimate_matchings(grid, MatchingQuery::all, "1", budget(20000, 3));
    EXPECT_TRUE(covers(r, truth)) << r.log10_value << " against " << truth;
    EXPECT_EQ(r.n, 20);
    const UndirectedGraph with_isolated(9, {{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}});
    EstimateOptions o = budget(1 << 15, 4);
    const EstimateResult iso = estimate_monomer_dimer(with_isolated, 2.0, o);
    const double exact = log10_of(monomer_dimer(with_isolated, "2"));
    EXPECT_TRUE(covers(iso, exact)) << iso.log10_value << " against " << exact;
    const EstimateResult md =
        estimate_matchings(grid, MatchingQuery::monomer_dimer, "2.5e-1", budget(20000, 3));
    EXPECT_TRUE(
        covers(md, log10_of(count_matchings(grid, MatchingQuery::monomer_dimer, {}, 0, "1/4"))));
}

TEST(MonomerDimerEstimate, RefusesWhatItCannotEstimate) {
    const UndirectedGraph g = triangular_graph(3, 3, false);
    EXPECT_THROW(estimate_monomer_dimer(g, 0.0), InvalidArgument);
    EXPECT_THROW(estimate_monomer_dimer(g, -1.0), InvalidArgument);
    EXPECT_THROW(estimate_monomer_dimer(g, std::nan("")), InvalidArgument);
    EXPECT_THROW(estimate_monomer_dimer(g, HUGE_VAL), InvalidArgument);
    const SparseMatrix<double> negative(2, 2, {{0, 1, -1.0}, {1, 0, -1.0}});
    EXPECT_THROW(estimate_monomer_dimer(negative, 1.0), InvalidArgument);
    const SparseMatrix<double> asymmetric(2, 2, {{0, 1, 1.0}, {1, 0, 2.0}});
    EXPECT_THROW(estimate_monomer_dimer(asymmetric, 1.0), InvalidArgument);
    const Input grid = generated_input("grid:3x3");
    EXPECT_THROW(estimate_matchings(grid, MatchingQuery::polynomial, "1"), InvalidArgument);
    EXPECT_THROW(estimate_matchings(grid, MatchingQuery::size, "1"), InvalidArgument);
    EXPECT_THROW(estimate_matchings(grid, MatchingQuery::monomer_dimer, "x"), InvalidArgument);
    EXPECT_THROW(estimate_matchings(grid, MatchingQuery::monomer_dimer, "0"), InvalidArgument);
}

}  // namespace
}  // namespace pmcount
