// Dense Ryser on the GPU (SUPERMAN §3 and the code-generation paper's power-of-two chunks),
// compiled at run time by NVRTC for each order N and arithmetic MODE, so x lives in registers
// with compile-time indices. No host includes: this file is embedded in the library as a string.
//
// Thread t walks Gray indices [k0, k0 + 2^L) with k0 = chunk·2^L. Because k0 is a multiple of
// 2^L, gray(k0 + s) = gray(k0) ^ gray(s): every thread of a warp flips the same column at the same
// step, so the column is a shared-memory broadcast (16-byte loads), and only the direction of bit
// L−1, which depends on k0, differs between the threads of a warp. (Unrolling blocks of steps so
// the low columns become compile-time constants was tried: the compiler then overlaps the steps'
// product trees and spills x at N = 40.)
//
// Per Gray step (MODE double, order N): N FMAs (x ± column, the sign as a ±1 factor), N−1
// multiplications (a balanced product tree), 2 additions (term and |term|), N/2 16-byte shared
// loads, and about 8 integer instructions for the Gray bookkeeping. Compensated modes sum 2^B
// terms plainly and fold each block sum into a Neumaier pair (B = kInnerLog2).
//
// MODE 0 double, plain accumulation · 1 double, per-block sums folded into a Neumaier pair ·
// 2 double-double · 3 complex · 4 modular (31-bit primes; x and 4 lane products exact in
// double, one Montgomery reduction per lane and per product, all primes sharing the x update).
// Block results are reduced in double-double (modular: mod p) and written per block.

namespace pmcount_gpu {

typedef unsigned long long u64;
typedef unsigned int u32;

constexpr int kInnerLog2 = 4;
/// Floating modes recompute x from the columns every 2^12 steps, so the rounding drift of the
/// incremental updates stays bounded (the CPU engines do the same every 2^10 steps); the cost is
/// about N·log2(chunk)/2 FMAs per 4096 steps, under 1%.
constexpr int kResetLog2 = 12;
constexpr int kInner = 1 << kInnerLog2;
constexpr int kMaxPrimes = 16;
constexpr int kLanes = 4;
constexpr int kBlockThreads = 128;

struct Params {
    const double* columns;  // Gray columns j < N−1, each stride<N, MODE>() doubles
    const double* base;     // y(∅): N values (×2 for complex and double-double)
    double* out;            // per block: see write_block
    u64 first_chunk;
    u64 chunk_count;
    int chunk_log2;
    int primes;
    u32 p[kMaxPrimes];
    u32 neg_p_inverse[kMaxPrimes];  // −p⁻¹ mod 2^32
};

__device__ __forceinline__ u64 gray(u64 k) { return k ^ (k >> 1); }

constexpr int ctz_constexpr(int v) { return (v & 1) ? 0 : 1 + ctz_constexpr(v >> 1); }
constexpr int gray_constexpr(int v) { return v ^ (v >> 1); }

// ---- double-double --------------------------------------------------------------------------

struct DD {
    double hi;
    double lo;
};
__device__ __forceinline__ DD two_sum(double a, double b) {
    const double s = a + b;
    const double bb = s - a;
    return {s, (a - (s - bb)) + (b - bb)};
}
__device__ __forceinline__ DD quick_two_sum(double a, double b) {
    const double s = a + b;
    return {s, b - (s - a)};
}
__device__ __forceinline__ DD dd_add(DD a, DD b) {
    DD s = two_sum(a.hi, b.hi);
    const DD t = two_sum(a.lo, b.lo);
    s.lo += t.hi;
    s = quick_two_sum(s.hi, s.lo);
    s.lo += t.lo;
    return quick_two_sum(s.hi, s.lo);
}
__device__ __forceinline__ DD dd_mul(DD a, DD b) {
    const double p = a.hi * b.hi;
    const double e = fma(a.hi, b.hi, -p);
    return quick_two_sum(p, e + (a.hi * b.lo + a.lo * b.hi));
}
__device__ __forceinline__ DD dd_neg(DD a) { return {-a.hi, -a.lo}; }

// ---- arithmetic policies ---------------------------------------------------------------------

/// Element type and operations of one MODE. `Acc` is a thread's running result.
template <int MODE>
struct Arith;

struct DoubleAccPlain {
    double sum = 0, magnitude = 0;
};
struct DoubleAccCompensated {
    double sum = 0, compensation = 0, magnitude = 0, block = 0;
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

template <>
struct Arith<0> {
    typedef double Elem;
    typedef DoubleAccPlain Acc;
    static constexpr int kWords = 1;
    static constexpr bool kReset = true;
    __device__ static Elem load(const double* p) { return p[0]; }
    __device__ static Elem update(Elem x, Elem c, double sign) { return fma(sign, c, x); }
    template <int N>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        const double p = tree_product<N>(x, [](double a, double b) { return a * b; });
        acc.sum = fma(sign, p, acc.sum);
        acc.magnitude += fabs(p);
    }
    __device__ static void end_block(Acc&) {}
};

template <>
struct Arith<1> {
    typedef double Elem;
    typedef DoubleAccCompensated Acc;
    static constexpr int kWords = 1;
    static constexpr bool kReset = true;
    __device__ static Elem load(const double* p) { return p[0]; }
    __device__ static Elem update(Elem x, Elem c, double sign) { return fma(sign, c, x); }
    template <int N>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        const double p = tree_product<N>(x, [](double a, double b) { return a * b; });
        acc.block = fma(sign, p, acc.block);
        acc.magnitude += fabs(p);
    }
    // A block's 2^B terms are summed plainly, then folded into (sum, compensation) exactly.
    __device__ static void end_block(Acc& acc) {
        const DD s = two_sum(acc.sum, acc.block);
        acc.sum = s.hi;
        acc.compensation += s.lo;
        acc.block = 0;
    }
};

