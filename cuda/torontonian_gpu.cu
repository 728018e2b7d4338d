// The torontonian on a GPU (lib/exact/torontonian/torontonian_device.hpp): one thread per chunk,
// each walking its chunk's subtree of sets of modes exactly as the CPU walk does (walk.hpp, the
// Tracked policy of policies.hpp): Schur complements in complex double, every entry with its
// first-order error, each update's rounding recovered exactly. Compiled with -fmad=false: the
// recovered roundings (TwoSum, TwoProduct by an explicit fma) must see the operations as written.
//
// Memory: each thread's complements live in global memory, interleaved across the threads of a
// wave (double s of thread t at s·T + t), so the threads of a warp, which walk identical trees in
// lockstep, read and write consecutive addresses. Per thread: a setup matrix of 2N rows (the
// chunk's fixed modes eliminated in place), one complement per depth of the walk (2(S − d) rows
// at depth d, packed lower triangles), and per-row scratch. The host runs the chunks in waves
// that fit in memory and asks keep_going between waves; with several GPUs each takes an equal
// contiguous range of chunks, from a host thread of its own.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <exception>
#include <string>
#include <thread>
#include <vector>

#include "common/cuda_status.cuh"
#include "common/device_buffer.cuh"
#include "exact/torontonian/torontonian_device.hpp"

