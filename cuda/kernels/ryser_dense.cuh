// Dense Ryser on the GPU (SUPERMAN §3 and the code-generation paper's power-of-two chunks),
// compiled at run time by NVRTC for each order N and arithmetic MODE, so x lives in registers
// with compile-time indices. No host includes: this file is embedded in the library as a string.
//
// A thread walks a chunk of Gray indices [k0, k0 + 2^L) with k0 = chunk·2^L. Because k0 is a
// multiple of 2^L, gray(k0 + s) = gray(k0) ^ gray(s): every thread of a warp flips the same
// column at the same step. The steps come in super-blocks of 2^M (M = Shape::kUnrollLog2),
// unrolled: inside one, step r flips column ctz(r) < M, known at compile time, and so is its
// direction (except for column M−1, whose direction is bit M of the step index) and the sign of
// the term.
// Those M columns are a __grid_constant__ kernel parameter: the compiler reads them with uniform
// constant loads (ULDC, off the FP64 pipe) and adds them with DADD, and there is no address
// arithmetic or Gray bookkeeping inside a super-block. Only its first step flips a column ≥ M,
// read from shared memory (16-byte broadcasts) with a run-time direction.
//
// Per Gray step (MODE 0 with Shape::kFuseTop): N DADD (x ± column), N−2 DMUL (a balanced product
// tree but its top multiplication), 1 DFMA (± left·right into the sum, the sign known) and 1 DFMA
// (|left|·|right| into the magnitude, for the error bound; |·| is an operand modifier): 2N FP64
// instructions — SUPERMAN's count, the floor — and about N/2 uniform loads (nvdisasm of N = 40:
// 16 fewer FP64 instructions per 16-step super-block than with a separate top DMUL; unfused,
// 2N+1). Per super-block: N/2 16-byte shared loads, N DFMA and about 15 integer instructions.
//
// MODE 0 double, plain accumulation · 1 double, compensated (error-free sums and top products,
// see Arith<kCompensated>) · 2 double-double · 3 complex, 2^F-term sums folded into Neumaier pairs
// (F = kFoldLog2) · 4 modular (31-bit primes; x and 4 lane products exact in double, one
// Montgomery reduction per lane and per product, all primes sharing the x update) · 5 double
// with a certified bound beside every term (Arith<kCertified>).
// Work is handed out in groups of 32 chunks (one per warp at a time, from a counter); each
// warp's chunk results are combined into one record per group and records into one per segment
// (reduce_records in ryser_records.cuh), in double-double (modular: mod p), so the result does
// not depend on the schedule.

