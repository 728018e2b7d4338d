// The general graphs' estimators (approx/general_sampler.hpp; the bethe sweep of
// approx/monomer_dimer_sampler.hpp at x = 0) against exact counts: the 95% interval's coverage
// over 200 seeded runs on each of a triangular patch, a kagome patch, a small triangular torus
// and random 3-regular general graphs of 40 vertices (rasmussen+ and bethe), fewer with
// rasmussen; weighted hafnians; exact zeros; what it refuses; the Input route. Every run is
// deterministic (fixed seeds); a correct unbiased estimator whose interval holds its level misses
// more than 7% of 200 runs with probability below 10⁻³.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "approx/general_sampler.hpp"
#include "pmcount/approx.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/io.hpp"

namespace pmcount {
namespace {

EstimateOptions runs_of(std::uint64_t samples, std::uint64_t seed, Estimator estimator) {
    EstimateOptions o;
    o.samples = samples;
    o.seed = seed;
    o.estimator = estimator;
    o.threads = 2;
    return o;
}

/// log10 of the exact count.
double exact_log10(const UndirectedGraph& g) {
    return count_perfect_matchings(g).exact.log10_abs();
}

/// Runs whose interval covers the exact count, out of `runs` (graph(k), seed k).
int covered(int runs, const std::function<UndirectedGraph(int)>& graph, Estimator estimator,
            std::uint64_t samples) {
    int hits = 0;
    for (int k = 0; k < runs; ++k) {
        const UndirectedGraph g = graph(k);
        const double truth = exact_log10(g);
        const EstimateResult r = estimate_perfect_matchings(
            g, runs_of(samples, 1000 + static_cast<std::uint64_t>(k), estimator));
        // Only the rasmussen+ sampler keeps a perfect matching at every step.
        EXPECT_EQ(r.zero_fraction,
                  estimator == Estimator::rasmussen_plus ? 0.0 : r.zero_fraction);
        hits += r.log10_ci_low <= truth && truth <= r.log10_ci_high ? 1 : 0;
    }
    return hits;
}

TEST(GeneralEstimate, CoverageOnPatchesToriAndRandomRegularGraphs) {
    const UndirectedGraph tri = triangular_graph(5, 6, false);
    const UndirectedGraph kagome = kagome_graph(2, 4, false);
    const UndirectedGraph torus = triangular_graph(4, 6, true);
    const std::vector<std::pair<std::string, std::function<UndirectedGraph(int)>>> families{
        {"tri:5x6", [&](int) { return tri; }},
        {"kagome:2x4", [&](int) { return kagome; }},
        {"tri-torus:4x6", [&](int) { return torus; }},
        {"regular-general:40,3", [](int k) {
             return generate_undirected_graph("regular-general:40,3," + std::to_string(k + 1));
         }}};
    for (const Estimator e : {Estimator::rasmussen_plus, Estimator::bethe}) {
        for (const auto& [name, graph] : families) {
            const int hits = covered(200, graph, e, 1000);
            std::printf("%s, %s: %d of 200 intervals cover the count\n", name.c_str(),
                        to_string(e), hits);
            EXPECT_GE(hits, 186) << name << ", " << to_string(e) << ": " << hits
                                 << " of 200 intervals cover the count";
        }
    }
    // The plain rule (lowest vertex first, no pruning: some samples are 0).
    EXPECT_GE(covered(
                  60, [&](int) { return tri; }, Estimator::rasmussen, 2000),
              54);
}

TEST(GeneralEstimate, MeansAreUnbiasedWithinTheirErrors) {
    // Many samples on a torus of 24 vertices: the estimate within 4 standard errors, and both
    // rules agree with the count.
    const UndirectedGraph torus = triangular_graph(4, 6, true);
    const double truth = std::pow(10.0, exact_log10(torus));
    for (const Estimator e : {Estimator::rasmussen, Estimator::rasmussen_plus, Estimator::bethe}) {
        EstimateOptions o = runs_of(200000, 7, e);
        o.particles = 1;
        const EstimateResult r = estimate_perfect_matchings(torus, o);
        EXPECT_LE(std::fabs(r.value / truth - 1), 4 * r.rel_std_error) << to_string(e);
        EXPECT_LT(r.rel_std_error, 0.02) << to_string(e);
        EXPECT_EQ(r.estimator, to_string(e));
    }
}

TEST(GeneralEstimate, PopulationsCoverAndBeatIndependentSamples) {
    // Populations of 64 particles resampled every 4 steps (the vertices in index order): the
    // interval covers in at least 54 of 60 runs, and on the 12×12 patch a population's log
    // spreads far less than an independent sample's.
    const UndirectedGraph torus = triangular_graph(4, 6, true);
    const double truth = exact_log10(torus);
    int hits = 0;
    for (int k = 0; k < 60; ++k) {
        EstimateOptions o =
            runs_of(64 * 40, 500 + static_cast<std::uint64_t>(k), Estimator::rasmussen_plus);
        o.particles = 64;
        o.resample_every = 4;
        const EstimateResult r = estimate_perfect_matchings(torus, o);
        EXPECT_EQ(r.particles, 64U);
        EXPECT_EQ(r.populations, 40U);
        hits += r.log10_ci_low <= truth && truth <= r.log10_ci_high ? 1 : 0;
    }
    EXPECT_GE(hits, 54) << hits << " of 60";
    const UndirectedGraph patch = triangular_graph(12, 12, false);
    EstimateOptions independent = runs_of(4000, 9, Estimator::rasmussen_plus);
    independent.particles = 1;
    EstimateOptions populations = runs_of(128 * 40, 9, Estimator::rasmussen_plus);
    populations.particles = 128;
    const double sd_one = estimate_perfect_matchings(patch, independent).log_sd;
    const double sd_population = estimate_perfect_matchings(patch, populations).log_sd;
    EXPECT_LT(sd_population, 0.5 * sd_one) << sd_population << " against " << sd_one;
}

TEST(GeneralEstimate, UndecidedCandidatesGiveZeroSamplesAndStayUnbiased) {
    // A search budget of one vertex leaves every candidate but M(v) undecided: choices that cut
    // off an odd region are found out by the failed repair (zero samples), and the mean is
    // still the count, within 4 standard errors.
    const UndirectedGraph g = triangular_graph(6, 6, false);
    std::vector<approx::Entry> edges;
    for (const auto& [u, v] : g.edges()) {
        edges.push_back({u, v, 1.0});
    }
    approx::GeneralSetup setup = approx::general_setup(g.num_vertices(), edges, true);
    setup.problem.search_budget = 1;
    const double truth = std::pow(10.0, exact_log10(g));
    double sum = 0, squares = 0;
    int zeros = 0;
    constexpr int kSamples = 40000;
    for (int k = 0; k < kSamples; ++k) {
        const double l =
            approx::general_log_estimate(setup.problem, true, 3, static_cast<std::uint64_t>(k));
        const double x = std::isfinite(l) ? std::exp(l) / truth : 0.0;
        zeros += std::isfinite(l) ? 0 : 1;
        sum += x;
        squares += x * x;
    }
    const double mean = sum / kSamples;
    const double se = std::sqrt((squares / kSamples - mean * mean) / kSamples);
    EXPECT_GT(zeros, 0);
    EXPECT_LE(std::fabs(mean - 1), 4 * se) << mean << " ± " << se;
}

TEST(GeneralEstimate, WeightedHafniansCoverTheirValue) {
    std::mt19937_64 rng(36);
    int hits = 0;
    constexpr int kRuns = 100;
    for (int k = 0; k < kRuns; ++k) {
        // 12 vertices, density 0.5, weights 1..4, symmetric.
        std::vector<Triplet<std::int64_t>> t;
        for (vertex_t i = 0; i < 12; ++i) {
            for (vertex_t j = i + 1; j < 12; ++j) {
                if (rng() % 2 == 0) {
                    const auto w = static_cast<std::int64_t>(1 + rng() % 4);
                    t.push_back({i, j, w});
                    t.push_back({j, i, w});
                }
            }
        }
        const SparseMatrix<std::int64_t> a(12, 12, std::move(t));
        const CountResult exact = hafnian(a);
        // scaling+ (the default) takes the bethe sweep and says so; rasmussen+ the blossom one.
        for (const Estimator e : {Estimator::scaling_plus, Estimator::rasmussen_plus}) {
            const EstimateResult r =
                estimate_hafnian(a, runs_of(2000, static_cast<std::uint64_t>(k), e));
            if (exact.exact.sign() == 0) {
                EXPECT_EQ(r.stopped, StopReason::exact);
                EXPECT_EQ(r.value, 0);
                ++hits;
                continue;
            }
            if (e == Estimator::scaling_plus) {
                EXPECT_EQ(r.estimator, "bethe");
                EXPECT_NE(r.note.find("scaling estimators need two sides"), std::string::npos)
                    << r.note;
            }
            const double truth = exact.exact.log10_abs();
            hits += r.log10_ci_low <= truth && truth <= r.log10_ci_high ? 1 : 0;
        }
    }
    EXPECT_GE(hits, 180) << hits << " of " << 2 * kRuns;
}

TEST(GeneralEstimate, ExactZerosAndRefusals) {
    // Odd order; two disjoint triangles (no perfect matching).
    const EstimateResult odd =
        estimate_perfect_matchings(UndirectedGraph(5, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}), {});
    EXPECT_EQ(odd.stopped, StopReason::exact);
    EXPECT_EQ(odd.value, 0);
    const UndirectedGraph triangles(6, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}});
    const EstimateResult none = estimate_perfect_matchings(triangles, {});
    EXPECT_EQ(none.stopped, StopReason::exact);
    EXPECT_NE(none.note.find("no perfect matching"), std::string::npos) << none.note;
    const UndirectedGraph g = triangular_graph(4, 4, false);
    EstimateOptions gpu;
    gpu.backend = Backend::cuda;
    gpu.estimator = Estimator::rasmussen_plus;  // the blossom sampler has no GPU kernel
    EXPECT_THROW(estimate_perfect_matchings(g, gpu), InvalidArgument);
    // A hafnian of a matrix that is not symmetric, or not square.
    const SparseMatrix<double> lopsided(2, 2, {{0, 1, 1.0}, {1, 0, 2.0}});
    EXPECT_THROW(estimate_hafnian(lopsided, {}), InvalidArgument);
    EXPECT_THROW(estimate_hafnian(SparseMatrix<double>(2, 3, {}), {}), DimensionMismatch);
    const SparseMatrix<double> negative(2, 2, {{0, 1, -1.0}, {1, 0, -1.0}});
    EXPECT_THROW(estimate_hafnian(negative, {}), InvalidArgument);
}

