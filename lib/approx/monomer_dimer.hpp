// The monomer–dimer estimator's problem and sample sources (library-internal): the graph
// relabelled in sweep order with its Bethe messages (approx/monomer_dimer_sampler.hpp), drawn on
// CPU threads or GPUs, independent samples or populations.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "approx/monomer_dimer_sampler.hpp"
#include "approx/population.hpp"
#include "approx/setup.hpp"
#include "approx/sources.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {

/// The sampler's graph, host memory: vertex t of the sweep is the t-th of `order`.
struct MonomerDimerProblem {
    vertex_t n = 0;
    double monomer = 1;
    std::vector<std::int64_t> offsets;
    std::vector<vertex_t> neighbours;
    std::vector<double> weights, incoming, log_ratio;
    int bethe_sweeps = 0;     ///< belief-propagation sweeps run
    double bethe_change = 0;  ///< the last sweep's largest relative change of a message

    MonomerDimerView view() const {
        return {n,
                monomer,
                offsets.data(),
                neighbours.data(),
                weights.data(),
                incoming.data(),
                log_ratio.data()};
    }
};

/// The problem for the edges (row ≠ col, each edge once, positive finite values; parallel
/// entries add) of a graph on n vertices, swept in `order` (a permutation of 0 … n−1), with
/// monomer weight x ≥ 0 (0: perfect matchings). The Bethe messages are iterated (half-damped) until
/// no message moves by more than 1e-12 relatively, or 1000 sweeps: any positive messages keep the
/// estimate unbiased, so an unconverged run only costs variance. O(E) memory, O(E·d) per sweep.
MonomerDimerProblem monomer_dimer_problem(vertex_t n, const std::vector<Entry>& edges,
                                          const std::vector<vertex_t>& order, double monomer);

/// One sample's log estimate of Z(x), drawn from Philox(seed; step, 0, sample).
double monomer_dimer_log_estimate(const MonomerDimerProblem& p, std::uint64_t seed,
                                  std::uint64_t sample);

/// Samples on `threads` CPU threads: independent ones, or populations of plan.particles resampled
/// every plan.every steps (of n) on w·Φ^exponent.
std::unique_ptr<SampleSource> monomer_dimer_cpu_source(const MonomerDimerProblem& p,
                                                       std::uint64_t seed, int threads,
                                                       PopulationPlan plan, double exponent);

/// The same on the GPUs `gpus` (cuda/monomer_dimer_gpu.cu), drawing the same samples.
std::unique_ptr<SampleSource> monomer_dimer_gpu_source(const MonomerDimerProblem& p,
                                                       std::uint64_t seed,
                                                       const std::vector<int>& gpus,
                                                       PopulationPlan plan, double exponent);

/// The estimate of Z(x) for the graph (edges, order as above; n counts isolated vertices too),
/// with the estimators' rounds, stopping rules, populations and interval (estimate.cpp).
/// x must be finite and at least 0 (InvalidArgument); x = 0 estimates perfect matchings.
EstimateResult estimate_monomer_dimer(vertex_t n, const std::vector<Entry>& edges,
                                      const std::vector<vertex_t>& order, double monomer,
                                      const EstimateOptions& options);

}  // namespace pmcount::approx