namespace pmcount_gpu {

/// The arithmetics (MODE), numbered by the host's GpuMode (exact/ryser/ryser_gpu_mode.hpp,
/// prepended to this source).
constexpr int kPlain = static_cast<int>(pmcount::backend::cuda::GpuMode::double_plain);
constexpr int kCompensated = static_cast<int>(pmcount::backend::cuda::GpuMode::double_compensated);
constexpr int kDoubleDouble = static_cast<int>(pmcount::backend::cuda::GpuMode::double_double);
constexpr int kComplex = static_cast<int>(pmcount::backend::cuda::GpuMode::complex);
constexpr int kModular = static_cast<int>(pmcount::backend::cuda::GpuMode::modular);
constexpr int kCertified = static_cast<int>(pmcount::backend::cuda::GpuMode::certified);

using pmcount_kernels::DD;
using pmcount_kernels::dd_add;
using pmcount_kernels::dd_mul;
using pmcount_kernels::dd_neg;
using pmcount_kernels::quick_two_sum;
using pmcount_kernels::two_sum;

/// The kernel's shape, chosen on the host (RyserLaunchPolicy in exact/ryser/ryser_launch_policy.hpp,
/// next to the measurements behind each choice) and passed as a template argument, so host and kernel cannot
/// disagree: super-blocks of 2^kUnrollLog2 unrolled steps, the blocks per SM the register
/// allocation aims at (__launch_bounds__), and whether MODE 0 fuses the product tree's top
/// multiplication into its two accumulations (one FP64 instruction fewer per step).
template <int kUnrollLog2_, int kMinBlocks_, bool kFuseTop_>
struct Shape {
    static constexpr int kUnrollLog2 = kUnrollLog2_;
    static constexpr int kMinBlocks = kMinBlocks_;
    static constexpr bool kFuseTop = kFuseTop_;
};

/// The complex mode folds plain sums of 2^kFoldLog2 terms into its Neumaier pairs.
constexpr int kFoldLog2 = 3;
/// Floating modes recompute x from the columns every 2^12 steps, so the rounding drift of the
/// incremental updates stays bounded (the CPU engines do the same every 2^10 steps); the cost is
/// about N·log2(chunk)/2 FMAs per 4096 steps, under 1%. An arithmetic's kResetLog2 (0: never).
/// Mirrored on the host by backend::cuda::kGpuResetLog2 (the error figure replays it).
constexpr int kResetLog2 = 12;
constexpr int kLanes = 4;
constexpr int kBlockThreads = 128;

__device__ __forceinline__ u64 gray(u64 k) { return k ^ (k >> 1); }

constexpr int ctz_constexpr(int v) { return (v & 1) ? 0 : 1 + ctz_constexpr(v >> 1); }
constexpr int gray_constexpr(int v) { return v ^ (v >> 1); }

// ---- arithmetic policies ---------------------------------------------------------------------

/// Element type and operations of one MODE. `Acc` is a thread's running result.
template <int MODE>
struct Arith;

struct DoubleAccPlain {
    double sum = 0, magnitude = 0;
};
struct DoubleAccCompensated {
    double sum = 0, compensation = 0, magnitude = 0, low = 0;  // low: Σ the products' low parts
    double squares = 0;  // Σ p², for the error figure (one DFMA per step)
};

/// Π x[Lo..Hi) as a balanced tree (depth ⌈log2 N⌉ instead of a chain of N−1 dependent
/// multiplications); template recursion keeps every index a compile-time constant.
template <int Lo, int Hi, int N, class T, class Mul>
__device__ __forceinline__ T tree_product_range(const T (&x)[N], Mul mul) {
    if constexpr (Hi - Lo == 1) {
        return x[Lo];
    } else {
        constexpr int kMid = Lo + (Hi - Lo) / 2;
        return mul(tree_product_range<Lo, kMid>(x, mul), tree_product_range<kMid, Hi>(x, mul));
    }
}

template <int N, class T, class Mul>
__device__ __forceinline__ T tree_product(const T (&x)[N], Mul mul) {
    return tree_product_range<0, N>(x, mul);
}

/// x as one double per row: how MODE 0 and MODE 1 load, update and step it (they differ only in
/// how a term is multiplied out and accumulated).
struct DoubleRows {
    typedef double Elem;
    static constexpr int kWords = 1;
    static constexpr int kResetLog2 = pmcount_gpu::kResetLog2;
    __device__ static Elem load(const double* p) { return p[0]; }
    __device__ static Elem update(Elem x, Elem c, double sign) { return fma(sign, c, x); }
    template <int kSign>
    __device__ static Elem step(Elem x, Elem c) { return kSign > 0 ? x + c : x - c; }
    __device__ static Elem one() { return 1.0; }
    __device__ static Elem mul(Elem a, Elem b) { return a * b; }
};

template <>
struct Arith<kPlain> : DoubleRows {
    typedef DoubleAccPlain Acc;
    template <int N, class S>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        // The top multiplication of the product tree is fused into the accumulations (the
        // sign and |·| are operand modifiers): N−2 DMUL + 2 DFMA instead of N−1 DMUL + 2 DADD.
        auto mul = [](double a, double b) { return a * b; };
        if constexpr (N == 1 || !S::kFuseTop) {
            add_term(acc, tree_product<N>(x, mul), sign);
        } else {
            const double left = tree_product_range<0, N / 2>(x, mul);
            const double right = tree_product_range<N / 2, N>(x, mul);
            acc.sum = fma(sign * left, right, acc.sum);
            acc.magnitude = fma(fabs(left), fabs(right), acc.magnitude);
        }
    }
    /// ± p into the sums (p formed elsewhere: the sparse walk's partial products).
    __device__ static void add_term(Acc& acc, double p, double sign) {
        acc.sum = fma(sign, p, acc.sum);
        acc.magnitude += fabs(p);
    }
    __device__ static void end_block(Acc&) {}
};