TEST(GeneralEstimate, InputsEstimateAsTheyCount) {
    // A generated general graph and a symmetric matrix read as a hafnian take the general path.
    const Input tri = generated_input("tri:4x4");
    const EstimateResult r = estimate(tri, runs_of(4000, 3, Estimator::rasmussen_plus));
    const double truth = std::log10(56.0);
    EXPECT_LE(r.log10_ci_low, truth);
    EXPECT_GE(r.log10_ci_high, truth);
    const Input sym = parse_input(
        "%%MatrixMarket matrix coordinate integer symmetric\n4 4 4\n2 1 1\n3 2 2\n4 3 1\n4 1 3\n",
        "c4.mtx", ReadOptions{InputFormat::automatic, GraphInterpretation::general});
    ASSERT_TRUE(sym.hafnian);
    // The 4-cycle with weights 1, 2, 1, 3: matchings {12, 34} = 1·1 and {23, 14} = 2·3 → 7; a
    // sample is 4 (probability 1/4) or 8.
    const EstimateResult c = estimate(sym, runs_of(4000, 1, Estimator::rasmussen_plus));
    EXPECT_LE(c.log10_ci_low, std::log10(7.0));
    EXPECT_GE(c.log10_ci_high, std::log10(7.0));
    EXPECT_GT(c.value, 6.8);
    EXPECT_LT(c.value, 7.2);
}

}  // namespace
}  // namespace pmcount
