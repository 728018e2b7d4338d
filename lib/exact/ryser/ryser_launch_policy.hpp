// The GPU Ryser kernels' launch policy, per architecture as CUB's tuning headers are: block size,
// batches, chunks, and the kernels' shapes, each number beside the measurement behind it. Plain
// C++ (the CUDA target reads it; exact_test pins it without a GPU). The kernel shapes are the
// template arguments of the NVRTC kernels (cuda/kernels/ryser_dense.cuh, ryser_sparse.cuh), so
// this is their only definition; environment knobs may replace them to measure others
// (cuda/ryser_dense.cu, ryser_sparse.cu).
#pragma once

#include "exact/ryser/ryser_device.hpp"

namespace pmcount::backend::cuda {

/// A dense kernel's shape: super-blocks of 2^unroll_log2 unrolled steps, the blocks per SM the
/// register allocation aims at (__launch_bounds__), and whether MODE 0 fuses the product tree's
/// top multiplication into its two accumulations.
struct KernelShape {
    int unroll_log2 = 1;
    int min_blocks = 1;
    bool fuse_top = false;
};

/// Launch policy for sm_90 (H100/H200), from timings of the n = 40 double kernel on an H100.
/// 128-thread blocks: the kernel needs 255 registers at n = 36–48, so two blocks fit per SM
/// whatever the block size, and the persistent warps take groups dynamically, so block size only
/// sets the granularity of residency. Batches: a (2·GPUs)-th of the remaining segments (the last
/// ones small, so GPUs finish together), at least 8 groups per resident warp (one wave of work
/// per launch) and at most 4096 segments (64 MiB of group records). Every launch ends in a tail
/// where the last groups run on few SMs; SkipPer's work sits in few groups, so its tails are
/// long (ncu, random n = 48, d = 0.1: SMs active 26% of a batch). Fewer batches, fewer tails:
/// on one H100, kernels at divisor 16 / 4 / 2 / 1: generated SkipPer 0.485 / 0.233 / 0.205 /
/// 0.208 s (pmcount-bench's sparse-binary n = 48), random:48,0.1,7 0.321 / 0.239 / 0.228 /
/// 0.229 s; table SkipPer random:48,0.1,7 0.978 s at 16, 0.615 s at 2; dense double n = 40
/// 3.350 s at 16, 3.331 s at 2.
struct LaunchPolicy90 {
    static constexpr int kBlockThreads = 128;
    static constexpr int kBatchDivisorPerGpu = 2;
    static constexpr int kMinGroupsPerWarp = 8;
    static constexpr unsigned long long kMaxBatchSegments = 4096;
    /// Chunks of 2^12 steps: the floating modes recompute x every 2^12 steps anyway, so a chunk
    /// start costs nothing extra, and one chunk is the most a warp can trail the others by.
    static constexpr int kChunkLog2 = 12;
    /// The dense kernel's shape (pmcount_gpu::Shape, a template argument of the kernel), from
    /// timings on an H100 (seconds for the whole range, docs/gpu.md):
    /// - Unrolled super-blocks of 2^M steps. MODE 0: M = 4 fastest up to n = 40 (n = 40: 2.84 s
    ///   against 2.86 with M = 3, 3.18 with M = 2, 3.34 with M = 5, which spills), M = 3 beyond (n
    ///   = 44: 50.8 s against 55.2 with M = 4). M = 3 for the longer steps of MODE 1. Double-double
    ///   and complex elements take two register pairs each and spill beyond M = 2. The
    ///   integer-heavy steps of MODE 4 overflow the instruction cache when unrolled (n = 40: 12.0 s
    ///   with M = 1 and four blocks per SM, 16.2 s with M = 2, 42 s with M = 4).
    /// - Blocks per SM the register allocation aims at: the modular kernel fits 128 registers up to
    ///   n = 40 (four blocks), 168 beyond (three); the others ask for one and take what they need
    ///   (255 registers at n = 36–48: two blocks).
    /// - MODE 0 fuses the product tree's top multiplication into its two accumulations up to n = 40
    ///   (n = 40: 2.864 → 2.811 s), not beyond (n = 44, M = 3: 50.27 / 50.47 s unfused against
    ///   51.14 / 51.15 s fused).
    static constexpr KernelShape dense_shape(int n, GpuMode mode) noexcept {
        switch (mode) {
            case GpuMode::double_plain:
                return {n <= 40 ? 4 : 3, 1, n <= 40};
            case GpuMode::double_compensated:
            case GpuMode::certified:
                return {3, 1, false};
            case GpuMode::double_double:
            case GpuMode::complex:
                return {2, 1, false};
            case GpuMode::modular:
                return {1, n <= 40 ? 4 : 3, false};
        }
        return {1, 1, false};
    }
    /// The sparse walk's super-blocks of 2^M steps: as the dense kernel's for each arithmetic
    /// (shorter for the modular mode, whose terms are long), one block per SM asked of the register
    /// allocation. The generated compensated walk takes 2^6: a super-block's first step rebuilds
    /// every partial product (real, p = 0.1, n = 44 on an H100: M = 3 12.6 s, 4 9.81 s, 5 8.91 s, 6
    /// 8.28 s; compile 0.94 s).
    static constexpr int sparse_unroll_log2(GpuMode mode, GpuCode code) noexcept {
        switch (mode) {
            case GpuMode::double_plain:
                return 4;
            case GpuMode::double_compensated:
                return code == GpuCode::generated ? 6 : 3;
            default:
                return 2;
        }
    }
    /// SkipPer's 0-1 kernel asks for four blocks per SM (at most 128 registers): its walk is
    /// latency-bound integer code, which needs warps to hide it.
    static constexpr int kSkipBinaryMinBlocks = 4;
};

/// The policy the kernels use. Only sm_90 is measured; other architectures take its policy. A
/// policy of their own would be chosen here by compute capability, keeping the unrolls: a
/// super-block fixes a range's units, which must not differ between the GPUs one count mixes.
using RyserLaunchPolicy = LaunchPolicy90;
static_assert(RyserLaunchPolicy::kChunkLog2 <= kGpuCertifiedChunkLog2,
              "the certified error bound counts the terms one thread sums into a pair");

}  // namespace pmcount::backend::cuda