/// Π x[0..N) with the three top multiplications error-free: hi + lo equals the product of the
/// four quarter products (each rounded as by tree_product) up to the dropped e1·e2 term, which is
/// below u² of the result. The split is tree_product's, so hi is its result bit for bit.
template <int N>
__device__ __forceinline__ DD top_exact_product(const double (&x)[N]) {
    auto mul = [](double a, double b) { return a * b; };
    if constexpr (N < 4) {
        const double h = tree_product<N>(x, mul);
        return {h, 0.0};
    } else {
        constexpr int kMid = N / 2;
        constexpr int kLeftMid = kMid / 2;
        constexpr int kRightMid = kMid + (N - kMid) / 2;
        const double q0 = tree_product_range<0, kLeftMid>(x, mul);
        const double q1 = tree_product_range<kLeftMid, kMid>(x, mul);
        const double q2 = tree_product_range<kMid, kRightMid>(x, mul);
        const double q3 = tree_product_range<kRightMid, N>(x, mul);
        const double h1 = q0 * q1, e1 = fma(q0, q1, -h1);
        const double h2 = q2 * q3, e2 = fma(q2, q3, -h2);
        const double h = h1 * h2;
        return {h, fma(h1, e2, fma(e1, h2, fma(h1, h2, -h)))};
    }
}

/// Compensated double: every term is added error-free (TwoSum into a Neumaier pair) and comes
/// from a product whose three top multiplications are error-free (top_exact_product), so the
/// only roundings left are those inside the four quarter products and in x. 12 FP64
/// instructions per step more than MODE 0 (measured +18% at n = 40). Cheaper schemes measured on
/// J_40 (40!, heavy cancellation), H100: Neumaier-folded sums of 8 terms with plain products,
/// +5% time, relative error 5.8e-11; the same with error-free top products, +12%, 3.0e-11;
/// this one below 1e-16 (docs/gpu.md).
template <>
struct Arith<kCompensated> : DoubleRows {
    typedef DoubleAccCompensated Acc;
    template <int N, class S>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        add_term(acc, top_exact_product<N>(x), sign);
    }
    /// ± (p.hi + p.lo): p.hi added error-free, p.lo into the low sum.
    __device__ static void add_term(Acc& acc, DD p, double sign) {
        const DD s = two_sum(acc.sum, sign > 0 ? p.hi : -p.hi);
        acc.sum = s.hi;
        acc.compensation += s.lo;
        acc.low = fma(sign, p.lo, acc.low);
        acc.magnitude += fabs(p.hi);
        acc.squares = fma(p.hi, p.hi, acc.squares);
    }
    __device__ static void end_block(Acc& acc) {
        acc.compensation += acc.low;
        acc.low = 0;
    }
};

template <>
struct Arith<kDoubleDouble> {
    typedef DD Elem;
    struct Acc {
        DD sum = {0, 0};
        double magnitude = 0;
    };
    static constexpr int kWords = 2;
    static constexpr int kResetLog2 = 0;  // x carries ~106 bits: drift is negligible
    __device__ static Elem load(const double* p) { return {p[0], p[1]}; }
    __device__ static Elem update(Elem x, Elem c, double sign) {
        return dd_add(x, sign > 0 ? c : dd_neg(c));
    }
    template <int kSign>
    __device__ static Elem step(Elem x, Elem c) { return dd_add(x, kSign > 0 ? c : dd_neg(c)); }
    __device__ static Elem one() { return {1.0, 0.0}; }
    __device__ static Elem mul(Elem a, Elem b) { return dd_mul(a, b); }
    template <int N, class S>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        add_term(acc, tree_product<N>(x, [](DD a, DD b) { return dd_mul(a, b); }), sign);
    }
    __device__ static void add_term(Acc& acc, DD p, double sign) {
        acc.sum = dd_add(acc.sum, sign > 0 ? p : dd_neg(p));
        acc.magnitude += fabs(p.hi);
    }
    __device__ static void end_block(Acc&) {}
};

