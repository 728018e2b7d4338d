// The estimators on the GPU (ctest label gpu): the same samples as the CPU for a seed, unbiased
// on small matrices, and graphs with 10^4 vertices per side in global memory. Every test skips
// cleanly when this build has no CUDA backend or no GPU is visible.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "pmcount/approx.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/count.hpp"
#include "pmcount/generate.hpp"
#include "pmcount/matchings.hpp"
#include "support/closed_forms.hpp"
#include "support/lattice_counts.hpp"
#include "support/random_matrices.hpp"

namespace pmcount {
namespace {

#define SKIP_WITHOUT_GPU()                                                             \
    if (build_info().devices.empty()) {                                                \
        GTEST_SKIP() << "no GPU visible (or a build without CUDA): GPU tests skipped"; \
    }

constexpr Estimator kAll[] = {Estimator::rasmussen, Estimator::rasmussen_plus, Estimator::scaling,
                              Estimator::scaling_plus};

/// Independent samples (tests of populations set particles).
EstimateOptions options(Estimator e, Backend backend, std::uint64_t samples, std::uint64_t seed) {
    EstimateOptions o;
    o.estimator = e;
    o.particles = 1;
    o.backend = backend;
    o.samples = samples;
    o.seed = seed;
    return o;
}

TEST(GpuEstimators, DrawTheSameSamplesAsTheCpu) {
    SKIP_WITHOUT_GPU();
    // Same code, same Philox draws, no fused multiply-adds on either side: the partners agree,
    // so the means agree up to the last bits of log().
    const BipartiteGraph grid = grid_graph(6, 6);
    for (const Estimator e : kAll) {
        for (const EstimatorLayout layout : {EstimatorLayout::dense, EstimatorLayout::sparse}) {
            EstimateOptions o = options(e, Backend::cpu, 5000, 9);
            o.layout = layout;
            const EstimateResult cpu = estimate_perfect_matchings(grid, o);
            o.backend = Backend::cuda;
            const EstimateResult gpu = estimate_perfect_matchings(grid, o);
            EXPECT_EQ(gpu.backend, "cuda");
            EXPECT_NEAR(gpu.log10_value, cpu.log10_value, 1e-10)
                << to_string(e) << ", " << to_string(layout);
            EXPECT_NEAR(gpu.zero_fraction, cpu.zero_fraction, 0.0)
                << to_string(e) << ", " << to_string(layout);
        }
    }
}

TEST(GpuEstimators, EveryEstimatorAndLayoutIsUnbiasedOnSmallMatrices) {
    SKIP_WITHOUT_GPU();
    const DenseMatrix<std::int64_t> cases[] = {test::random_binary(10, 0.4, 11),
                                               test::random_integer(9, 0, 5, 0.6, 12)};
    for (const auto& a : cases) {
        CountOptions exact;
        exact.backend = Backend::cpu;
        const double truth = permanent(a, exact).value;
        for (const Estimator e : kAll) {
            for (const EstimatorLayout layout : {EstimatorLayout::dense, EstimatorLayout::sparse}) {
                EstimateOptions o = options(e, Backend::cuda, 200000, 21);
                o.layout = layout;
                const EstimateResult r = estimate_permanent(a, o);
                EXPECT_LE(std::abs(r.value / truth - 1), 4 * r.rel_std_error)
                    << to_string(e) << ", " << to_string(layout) << ": " << r.value << " vs "
                    << truth;
            }
        }
    }
}

TEST(GpuEstimators, TenThousandVerticesPerSide) {
    SKIP_WITHOUT_GPU();
    // 5000 disjoint copies of K_{2,2}: 2^5000 perfect matchings, and every sample of every
    // estimator is exactly 2^5000 (each block offers two equally weighted choices).
    constexpr vertex_t kBlocks = 5000;
    std::vector<BipartiteGraph::Edge> edges;
    for (vertex_t b = 0; b < kBlocks; ++b) {
        for (const vertex_t u : {2 * b, 2 * b + 1}) {
            edges.emplace_back(u, 2 * b);
            edges.emplace_back(u, 2 * b + 1);
        }
    }
    const BipartiteGraph blocks(2 * kBlocks, 2 * kBlocks, std::move(edges));
    for (const Estimator e : kAll) {
        EstimateOptions o = options(e, Backend::cuda, 256, 5);
        o.scale_every = 1000;
        o.particles = 1;
        const EstimateResult r = estimate_perfect_matchings(blocks, o);
        EXPECT_NEAR(r.log10_value, kBlocks * std::log10(2.0), 1e-9) << to_string(e);
        EXPECT_EQ(r.samples, 256u);
    }
}

TEST(GpuEstimators, Grid32x32WithinFourStandardErrorsOfKasteleyn) {
    SKIP_WITHOUT_GPU();
    const double log10_truth = static_cast<double>(log_grid_tilings(32, 32)) / std::log(10.0);
    // Independent samples, and 20 populations of 1024.
    for (const std::uint64_t particles : {1u, 1024u}) {
        EstimateOptions o = options(Estimator::scaling_plus, Backend::cuda, 20000, 3);
        o.particles = particles;
        const EstimateResult grid = estimate_perfect_matchings(grid_graph(32, 32), o);
        EXPECT_EQ(grid.particles, particles);
        EXPECT_LE(std::abs(std::pow(10.0, grid.log10_value - log10_truth) - 1),
                  4 * grid.rel_std_error)
            << "particles " << grid.particles;
    }
}

TEST(GpuEstimators, PopulationsDrawTheSameSamplesAsTheCpu) {
    SKIP_WITHOUT_GPU();
    // The ancestors are drawn on the host from the particles' weights, which agree with the
    // CPU's up to the last bits of log(): the same particles are copied.
    const BipartiteGraph grid = grid_graph(6, 6);
    for (const Estimator e : kAll) {
        for (const EstimatorLayout layout : {EstimatorLayout::dense, EstimatorLayout::sparse}) {
            EstimateOptions o = options(e, Backend::cpu, 64 * 40, 9);
            o.layout = layout;
            o.particles = 64;
            o.resample_every = 4;
            const EstimateResult cpu = estimate_perfect_matchings(grid, o);
            o.backend = Backend::cuda;
            const EstimateResult gpu = estimate_perfect_matchings(grid, o);
            EXPECT_EQ(gpu.populations, 40u);
            EXPECT_NEAR(gpu.log10_value, cpu.log10_value, 1e-10)
                << to_string(e) << ", " << to_string(layout);
            EXPECT_NEAR(gpu.rel_std_error, cpu.rel_std_error, 1e-8)
                << to_string(e) << ", " << to_string(layout);
        }
    }
}

TEST(GpuEstimators, PopulationsLargerThanTheResidentThreadsAreUnbiased) {
    SKIP_WITHOUT_GPU();
    // 2^19 particles (more than an H100 keeps resident) in each of 8 populations on a 10×10
    // matrix: the kernels loop over particles, resampling copies across the whole set.
    const DenseMatrix<std::int64_t> a = test::random_binary(10, 0.5, 31);
    CountOptions exact;
    exact.backend = Backend::cpu;
    const double truth = permanent(a, exact).value;
    EstimateOptions o = options(Estimator::scaling_plus, Backend::cuda, 8u << 19, 4);
    o.particles = 1u << 19;
    o.resample_every = 3;
    const EstimateResult r = estimate_permanent(a, o);
    EXPECT_EQ(r.populations, 8u);
    EXPECT_LE(std::abs(r.value / truth - 1), 4 * r.rel_std_error + 1e-6)
        << r.value << " vs " << truth;
}

TEST(GpuMonomerDimer, DrawsTheSameSamplesAsTheCpuAndCovers) {
    SKIP_WITHOUT_GPU();
    // The monomer-dimer sampler (approx/monomer_dimer_sampler.hpp) on both sides: independent
    // samples and populations agree with the CPU's up to the last bits of log(), and the GPU's
    // interval covers the exact count of the 8×8 triangular patch.
    const UndirectedGraph g = triangular_graph(8, 8, false);
    for (const std::uint64_t particles : {std::uint64_t{1}, std::uint64_t{256}}) {
        EstimateOptions o;
        o.particles = particles;
        o.samples = particles * 64;
        o.seed = 21;
        o.backend = Backend::cpu;
        const EstimateResult cpu = estimate_all_matchings(g, o);
        o.backend = Backend::cuda;
        const EstimateResult gpu = estimate_all_matchings(g, o);
        EXPECT_EQ(gpu.backend, "cuda");
        EXPECT_NEAR(gpu.log10_value, cpu.log10_value, 1e-10) << particles << " particles";
        EXPECT_NEAR(gpu.log10_ci_high, cpu.log10_ci_high, 1e-10) << particles << " particles";
        const double truth = count_all_matchings(g).numerator.log10_abs();
        EXPECT_LE(gpu.log10_ci_low, truth) << particles << " particles";
        EXPECT_GE(gpu.log10_ci_high, truth) << particles << " particles";
    }
}

TEST(GpuMonomerDimer, TheBetheSweepDrawsTheSameSamplesAsTheCpuOnAnyGraph) {
    SKIP_WITHOUT_GPU();
    // Perfect matchings by the bethe sweep (x = 0) on a bipartite grid and a triangular patch:
    // the GPU's estimates equal the CPU's, and its intervals cover the exact counts.
    const BipartiteGraph grid = grid_graph(8, 8);
    const UndirectedGraph tri = triangular_graph(8, 8, false);
    for (const std::uint64_t particles : {std::uint64_t{1}, std::uint64_t{256}}) {
        EstimateOptions o;
        o.estimator = Estimator::bethe;
        o.particles = particles;
        o.samples = particles * 64;
        o.seed = 5;
        o.backend = Backend::cpu;
        const EstimateResult grid_cpu = estimate_perfect_matchings(grid, o);
        const EstimateResult tri_cpu = estimate_perfect_matchings(tri, o);
        o.backend = Backend::cuda;
        const EstimateResult grid_gpu = estimate_perfect_matchings(grid, o);
        const EstimateResult tri_gpu = estimate_perfect_matchings(tri, o);
        EXPECT_EQ(tri_gpu.backend, "cuda");
        EXPECT_EQ(tri_gpu.estimator, "bethe");
        EXPECT_NEAR(grid_gpu.log10_value, grid_cpu.log10_value, 1e-10) << particles;
        EXPECT_NEAR(tri_gpu.log10_value, tri_cpu.log10_value, 1e-10) << particles;
        const double grid_truth = count_perfect_matchings(grid).exact.log10_abs();
        const double tri_truth = count_perfect_matchings(tri).exact.log10_abs();
        EXPECT_LE(grid_gpu.log10_ci_low, grid_truth) << particles;
        EXPECT_GE(grid_gpu.log10_ci_high, grid_truth) << particles;
        EXPECT_LE(tri_gpu.log10_ci_low, tri_truth) << particles;
        EXPECT_GE(tri_gpu.log10_ci_high, tri_truth) << particles;
    }
}

}  // namespace
}  // namespace pmcount
