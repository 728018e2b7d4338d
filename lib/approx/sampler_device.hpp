// The estimators' sampler on GPUs (cuda/approx_gpu.cu): one sampler per GPU, the same samples as
// the CPU's (approx/sampler.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "approx/problem.hpp"
#include "backend/device.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {
struct MonomerDimerProblem;
}  // namespace pmcount::approx

namespace pmcount::backend::cuda {

/// The estimators' sampler on one GPU (cuda/approx_gpu.cu).
struct GpuSamplerJob {
    int device = 0;
    const approx::SamplerProblem* problem = nullptr;  ///< copied to the device
    approx::SamplerConfig config;
};

/// Samples on one GPU; the matrix stays on the device between calls.
class GpuSampler {
public:
    virtual ~GpuSampler() = default;
    /// log estimates of samples first, …, first + count − 1 into log_out[0, count).
    virtual void sample(std::uint64_t first, std::uint64_t count, double* log_out) = 0;
    /// Kernel and transfer seconds so far.
    virtual double device_seconds() const = 0;
    /// Samples in flight at once (resident threads, capped by memory).
    virtual std::uint64_t slots() const = 0;

    // Particle populations (sequential Monte Carlo, lib/approx/estimate.cpp): `count` samples
    // held side by side, particle k drawing as sample first + k, advanced step-synchronously.
    /// Particles that fit at once (a multiple of `particles`, at least `particles`); throws
    /// DeviceError when not even one population of `particles` fits in memory.
    virtual std::uint64_t population_capacity(std::uint64_t particles) = 0;
    /// Puts particles [0, count) at step 0.
    virtual void begin_particles(std::uint64_t first, std::uint64_t count) = 0;
    /// Takes every particle's steps up to `until` (or its end).
    virtual void advance_particles(vertex_t until) = 0;
    /// Each particle's log weight since its last selection, times its potential Φ now
    /// (SampleCursor::log_estimate + log_potential; −inf: zero).
    virtual void particle_log_weights(double* out) = 0;
    /// Particle k becomes a copy of particle ancestors[k] (all at once), its weight restarting
    /// at 1/Φ (log_estimate = −log_potential) unless it is 0.
    virtual void select_particles(const std::uint32_t* ancestors) = 0;
    virtual std::string description() const = 0;
};

/// Uploads the job; throws DeviceError (no such GPU, out of memory), NotCompiled (stub).
std::unique_ptr<GpuSampler> make_gpu_sampler(const GpuSamplerJob& job);

/// The monomer–dimer estimator on one GPU (cuda/monomer_dimer_gpu.cu; approx/monomer_dimer.hpp):
/// the same samples as the CPU's, and potentials Φ^exponent for populations.
struct GpuMonomerDimerJob {
    int device = 0;
    const approx::MonomerDimerProblem* problem = nullptr;  ///< copied to the device
    std::uint64_t seed = 0;
    double exponent = 1;
};
std::unique_ptr<GpuSampler> make_gpu_monomer_dimer(const GpuMonomerDimerJob& job);

}  // namespace pmcount::backend::cuda