struct Complex {
    double re;
    double im;
};

template <>
struct Arith<kComplex> {
    typedef Complex Elem;
    struct Acc {
        double re = 0, im = 0, re_c = 0, im_c = 0, block_re = 0, block_im = 0, magnitude = 0;
        double squares = 0;  // Σ |p|², for the error figure
    };
    static constexpr int kWords = 2;
    static constexpr int kResetLog2 = pmcount_gpu::kResetLog2;
    __device__ static Elem load(const double* p) { return {p[0], p[1]}; }
    __device__ static Elem update(Elem x, Elem c, double sign) {
        return {fma(sign, c.re, x.re), fma(sign, c.im, x.im)};
    }
    template <int kSign>
    __device__ static Elem step(Elem x, Elem c) {
        return kSign > 0 ? Elem{x.re + c.re, x.im + c.im} : Elem{x.re - c.re, x.im - c.im};
    }
    __device__ static Elem one() { return {1.0, 0.0}; }
    __device__ static Elem mul(Elem a, Elem b) {
        return Complex{fma(a.re, b.re, -a.im * b.im), fma(a.re, b.im, a.im * b.re)};
    }
    template <int N, class S>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        add_term(acc, tree_product<N>(x, [](Complex a, Complex b) { return mul(a, b); }), sign);
    }
    __device__ static void add_term(Acc& acc, Complex p, double sign) {
        acc.block_re = fma(sign, p.re, acc.block_re);
        acc.block_im = fma(sign, p.im, acc.block_im);
        acc.magnitude += fabs(p.re) + fabs(p.im);
        acc.squares = fma(p.re, p.re, fma(p.im, p.im, acc.squares));
    }
    __device__ static void end_block(Acc& acc) {
        const DD r = two_sum(acc.re, acc.block_re);
        const DD i = two_sum(acc.im, acc.block_im);
        acc.re = r.hi;
        acc.re_c += r.lo;
        acc.im = i.hi;
        acc.im_c += i.lo;
        acc.block_re = acc.block_im = 0;
    }
};

/// t·2^-32 mod p for t < p·2^32 (Montgomery reduction with R = 2^32).
__device__ __forceinline__ u32 redc(u64 t, u32 p, u32 neg_p_inverse) {
    const u32 m = static_cast<u32>(t) * neg_p_inverse;
    const u64 u = (t + static_cast<u64>(m) * p) >> 32;  // t + m·p < 2·p·2^32 ≤ 2^64
    return static_cast<u32>(u >= p ? u - p : u);
}