namespace pmcount::backend::cuda {

namespace {

typedef unsigned long long u64;

constexpr int kThreads = 128;
constexpr int kMaxSuffix = 20;
/// Workspace of one wave, at most (bytes).
constexpr double kWaveBytes = 6e9;

struct Cd {
    double re, im;
};

__device__ __forceinline__ Cd operator+(Cd a, Cd b) {
    return {a.re + b.re, a.im + b.im};
}

/// s − a − b's rounding for s = fl(a + b).
__device__ __forceinline__ double sum_error(double a, double b, double s) {
    const double bb = s - a;
    return (a - (s - bb)) + (b - bb);
}
/// s − (a·b + c·d), its roundings added to `round`.
__device__ __forceinline__ double sub_two_products_x(double s, double a, double b, double c,
                                                     double d, double& round) {
    const double p = a * b, q = c * d;
    const double ep = fma(a, b, -p), eq = fma(c, d, -q);
    const double t = p + q;
    const double et = sum_error(p, q, t);
    const double v = s - t;
    const double ev = sum_error(s, -t, v);
    round += ev - et - ep - eq;
    return v;
}
/// s − l·conj(c), exact rounding into `round`.
__device__ __forceinline__ Cd sub_mul_conj_x(Cd s, Cd l, Cd c, Cd& round) {
    return {sub_two_products_x(s.re, l.re, c.re, l.im, c.im, round.re),
            sub_two_products_x(s.im, l.im, c.re, -l.re, c.im, round.im)};
}
/// s − l·c, exact rounding into `round`.
__device__ __forceinline__ Cd sub_mul_x(Cd s, Cd l, Cd c, Cd& round) {
    return {sub_two_products_x(s.re, l.re, c.re, -l.im, c.im, round.re),
            sub_two_products_x(s.im, l.re, c.im, l.im, c.re, round.im)};
}
__device__ __forceinline__ Cd sub_mul_conj(Cd s, Cd l, Cd c) {
    return {s.re - (l.re * c.re + l.im * c.im), s.im - (l.im * c.re - l.re * c.im)};
}
__device__ __forceinline__ Cd sub_mul(Cd s, Cd l, Cd c) {
    return {s.re - (l.re * c.re - l.im * c.im), s.im - (l.re * c.im + l.im * c.re)};
}
__device__ __forceinline__ Cd scale(Cd c, double r) {
    return {c.re * r, c.im * r};
}
__device__ __forceinline__ double re_dot(Cd a, Cd b) {
    return a.re * b.re + a.im * b.im;
}
/// |x|², its rounding into `round`.
__device__ __forceinline__ double norm_x(Cd x, double& round) {
    const double a = x.re * x.re, b = x.im * x.im;
    const double v = a + b;
    round += sum_error(a, b, v) + fma(x.re, x.re, -a) + fma(x.im, x.im, -b);
    return v;
}
/// l = c/p as c·inv (1/p = inv·(1 + rho) to first order), and its first-order error dl.
__device__ __forceinline__ Cd multiplier(Cd c, Cd dc, double inv, double rho, double dp, Cd& dl) {
    const Cd l = scale(c, inv);
    const Cd round{fma(c.re, inv, -l.re), fma(c.im, inv, -l.im)};
    const Cd rest = sub_mul(dc, l, Cd{dp, 0.0});
    dl = round + scale(c, inv * rho) + scale(rest, inv);
    return l;
}

// ---- double-double (as numeric/double_double.hpp) ----------------------------------------------

struct DDv {
    double hi, lo;
};
__device__ __forceinline__ DDv quick_two_sum(double a, double b) {
    const double s = a + b;
    return {s, b - (s - a)};
}
__device__ __forceinline__ DDv dd_add(DDv a, DDv b) {
    const double s = a.hi + b.hi;
    double e = sum_error(a.hi, b.hi, s);
    const double t = a.lo + b.lo;
    const double f = sum_error(a.lo, b.lo, t);
    e += t;
    const DDv r = quick_two_sum(s, e);
    return quick_two_sum(r.hi, r.lo + f);
}
__device__ __forceinline__ DDv dd_neg(DDv a) {
    return {-a.hi, -a.lo};
}
__device__ __forceinline__ DDv dd_mul(DDv a, DDv b) {
    const double p = a.hi * b.hi;
    const double e = fma(a.hi, b.hi, -p);
    return quick_two_sum(p, e + (a.hi * b.lo + a.lo * b.hi));
}
__device__ __forceinline__ DDv dd_div(DDv a, DDv b) {
    const double q1 = a.hi / b.hi;
    DDv r = dd_add(a, dd_neg(dd_mul(b, DDv{q1, 0.0})));
    const double q2 = r.hi / b.hi;
    r = dd_add(r, dd_neg(dd_mul(b, DDv{q2, 0.0})));
    const double q3 = r.hi / b.hi;
    return dd_add(quick_two_sum(q1, q2), DDv{q3, 0.0});
}
__device__ __forceinline__ DDv dd_sqrt(DDv a) {
    const double x = sqrt(a.hi);
    const DDv y{x, 0.0};
    const DDv r = dd_add(a, dd_neg(dd_mul(y, y)));
    return dd_add(y, DDv{r.hi / (2 * x), 0.0});
}
__device__ __forceinline__ DDv dd_ldexp(DDv a, int e) {
    return {ldexp(a.hi, e), ldexp(a.lo, e)};
}
__device__ DDv dd_exp(DDv a) {
    if (!(fabs(a.hi) < 708)) {
        return {exp(a.hi), 0.0};
    }
    const double hi[10] = {1.0,
                           1.0,
                           0.5,
                           0x1.5555555555555p-3,
                           0x1.5555555555555p-5,
                           0x1.1111111111111p-7,
                           0x1.6c16c16c16c17p-10,
                           0x1.a01a01a01a01ap-13,
                           0x1.a01a01a01a01ap-16,
                           0x1.71de3a556c734p-19};
    const double lo[10] = {0.0,
                           0.0,
                           0.0,
                           0x1.5555555555555p-57,
                           0x1.5555555555555p-59,
                           0x1.1111111111111p-63,
                           -0x1.f49f49f49f49fp-65,
                           0x1.a01a01a01a01ap-73,
                           0x1.a01a01a01a01ap-76,
                           -0x1.c154f8ddc6c00p-73};
    const DDv ln2{0x1.62e42fefa39efp-1, 0x1.abc9e3b39803fp-56};
    const double k = nearbyint(a.hi / ln2.hi);
    const DDv s = dd_ldexp(dd_add(a, dd_neg(dd_mul(ln2, DDv{k, 0.0}))), -10);
    DDv sum{hi[9], lo[9]};
    for (int i = 8; i >= 0; --i) {
        sum = dd_add(dd_mul(sum, s), DDv{hi[i], lo[i]});
    }
    for (int i = 0; i < 10; ++i) {
        sum = dd_mul(sum, sum);
    }
    return dd_ldexp(sum, static_cast<int>(k));
}
__device__ __forceinline__ DDv norm_dd(Cd x) {
    return dd_add(dd_mul(DDv{x.re, 0.0}, DDv{x.re, 0.0}), dd_mul(DDv{x.im, 0.0}, DDv{x.im, 0.0}));
}

// ---- the walk --------------------------------------------------------------------------------

struct Params {
    const double* m;  // packed lower triangle of I − O in mode order: re, im, dre, dim per entry
    const double* v;  // v = γ*: re, im per row
    double* work;     // the wave's workspace, interleaved
    GpuTorontonianRecord* records;
    u64 first_chunk;
    u64 count;   // threads (chunks) in this wave
    int modes;   // N
    int suffix;  // S
    int loop;
    u64 setup_slots;  // where each part of a thread's workspace starts (in doubles)
    u64 level_slots[kMaxSuffix + 1];
    u64 scratch_slots;
};

__host__ __device__ constexpr u64 packed(int i, int k) {
    return static_cast<u64>(i) * (i + 1) / 2 + k;
}

/// One thread's view of its workspace: double `slot` at work[slot·T + t].
struct Space {
    double* work;
    u64 stride;
    __device__ __forceinline__ double& at(u64 slot) const { return work[slot * stride]; }
    /// Entry e of the packed buffer at `base`: value and error.
    __device__ __forceinline__ Cd value(u64 base, u64 e) const {
        return {at(base + 4 * e), at(base + 4 * e + 1)};
    }
    __device__ __forceinline__ Cd error(u64 base, u64 e) const {
        return {at(base + 4 * e + 2), at(base + 4 * e + 3)};
    }
    __device__ __forceinline__ void store(u64 base, u64 e, Cd v, Cd d) const {
        at(base + 4 * e) = v.re;
        at(base + 4 * e + 1) = v.im;
        at(base + 4 * e + 2) = d.re;
        at(base + 4 * e + 3) = d.im;
    }
};

/// A buffer: K rows packed at `base`, then the loop's w (value and error per row).
struct Buffer {
    u64 base;
    int rows;
    __device__ __forceinline__ u64 w(int capacity) const { return base + 4 * packed(capacity, 0); }
};

struct Node {
    double g;
    double delta;
    double rho;
    int size;
    u64 set;
};

struct Pivots {
    double p1, p2, inv1, inv2, rho1, rho2, dp1, dp2;
    Cd s, ds, w1, dw1, w2, dw2;
};

struct Acc {
    DDv sum;
    double magnitude, loose, loose2, tracked;
    u64 nodes;
};

__device__ __forceinline__ Acc acc_zero() {
    return {{0.0, 0.0}, 0.0, 0.0, 0.0, 0.0, 0};
}
__device__ __forceinline__ void add_term(Acc& a, double value, bool negative, double rho) {
    a.sum = dd_add(a.sum, DDv{negative ? -value : value, 0.0});
    const double size = fabs(value);
    a.magnitude += size;
    a.loose += size * rho;
    a.loose2 += size * rho * rho;
    ++a.nodes;
}
__device__ __forceinline__ void add_child(Acc& a, const Acc& child, double delta) {
    a.sum = dd_add(a.sum, child.sum);
    a.magnitude += child.magnitude;
    a.loose += child.loose;
    a.loose2 += child.loose2;
    a.tracked += child.tracked + delta * child.sum.hi;
    a.nodes += child.nodes;
}

constexpr double kLostTracked = 0x1p-26;

/// Mode j's pivots of the buffer (rows 2j, 2j + 1) and the child's node; 0, or the failure.
__device__ int pivot(const Space& sp, const Params& q, Buffer b, int capacity, int j,
                     const Node& node, Pivots& pv, Node& child) {
    const int r = 2 * j;
    pv.p1 = sp.value(b.base, packed(r, r)).re;
    pv.dp1 = sp.error(b.base, packed(r, r)).re;
    pv.s = sp.value(b.base, packed(r + 1, r));
    pv.ds = sp.error(b.base, packed(r + 1, r));
    pv.inv1 = 1 / pv.p1;
    pv.rho1 = fma(-pv.p1, pv.inv1, 1.0);
    double ens = 0;
    const double ns = norm_x(pv.s, ens);
    const double x = ns * pv.inv1, ex = fma(ns, pv.inv1, -x);
    const double d = sp.value(b.base, packed(r + 1, r + 1)).re;
    pv.p2 = d - x;
    const double esub = sum_error(d, -x, pv.p2);
    pv.dp2 = sp.error(b.base, packed(r + 1, r + 1)).re + esub - ex - x * pv.rho1 -
             (ens + 2 * re_dot(pv.s, pv.ds) - x * pv.dp1) * pv.inv1;
    if (!(pv.p1 > 0 && pv.p2 > 0 && fabs(pv.dp1) <= kLostTracked * pv.p1 &&
          fabs(pv.dp2) <= kLostTracked * pv.p2)) {
        const bool negative = (pv.p1 < 0 && fabs(pv.dp1) < -0.5 * pv.p1) ||
                              (pv.p1 > 0 && pv.p2 < 0 && fabs(pv.dp2) < -0.5 * pv.p2);
        return negative ? 1 : 2;
    }
    pv.inv2 = 1 / pv.p2;
    pv.rho2 = fma(-pv.p2, pv.inv2, 1.0);
    DDv factor = dd_div(DDv{1.0, 0.0}, dd_sqrt(dd_mul(DDv{pv.p1, 0.0}, DDv{pv.p2, 0.0})));
    child.delta = -0.5 * (pv.dp1 / pv.p1 + pv.dp2 / pv.p2);
    if (q.loop != 0) {
        const u64 w = b.w(capacity);
        pv.w1 = {sp.at(w + 4 * r), sp.at(w + 4 * r + 1)};
        pv.dw1 = {sp.at(w + 4 * r + 2), sp.at(w + 4 * r + 3)};
        Cd dls;
        const Cd ls = multiplier(pv.s, pv.ds, pv.inv1, pv.rho1, pv.dp1, dls);
        Cd round{0.0, 0.0};
        const Cd w_next{sp.at(w + 4 * (r + 1)), sp.at(w + 4 * (r + 1) + 1)};
        const Cd dw_next{sp.at(w + 4 * (r + 1) + 2), sp.at(w + 4 * (r + 1) + 3)};
        pv.w2 = sub_mul_x(w_next, ls, pv.w1, round);
        pv.dw2 = sub_mul(sub_mul(dw_next, dls, pv.w1), ls, pv.dw1) + round;
        const DDv norm1 = norm_dd(pv.w1), norm2 = norm_dd(pv.w2);
        const DDv dq = dd_add(dd_div(norm1, DDv{pv.p1, 0.0}), dd_div(norm2, DDv{pv.p2, 0.0}));
        const double n1 = norm1.hi, n2 = norm2.hi;
        const double ddq = (2 * re_dot(pv.w1, pv.dw1) - n1 * pv.dp1 * pv.inv1) * pv.inv1 +
                           (2 * re_dot(pv.w2, pv.dw2) - n2 * pv.dp2 * pv.inv2) * pv.inv2;
        factor = dd_mul(factor, dd_exp(dd_ldexp(dq, -1)));
        child.delta += 0.5 * ddq;
    }
    const DDv g = dd_mul(DDv{node.g, 0.0}, factor);
    child.g = g.hi;
    child.delta += g.lo / g.hi;
    child.size = node.size + 1;
    child.rho = node.rho + fabs(child.delta);
    return 0;
}

/// The child's complement of mode j: rows r + 2… of `from` (K rows) with rows r, r + 1
/// eliminated, into `to` (which may be `from` itself when j = 0: the rows move up in place).
__device__ void build(const Space& sp, const Params& q, Buffer from, int from_capacity, int j,
                      const Pivots& pv, Buffer to, int to_capacity) {
    const int r = 2 * j, k = from.rows, kc = k - r - 2;
    const u64 sc = q.scratch_slots;
    // Per row: c1, dc1, l1, dl1, c2, dc2, l2, dl2 (16 doubles).
    for (int x = 0; x < kc; ++x) {
        const int i = x + r + 2;
        const Cd c1 = sp.value(from.base, packed(i, r)), dc1 = sp.error(from.base, packed(i, r));
        Cd dl1;
        const Cd l1 = multiplier(c1, dc1, pv.inv1, pv.rho1, pv.dp1, dl1);
        Cd round{0.0, 0.0};
        const Cd c2 = sub_mul_conj_x(sp.value(from.base, packed(i, r + 1)), l1, pv.s, round);
        const Cd dc2 = sub_mul_conj(sub_mul_conj(sp.error(from.base, packed(i, r + 1)), dl1, pv.s),
                                    l1, pv.ds) +
                       round;
        Cd dl2;
        const Cd l2 = multiplier(c2, dc2, pv.inv2, pv.rho2, pv.dp2, dl2);
        const Cd row[8] = {c1, dc1, l1, dl1, c2, dc2, l2, dl2};
        for (int p = 0; p < 8; ++p) {
            sp.at(sc + 16 * x + 2 * p) = row[p].re;
            sp.at(sc + 16 * x + 2 * p + 1) = row[p].im;
        }
    }
    const auto scratch = [&](int x, int p) {
        return Cd{sp.at(sc + 16 * x + 2 * p), sp.at(sc + 16 * x + 2 * p + 1)};
    };
    // The loop's w first: in place, row x's new w lands at or before row x + r + 2's old one.
    if (q.loop != 0) {
        const u64 wf = from.w(from_capacity), wt = to.w(to_capacity);
        for (int x = 0; x < kc; ++x) {
            const int i = x + r + 2;
            const Cd l1 = scratch(x, 2), dl1 = scratch(x, 3), l2 = scratch(x, 6),
                     dl2 = scratch(x, 7);
            const Cd w{sp.at(wf + 4 * i), sp.at(wf + 4 * i + 1)};
            const Cd dw{sp.at(wf + 4 * i + 2), sp.at(wf + 4 * i + 3)};
            Cd round{0.0, 0.0};
            const Cd out = sub_mul_x(sub_mul_x(w, l1, pv.w1, round), l2, pv.w2, round);
            const Cd dout =
                sub_mul(sub_mul(sub_mul(sub_mul(dw, dl1, pv.w1), l1, pv.dw1), dl2, pv.w2), l2,
                        pv.dw2) +
                round;
            sp.at(wt + 4 * x) = out.re;
            sp.at(wt + 4 * x + 1) = out.im;
            sp.at(wt + 4 * x + 2) = dout.re;
            sp.at(wt + 4 * x + 3) = dout.im;
        }
    }
    for (int x = 0; x < kc; ++x) {
        const int i = x + r + 2;
        const Cd l1 = scratch(x, 2), dl1 = scratch(x, 3), l2 = scratch(x, 6), dl2 = scratch(x, 7);
        for (int y = 0; y <= x; ++y) {
            const int c = y + r + 2;
            const Cd c1 = scratch(y, 0), dc1 = scratch(y, 1), c2 = scratch(y, 4),
                     dc2 = scratch(y, 5);
            Cd round{0.0, 0.0};
            Cd v = sub_mul_conj_x(sub_mul_conj_x(sp.value(from.base, packed(i, c)), l1, c1, round),
                                  l2, c2, round);
            Cd d = sub_mul_conj(
                       sub_mul_conj(
                           sub_mul_conj(sub_mul_conj(sp.error(from.base, packed(i, c)), dl1, c1),
                                        l1, dc1),
                           dl2, c2),
                       l2, dc2) +
                   round;
            if (y == x) {  // Hermitian: the diagonal is real, exactly
                v.im = 0;
                d.im = 0;
            }
            sp.store(to.base, packed(x, y), v, d);
        }
    }
}

__global__ void __launch_bounds__(kThreads) torontonian_chunks(const __grid_constant__ Params q) {
    const u64 t = static_cast<u64>(blockIdx.x) * kThreads + threadIdx.x;
    if (t >= q.count) {
        return;
    }
    const Space sp{q.work + t, q.count};
    const int n = q.modes, suffix = q.suffix, split = n - suffix;
    const u64 chunk = q.first_chunk + t;
    GpuTorontonianRecord rec{};
    // The setup matrix: the modes of P (bits of the chunk), then split…N−1, from I − O.
    int modes[64];
    int count = 0;
    for (int k = 0; k < split; ++k) {
        if ((chunk >> k) & 1ULL) {
            modes[count++] = k;
        }
    }
    const int eliminate = count;
    for (int k = split; k < n; ++k) {
        modes[count++] = k;
    }
    const int capacity = 2 * n;
    Buffer setup{q.setup_slots, 2 * count};
    for (int i = 0; i < 2 * count; ++i) {
        const int gi = 2 * modes[i / 2] + i % 2;
        for (int k = 0; k <= i; ++k) {
            const int gk = 2 * modes[k / 2] + k % 2;
            const u64 e = gi >= gk ? packed(gi, gk) : packed(gk, gi);
            const double* m = q.m + 4 * e;
            const double sign = gi >= gk ? 1.0 : -1.0;  // the upper entry is the conjugate
            sp.store(setup.base, packed(i, k), Cd{m[0], sign * m[1]}, Cd{m[2], sign * m[3]});
        }
        if (q.loop != 0) {
            const u64 w = setup.w(capacity);
            sp.at(w + 4 * i) = q.v[2 * gi];
            sp.at(w + 4 * i + 1) = q.v[2 * gi + 1];
            sp.at(w + 4 * i + 2) = 0;
            sp.at(w + 4 * i + 3) = 0;
        }
    }
    Node node{1.0, 0.0, 0.0, 0, 0};
    double chain_delta = 0;
    int failure = 0;
    for (int i = 0; i < eliminate && failure == 0; ++i) {
        Pivots pv;
        Node next;
        failure = pivot(sp, q, setup, capacity, 0, node, pv, next);
        next.set = node.set | (1ULL << modes[i]);
        if (failure != 0) {
            rec.failed_set = next.set;
            break;
        }
        build(sp, q, setup, capacity, 0, pv, setup, capacity);
        setup.rows -= 2;
        chain_delta += next.delta;
        node = next;
    }
    if (failure == 0) {
        // The walk: frame d holds the node whose complement is level d's, the next child j.
        struct Frame {
            Node node;
            int left, first, j;
            Acc children;
            Acc pending;  // the term of the child being walked below
            double pending_delta;
        };
        Frame frames[kMaxSuffix + 1];
        // Level 0 is the setup matrix itself (its rows are the suffix modes now).
        const auto level = [&](int d) {
            return d == 0 ? setup : Buffer{q.level_slots[d], 2 * (suffix - d)};
        };
        const auto level_capacity = [&](int d) { return d == 0 ? capacity : 2 * (suffix - d); };
        frames[0] = Frame{node, suffix, split, 0, acc_zero(), acc_zero(), 0.0};
        int d = 0;
        const auto odd = [&](const Node& x) { return ((n - x.size) & 1) != 0; };
        while (d >= 0 && failure == 0) {
            Frame& f = frames[d];
            if (f.j == f.left) {
                if (d == 0) {
                    break;
                }
                Frame& up = frames[d - 1];
                add_child(up.pending, f.children, 0.0);
                add_child(up.children, up.pending, up.pending_delta);
                ++up.j;
                --d;
                continue;
            }
            Buffer b = level(d);
            b.rows = 2 * f.left;
            Pivots pv;
            Node child;
            failure = pivot(sp, q, b, level_capacity(d), f.j, f.node, pv, child);
            child.set = f.node.set | (1ULL << (f.first + f.j));
            if (failure != 0) {
                rec.failed_set = child.set;
                break;
            }
            Acc sub = acc_zero();
            add_term(sub, child.g, odd(child), child.rho);
            if (f.j + 1 < f.left) {
                Buffer to = level(d + 1);
                build(sp, q, b, level_capacity(d), f.j, pv, to, level_capacity(d + 1));
                f.pending = sub;
                f.pending_delta = child.delta;
                frames[d + 1] = Frame{
                    child, f.left - f.j - 1, f.first + f.j + 1, 0, acc_zero(), acc_zero(), 0.0};
                ++d;
            } else {
                add_child(f.children, sub, child.delta);
                ++f.j;
            }
        }
        if (failure == 0) {
            Acc chunk_acc = acc_zero();
            add_term(chunk_acc, node.g, odd(node), node.rho);
            add_child(chunk_acc, frames[0].children, 0.0);
            Acc all = acc_zero();
            add_child(all, chunk_acc, chain_delta);
            rec.hi = all.sum.hi;
            rec.lo = all.sum.lo;
            rec.magnitude = all.magnitude;
            rec.loose2 = all.loose2;
            rec.tracked = all.tracked;
            rec.nodes = all.nodes;
        }
    }
    rec.failure = failure;
    q.records[t] = rec;
}

}  // namespace

namespace {

/// The job's matrix packed as the kernel reads it (re, im, dre, dim per entry) and v (re, im
/// per row; zeros without a loop).
struct HostInput {
    std::vector<double> m, v;
};

HostInput host_input(const GpuTorontonianJob& job) {
    const int n = job.modes;
    // The packed matrix (re, im, dre, dim per entry) and v (re, im per row).
    const std::size_t entries = static_cast<std::size_t>(packed(2 * n, 0));
    HostInput in;
    std::vector<double>& m = in.m;
    m.resize(4 * entries);
    for (std::size_t e = 0; e < entries; ++e) {
        m[4 * e] = job.m_re[e];
        m[4 * e + 1] = job.m_im[e];
        m[4 * e + 2] = job.e_re[e];
        m[4 * e + 3] = job.e_im[e];
    }
    std::vector<double>& v = in.v;
    v.assign(4 * static_cast<std::size_t>(n) + 2, 0.0);
    if (job.loop) {
        for (int i = 0; i < 2 * n; ++i) {
            v[2 * i] = job.v_re[static_cast<std::size_t>(i)];
            v[2 * i + 1] = job.v_im[static_cast<std::size_t>(i)];
        }
    }
    return in;
}

/// Chunks [begin, end) of the job on one device, their records into `out` (indexed from
/// begin); false when keep_going stopped it.
bool run_range(const GpuTorontonianJob& job, const HostInput& in, int device, u64 begin, u64 end,
               GpuTorontonianRecord* out, std::string& name) {
    const int n = job.modes, suffix = job.suffix;
    check(cudaSetDevice(device), "cudaSetDevice");
    cudaDeviceProp prop{};
    check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
    name = prop.name;
    DeviceBuffer<double> dm, dv;
    dm.assign(in.m);
    dv.assign(in.v);
    // A thread's workspace: the setup matrix of 2N rows (its w after it), the levels 1…S, the
    // scratch (16 doubles per row).
    Params q{};
    q.m = dm.get();
    q.v = dv.get();
    q.modes = n;
    q.suffix = suffix;
    q.loop = job.loop ? 1 : 0;
    u64 slots = 0;
    q.setup_slots = slots;
    slots += 4 * packed(2 * n, 0) + 4 * 2 * static_cast<u64>(n);
    for (int d = 1; d <= suffix; ++d) {
        const int rows = 2 * (suffix - d);
        q.level_slots[d] = slots;
        slots += 4 * packed(rows, 0) + 4 * static_cast<u64>(rows);
    }
    q.scratch_slots = slots;
    slots += 16 * 2 * static_cast<u64>(n);
    u64 wave = static_cast<u64>(kWaveBytes / (8.0 * static_cast<double>(slots)));
    wave = std::max<u64>(kThreads, wave / kThreads * kThreads);
    wave = std::min(wave, std::max<u64>(end - begin, 1));
    DeviceBuffer<double> work(static_cast<std::size_t>(wave * slots), "cudaMalloc (workspace)");
    DeviceBuffer<GpuTorontonianRecord> records(static_cast<std::size_t>(wave));
    for (u64 first = begin; first < end; first += wave) {
        if (job.keep_going && !job.keep_going()) {
            return false;
        }
        q.first_chunk = first;
        q.count = std::min(wave, end - first);
        q.work = work.get();
        q.records = records.get();
        const unsigned blocks = static_cast<unsigned>((q.count + kThreads - 1) / kThreads);
        torontonian_chunks<<<blocks, kThreads>>>(q);
        check(cudaGetLastError(), "torontonian kernel launch");
        check(cudaMemcpy(out + (first - begin), records.get(),
                         q.count * sizeof(GpuTorontonianRecord), cudaMemcpyDeviceToHost),
              "torontonian records");
    }
    return true;
}

}  // namespace

GpuTorontonianResult torontonian(const GpuTorontonianJob& job) {
    const auto start = std::chrono::steady_clock::now();
    const int n = job.modes, suffix = job.suffix;
    if (suffix > kMaxSuffix || suffix > n || n > 63) {
        throw DeviceError("torontonian: a GPU thread walks at most 2^" +
                          std::to_string(kMaxSuffix) + " sets");
    }
    std::vector<int> devices = job.devices;
    if (devices.empty()) {
        int count = 0;
        check(cudaGetDeviceCount(&count), "cudaGetDeviceCount");
        for (int d = 0; d < count; ++d) {
            devices.push_back(d);
        }
    }
    const u64 chunks = u64{1} << (n - suffix);
    // Contiguous equal ranges of chunks, one per device (every chunk costs the same), each run
    // by a host thread of its own; the records land in chunk order.
    GpuTorontonianResult result;
    result.chunks.resize(static_cast<std::size_t>(chunks));
    const auto gpus = static_cast<u64>(std::min<std::size_t>(devices.size(), chunks));
    std::vector<std::string> names(gpus);
    std::vector<std::exception_ptr> failures(gpus);
    std::vector<char> finished(gpus, 0);
    const HostInput in = host_input(job);
    std::vector<std::thread> threads;
    for (u64 g = 0; g < gpus; ++g) {
        const u64 begin = chunks * g / gpus, end = chunks * (g + 1) / gpus;
        threads.emplace_back([&, g, begin, end] {
            try {
                finished[g] = run_range(job, in, devices[g], begin, end,
                                        result.chunks.data() + begin, names[g])
                                  ? 1
                                  : 0;
            } catch (...) {
                failures[g] = std::current_exception();
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    for (const auto& f : failures) {
        if (f) {
            std::rethrow_exception(f);
        }
    }
    for (u64 g = 0; g < gpus; ++g) {
        result.stopped = result.stopped || finished[g] == 0;
        result.device += (g > 0 ? ", " : "") + names[g];
    }
    if (gpus > 1) {
        result.device = std::to_string(gpus) + " GPUs (" + result.device + "), chunks split evenly";
    }
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

}  // namespace pmcount::backend::cuda
