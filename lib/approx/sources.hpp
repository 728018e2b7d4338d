// Where the estimator's samples come from: CPU threads or GPUs, drawing independent samples or
// populations of particles resampled as they go (approx/population.hpp), by index, so that a
// sample's value does not depend on who draws it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "approx/population.hpp"
#include "approx/problem.hpp"
#include "approx/sampler.hpp"
#include "pmcount/options.hpp"

namespace pmcount::backend::cuda {
class GpuSampler;
}  // namespace pmcount::backend::cuda

namespace pmcount::approx {

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
    /// The devices that draw, for EstimateResult::device ("" on CPU threads).
    virtual std::string description() const { return {}; }
};

/// Samples on `threads` CPU threads.
std::unique_ptr<SampleSource> cpu_source(const SamplerProblem& p, SamplerConfig config, int threads,
                                         PopulationPlan plan);

/// Samples on the GPUs `gpus` (their indices), one host thread each.
std::unique_ptr<SampleSource> gpu_source(const SamplerProblem& p, SamplerConfig config,
                                         const std::vector<int>& gpus, PopulationPlan plan);

/// Samples on samplers made for one GPU each (any estimator's: they share the interface), whose
/// samples take `steps` steps.
std::unique_ptr<SampleSource> gpu_source(
    std::vector<std::unique_ptr<backend::cuda::GpuSampler>> samplers, vertex_t steps,
    std::uint64_t seed, PopulationPlan plan);

/// The GPUs an estimate uses (EstimateOptions::gpus, or this rank's share of the visible ones);
/// none when none is visible, unless `required` (--backend cuda): then NotCompiled or
/// DeviceError.
std::vector<int> visible_gpus(const EstimateOptions& o, bool required);

}  // namespace pmcount::approx