template <>
struct Arith<kModular> {
    typedef double Elem;
    struct Acc {
        u32 sum[kMaxPrimes];
    };
    static constexpr int kWords = 1;
    static constexpr int kResetLog2 = 0;  // exact integers
    __device__ static Elem load(const double* p) { return p[0]; }
    __device__ static Elem update(Elem x, Elem c, double sign) { return fma(sign, c, x); }
    template <int kSign>
    __device__ static Elem step(Elem x, Elem c) { return kSign > 0 ? x + c : x - c; }
    // Lanes: slot i belongs to lane i mod 4 (the host lays rows out so each lane's product of
    // row norms is below 2^53: every lane product is an exact integer). Each lane magnitude is
    // reduced with one Montgomery step (factor 2^-32), the four residues multiplied with three
    // more (2^-32 each): the host removes the 2^-224.
    template <int N, class S>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params& q) {
        double lane[kLanes] = {1, 1, 1, 1};
#pragma unroll
        for (int i = 0; i < N; ++i) {
            lane[i % kLanes] *= x[i];
        }
        add_lanes(acc, lane, sign, q);
    }
    /// ± the product of the four exact lane products (each below 2^53 in magnitude) mod p.
    __device__ static void add_lanes(Acc& acc, const double (&lane)[kLanes], double sign, const Params& q) {
        bool negative = sign < 0;
        u64 magnitude[kLanes];
        if (!magnitudes(lane, magnitude, negative)) {
            return;
        }
#pragma unroll
        for (int k = 0; k < kMaxPrimes; ++k) {  // unrolled: acc.sum stays in registers
            if (k >= q.primes) {
                break;
            }
            add_residue(acc, k, lanes_product(magnitude, q.p[k], q.neg_p_inverse[k]), negative, q.p[k]);
        }
    }
    /// ± sum · the product of the four lane products (every factor an exact integer below 2^53
    /// in magnitude) mod p, with the same factor 2^-224 as add_lanes: sum enters as
    /// redc(redc(|sum|)·2^96) = |sum|·2^32.
    __device__ static void add_lanes_times(Acc& acc, const double (&lane)[kLanes], double sum, double sign,
                                           const Params& q) {
        bool negative = (sign < 0) != (signbit(sum) != 0);
        const u64 times = static_cast<u64>(fabs(sum));
        u64 magnitude[kLanes];
        if (times == 0 || !magnitudes(lane, magnitude, negative)) {
            return;
        }
#pragma unroll
        for (int k = 0; k < kMaxPrimes; ++k) {
            if (k >= q.primes) {
                break;
            }
            const u32 p = q.p[k], np = q.neg_p_inverse[k];
            const u32 t = redc(static_cast<u64>(redc(times, p, np)) * q.r96[k], p, np);
            add_residue(acc, k, redc(static_cast<u64>(lanes_product(magnitude, p, np)) * t, p, np), negative, p);
        }
    }
    /// The lanes' magnitudes as integers, their signs folded into `negative`; false when one is 0.
    __device__ static bool magnitudes(const double (&lane)[kLanes], u64 (&magnitude)[kLanes], bool& negative) {
        bool zero = false;
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            negative ^= signbit(lane[l]) != 0;
            magnitude[l] = static_cast<u64>(fabs(lane[l]));
            zero |= magnitude[l] == 0;
        }
        return !zero;
    }
    /// The four magnitudes' product mod p, times 2^-224: each reduced with one Montgomery step,
    /// then multiplied with three more.
    __device__ static u32 lanes_product(const u64 (&magnitude)[kLanes], u32 p, u32 np) {
        const u32 a = redc(static_cast<u64>(redc(magnitude[0], p, np)) * redc(magnitude[1], p, np), p, np);
        const u32 b = redc(static_cast<u64>(redc(magnitude[2], p, np)) * redc(magnitude[3], p, np), p, np);
        return redc(static_cast<u64>(a) * b, p, np);
    }
    __device__ static void add_residue(Acc& acc, int k, u32 r, bool negative, u32 p) {
        const u32 s = acc.sum[k] + (negative ? p - r : r);  // < 2p < 2^32
        acc.sum[k] = s >= p ? s - p : s;
    }
    __device__ static void end_block(Acc&) {}
};

/// γ_k = ku/(1 − ku), the bound on k roundings (Higham, §3.1), as the host computes it.
constexpr double gamma_bound(double k) {
    return k * 0x1p-53 / (1 - k * 0x1p-53);
}

/// Certified double (the CPU's Certified in lib/exact/ryser/ryser_arithmetic.hpp, on the GPU):
/// x in double, recomputed every 2^8 steps, so a slot's x̂_i has taken at most N − 1 + 2^8
/// rounded additions since it was exact; the host bounds |x̂_i − x_i| by q.row_error[i] (read
/// as constant-bank operands). Per term p̂ = fl(Π x̂_i) and B̂ = fl(Π (|x̂_i| + E_i)); the term's
/// distance from the exact term is at most B̂(1 + g) − |p̂|(1 − g) with g = 2γ_{2N+2} + 4u.
/// Nothing is skipped (a zero x̂_i still has a bound). The terms are summed error-free into a
/// pair (Ogita–Rump–Oishi Sum2: the pair's error is at most γ²_{2^12} of Σ|p̂| per chunk), the
/// bounds and |p̂| in plain double (nonnegative: relative error γ of the term count); the
/// record's imaginary slot carries Σ bounds. The host mirror of kResetLog2 is
/// backend::cuda::kGpuCertifiedResetLog2.
template <>
struct Arith<kCertified> : DoubleRows {
    struct Acc {
        double sum = 0, compensation = 0, magnitude = 0, bound = 0;
    };
    static constexpr int kResetLog2 = 8;
    template <int N, class S>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params& q) {
        constexpr double g = 2 * gamma_bound(2.0 * N + 2) + 4 * 0x1p-53;
        auto mul = [](double a, double b) { return a * b; };
        double upper[N];
#pragma unroll
        for (int i = 0; i < N; ++i) {
            upper[i] = fabs(x[i]) + q.row_error[i];
        }
        const double p = tree_product<N>(x, mul);
        const double b = tree_product<N>(upper, mul);
        const double m = fabs(p);
        acc.bound += fma(b, 1 + g, -(1 - g) * m);
        acc.magnitude += m;
        const DD s = two_sum(acc.sum, sign > 0 ? p : -p);
        acc.sum = s.hi;
        acc.compensation += s.lo;
    }
    __device__ static void end_block(Acc&) {}
};

