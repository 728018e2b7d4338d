// Exact hafnian on the GPU: Björklund's recursive algorithm ("Counting perfect matchings as fast
// as Ryser", SODA 2012, Algorithm 2; Björklund, Gupt and Quesada, ACM JEA 24, 2019), compiled at
// run time by NVRTC for each order N = 2M and arithmetic MODE, so the polynomial length M is a
// compile-time constant. No host includes: this file is embedded in the library as a string.
//
// The recursion. A node at level r holds 2r vertices (the pairs 0..r−1), for each j > k a
// polynomial b_jk(λ) and a polynomial g(λ), all truncated to M coefficients. Leaving level r it
// eliminates its last pair (u = vertex 2r−2, v = vertex 2r−1): the "exclude" child at level r−1
// keeps b and g restricted to the first 2r−2 vertices (no arithmetic) and flips the sign; the
// "include" child keeps the sign and computes
//     c_jk = b_jk + λ·(b_uj·b_vk + b_uk·b_vj),   e = g + λ·g·b_vu   (truncated).
// The root (level M) holds b_jk = a_jk, g = 1. A level-1 node's two children (level 0) sum to
// w·[λ^(M−1)] (g·b_10), so haf(A) = Σ over the 2^(M−1) level-1 nodes of w·Σ_a g_a·b_10,(M−1−a),
// w = (−1)^(number of exclude steps on its path). Only ring operations: it runs modulo a prime.
//
// Node data. A node's data block is P(r) = 1 + r(2r−1) polynomials of Q = M|1 coefficients
// (Q odd: lanes reading the same coefficient of consecutive polynomials hit distinct banks):
// polynomial 0 is g, polynomial 1 + j(j−1)/2 + k is b_jk. The data of level r is a prefix of any
// ancestor's block, so an exclude child needs no data of its own: node i at level r (its path
// from its subtree root in the bits of i, the last step in bit 0, 1 = include) uses the block of
// its nearest include ancestor, at level r + ctz(i) (Params::pool), or the subtree root's block
// when i = 0.
//
// Work split (Björklund's count: about 4.75·M²·2^M multiply-adds, spread over the deep levels).
//   tier 0, hafnian_expand(replay = 1): the 2^(M−R) roots of level R, each rebuilt from the matrix
//           along its path (the top M − R levels; a few per cent of the work for R = M − 15);
//   tier 1, hafnian_expand(replay = 0), one launch per level: breadth-first from the batch's roots
//           down to level J, every include child a block in global memory (Params::pool);
//   tier 2, hafnian_solve: one warp per level-J node, its J − 1 remaining include levels
//           breadth-first in shared memory (at most 32 polynomials per level for J ≤ 5), then its
//           2^(J−1) leaves, one record per warp.
// In every tier a thread computes whole output polynomials (poly_task): lanes take consecutive
// polynomials of a level, all running the same unrolled code.
//
// MODE 0 double · 1 complex double, each coefficient with its running error (Tracked) · 2 modular (residues below 2^29 for M ≤ 32: the host picks
// primes so that 2(M−1) products and a residue sum below 2^64; one Barrett reduction per output
// coefficient).

