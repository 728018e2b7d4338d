// What the estimators' GPU samplers (approx_gpu.cu, monomer_dimer_gpu.cu) share: one thread per
// sample or particle at kSamplerThreadsPerBlock, the resident threads of a kernel, and how many
// particles a population set may hold (two copies of each particle's state, resampling copying
// one into the other, within a share of the free memory).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>

#include "cuda_status.cuh"
#include "pmcount/error.hpp"
#include "pmcount/types.hpp"

namespace pmcount::backend::cuda {

inline constexpr int kSamplerThreadsPerBlock = 128;
/// Share of the free device memory the samplers' states may take (the rest: the graph or
/// matrix, outputs, other engines).
inline constexpr double kSamplerMemoryShare = 0.5;

inline unsigned sampler_blocks(std::uint64_t threads) {
    return static_cast<unsigned>((threads + kSamplerThreadsPerBlock - 1) / kSamplerThreadsPerBlock);
}

/// Threads of `kernel` resident on the whole GPU at kSamplerThreadsPerBlock per block.
template <class Kernel>
std::uint64_t sampler_resident_threads(Kernel kernel, int multiprocessors) {
    int blocks_per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_per_sm, kernel,
                                                        kSamplerThreadsPerBlock, 0),
          "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    return static_cast<std::uint64_t>(std::max(1, blocks_per_sm)) * kSamplerThreadsPerBlock *
           static_cast<std::uint64_t>(multiprocessors);
}

/// The bytes the samplers may use: kSamplerMemoryShare of the free memory plus `held` (what the
/// caller already holds and would give back).
inline std::uint64_t sampler_memory_budget(std::uint64_t held) {
    std::size_t free_bytes = 0, total_bytes = 0;
    check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
    return static_cast<std::uint64_t>(kSamplerMemoryShare * static_cast<double>(free_bytes + held));
}

/// Slots of independent sampling: the resident threads, capped so that `per_slot` bytes each
/// fit in the budget, whole blocks. DeviceError when not one block fits.
inline std::uint64_t independent_sampler_slots(std::uint64_t resident, std::uint64_t per_slot,
                                               int device, vertex_t order) {
    const std::uint64_t budget = sampler_memory_budget(0);
    std::uint64_t slots = std::min(resident, budget / std::max<std::uint64_t>(1, per_slot));
    slots = slots / kSamplerThreadsPerBlock * kSamplerThreadsPerBlock;
    if (slots == 0) {
        throw DeviceError("GPU " + std::to_string(device) + ": " + std::to_string(budget >> 20) +
                          " MiB may be used, too little for one block of estimator samples of "
                          "order " +
                          std::to_string(order));
    }
    return slots;
}

/// Particles a population set holds: the resident threads, or `particles` if more, within
/// `budget` bytes at `per_particle` each, a multiple of `particles`. DeviceError naming the GPU
/// when not one population fits.
inline std::uint64_t population_capacity_within(std::uint64_t particles, std::uint64_t per_particle,
                                                std::uint64_t resident, std::uint64_t budget,
                                                int device, vertex_t order) {
    const std::uint64_t fits = budget / per_particle;
    if (fits < particles) {
        throw DeviceError("GPU " + std::to_string(device) + ": a population of " +
                          std::to_string(particles) + " particles of order " +
                          std::to_string(order) + " needs " +
                          std::to_string((particles * per_particle) >> 20) + " MiB, " +
                          std::to_string(budget >> 20) + " MiB may be used");
    }
    return std::min(fits, std::max(resident, particles)) / particles * particles;
}

}  // namespace pmcount::backend::cuda
