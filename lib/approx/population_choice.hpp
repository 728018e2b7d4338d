// How many particles a population of the estimator holds (EstimateOptions::particles = 0:
// automatic) and, on CPUs under a time limit, the pilot that halves them until the populations
// fit the time.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "approx/problem.hpp"
#include "approx/sampler.hpp"
#include "approx/sources.hpp"
#include "pmcount/approx.hpp"

namespace pmcount::approx {

/// The automatic P halved until kMinPopulations populations are predicted within
/// kPopulationTimeShare of the time limit, timed by a pilot on `threads` CPU threads that draws
/// populations resampled every `every` steps (rank 0's time, so that every rank agrees); the
/// halving is added to choice.reason and choice.particles.
std::uint64_t particles_within_time(const SamplerProblem& problem, const SamplerConfig& config,
                                    int threads, vertex_t every, PopulationChoice& choice,
                                    int ranks);

/// The same for any CPU sampler: make_pilot(P) gives a source drawing populations of P.
std::uint64_t particles_within_time(
    const std::function<std::unique_ptr<SampleSource>(std::uint64_t)>& make_pilot,
    PopulationChoice& choice, int ranks);

}  // namespace pmcount::approx