namespace pmcount_hafnian {

/// The arithmetics (MODE), numbered by the host's GpuHafnianMode
/// (exact/hafnian/hafnian_gpu_mode.hpp, prepended to this source).
constexpr int kDouble = static_cast<int>(pmcount::backend::cuda::GpuHafnianMode::double_precision);
constexpr int kComplex = static_cast<int>(pmcount::backend::cuda::GpuHafnianMode::complex);
constexpr int kModular = static_cast<int>(pmcount::backend::cuda::GpuHafnianMode::modular);

using pmcount_kernels::DD;
using pmcount_kernels::dd_add;
using pmcount_kernels::quick_two_sum;
using pmcount_kernels::two_sum;

constexpr unsigned kFullMask = 0xffffffffu;
__device__ __forceinline__ int popcount64(u64 x) {
    return __popcll(x);
}
__device__ __forceinline__ int ctz64(u64 x) {
    return __ffsll(static_cast<long long>(x)) - 1;
}

/// Polynomials of a level-r node, and coefficients per polynomial.
__host__ __device__ constexpr int polys(int r) {
    return 1 + r * (2 * r - 1);
}
template <int M>
constexpr int coefficient_stride() {
    return M | 1;
}
/// Index of b_jk (j > k) in a node's block.
__device__ __forceinline__ int entry_index(int j, int k) {
    return 1 + j * (j - 1) / 2 + k;
}

// ---- rings --------------------------------------------------------------------------------------

struct Complex {
    double re;
    double im;
};

/// Element type, accumulator and multiply-add of one MODE; `narrow` turns an accumulated output
/// coefficient back into an element, `term` a leaf's value into (re, im, residue).
template <int MODE>
struct Ring;

/// A coefficient of the double modes with its running first-order error e ≈ exact − v (as the
/// CPU engine's DoubleArith in lib/exact/hafnian/hafnian.cpp, the same operations in the same
/// order): a multiply-add recovers its product's rounding (TwoProduct by FMA) and its sum's
/// (TwoSum), and adds the operands' propagated errors. The _rn intrinsics keep the compiler
/// from fusing the product into the sum, which would make the recovered rounding wrong.
struct Tracked {
    double v;
    double e;
};
struct TrackedComplex {
    Complex v;
    Complex e;
};

/// acc + x·y, its two roundings added to `error` exactly.
__device__ __forceinline__ void add_product(double& acc, double& error, double x, double y) {
    const double p = __dmul_rn(x, y);
    const double s = __dadd_rn(acc, p);
    const double bb = __dsub_rn(s, acc);
    const double rounding = __dadd_rn(__dsub_rn(acc, __dsub_rn(s, bb)), __dsub_rn(p, bb));
    error += fma(x, y, -p) + rounding;
    acc = s;
}

template <>
struct Ring<kDouble> {
    typedef Tracked Elem;
    typedef Tracked Acc;
    __device__ static Acc widen(Elem x) { return x; }
    __device__ static Acc mac(Acc acc, Elem x, Elem y) {
        add_product(acc.v, acc.e, x.v, y.v);
        acc.e += x.v * y.e + x.e * y.v;
        return acc;
    }
    __device__ static Elem narrow(Acc acc, const Params&) { return acc; }
};

template <>
struct Ring<kComplex> {
    typedef TrackedComplex Elem;
    typedef TrackedComplex Acc;
    __device__ static Acc widen(Elem x) { return x; }
    __device__ static Acc mac(Acc acc, Elem x, Elem y) {
        add_product(acc.v.re, acc.e.re, x.v.re, y.v.re);
        add_product(acc.v.re, acc.e.re, -x.v.im, y.v.im);
        add_product(acc.v.im, acc.e.im, x.v.re, y.v.im);
        add_product(acc.v.im, acc.e.im, x.v.im, y.v.re);
        acc.e.re += (x.v.re * y.e.re - x.v.im * y.e.im) + (x.e.re * y.v.re - x.e.im * y.v.im);
        acc.e.im += (x.v.re * y.e.im + x.v.im * y.e.re) + (x.e.re * y.v.im + x.e.im * y.v.re);
        return acc;
    }
    __device__ static Elem narrow(Acc acc, const Params&) { return acc; }
};

/// x mod p for any 64-bit x (Barrett with μ = ⌊(2^64 − 1)/p⌋: the quotient estimate is short by
/// at most 2).
__device__ __forceinline__ u32 reduce(u64 x, u32 p, u64 barrett) {
    u64 r = x - __umul64hi(x, barrett) * p;
    r = r >= p ? r - p : r;
    return static_cast<u32>(r >= p ? r - p : r);
}

template <>
struct Ring<kModular> {
    typedef u32 Elem;
    typedef u64 Acc;
    __device__ static Acc widen(Elem x) { return x; }
    __device__ static Acc mac(Acc acc, Elem x, Elem y) { return acc + static_cast<u64>(x) * y; }
    __device__ static Elem narrow(Acc acc, const Params& q) {
        return reduce(acc, q.prime, q.barrett);
    }
};

// ---- one output polynomial (thread level) -------------------------------------------------------

/// Output block [T0, T0 + B) of out = base + λ·(uj·vk + uk·vj), truncated to M
/// coefficients: out_t = base_t + Σ_{a<t} (uj_a·vk_(t−1−a) + uk_a·vj_(t−1−a)). The a-loop runs
/// 0..T0+B−2; at step a the thread holds vk_(t−1−a), vj_(t−1−a) for its B outputs in a register
/// window that slides down by one coefficient per step, so a step loads uj_a, uk_a and one new
/// coefficient of each v for 2B multiply-adds. Everything is unrolled (M, T0, B compile-time):
/// exactly the M(M−1) multiply-adds of the triangle a < t are issued, no index arithmetic.
/// B (the host's choice, HafnianShape in cuda/hafnian_gpu.cu) trades registers for loads.
template <int M, int MODE, int B, int T0>
__device__ __forceinline__ void poly_block(typename Ring<MODE>::Elem* out,
                                           const typename Ring<MODE>::Elem* base,
                                           const typename Ring<MODE>::Elem* uj,
                                           const typename Ring<MODE>::Elem* vk,
                                           const typename Ring<MODE>::Elem* uk,
                                           const typename Ring<MODE>::Elem* vj, const Params& q) {
    typedef Ring<MODE> A;
    typedef typename A::Elem Elem;
    if constexpr (T0 < M) {
        typename A::Acc acc[B];
        Elem wk[B], wj[B];
#pragma unroll
        for (int i = 0; i < B; ++i) {
            if (T0 + i < M) {
                acc[i] = A::widen(base[T0 + i]);
            }
            const int s = T0 + i - 1;  // v index of output T0 + i at a = 0
            if (s >= 0 && T0 + i < M) {
                wk[i] = vk[s];
                wj[i] = vj[s];
            }
        }
        constexpr int kLast = (T0 + B - 2 < M - 2) ? T0 + B - 2 : M - 2;
#pragma unroll
        for (int a = 0; a <= kLast; ++a) {
            const Elem x = uj[a];
            const Elem y = uk[a];
#pragma unroll
            for (int i = 0; i < B; ++i) {
                if (T0 + i < M && T0 + i - 1 - a >= 0) {
                    acc[i] = A::mac(acc[i], x, wk[i]);
                    acc[i] = A::mac(acc[i], y, wj[i]);
                }
            }
#pragma unroll
            for (int i = B - 1; i > 0; --i) {
                wk[i] = wk[i - 1];
                wj[i] = wj[i - 1];
            }
            if (T0 - 2 - a >= 0) {
                wk[0] = vk[T0 - 2 - a];
                wj[0] = vj[T0 - 2 - a];
            }
        }
#pragma unroll
        for (int i = 0; i < B; ++i) {
            if (T0 + i < M) {
                out[T0 + i] = A::narrow(acc[i], q);
            }
        }
        poly_block<M, MODE, B, T0 + B>(out, base, uj, vk, uk, vj, q);
    }
}

/// Polynomial `pi` of the include child (level r) of `parent` (a level r + 1 block): g's update
/// (pi = 0) is the same task with uk = vj = 0.
template <int M, int MODE, int B>
__device__ __forceinline__ void include_poly(const typename Ring<MODE>::Elem* parent,
                                             typename Ring<MODE>::Elem* child, int r, int pi,
                                             const Params& q) {
    typedef typename Ring<MODE>::Elem Elem;
    constexpr int Q = coefficient_stride<M>();
    const int u = 2 * r, v = 2 * r + 1;  // the eliminated pair of the parent
    const Elem* zero = static_cast<const Elem*>(q.zero);
    const Elem *uj = parent, *vk = parent + entry_index(v, u) * Q, *uk = zero, *vj = zero;
    if (pi > 0) {
        // pi − 1 = j(j−1)/2 + k with 0 ≤ k < j.
        const int e = pi - 1;
        int j = static_cast<int>((1.0f + sqrtf(8.0f * static_cast<float>(e) + 1.0f)) * 0.5f);
        j -= j * (j - 1) / 2 > e ? 1 : 0;
        j += (j + 1) * j / 2 <= e ? 1 : 0;
        const int k = e - j * (j - 1) / 2;
        uj = parent + entry_index(u, j) * Q;
        vk = parent + entry_index(v, k) * Q;
        uk = parent + entry_index(u, k) * Q;
        vj = parent + entry_index(v, j) * Q;
    }
    poly_block<M, MODE, B, 0>(child + pi * Q, parent + pi * Q, uj, vk, uk, vj, q);
}

// ---- where a node's data lives ------------------------------------------------------------------

/// The block of the batch's root g (level R): the matrix when no include led there, else the
/// tier-0 buffer its last include wrote.
template <int M, int MODE>
__device__ __forceinline__ const typename Ring<MODE>::Elem* root_data(const Params& q, int g) {
    typedef typename Ring<MODE>::Elem Elem;
    const u64 path = q.first_root + static_cast<u64>(g);
    if (path == 0) {
        return static_cast<const Elem*>(q.matrix);
    }
    const int includes = popcount64(path);
    return static_cast<const Elem*>(q.replay[(includes - 1) & 1]) +
           static_cast<u64>(g) * polys(M - 1) * coefficient_stride<M>();
}

/// The block of node `path` at level r (R ≥ r ≥ J) below root g.
template <int M, int MODE>
__device__ __forceinline__ const typename Ring<MODE>::Elem* node_data(const Params& q, int r, int g,
                                                                      u64 path) {
    typedef typename Ring<MODE>::Elem Elem;
    if (path == 0) {
        return root_data<M, MODE>(q, g);
    }
    const int z = ctz64(path);
    const int level = r + z;
    const u64 index = (static_cast<u64>(g) << (q.root_level - level - 1)) + (path >> (z + 1));
    return static_cast<const Elem*>(q.pool[level]) + index * polys(level) * coefficient_stride<M>();
}

// ---- tiers 0 and 1: one level of include children in global memory ------------------------------

/// Every polynomial of the include children at `child_level`, one per thread. replay = 1 (tier 0,
/// R ≤ child_level < M): the children on the batch roots' paths, each root's include k (counted
/// from the top) written to replay[(k−1) & 1] and read back by include k + 1. replay = 0 (tier 1,
/// J ≤ child_level < R): the include children of every node of level child_level + 1.
template <int N, int MODE, int B>
__global__ void __launch_bounds__(kExpandThreads)
    hafnian_expand(const __grid_constant__ Params q, int child_level, int replay) {
    typedef typename Ring<MODE>::Elem Elem;
    constexpr int M = N / 2;
    constexpr int Q = coefficient_stride<M>();
    const int r = child_level;
    const int per_node = polys(r);
    const u64 f = static_cast<u64>(blockIdx.x) * kExpandThreads + threadIdx.x;
    const u64 node = f / per_node;
    const int pi = static_cast<int>(f - node * per_node);
    if (replay != 0) {
        if (node >= static_cast<u64>(q.roots)) {
            return;
        }
        const u64 path = q.first_root + node;
        const u64 above = path >> (r - q.root_level);  // decisions from the top down to level r
        if ((above & 1) == 0) {
            return;
        }
        const int k = popcount64(above);
        const u64 slot = node * polys(M - 1) * Q;
        const Elem* parent = k == 1 ? static_cast<const Elem*>(q.matrix)
                                    : static_cast<const Elem*>(q.replay[k & 1]) + slot;
        include_poly<M, MODE, B>(parent, static_cast<Elem*>(q.replay[(k - 1) & 1]) + slot, r, pi,
                                 q);
    } else {
        const int below = q.root_level - r - 1;  // decisions from the root down to level r + 1
        if (node >= (static_cast<u64>(q.roots) << below)) {
            return;
        }
        const int g = static_cast<int>(node >> below);
        const u64 path = node & ((u64{1} << below) - 1);
        include_poly<M, MODE, B>(node_data<M, MODE>(q, r + 1, g, path),
                                 static_cast<Elem*>(q.pool[r]) + node * per_node * Q, r, pi, q);
    }
}

// ---- tier 2: a warp per level-J subtree ---------------------------------------------------------

/// A task's record: the leaves' Σ value (re, im: double-double), Σ|value|, then the residue
/// (modular) or Σ|e| (double modes), and Σe (re, im) of the double modes.
__device__ __forceinline__ void write_record(double* record, DD re, DD im, double magnitude,
                                             double residue_or_error_magnitude, Complex error) {
    record[0] = re.hi;
    record[1] = re.lo;
    record[2] = im.hi;
    record[3] = im.lo;
    record[4] = magnitude;
    record[5] = residue_or_error_magnitude;
    record[6] = error.re;
    record[7] = error.im;
}

/// One block of one warp per task (a level-J node). Its include children at levels J−1..1 go to
/// shared memory, level by level (all polynomials of a level, a lane each, then __syncwarp);
/// then lane l < 2^(J−1) sums leaf l, and the warp combines the leaves in a fixed shuffle tree
/// (double-double; modular: mod p) into the task's record.
template <int N, int MODE, int B>
__global__ void __launch_bounds__(32) hafnian_solve(const __grid_constant__ Params q) {
    typedef Ring<MODE> A;
    typedef typename A::Elem Elem;
    constexpr int M = N / 2;
    constexpr int Q = coefficient_stride<M>();
    extern __shared__ __align__(16) Complex hafnian_shared[];
    Elem* shared = reinterpret_cast<Elem*>(hafnian_shared);
    const int lane = threadIdx.x;
    const int levels = q.subtree_levels;
    const int below = q.root_level - levels;
    const u64 task = blockIdx.x;
    const int g = static_cast<int>(task >> below);
    const u64 task_path = task & ((u64{1} << below) - 1);
    const Elem* root = node_data<M, MODE>(q, levels, g, task_path);
    // Node `path` at level r of this subtree.
    auto local = [&](int r, u32 path) -> const Elem* {
        if (path == 0) {
            return root;
        }
        const int z = __ffs(static_cast<int>(path)) - 1;
        return shared + q.shared_offset[r + z] + (path >> (z + 1)) * polys(r + z) * Q;
    };
    for (int r = levels - 1; r >= 1; --r) {
        const int per_node = polys(r);
        const int count = per_node << (levels - 1 - r);
        for (int f = lane; f < count; f += 32) {
            const int node = f / per_node;
            include_poly<M, MODE, B>(local(r + 1, static_cast<u32>(node)),
                                     shared + q.shared_offset[r] + node * per_node * Q, r,
                                     f - node * per_node, q);
        }
        __syncwarp();
    }

    DD re{0, 0}, im{0, 0};
    double magnitude = 0;
    u32 residue = 0;
    Complex error{0, 0};
    double error_magnitude = 0;
    const u32 leaves = 1u << (levels - 1);
    if (static_cast<u32>(lane) < leaves) {
        const Elem* d = local(1, static_cast<u32>(lane));
        typename A::Acc acc = A::mac(typename A::Acc{}, d[0], d[Q + M - 1]);
#pragma unroll
        for (int a = 1; a < M; ++a) {
            acc = A::mac(acc, d[a], d[Q + M - 1 - a]);
        }
        const Elem value = A::narrow(acc, q);
        const int excludes = (M - 1) - popcount64(q.first_root + static_cast<u64>(g)) -
                             popcount64(task_path) - __popc(static_cast<u32>(lane));
        const bool negative = (excludes & 1) != 0;
        if constexpr (MODE == kDouble) {
            re.hi = negative ? -value.v : value.v;
            magnitude = fabs(value.v);
            error.re = negative ? -value.e : value.e;
            error_magnitude = fabs(value.e);
        } else if constexpr (MODE == kComplex) {
            re.hi = negative ? -value.v.re : value.v.re;
            im.hi = negative ? -value.v.im : value.v.im;
            magnitude = fabs(value.v.re) + fabs(value.v.im);
            error.re = negative ? -value.e.re : value.e.re;
            error.im = negative ? -value.e.im : value.e.im;
            error_magnitude = fabs(value.e.re) + fabs(value.e.im);
        } else {
            residue = negative && value != 0 ? q.prime - value : value;
        }
    }
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) {
        if constexpr (MODE == kModular) {
            const u32 s = residue + __shfl_xor_sync(kFullMask, residue, offset);  // < 2p < 2^32
            residue = s >= q.prime ? s - q.prime : s;
        } else {
            const DD other_re{__shfl_xor_sync(kFullMask, re.hi, offset),
                              __shfl_xor_sync(kFullMask, re.lo, offset)};
            const DD other_im{__shfl_xor_sync(kFullMask, im.hi, offset),
                              __shfl_xor_sync(kFullMask, im.lo, offset)};
            // Lane l and l ^ offset add the same two values in the same order (lower lane
            // first), so every lane holds the same, schedule-independent sum.
            const bool lower = (lane & offset) == 0;
            re = lower ? dd_add(re, other_re) : dd_add(other_re, re);
            im = lower ? dd_add(im, other_im) : dd_add(other_im, im);
            const double other = __shfl_xor_sync(kFullMask, magnitude, offset);
            magnitude = lower ? magnitude + other : other + magnitude;
            const Complex other_error{__shfl_xor_sync(kFullMask, error.re, offset),
                                      __shfl_xor_sync(kFullMask, error.im, offset)};
            error = lower ? Complex{error.re + other_error.re, error.im + other_error.im}
                          : Complex{other_error.re + error.re, other_error.im + error.im};
            const double other_magnitude = __shfl_xor_sync(kFullMask, error_magnitude, offset);
            error_magnitude = lower ? error_magnitude + other_magnitude
                                    : other_magnitude + error_magnitude;
        }
    }
    if (lane == 0) {
        write_record(q.records + task * kRecordDoubles, re, im, magnitude,
                     MODE == kModular ? static_cast<double>(residue) : error_magnitude, error);
    }
}

