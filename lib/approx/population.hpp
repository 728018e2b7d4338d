// Particle populations for the estimators (sequential Monte Carlo with twisted weights; Del
// Moral, "Feynman–Kac Formulae", 2004; Guarniero, Johansen and Lee, JASA 2017, for twisting).
//
// A population is P samples of the same estimator drawn side by side. Every K steps (the same
// steps for all: each step removes one row and one column, so live particles are always at the
// same step) each particle k gets the weight G_k = w_k · Φ(now_k) / Φ(then_k): w_k the product of
// its factors since the last resampling, Φ a positive potential of the live submatrix (scaling
// estimators: sampler.hpp's log_potential, an approximation of its permanent; otherwise 1), then_k
// the state it had at the last resampling. The population's estimate is multiplied by the mean
// of the G_k, and P new particles are drawn from the old ones with probabilities G_k / Σ G
// (systematic resampling: particle k gets ⌊P·W_k⌋ or ⌈P·W_k⌉ copies). At the end (Φ of the empty
// matrix is 1) the estimate is multiplied by the mean of the last weights. With a fixed
// resampling schedule and E[copies of k] = P·W_k the estimate is unbiased for any positive Φ
// (the Φ factors telescope along each ancestral line, and Φ of the start matrix is common to
// all). Φ decides which particles are copied: on grids, plain weights (Φ = 1) reward early luck
// that later steps take back, and resampling on them made populations worse than independent
// samples (32×32 grid, P = 512: log_sd of a population 1.4, against 0.26 with Φ).
//
// The populations themselves are independent; averaging them, as independent samples are
// averaged, gives the interval. Where Φ predicts the rest of a sample well, the variance of
// log Ẑ grows about linearly with the number of steps at fixed P, where that of one independent
// sample grows exponentially. The scaling potential overstates how far apart the particles'
// futures are, so the samplers resample on Φ^e (SamplerConfig::potential_exponent, default
// 0.6): on the 64×64 grid with P = 16384 the sd of log Ẑ is 0.044 at e = 0.6 and 0.58 at e = 1,
// where a population's estimate was skewed enough that runs' intervals missed
// (docs/estimators.md).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "approx/philox.hpp"
#include "core/stop.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {

/// log((1/count)·Σ exp(logs[k])), −inf when every log is −inf.
double log_mean_weight(const double* logs, std::size_t count) noexcept;

/// Systematic resampling: ancestors[q] for q < count, drawn from weights exp(logs[k]) with the
/// single uniform u ∈ [0, 1): the q-th draw is the particle where the cumulative weight first
/// exceeds (u + q)/count of the total. Ancestors are nondecreasing and index into [0, count);
/// a particle of weight 0 is never drawn. When every weight is 0, ancestors[q] = q.
void systematic_ancestors(const double* logs, std::size_t count, double u,
                          std::uint32_t* ancestors) noexcept;

/// How populations are drawn (EstimateOptions::particles, resample_every); particles = 1: none.
struct PopulationPlan {
    std::uint64_t particles = 1;
    vertex_t every = 16;
};

/// Runs populations [first, first + count) of plan.particles particles each — population r's
/// particle k draws as sample (first + r)·P + k — resampling every plan.every steps
/// (population.hpp), at most `batch` populations side by side on `engine`; logs[r] is the log
/// of population r's estimate. Resampling draws Philox(seed; stage, 1, population). With
/// `stop_inside`, a stop request ends it between two stages (the logs are then meaningless).
template <class Engine>
void run_populations(Engine& engine, vertex_t n, const PopulationPlan& plan, std::uint64_t seed,
                     std::uint64_t batch, std::uint64_t first, std::uint64_t count, double* logs,
                     bool stop_inside) {
    const std::uint64_t p = plan.particles;
    std::vector<double> weights;
    std::vector<std::uint32_t> ancestors;
    for (std::uint64_t begin = 0; begin < count; begin += batch) {
        const std::uint64_t size = std::min(batch, count - begin);
        weights.resize(size * p);
        ancestors.resize(size * p);
        engine.begin_particles((first + begin) * p, size * p);
        std::fill(logs + begin, logs + begin + size, 0.0);
        for (std::uint32_t stage = 0;; ++stage) {
            if (stop_inside && pmcount::detail::stop_requested()) {
                return;  // a stage of a large population takes seconds
            }
            const vertex_t until = static_cast<vertex_t>(
                std::min<std::int64_t>(n, static_cast<std::int64_t>(stage + 1) * plan.every));
            engine.advance_particles(until);
            engine.particle_log_weights(weights.data());
            for (std::uint64_t r = 0; r < size; ++r) {
                logs[begin + r] += log_mean_weight(weights.data() + r * p, p);
            }
            if (until >= n) {
                break;
            }
            for (std::uint64_t r = 0; r < size; ++r) {
                std::uint32_t* a = ancestors.data() + r * p;
                systematic_ancestors(weights.data() + r * p, p,
                                     uniform01(seed, first + begin + r, stage, 1), a);
                for (std::uint64_t k = 0; k < p; ++k) {
                    a[k] += static_cast<std::uint32_t>(r * p);
                }
            }
            engine.select_particles(ancestors.data());
        }
    }
}

}  // namespace pmcount::approx