// ---- the kernel --------------------------------------------------------------------------------

/// Doubles per column in the tables: N values (two doubles each for complex and double-double),
/// rounded up to an even count so every column starts 16-byte aligned.
template <int N, int MODE>
constexpr int stride() {
    return Arith<MODE>::kWords * (N + (N & 1));
}

/// A 16-byte shared-memory load that stays where it is written: otherwise the compiler hoists the
/// loads of the few columns an unrolled block uses and keeps them in registers, which spills x.
__device__ __forceinline__ double2 load_shared(const double2* p) {
    double2 v;
    asm volatile("ld.shared.v2.f64 {%0, %1}, [%2];"
                 : "=d"(v.x), "=d"(v.y)
                 : "r"(static_cast<u32>(__cvta_generic_to_shared(p))));
    return v;
}

/// x ± column (sign ±1), reading the column as 16-byte shared-memory broadcasts.
template <int N, int MODE>
__device__ __forceinline__ void apply(typename Arith<MODE>::Elem (&x)[N], const double* column,
                                      double sign) {
    typedef Arith<MODE> A;
    const double2* c = reinterpret_cast<const double2*>(column);
    if constexpr (A::kWords == 1) {
#pragma unroll
        for (int i = 0; i < N; i += 2) {
            const double2 pair = load_shared(c + i / 2);
            x[i] = A::update(x[i], pair.x, sign);
            if (i + 1 < N) {
                x[i + 1] = A::update(x[i + 1], pair.y, sign);
            }
        }
    } else {
#pragma unroll
        for (int i = 0; i < N; ++i) {
            const double2 v = load_shared(c + i);
            const double w[2] = {v.x, v.y};
            x[i] = A::update(x[i], A::load(w), sign);
        }
    }
}

/// Columns 0..M−1 of the Gray sequence (M = S::kUnrollLog2 ≤ N − 1), passed by value as a
/// __grid_constant__ kernel parameter: the unrolled steps read them as constant-bank operands.
template <int N, int MODE, class S>
struct LowColumns {
    double v[S::kUnrollLog2 * stride<N, MODE>()];
};

/// x ± column with the column in the constant bank: kSign = ±1 is the direction known at compile
/// time (one DADD per entry, the column an operand), 0 a run-time `sign` (one DFMA per entry).
template <int N, int MODE, int kSign>
__device__ __forceinline__ void apply_constant(typename Arith<MODE>::Elem (&x)[N], const double* column,
                                               double sign) {
    typedef Arith<MODE> A;
#pragma unroll
    for (int i = 0; i < N; ++i) {
        if constexpr (kSign == 0) {
            x[i] = A::update(x[i], A::load(column + A::kWords * i), sign);
        } else {
            x[i] = A::template step<kSign>(x[i], A::load(column + A::kWords * i));
        }
    }
}