/// Combines the records of aligned segments of kSegmentTasks tasks, one block per segment, in a
/// fixed tree (double-double; modular: mod p): the host's sum of segments in order is the same
/// for every schedule and every number of GPUs.
template <int MODE>
__global__ void __launch_bounds__(kSegmentTasks)
    hafnian_reduce(const __grid_constant__ Params q, u64 tasks, double* out) {
    __shared__ double part[kSegmentTasks][kRecordDoubles];
    const int t = threadIdx.x;
    const u64 index = static_cast<u64>(blockIdx.x) * kSegmentTasks + t;
#pragma unroll
    for (int w = 0; w < kRecordDoubles; ++w) {
        part[t][w] = index < tasks ? q.records[index * kRecordDoubles + w] : 0.0;
    }
    __syncthreads();
    for (int width = kSegmentTasks / 2; width > 0; width /= 2) {
        if (t < width) {
            if constexpr (MODE == kModular) {
                const u64 s = static_cast<u64>(part[t][5]) + static_cast<u64>(part[t + width][5]);
                part[t][5] = static_cast<double>(s >= q.prime ? s - q.prime : s);
            } else {
                const DD re =
                    dd_add({part[t][0], part[t][1]}, {part[t + width][0], part[t + width][1]});
                const DD im =
                    dd_add({part[t][2], part[t][3]}, {part[t + width][2], part[t + width][3]});
                part[t][0] = re.hi;
                part[t][1] = re.lo;
                part[t][2] = im.hi;
                part[t][3] = im.lo;
#pragma unroll
                for (int w = 4; w < kRecordDoubles; ++w) {  // Σ|value|, Σ|e|, Σe
                    part[t][w] += part[t + width][w];
                }
            }
        }
        __syncthreads();
    }
    if (t < kRecordDoubles) {
        out[static_cast<u64>(blockIdx.x) * kRecordDoubles + t] = part[0][t];
    }
}

}  // namespace pmcount_hafnian