template <>
struct Arith<2> {
    typedef DD Elem;
    struct Acc {
        DD sum = {0, 0};
        double magnitude = 0;
    };
    static constexpr int kWords = 2;
    static constexpr bool kReset = false;  // x carries ~106 bits: drift is negligible
    __device__ static Elem load(const double* p) { return {p[0], p[1]}; }
    __device__ static Elem update(Elem x, Elem c, double sign) {
        return dd_add(x, sign > 0 ? c : dd_neg(c));
    }
    template <int N>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        const DD p = tree_product<N>(x, [](DD a, DD b) { return dd_mul(a, b); });
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
struct Arith<3> {
    typedef Complex Elem;
    struct Acc {
        double re = 0, im = 0, re_c = 0, im_c = 0, block_re = 0, block_im = 0, magnitude = 0;
    };
    static constexpr int kWords = 2;
    static constexpr bool kReset = true;
    __device__ static Elem load(const double* p) { return {p[0], p[1]}; }
    __device__ static Elem update(Elem x, Elem c, double sign) {
        return {fma(sign, c.re, x.re), fma(sign, c.im, x.im)};
    }
    template <int N>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params&) {
        const Complex p = tree_product<N>(x, [](Complex a, Complex b) {
            return Complex{fma(a.re, b.re, -a.im * b.im), fma(a.re, b.im, a.im * b.re)};
        });
        acc.block_re = fma(sign, p.re, acc.block_re);
        acc.block_im = fma(sign, p.im, acc.block_im);
        acc.magnitude += fabs(p.re) + fabs(p.im);
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
struct Arith<4> {
    typedef double Elem;
    struct Acc {
        u32 sum[kMaxPrimes];
    };
    static constexpr int kWords = 1;
    static constexpr bool kReset = false;  // exact integers
    __device__ static Elem load(const double* p) { return p[0]; }
    __device__ static Elem update(Elem x, Elem c, double sign) { return fma(sign, c, x); }
    // Lanes: slot i belongs to lane i mod 4 (the host lays rows out so each lane's product of
    // row norms is below 2^53: every lane product is an exact integer). Each lane magnitude is
    // reduced with one Montgomery step (factor 2^-32), the four residues multiplied with three
    // more (2^-32 each): the host removes the 2^-224.
    template <int N>
    __device__ static void emit(Acc& acc, const Elem (&x)[N], double sign, const Params& q) {
        double lane[kLanes] = {1, 1, 1, 1};
#pragma unroll
        for (int i = 0; i < N; ++i) {
            lane[i % kLanes] *= x[i];
        }
        bool negative = sign < 0;
        u64 magnitude[kLanes];
        bool zero = false;
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            negative ^= signbit(lane[l]) != 0;
            magnitude[l] = static_cast<u64>(fabs(lane[l]));
            zero |= magnitude[l] == 0;
        }
        if (zero) {
            return;
        }
#pragma unroll
        for (int k = 0; k < kMaxPrimes; ++k) {  // unrolled: acc.sum stays in registers
            if (k >= q.primes) {
                break;
            }
            const u32 p = q.p[k], np = q.neg_p_inverse[k];
            const u32 a = redc(static_cast<u64>(redc(magnitude[0], p, np)) * redc(magnitude[1], p, np), p, np);
            const u32 b = redc(static_cast<u64>(redc(magnitude[2], p, np)) * redc(magnitude[3], p, np), p, np);
            const u32 r = redc(static_cast<u64>(a) * b, p, np);
            u32 s = acc.sum[k] + (negative ? p - r : r);  // < 2p < 2^32
            acc.sum[k] = s >= p ? s - p : s;
        }
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

template <int N, int MODE>
__device__ void write_block(const typename Arith<MODE>::Acc& acc, const Params& q, double* shared);

template <int N, int MODE>
__global__ void __launch_bounds__(kBlockThreads) ryser_dense(Params q) {
    typedef Arith<MODE> A;
    typedef typename A::Elem Elem;
    extern __shared__ double2 shared_pairs[];  // Gray columns, then the block reduction's scratch
    double* shared = reinterpret_cast<double*>(shared_pairs);
    constexpr int kStride = stride<N, MODE>();
    const int words = (N - 1) * kStride;
    for (int w = threadIdx.x; w < words; w += blockDim.x) {
        shared[w] = q.columns[w];
    }
    __syncthreads();

    typename A::Acc acc;
    if constexpr (MODE == 4) {
#pragma unroll
        for (int k = 0; k < kMaxPrimes; ++k) {
            acc.sum[k] = 0;
        }
    }
    const u64 chunk = q.first_chunk + static_cast<u64>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (chunk < q.first_chunk + q.chunk_count) {
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
        load(k0);
        A::template emit<N>(acc, x, 1.0, q);  // k0 is even
        const u64 steps = u64{1} << q.chunk_log2;
#pragma unroll 1
        for (u64 s = 1; s < steps; ++s) {
            // Step s flips bit j = ctz(s), the same for every thread of the warp (chunks are
            // aligned to 2^L ≥ 2^(j+1)); the direction is bit j of gray(k0 + s).
            if (A::kReset && (s & ((u64{1} << kResetLog2) - 1)) == 0) {
                load(k0 + s);
            } else {
                const int j = __ffsll(static_cast<long long>(s)) - 1;
                const double direction = ((gray(k0 + s) >> j) & 1) != 0 ? 1.0 : -1.0;
                apply<N, MODE>(x, shared + j * kStride, direction);
            }
            A::template emit<N>(acc, x, (s & 1) != 0 ? -1.0 : 1.0, q);
            if ((s & (kInner - 1)) == kInner - 1) {
                A::end_block(acc);
            }
        }
        A::end_block(acc);
    }
    write_block<N, MODE>(acc, q, shared + words);
}

/// Block reduction: double-double for the floating modes (sum, magnitude), per-prime sums for
/// the modular one. Thread 0 writes the block's record to q.out.
template <int N, int MODE>
__device__ void write_block(const typename Arith<MODE>::Acc& acc, const Params& q,
                            double* scratch) {
    const int t = threadIdx.x;
    if constexpr (MODE == 4) {
        u32* sums = reinterpret_cast<u32*>(scratch);
#pragma unroll
        for (int k = 0; k < kMaxPrimes; ++k) {  // unrolled: acc.sum never needs local memory
            sums[t * kMaxPrimes + k] = acc.sum[k];
        }
        __syncthreads();
        for (int width = blockDim.x / 2; width > 0; width /= 2) {
            if (t < width) {
                for (int k = 0; k < q.primes; ++k) {
                    const u32 s = sums[t * kMaxPrimes + k] + sums[(t + width) * kMaxPrimes + k];
                    sums[t * kMaxPrimes + k] = s >= q.p[k] ? s - q.p[k] : s;
                }
            }
            __syncthreads();
        }
        if (t == 0) {
            for (int k = 0; k < q.primes; ++k) {
                q.out[blockIdx.x * kMaxPrimes + k] = sums[k];
            }
        }
    } else {
        // Each thread's (hi, lo) pairs: real part, imaginary part (complex), magnitude.
        DD re{0, 0}, im{0, 0};
        double magnitude = acc.magnitude;
        if constexpr (MODE == 0) {
            re = {acc.sum, 0};
        } else if constexpr (MODE == 1) {
            re = two_sum(acc.sum, acc.compensation);
        } else if constexpr (MODE == 2) {
            re = acc.sum;
        } else {
            re = two_sum(acc.re, acc.re_c);
            im = two_sum(acc.im, acc.im_c);
        }
        double* s = scratch;  // 5 doubles per thread
        s[5 * t + 0] = re.hi;
        s[5 * t + 1] = re.lo;
        s[5 * t + 2] = im.hi;
        s[5 * t + 3] = im.lo;
        s[5 * t + 4] = magnitude;
        __syncthreads();
        for (int width = blockDim.x / 2; width > 0; width /= 2) {
            if (t < width) {
                const int o = 5 * (t + width);
                const DD a = dd_add({s[5 * t], s[5 * t + 1]}, {s[o], s[o + 1]});
                const DD b = dd_add({s[5 * t + 2], s[5 * t + 3]}, {s[o + 2], s[o + 3]});
                s[5 * t] = a.hi;
                s[5 * t + 1] = a.lo;
                s[5 * t + 2] = b.hi;
                s[5 * t + 3] = b.lo;
                s[5 * t + 4] += s[o + 4];
            }
            __syncthreads();
        }
        if (t == 0) {
            for (int k = 0; k < 5; ++k) {
                q.out[blockIdx.x * 5 + k] = s[k];
            }
        }
    }
}

/// FP64 add/multiply throughput: 8 independent chains per thread, each iteration one multiply
/// and one add per chain (16 FP64 instructions), `iterations` times. Writes a value that depends
/// on every chain so nothing is optimised away.
__global__ void fp64_rate(double* out, double a, double b, int iterations) {
    double v[8];
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        v[c] = threadIdx.x + c;
    }
    for (int i = 0; i < iterations; ++i) {
#pragma unroll
        for (int c = 0; c < 8; ++c) {
            v[c] = v[c] * a + b;  // compiled without contraction: one DMUL and one DADD
        }
    }
    double s = 0;
#pragma unroll
    for (int c = 0; c < 8; ++c) {
        s += v[c];
    }
    if (s == 12345.678) {
        out[0] = s;
    }
}

}  // namespace pmcount_gpu
