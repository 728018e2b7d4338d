// The estimators' population sizes (population_choice.hpp, and the public choose_populations).
// Built with -ffp-contract=off, as the rest of the estimator.
#include "approx/population_choice.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "approx/setup.hpp"
#include "approx/sources.hpp"
#include "core/clock.hpp"
#include "core/stop.hpp"
#include "run/mpi.hpp"

namespace pmcount {

namespace {

// ---- Automatic populations (EstimateOptions::particles = 0) ----------------------------------
// Measured on grids (docs/estimators.md): with P ≈ 8n particles resampled every 16 steps on the
// potential Φ^0.6, a population's log has sd ≈ 0.04 from 16×16 to 64×64, where independent
// samples' logs spread like 0.15·√n (1.6, 3.4, 6.8) and their relative variance like
// exp(sd²): populations win from n ≈ 100 on, and cost no more per sample. The interval needs 16
// populations or more, so a sample budget caps P at budget / 16; below kMinAutoParticles the
// samples are drawn independently.
constexpr std::uint64_t kParticlesPerRow = 8;
constexpr std::uint64_t kMinAutoParticles = 64;
constexpr std::uint64_t kMaxAutoParticles = 16384;
constexpr vertex_t kAutoResampleEvery = 16;
constexpr std::uint64_t kMinPopulations = 16;
// Without a stopping rule, populations run until the 95% interval's half-width is 1%, for at
// most kDefaultTime_s (the 64×64 grid: about 1.2% in that time on one H100).
constexpr double kDefaultRelError = 0.01;
constexpr double kDefaultTime_s = 120;

std::uint64_t power_of_two_at_most(std::uint64_t x) {
    std::uint64_t p = 1;
    while (p * 2 <= x) {
        p *= 2;
    }
    return p;
}

std::uint64_t power_of_two_at_least(std::uint64_t x) {
    std::uint64_t p = 1;
    while (p < x) {
        p *= 2;
    }
    return p;
}

/// Without a stopping rule: 100 000 independent samples, or populations until the interval's
/// half-width is kDefaultRelError (at most kDefaultTime_s).
PopulationChoice with_stopping_rules(PopulationChoice c, const EstimateOptions& o) {
    c.samples = o.samples;
    c.rel_error = o.rel_error;
    c.time_s = o.time_s;
    if (o.samples == 0 && o.time_s == 0 && o.rel_error == 0) {
        if (c.particles > 1) {
            c.rel_error = kDefaultRelError;
            c.time_s = kDefaultTime_s;
        } else {
            c.samples = 100000;
        }
    }
    return c;
}

}  // namespace

PopulationChoice choose_populations(vertex_t n, const EstimateOptions& o) {
    PopulationChoice c;
    c.resample_every = o.resample_every > 0 ? o.resample_every : kAutoResampleEvery;
    c.potential_exponent = o.potential_exponent;
    if (o.particles > 0) {
        c.particles = o.particles;
        c.reason = o.particles == 1 ? "independent samples (asked for)" : "particles asked for";
        return with_stopping_rules(c, o);
    }
    std::uint64_t p =
        std::clamp(power_of_two_at_least(kParticlesPerRow * static_cast<std::uint64_t>(n)),
                   kMinAutoParticles, kMaxAutoParticles);
    c.reason = "automatic: about 8 particles per row (" + std::to_string(n) + " rows)";
    if (o.samples > 0 && p * kMinPopulations > o.samples) {
        p = power_of_two_at_most(o.samples / kMinPopulations);
        c.reason = "automatic: the sample budget allows 16 populations of " + std::to_string(p);
        if (p < kMinAutoParticles) {
            p = 1;
            c.reason = "automatic: independent samples (a budget of " + std::to_string(o.samples) +
                       " is too small for 16 populations of " + std::to_string(kMinAutoParticles) +
                       ")";
        }
    }
    c.particles = p;
    c = with_stopping_rules(c, o);
    // (Not under a checkpoint: a resumed run must draw populations of the same size.)
    c.time_pilot = p > kMinAutoParticles && c.time_s > 0 && o.checkpoint.empty();
    return c;
}

namespace approx {

namespace {

using pmcount::detail::Clock;
using pmcount::detail::seconds_since;

// Under a time limit, a population of 16384 particles on the 64×64 grid takes about 250 s on 2
// cores: the default's 16 populations would overrun 120 s sixteenfold. The CPU estimator (GPUs
// run a population in seconds) therefore times a pilot, populations of kMinAutoParticles drawn
// on all threads and discarded, and halves an automatic P until kMinPopulations populations are
// predicted within kPopulationTimeShare of the limit (a population's time is linear in P; one
// population runs on all threads, and ranks run populations side by side). Independent samples
// make a poor pilot: on the 32×32 grid they cost 4.5× a population's particle.
constexpr double kPopulationTimeShare = 0.5;
constexpr double kPilotSeconds = 0.05;
constexpr std::uint64_t kPilotFirstPopulation = std::uint64_t{1} << 50;  // clear of the run's

/// Wall seconds per particle of populations of `pilot` (all threads busy): draws one round of
/// populations, doubling the count until a draw takes kPilotSeconds.
double seconds_per_particle(SampleSource& pilot, std::uint64_t particles) {
    std::uint64_t count = pilot.population_round();
    std::vector<double> logs;
    while (true) {
        logs.resize(count);
        const auto start = Clock::now();
        pilot.populations(kPilotFirstPopulation, count, logs.data());
        pmcount::detail::throw_if_stopped(kSettingUp);  // (the pilot's populations stop early)
        const double seconds = seconds_since(start);
        if (seconds >= kPilotSeconds || count >= 1024) {
            return seconds / static_cast<double>(count * particles);
        }
        count *= 2;
    }
}

}  // namespace

std::uint64_t particles_within_time(const SamplerProblem& problem, const SamplerConfig& config,
                                    int threads, vertex_t every, PopulationChoice& choice,
                                    int ranks) {
    return particles_within_time(
        [&](std::uint64_t particles) {
            return cpu_source(problem, config, threads, PopulationPlan{particles, every});
        },
        choice, ranks);
}

std::uint64_t particles_within_time(
    const std::function<std::unique_ptr<SampleSource>(std::uint64_t)>& make_pilot,
    PopulationChoice& choice, int ranks) {
    const std::unique_ptr<SampleSource> pilot = make_pilot(kMinAutoParticles);
    pilot->stop_inside = ranks == 1;
    double per_particle = seconds_per_particle(*pilot, kMinAutoParticles);
    if (ranks > 1) {
        std::vector<std::uint64_t> bits(1);
        std::memcpy(bits.data(), &per_particle, sizeof per_particle);
        run::mpi::broadcast(bits);
        std::memcpy(&per_particle, bits.data(), sizeof per_particle);
    }
    const double rounds = std::ceil(static_cast<double>(kMinPopulations) / ranks);
    auto predicted = [&](std::uint64_t p) {
        return rounds * static_cast<double>(p) * per_particle;
    };
    std::uint64_t p = choice.particles;
    while (p > kMinAutoParticles && predicted(p) > kPopulationTimeShare * choice.time_s) {
        p /= 2;
    }
    if (p != choice.particles) {
        char text[160];
        std::snprintf(text, sizeof text,
                      "; halved to %llu: %llu populations predicted in %.3g s of the %.3g s limit "
                      "(pilot: %.3g ms per particle)",
                      static_cast<unsigned long long>(p),
                      static_cast<unsigned long long>(kMinPopulations), predicted(p), choice.time_s,
                      per_particle * 1e3);
        choice.reason += text;
        choice.particles = p;
    }
    return p;
}

}  // namespace approx

}  // namespace pmcount
