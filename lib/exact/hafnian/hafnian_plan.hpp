// The work split of the GPU hafnian (cuda/kernels/hafnian.cuh): how many levels each tier takes,
// the units and batches handed to the GPUs, and every buffer's size. No CUDA calls.
//
// For m = n/2 pairs: a warp solves a subtree of J = min(5, m) levels in shared memory (tier 2);
// above it, H levels are expanded breadth-first in global memory (tier 1) from roots at level
// R = J + H, and the 2^(m−R) roots are rebuilt from the matrix along their paths (tier 0). A
// unit is one root for one prime (unit = prime·roots + root): it depends on n, the number of
// primes and H only, never on the GPU. A batch is a run of consecutive units of one prime, at
// most `roots_per_batch` (sized from the GPU's memory); each unit's record is the sum of its
// 256-task segments in order, so it does not depend on the batch it ran in.
//
// Plain host C++ in lib/ (header-only: the CUDA target, which uses it, is linked after the
// library), so CI tests it without a GPU (tests/unit/exact/gpu_host_test.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "exact/hafnian/hafnian_gpu_mode.hpp"

namespace pmcount::backend::cuda {

/// Tasks (warp subtrees) per record segment: pmcount_hafnian::kSegmentTasks.
inline constexpr std::uint64_t kHafnianSegmentTasks = 256;

/// Work-split policy for sm_90 (H100/H200).
/// - kSubtreeLevels: a level-5 subtree's include levels have 29, 32, 28 and 16 polynomials, so
///   a warp (a lane per polynomial) is busy at every level; its shared memory at n = 64 (27.7 KB
///   of 8-byte elements) leaves room for 7 warps per SM, 4 for the double mode's value-and-error
///   pairs (55.4 KB). Level 6 would need 66 KB of 8-byte elements.
/// - kExpandLevels: rebuilding a root from the matrix costs its path's includes (at most m − R of
///   them, each on a large block); with R = J + 12 that is about 1.5% of the work below it at
///   n = 64.
/// - kTasksPerBatch: 2^16 warp subtrees per batch (about 60 waves of resident warps, so the last
///   wave's tail is short; at n = 64, 1.2 GB of buffers of 8-byte elements, 2.5 GB for the
///   double mode's pairs).
struct HafnianPolicy90 {
    static constexpr int kSubtreeLevels = 5;
    static constexpr int kExpandLevels = 12;
    static constexpr std::uint64_t kTasksPerBatch = std::uint64_t{1} << 16;
    /// Output coefficients a thread accumulates at once (poly_block's B): a step loads two u
    /// coefficients and one new coefficient of each v for 2B multiply-adds, and holds 3B values in
    /// registers (acc and the two v windows); B ≥ m keeps the whole polynomial in registers.
    /// Measured on one H100 at order 56 (B = 4, 8, 16, 32): double 1.24, 0.97, 0.63, 0.53 s;
    /// modular (five primes) 3.41, 2.68, 2.38, 2.34 s. So 32 for modular; a double coefficient with
    /// its running error takes twice a residue's registers and a complex one four times, so 16 and
    /// 8 keep the same register budget.
    static constexpr int output_block(GpuHafnianMode mode) noexcept {
        switch (mode) {
            case GpuHafnianMode::double_precision:
                return 16;
            case GpuHafnianMode::complex:
                return 8;
            case GpuHafnianMode::modular:
                return 32;
        }
        return 32;
    }
};
/// The policy the kernels use. Only sm_90 is measured; other architectures take its policy (the
/// levels fix a job's units, which must not differ between the GPUs one count mixes).
using HafnianPolicy = HafnianPolicy90;

struct HafnianBatch {
    int prime = 0;  ///< index into the job's primes (0 for the floating modes)
    std::uint64_t first_root = 0;
    std::uint64_t roots = 0;
    std::uint64_t first_unit = 0;  ///< prime·roots + first_root
};

struct HafnianPlan {
    int pairs = 0;            ///< m
    int subtree_levels = 0;   ///< J
    int expand_levels = 0;    ///< H
    int root_level = 0;       ///< R = J + H
    std::uint64_t roots = 0;  ///< 2^(m − R)
    std::uint64_t roots_per_batch = 0;
    std::uint64_t unit_segments = 0;  ///< record segments per unit (one root)
    std::vector<HafnianBatch> batches;
    int coefficient_stride = 0;  ///< Q
    std::size_t element_bytes = 0;
    std::size_t matrix_elements = 0;           ///< per prime
    std::size_t replay_elements = 0;           ///< each of the two buffers
    std::vector<std::size_t> pool_elements;    ///< by level
    std::uint64_t max_tasks = 0;               ///< per batch
    std::vector<std::uint32_t> shared_offset;  ///< by level r < J, in elements
    std::size_t shared_bytes = 0;