/// Steps R..2^M−1 of a super-block, unrolled by template recursion so the flipped column
/// ctz(R), its direction (bit ctz(R) of gray(R); for the top column M−1 it is `top_sign`, given
/// by bit M of the step index) and the term's sign (−1)^R are all compile-time constants.
template <int N, int MODE, class S, int R>
struct SuperBlock {
    static constexpr int kM = S::kUnrollLog2;
    __device__ __forceinline__ static void run(typename Arith<MODE>::Elem (&x)[N],
                                               typename Arith<MODE>::Acc& acc,
                                               const LowColumns<N, MODE, S>& low, double top_sign,
                                               const Params& q) {
        typedef Arith<MODE> A;
        if constexpr (R < (1 << kM)) {
            constexpr int j = ctz_constexpr(R);
            const double* column = low.v + j * stride<N, MODE>();
            if constexpr (j < kM - 1) {
                apply_constant<N, MODE, ((gray_constexpr(R) >> j) & 1) != 0 ? 1 : -1>(x, column, 0.0);
            } else {
                apply_constant<N, MODE, 0>(x, column, top_sign);
            }
            A::template emit<N, S>(acc, x, (R & 1) != 0 ? -1.0 : 1.0, q);
            if constexpr ((R & ((1 << kFoldLog2) - 1)) == (1 << kFoldLog2) - 1) {
                A::end_block(acc);
            }
            SuperBlock<N, MODE, S, R + 1>::run(x, acc, low, top_sign, q);
        }
    }
};

/// The warp's 32 chunk results combined in lane order (a fixed tree of shuffles, so the record
/// does not depend on which warp took the group), written by lane 0 as record `index`:
/// floating modes (re.hi, re.lo, im.hi, im.lo, magnitude, Σ|p|²) with re/im in double-double (MODE 5:
/// im is the sum of the terms' bounds), the modular mode one 32-bit residue per prime.
template <int MODE>
__device__ void write_record(const typename Arith<MODE>::Acc& acc, const Params& q, u64 index) {
    constexpr unsigned kAll = 0xffffffffu;
    const int lane = threadIdx.x & 31;
    double* record = q.records + index * kRecordDoubles;
    if constexpr (MODE == kModular) {
        u32* residues = reinterpret_cast<u32*>(record);
#pragma unroll
        for (int k = 0; k < kMaxPrimes; ++k) {  // unrolled: acc.sum stays in registers
            u32 v = acc.sum[k];
#pragma unroll
            for (int offset = 16; offset > 0; offset /= 2) {
                const u32 w = v + __shfl_down_sync(kAll, v, offset);  // < 2p < 2^32
                v = (k < q.primes && w >= q.p[k]) ? w - q.p[k] : w;
            }
            if (lane == 0) {
                residues[k] = v;
            }
        }
    } else {
        DD re{0, 0}, im{0, 0};
        double magnitude = acc.magnitude;
        double squares = 0;
        if constexpr (MODE == kPlain) {
            re = {acc.sum, 0};
        } else if constexpr (MODE == kCompensated) {
            re = two_sum(acc.sum, acc.compensation);
            squares = acc.squares;
        } else if constexpr (MODE == kDoubleDouble) {
            re = acc.sum;
        } else if constexpr (MODE == kCertified) {
            re = two_sum(acc.sum, acc.compensation);
            im = {acc.bound, 0};
        } else {
            re = two_sum(acc.re, acc.re_c);
            im = two_sum(acc.im, acc.im_c);
            squares = acc.squares;
        }
#pragma unroll
        for (int offset = 16; offset > 0; offset /= 2) {
            re = dd_add(re, {__shfl_down_sync(kAll, re.hi, offset), __shfl_down_sync(kAll, re.lo, offset)});
            im = dd_add(im, {__shfl_down_sync(kAll, im.hi, offset), __shfl_down_sync(kAll, im.lo, offset)});
            magnitude += __shfl_down_sync(kAll, magnitude, offset);
            squares += __shfl_down_sync(kAll, squares, offset);
        }
        if (lane == 0) {
            record[0] = re.hi;
            record[1] = re.lo;
            record[2] = im.hi;
            record[3] = im.lo;
            record[4] = magnitude;
            record[5] = squares;
        }
    }
}

/// Takes the launch's groups from q.counter, one per warp at a time, and calls body(taken, acc)
/// in every lane of the warp for group first_group + taken, from a fresh accumulator; then the
/// warp writes the group's record. Shared by the dense and sparse kernels.
template <int MODE, class Body>
__device__ __forceinline__ void for_each_group(const Params& q, Body body) {
    const int lane = threadIdx.x & 31;
    for (;;) {
        u64 taken = 0;
        if (lane == 0) {
            taken = atomicAdd(q.counter, u64{1});
        }
        taken = __shfl_sync(0xffffffffu, taken, 0);
        if (taken >= q.group_count) {
            break;
        }
        typename Arith<MODE>::Acc acc;
        if constexpr (MODE == kModular) {
#pragma unroll
            for (int k = 0; k < kMaxPrimes; ++k) {
                acc.sum[k] = 0;
            }
        }
        body(taken, acc);
        write_record<MODE>(acc, q, taken);
    }
}

/// Persistent kernel: each warp takes groups from q.counter until the launch's groups are gone,
/// so warps that the scheduler favours take more groups and all finish within one chunk of each
/// other (with one static chunk per thread, a launch ran until its slowest warp finished, the
/// others' slots idle meanwhile: 11% of the run at n = 40 on an H100). Each thread sums its chunk
/// from a fresh accumulator and the warp writes the group's record, so the result does not
/// depend on the schedule.
template <int N, int MODE, class S>
__global__ void __launch_bounds__(kBlockThreads, S::kMinBlocks)
    ryser_dense(const __grid_constant__ Params q,
                const __grid_constant__ LowColumns<N, MODE, S> low) {
    typedef Arith<MODE> A;
    typedef typename A::Elem Elem;
    constexpr int kM = S::kUnrollLog2;
    static_assert(kM >= 1 && kM <= N - 1, "super-blocks of 2^M steps need M Gray columns");
    extern __shared__ double2 shared_pairs[];  // the Gray columns
    double* shared = reinterpret_cast<double*>(shared_pairs);
    constexpr int kStride = stride<N, MODE>();
    const int words = (N - 1) * kStride;
    for (int w = threadIdx.x; w < words; w += blockDim.x) {
        shared[w] = q.columns[w];
    }
    __syncthreads();

    for_each_group<MODE>(q, [&](u64 taken, typename A::Acc& acc) {
        const u64 chunk = (q.first_group + taken) * kGroupChunks + (threadIdx.x & 31);
        if (chunk < q.chunk_count) {
            // Chunks span 2^L ≥ 2^M steps (the host guarantees L ≥ M), so super-blocks never
            // straddle two chunks.
            const u64 k0 = chunk << q.chunk_log2;
            Elem x[N];
            // x = y(∅) + Σ_{j ∈ gray(k)} column j.
            auto load = [&](u64 k) {
#pragma unroll
                for (int i = 0; i < N; ++i) {
                    x[i] = A::load(q.base + A::kWords * i);
                }
                for (u64 g = gray(k); g != 0; g &= g - 1) {
                    apply<N, MODE>(x, shared + (__ffsll(static_cast<long long>(g)) - 1) * kStride, 1.0);
                }
            };
            const u64 blocks = u64{1} << (q.chunk_log2 - kM);
            const u64 first_block = k0 >> kM;
#pragma unroll 1
            for (u64 b = 0; b < blocks; ++b) {
                const u64 s = (first_block + b) << kM;  // the super-block's first Gray index
                // Its first step flips column j = ctz(s) ≥ M, the same for every thread of the
                // warp (chunks are aligned to 2^L > j); the direction is bit j of gray(s).
                if (b == 0 || (A::kResetLog2 > 0 && (s & ((u64{1} << A::kResetLog2) - 1)) == 0)) {
                    load(s);
                } else {
                    const int j = __ffsll(static_cast<long long>(s)) - 1;
                    apply<N, MODE>(x, shared + j * kStride, ((gray(s) >> j) & 1) != 0 ? 1.0 : -1.0);
                }
                A::template emit<N, S>(acc, x, 1.0, q);  // s is even
                // Step 2^(M−1) of the super-block flips column M−1: added when bit M of s is 0.
                SuperBlock<N, MODE, S, 1>::run(x, acc, low, ((s >> kM) & 1) != 0 ? -1.0 : 1.0, q);
            }
            A::end_block(acc);
        }
    });
}

}  // namespace pmcount_gpu