    static std::size_t polys(int r) { return 1 + static_cast<std::size_t>(r) * (2 * r - 1); }
    std::uint64_t segments() const {
        return (max_tasks + kHafnianSegmentTasks - 1) / kHafnianSegmentTasks;
    }
    /// Device memory of one GPU's buffers for `primes` primes, records included.
    std::size_t device_bytes(int primes) const {
        std::size_t elements = matrix_elements * static_cast<std::size_t>(primes) +
                               2 * replay_elements + static_cast<std::size_t>(coefficient_stride);
        for (const std::size_t p : pool_elements) {
            elements += p;
        }
        return elements * element_bytes + (max_tasks + segments()) * 8 * sizeof(double);
    }
};

/// The levels of the split at order n (even, ≥ 2), the roots per prime and the segments per
/// unit; expand_levels < 0 takes the policy's. They fix the units, so they depend on nothing else.
inline HafnianPlan hafnian_geometry(int n, int expand_levels) {
    HafnianPlan plan;
    const int m = n / 2;
    plan.pairs = m;
    plan.subtree_levels = std::min(HafnianPolicy::kSubtreeLevels, m);
    const int most = m - plan.subtree_levels;
    plan.expand_levels =
        std::min(expand_levels < 0 ? HafnianPolicy::kExpandLevels : expand_levels, most);
    plan.root_level = plan.subtree_levels + plan.expand_levels;
    plan.roots = std::uint64_t{1} << (m - plan.root_level);
    const std::uint64_t root_tasks = std::uint64_t{1} << plan.expand_levels;
    plan.unit_segments = (root_tasks + kHafnianSegmentTasks - 1) / kHafnianSegmentTasks;
    return plan;
}

/// The plan for order n (even, ≥ 2), elements of `element_bytes`, `primes` passes (1 for the
/// floating modes), the units to run (ascending; every unit when empty). expand_levels < 0 and
/// roots_per_batch = 0 choose automatically; the batches shrink until the buffers fit
/// `memory_budget` bytes (never below one root). A root of fewer tasks than a segment runs alone
/// in its batch, so that segments never span two units.
inline HafnianPlan make_hafnian_plan(int n, std::size_t element_bytes, int primes,
                                     int expand_levels, std::uint64_t roots_per_batch,
                                     std::size_t memory_budget,
                                     const std::vector<std::uint64_t>& units) {
    HafnianPlan plan = hafnian_geometry(n, expand_levels);
    const int m = plan.pairs;
    plan.coefficient_stride = m | 1;
    plan.element_bytes = element_bytes;
    const auto q = static_cast<std::size_t>(plan.coefficient_stride);
    plan.matrix_elements = HafnianPlan::polys(m) * q;

    std::uint64_t per_batch =
        roots_per_batch != 0
            ? roots_per_batch
            : std::max<std::uint64_t>(1, HafnianPolicy::kTasksPerBatch >> plan.expand_levels);
    per_batch = std::min(per_batch, plan.roots);
    if ((std::uint64_t{1} << plan.expand_levels) < kHafnianSegmentTasks) {
        per_batch = 1;
    }
    for (;;) {
        plan.roots_per_batch = per_batch;
        plan.replay_elements = plan.root_level < m ? per_batch * HafnianPlan::polys(m - 1) * q : 0;
        plan.pool_elements.assign(static_cast<std::size_t>(m) + 1, 0);
        for (int level = plan.subtree_levels; level < plan.root_level; ++level) {
            plan.pool_elements[static_cast<std::size_t>(level)] =
                (per_batch << (plan.root_level - level - 1)) * HafnianPlan::polys(level) * q;
        }
        plan.max_tasks = per_batch << plan.expand_levels;
        if (per_batch == 1 || plan.device_bytes(primes) <= memory_budget) {
            break;
        }
        per_batch /= 2;
    }

    plan.shared_offset.assign(static_cast<std::size_t>(plan.subtree_levels), 0);
    std::size_t offset = 0;
    for (int r = plan.subtree_levels - 1; r >= 1; --r) {
        plan.shared_offset[static_cast<std::size_t>(r)] = static_cast<std::uint32_t>(offset);
        offset += (std::size_t{1} << (plan.subtree_levels - 1 - r)) * HafnianPlan::polys(r) * q;
    }
    plan.shared_bytes = offset * element_bytes;

    // Runs of consecutive units of one prime, cut at roots_per_batch.
    const std::size_t count =
        units.empty() ? static_cast<std::size_t>(plan.roots) * static_cast<std::size_t>(primes)
                      : units.size();
    auto unit = [&units](std::size_t k) { return units.empty() ? k : units[k]; };
    for (std::size_t k = 0; k < count;) {
        const std::uint64_t first = unit(k);
        const std::uint64_t root = first % plan.roots;
        std::uint64_t run = 1;
        while (run < plan.roots_per_batch && root + run < plan.roots && k + run < count &&
               unit(k + run) == first + run) {
            ++run;
        }
        plan.batches.push_back({static_cast<int>(first / plan.roots), root, run, first});
        k += run;
    }
    return plan;
}

}  // namespace pmcount::backend::cuda
