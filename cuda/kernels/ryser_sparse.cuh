// Sparse Ryser on the GPU: SpaRyser's Gray walk and SkipPer's 0-1 path (the CPU engines are in
// lib/exact/ryser/sparse_ryser.cpp, whose comments give the method). Compiled at run time by
// NVRTC together with ryser_dense.cuh, whose arithmetic policies (Arith<MODE>), records and
// record reduction it uses, so both engines sum and reduce in exactly the same way.
//
// Each kernel takes a Pattern, the matrix as the kernel sees it:
//   TablePattern<N, MODE>: CSC of the Gray columns, y(∅), and SkipPer's row tests in shared
//     memory, copied by each block from the SparseTables in global memory. One compiled kernel
//     per order and arithmetic serves every matrix; column updates index x at run time, so x
//     lives in local memory.
//   GeneratedPattern<N, MODE, G>: the same tables as constexpr arrays of a struct G that the
//     host generates for one matrix (exact/ryser/ryser_codegen.hpp). Every column update is
//     straight-line code with literal rows and values (template recursion over the entries), and
//     a column known only at run time is dispatched by a binary search over literal cases, so x
//     stays in registers (the code-generation paper's PureReg kernels).
//
// sparse_walk: the dense kernel's walk (power-of-two chunks, unrolled super-blocks of 2^M steps
//   whose columns are known at compile time) with each step updating only the flipped column's
//   nonzeros. Terms are formed by Arith<MODE>::emit as in the dense kernel (the modular mode's
//   lane products skip a term with a zero entry).
// skip_binary: SkipPer on a 0-1 matrix in the modular mode. A visit tests the rows that can be
//   zero straight from gray(k) (y_s = y_s(∅) + 2·popcount(gray(k) & mask_s)), jumps to the first
//   index at which every zero row has been touched again, and queues a block of 2^free_bits
//   indices when no row is zero. Lanes of a warp visit independently (their k differ, the code
//   is the same) and balance their ranges among themselves; the warp forms queued term blocks
//   32 at a time, one per lane, each in sub-blocks whose static rows are multiplied once
//   (skip_terms).

namespace pmcount_gpu {

template <int MODE>
__device__ __forceinline__ typename Arith<MODE>::Elem elem_of(double w0, double w1) {
    const double w[2] = {w0, w1};
    return Arith<MODE>::load(w);
}

// ---- patterns ------------------------------------------------------------------------------------

/// Bytes of shared memory TablePattern needs.
template <int N, int MODE>
__host__ __device__ constexpr int table_shared_bytes(int entries, int tests) {
    return 8 * (Arith<MODE>::kWords * (entries + N) + N + 3 * tests) + 4 * (N + entries + tests);
}

/// The next touch of a zero row from k: the first index above k whose flipped column (its
/// lowest bit) is in the row's mask (lib/exact/ryser/sparse_ryser.cpp, binary_skip_range).
__device__ __forceinline__ u64 next_touch(u64 k, u64 mask, u64 low, u64 low_bit) {
    const u64 x = ~k & low;
    const u64 p = x & (u64{0} - x);
    const u64 join = low_bit & (u64{0} - (((mask & p) - 1) >> 63));
    return ((k | (p - 1)) + 1) | join;
}

/// SkipPer's jump: the largest next touch over the zero tested rows (bits of `zero`), 0 when
/// none is zero. The zero test is the cheap part of a visit and runs for every tested row; the
/// next touch runs only for the one to three rows that are zero, with their tables read from
/// shared memory.
__device__ __forceinline__ u64 skip_jump(u64 k, u64 zero, const u64* masks, const u64* lows,
                                         const u64* low_bits) {
    u64 target = 0;
    while (zero != 0) {
        const int e = __ffsll(static_cast<long long>(zero)) - 1;
        zero &= zero - 1;
        target = max(target, next_touch(k, masks[e], lows[e], low_bits[e]));
    }
    return target;
}

template <int N, int MODE>
struct TablePattern {
    typedef Arith<MODE> A;
    typedef typename A::Elem Elem;
    const double* values;
    const double* base_values;
    const u64* masks;
    const u64* test_masks;
    const u64* test_lows;
    const u64* test_low_bits;
    const int* starts;
    const int* rows;
    const int* test_counts;
    int tests;
    int free;
    int sub;

    /// Copies the tables into `shared` (every thread of the block takes part; the caller
    /// synchronises afterwards) and points at the copies.
    __device__ TablePattern(const SparseTables& t, double* shared) {
        double* d = shared;
        values = d;
        d += A::kWords * t.entries;
        base_values = d;
        d += A::kWords * N;
        u64* w = reinterpret_cast<u64*>(d);
        masks = w;
        w += N;
        test_masks = w;
        w += t.tests;
        test_lows = w;
        w += t.tests;
        test_low_bits = w;
        w += t.tests;
        int* i = reinterpret_cast<int*>(w);
        starts = i;
        i += N;
        rows = i;
        i += t.entries;
        test_counts = i;
        tests = t.tests;
        free = t.free_bits;
        sub = t.sub_bits;
        auto copy = [](auto* to, const auto* from, int count) {
            if (from != nullptr) {
                for (int k = threadIdx.x; k < count; k += blockDim.x) {
                    to[k] = from[k];
                }
            }
        };
        copy(const_cast<double*>(values), t.values, A::kWords * t.entries);
        copy(const_cast<u64*>(masks), t.row_mask, N);
        copy(const_cast<u64*>(test_masks), t.test_mask, t.tests);
        copy(const_cast<u64*>(test_lows), t.test_low, t.tests);
        copy(const_cast<u64*>(test_low_bits), t.test_low_bit, t.tests);
        copy(const_cast<int*>(starts), t.col_start, N);
        copy(const_cast<int*>(rows), t.col_row, t.entries);
        copy(const_cast<int*>(test_counts), t.test_count, t.tests);
        copy(const_cast<double*>(base_values), t.base, A::kWords * N);
    }

    __device__ Elem base(int i) const {
        return A::load(base_values + A::kWords * i);
    }
    /// y_s(∅) and the row masks for SkipPer's terms, read from shared memory where they are used
    /// (volatile loads: hoisted out of the loops, 2N of them would take every register).
    __device__ double base_volatile(int s) const {
        double v;
        asm volatile("ld.shared.f64 %0, [%1];" : "=d"(v) : "r"(static_cast<u32>(__cvta_generic_to_shared(base_values + s))));
        return v;
    }
    /// x ± column j (sign ±1).
    __device__ void apply(int j, Elem (&x)[N], double sign) const {
        for (int e = starts[j]; e < starts[j + 1]; ++e) {
            const int r = rows[e];
            x[r] = A::update(x[r], A::load(values + A::kWords * e), sign);
        }
    }
    /// apply with a column known at compile time; kSign ±1 is the direction, 0 takes `sign`.
    template <int J, int kSign>
    __device__ void apply_fixed(Elem (&x)[N], double sign) const {
        apply(J, x, kSign == 0 ? sign : static_cast<double>(kSign));
    }
    static constexpr bool kPartialProducts = false;
    __device__ u64 row_mask(int s) const {
        u64 v;
        asm volatile("ld.shared.u64 %0, [%1];" : "=l"(v) : "r"(static_cast<u32>(__cvta_generic_to_shared(masks + s))));
        return v;
    }
    __device__ int free_bits() const { return free; }
    __device__ int sub_bits() const { return sub; }
    /// Whether row s changes inside a sub-block (a Gray bit below sub_bits in its mask).
    __device__ bool dynamic_row(int s) const { return (row_mask(s) & ((u64{1} << sub) - 1)) != 0; }
    /// Bit e set when tested row e is zero at g (popcount(g & mask) equals its count).
    __device__ u64 zero_tests(u64 g) const {
        u64 zero = 0;
        for (int e = 0; e < tests; ++e) {
            zero |= static_cast<u64>(__popcll(g & test_masks[e]) == test_counts[e]) << e;
        }
        return zero;
    }
    /// SkipPer's jump from k (g = gray(k)), 0 when no tested row is zero.
    __device__ u64 skip_target(u64 k, u64 g) const {
        return skip_jump(k, zero_tests(g), test_masks, test_lows, test_low_bits);
    }
};

/// The tables as literals: G is generated by the host for one matrix, with static constexpr
/// members kTests, kFreeBits and arrays values, col_start, col_row, test_mask, test_low,
/// test_low_bit, test_count (arrays of unused tables hold one dummy entry), read only in constant
/// expressions (CUDA lets device code use constexpr arrays no other way), and the accessors
/// base_word(k) and mask(s) of __constant__ arrays for y(∅) and the row masks, which the unrolled
/// loops index with what are constants only after unrolling.
template <int N, int MODE, class G>
struct GeneratedPattern {
    typedef Arith<MODE> A;
    typedef typename A::Elem Elem;
    static constexpr int kWords = A::kWords;

    /// The test tables in shared memory, for skip_jump's reads at run-time indices (the
    /// literals serve the zero tests); copied by every thread of the block, the caller
    /// synchronises.
    static constexpr int kTestSlots = G::kTests > 0 ? G::kTests : 1;
    const u64* test_tables;

    __device__ GeneratedPattern(const SparseTables& t, double*) {
        __shared__ u64 tables[3 * kTestSlots];
        for (int k = threadIdx.x; k < t.tests && t.test_mask != nullptr; k += blockDim.x) {
            tables[k] = t.test_mask[k];
            tables[kTestSlots + k] = t.test_low[k];
            tables[2 * kTestSlots + k] = t.test_low_bit[k];
        }
        test_tables = tables;
    }

    __device__ Elem base(int i) const {
        return elem_of<MODE>(G::base_word(kWords * i), kWords == 2 ? G::base_word(kWords * i + 1) : 0.0);
    }
    __device__ double base_volatile(int s) const { return G::base_word(s); }
    template <int E, int End, int kSign>
    __device__ __forceinline__ static void entries(Elem (&x)[N], double sign) {
        if constexpr (E < End) {
            constexpr int r = G::col_row[E];
            constexpr double w0 = G::values[kWords * E];
            constexpr double w1 = kWords == 2 ? G::values[kWords * E + 1] : 0.0;
            const Elem c = elem_of<MODE>(w0, w1);
            if constexpr (kSign == 0) {
                x[r] = A::update(x[r], c, sign);
            } else {
                x[r] = A::template step<kSign>(x[r], c);
            }
            entries<E + 1, End, kSign>(x, sign);
        }
    }
    template <int J, int kSign>
    __device__ __forceinline__ void apply_fixed(Elem (&x)[N], double sign) const {
        entries<G::col_start[J], G::col_start[J + 1], kSign>(x, sign);
    }
    /// Column j known at run time: a binary search over the literal cases [Lo, Hi).
    template <int Lo, int Hi>
    __device__ __forceinline__ void dispatch(int j, Elem (&x)[N], double sign) const {
        if constexpr (Hi - Lo == 1) {
            apply_fixed<Lo, 0>(x, sign);
        } else {
            constexpr int kMid = (Lo + Hi) / 2;
            if (j < kMid) {
                dispatch<Lo, kMid>(j, x, sign);
            } else {
                dispatch<kMid, Hi>(j, x, sign);
            }
        }
    }
    __device__ void apply(int j, Elem (&x)[N], double sign) const {
        dispatch<0, N - 1>(j, x, sign);
    }
    /// Partial products (floating modes): G lists the rows in layers, layer j < M being the rows
    /// first touched by Gray column j and layer M the rows no column below M touches.
    static constexpr bool kPartialProducts = MODE != kModular;
    template <int Lo, int Hi>
    __device__ __forceinline__ static Elem product_of(const Elem (&x)[N]) {
        if constexpr (Hi <= Lo) {
            return A::one();
        } else if constexpr (Hi - Lo == 1) {
            constexpr int r = G::layer_row[Lo];
            return x[r];
        } else {
            constexpr int kMid = (Lo + Hi) / 2;
            return A::mul(product_of<Lo, kMid>(x), product_of<kMid, Hi>(x));
        }
    }
    template <int L>
    __device__ __forceinline__ static Elem layer(const Elem (&x)[N]) {
        return product_of<G::layer_start[L], G::layer_start[L + 1]>(x);
    }
    __device__ u64 row_mask(int s) const { return G::mask(s); }
    __device__ int free_bits() const { return G::kFreeBits; }
    __device__ int sub_bits() const { return G::kSubBits; }
    __device__ bool dynamic_row(int s) const { return ((G::kDynamicRows >> s) & 1) != 0; }
    template <int E>
    __device__ __forceinline__ static u64 zero_from(u64 g, u64 zero) {
        if constexpr (E < G::kTests) {
            constexpr u64 mask = G::test_mask[E];
            constexpr int count = G::test_count[E];
            zero |= static_cast<u64>(__popcll(g & mask) == count) << E;
            return zero_from<E + 1>(g, zero);
        } else {
            return zero;
        }
    }
    __device__ u64 skip_target(u64 k, u64 g) const {
        return skip_jump(k, zero_from<0>(g, 0), test_tables, test_tables + kTestSlots,
                         test_tables + 2 * kTestSlots);
    }
};

// ---- the walk ------------------------------------------------------------------------------------

/// Steps R..2^M−1 of a super-block (as SuperBlock in ryser_dense.cuh): the flipped column, its
/// direction (but for column M−1) and the term's sign are compile-time constants.
template <int N, int MODE, class S, class P, int R>
struct SparseSuperBlock {
    static constexpr int kM = S::kUnrollLog2;
    __device__ __forceinline__ static void run(const P& pattern, typename Arith<MODE>::Elem (&x)[N],
                                               typename Arith<MODE>::Acc& acc, double top_sign,
                                               const Params& q) {
        typedef Arith<MODE> A;
        if constexpr (R < (1 << kM)) {
            constexpr int j = ctz_constexpr(R);
            if constexpr (j < kM - 1) {
                pattern.template apply_fixed<j, ((gray_constexpr(R) >> j) & 1) != 0 ? 1 : -1>(x, 0.0);
            } else {
                pattern.template apply_fixed<j, 0>(x, top_sign);
            }
            A::template emit<N, S>(acc, x, (R & 1) != 0 ? -1.0 : 1.0, q);
            if constexpr ((R & ((1 << kFoldLog2) - 1)) == (1 << kFoldLog2) - 1) {
                A::end_block(acc);
            }
            SparseSuperBlock<N, MODE, S, P, R + 1>::run(pattern, x, acc, top_sign, q);
        }
    }
};

/// The walk with partial products (generated kernels, floating modes). Let R_j be the rows
/// touched by Gray columns 0..j−1 and q_j = Π_{i ∉ R_j} x_i (j = 1..M). A step of a super-block
/// flips a column c < M, whose rows lie in R_{c+1}: q_j for j > c stays, and the term is
/// rebuilt as q_c … q_1 (each q_j = q_{j+1} · Π over layer j), then q_1 · Π over layer 0. The
/// first step of a super-block (a column ≥ M) rebuilds every q_j. With SkipPer's column order
/// (each column adds the fewest new rows) a step multiplies about |R_{c+1}| entries instead of
/// N. The last multiplication is error-free in the compensated mode, as in the dense kernel.
template <int MODE>
__device__ __forceinline__ void add_split_term(typename Arith<MODE>::Acc& acc, typename Arith<MODE>::Elem a,
                                               typename Arith<MODE>::Elem b, double sign) {
    typedef Arith<MODE> A;
    if constexpr (MODE == kCompensated) {
        const double p = a * b;
        A::add_term(acc, DD{p, fma(a, b, -p)}, sign);
    } else {
        A::add_term(acc, A::mul(a, b), sign);
    }
}

/// q_J, …, q_1 from q_{J+1} (q_M from the rows outside R_M).
template <int N, int MODE, class S, class P, int J>
__device__ __forceinline__ void rebuild_partials(const typename Arith<MODE>::Elem (&x)[N],
                                                 typename Arith<MODE>::Elem (&q)[S::kUnrollLog2 + 1]) {
    constexpr int kM = S::kUnrollLog2;
    if constexpr (J >= 1) {
        if constexpr (J == kM) {
            q[J] = P::template layer<kM>(x);
        } else {
            q[J] = Arith<MODE>::mul(q[J + 1], P::template layer<J>(x));
        }
        rebuild_partials<N, MODE, S, P, J - 1>(x, q);
    }
}

template <int N, int MODE, class S, class P, int R>
struct PartialSuperBlock {
    static constexpr int kM = S::kUnrollLog2;
    typedef Arith<MODE> A;
    typedef typename A::Elem Elem;
    __device__ __forceinline__ static void run(const P& pattern, Elem (&x)[N], Elem (&q)[kM + 1],
                                               typename A::Acc& acc, double top_sign) {
        if constexpr (R < (1 << kM)) {
            constexpr int j = ctz_constexpr(R);
            if constexpr (j < kM - 1) {
                pattern.template apply_fixed<j, ((gray_constexpr(R) >> j) & 1) != 0 ? 1 : -1>(x, 0.0);
            } else {
                pattern.template apply_fixed<j, 0>(x, top_sign);
            }
            rebuild_partials<N, MODE, S, P, j>(x, q);
            add_split_term<MODE>(acc, q[1], P::template layer<0>(x), (R & 1) != 0 ? -1.0 : 1.0);
            if constexpr ((R & ((1 << kFoldLog2) - 1)) == (1 << kFoldLog2) - 1) {
                A::end_block(acc);
            }
            PartialSuperBlock<N, MODE, S, P, R + 1>::run(pattern, x, q, acc, top_sign);
        }
    }
};

template <int N, int MODE, class S, class P>
__global__ void __launch_bounds__(kBlockThreads, S::kMinBlocks)
    sparse_walk(const __grid_constant__ Params q, const __grid_constant__ SparseTables t) {
    typedef Arith<MODE> A;
    typedef typename A::Elem Elem;
    constexpr int kM = S::kUnrollLog2;
    static_assert(kM >= 1 && kM <= N - 1, "super-blocks of 2^M steps need M Gray columns");
    extern __shared__ double2 shared_pairs[];
    const P pattern(t, reinterpret_cast<double*>(shared_pairs));
    __syncthreads();
    for_each_group<MODE>(q, [&](u64 taken, typename A::Acc& acc) {
        const u64 chunk = (q.first_group + taken) * kGroupChunks + (threadIdx.x & 31);
        if (chunk >= q.chunk_count) {
            return;
        }
        const u64 k0 = chunk << q.chunk_log2;
        Elem x[N];
        auto load = [&](u64 k) {
#pragma unroll
            for (int i = 0; i < N; ++i) {
                x[i] = pattern.base(i);
            }
            for (u64 g = gray(k); g != 0; g &= g - 1) {
                pattern.apply(__ffsll(static_cast<long long>(g)) - 1, x, 1.0);
            }
        };
        const u64 blocks = u64{1} << (q.chunk_log2 - kM);
        const u64 first_block = k0 >> kM;
#pragma unroll 1
        for (u64 b = 0; b < blocks; ++b) {
            const u64 s = (first_block + b) << kM;
            if (b == 0 || (A::kResetLog2 > 0 && (s & ((u64{1} << A::kResetLog2) - 1)) == 0)) {
                load(s);
            } else {
                const int j = __ffsll(static_cast<long long>(s)) - 1;
                pattern.apply(j, x, ((gray(s) >> j) & 1) != 0 ? 1.0 : -1.0);
            }
            const double top_sign = ((s >> kM) & 1) != 0 ? -1.0 : 1.0;
            if constexpr (P::kPartialProducts) {
                Elem partial[kM + 1];
                rebuild_partials<N, MODE, S, P, kM>(x, partial);
                add_split_term<MODE>(acc, partial[1], P::template layer<0>(x), 1.0);
                PartialSuperBlock<N, MODE, S, P, 1>::run(pattern, x, partial, acc, top_sign);
            } else {
                A::template emit<N, S>(acc, x, 1.0, q);
                SparseSuperBlock<N, MODE, S, P, 1>::run(pattern, x, acc, top_sign, q);
            }
        }
        A::end_block(acc);
    });
}

// ---- SkipPer's 0-1 path --------------------------------------------------------------------------

/// Term blocks found by the lanes' visits wait in a per-warp queue until there are 32, which
/// the warp then forms together, one block per lane (a lane forming its own block while the
/// others visit would leave 31 of 32 lanes idle through it).
constexpr int kQueue = 64;

/// y_s at Gray code h on a 0-1 matrix: y_s(∅) + 2·popcount(h & mask_s).
template <class P>
__device__ __forceinline__ double skip_row(const P& pattern, int s, u64 h) {
    return pattern.base_volatile(s) + 2.0 * __popcll(h & pattern.row_mask(s));
}

/// The term block starting at k (a multiple of 2^free_bits): 2^free_bits terms, in sub-blocks
/// of 2^sub_bits (sub_bits ≤ free_bits, k + b a multiple of 2^sub_bits, so gray(k + b + i) =
/// gray(k + b) ^ gray(i) for i < 2^sub_bits). Inside a sub-block only the dynamic rows change
/// (those with a Gray bit below sub_bits), so its terms sum to
///     Π_static y_s · Σ_i (−1)^i Π_dynamic y_s(i):
/// the static product is formed once, in the four exact lanes, and the inner sum in plain
/// double, exact because the host picks sub_bits so that 2^sub_bits · Π_dynamic max|y_s| < 2^53
/// (numeric/sub_block_bits.hpp). The modular arithmetic then runs once per sub-block
/// instead of once per term. With sub_bits = 0 every row is static and each term goes to
/// add_lanes as before. No y array: with y, the row masks and y(∅) live at once the kernel ran
/// out of registers; rows come straight from the popcounts.
template <int N, class S, class P>
__device__ __forceinline__ void skip_terms(const P& pattern, u64 k, u64 block, typename Arith<kModular>::Acc& acc,
                                           const Params& q) {
    const int sub = pattern.sub_bits();
    const u64 sub_size = u64{1} << sub;
    for (u64 b = 0; b < block; b += sub_size) {
        const u64 g = gray(k + b);
        double lane[kLanes] = {1, 1, 1, 1};
#pragma unroll
        for (int s = 0; s < N; ++s) {
            if (!pattern.dynamic_row(s)) {
                lane[s % kLanes] *= skip_row(pattern, s, g);
            }
        }
        const double sign = ((k + b) & 1) != 0 ? -1.0 : 1.0;
        if (sub == 0) {
            Arith<kModular>::add_lanes(acc, lane, sign, q);
            continue;
        }
        double sum = 0;
        for (u64 i = 0; i < sub_size; ++i) {
            const u64 h = g ^ gray(i);
            double term = 1;
#pragma unroll
            for (int s = 0; s < N; ++s) {
                if (pattern.dynamic_row(s)) {
                    term *= skip_row(pattern, s, h);
                }
            }
            sum += (i & 1) != 0 ? -term : term;
        }
        Arith<kModular>::add_lanes_times(acc, lane, sum, sign, q);
    }
}

/// SkipPer's walk over a warp's group of 32 chunks, one per lane to start with. The work of a
/// stretch of the walk varies by orders of magnitude (one lane may jump over its whole chunk
/// while its neighbour forms terms), so lanes balance it among themselves: on every pass, an
/// idle lane takes the upper half of the largest range left in the warp (split at a multiple of
/// 2^free_bits, where term blocks start). A range ends where its lane's jump leaves it, so a far
/// jump costs one visit however many ranges it crosses. (Fixed sub-chunks cost a visit each: at
/// n = 48 more visits than the walk itself makes.)
template <int N, class S, class P>
__global__ void __launch_bounds__(kBlockThreads, S::kMinBlocks)
    skip_binary(const __grid_constant__ Params q, const __grid_constant__ SparseTables t) {
    typedef Arith<kModular> A;
    constexpr unsigned kAll = 0xffffffffu;
    constexpr int kWarps = kBlockThreads / 32;
    extern __shared__ double2 shared_pairs[];
    __shared__ u64 queue[kWarps][kQueue];
    const P pattern(t, reinterpret_cast<double*>(shared_pairs));
    __syncthreads();
    const u64 steps = u64{1} << (N - 1);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const unsigned below = (1u << lane) - 1;
    const int block_log2 = pattern.free_bits();
    const u64 block = u64{1} << block_log2;
    for_each_group<4>(q, [&](u64 taken, typename A::Acc& acc) {
        const u64 chunk = (q.first_group + taken) * kGroupChunks + lane;
        u64 k = chunk << q.chunk_log2;  // this lane's position and the end of its range
        u64 stop = chunk < q.chunk_count ? min(k + (u64{1} << q.chunk_log2), steps) : k;
        int queued = 0;                 // the warp's queue length (the same in every lane)
        for (;;) {
            bool working = k < stop;
            const unsigned idle = __ballot_sync(kAll, !working);
            if (idle == kAll) {
                break;
            }
            if (idle != 0) {
                // The donor: the largest range left, in blocks (clamped to 27 bits, lane in
                // the low 5 bits of the key).
                const u64 left = working ? (stop - k) >> block_log2 : 0;
                const u32 key = (static_cast<u32>(min(left, u64{(1u << 27) - 1})) << 5) | static_cast<u32>(lane);
#if __CUDA_ARCH__ >= 800
                const u32 best = __reduce_max_sync(kAll, key);
#else
                u32 best = key;
                for (int offset = 16; offset > 0; offset >>= 1) {
                    best = max(best, __shfl_xor_sync(kAll, best, offset));
                }
#endif
                if ((best >> 5) >= 2) {
                    const int donor = static_cast<int>(best & 31);
                    const int thief = __ffs(static_cast<int>(idle)) - 1;
                    const u64 donor_k = __shfl_sync(kAll, k, donor);
                    const u64 donor_stop = __shfl_sync(kAll, stop, donor);
                    const u64 mid = donor_k + (((donor_stop - donor_k) >> (block_log2 + 1)) << block_log2);
                    if (lane == donor) {
                        stop = mid;
                    } else if (lane == thief) {
                        k = mid;
                        stop = donor_stop;
                    }
                    working = k < stop;
                }
            }
            // One visit per working lane: a jump, or a term block queued at k; a full queue is
            // formed by the whole warp.
            bool term = false;
            if (working) {
                const u64 target = pattern.skip_target(k, gray(k));
                if (target != 0) {
                    k = min(target, stop);
                } else {
                    term = true;
                }
            }
            const unsigned terms = __ballot_sync(kAll, term);
            if (term) {
                queue[warp][queued + __popc(terms & below)] = k;
                k += block;
            }
            queued += __popc(terms);
            __syncwarp();
            if (queued >= 32) {
                queued -= 32;
                skip_terms<N, S>(pattern, queue[warp][queued + lane], block, acc, q);
                __syncwarp();
            }
        }
        if (lane < queued) {
            skip_terms<N, S>(pattern, queue[warp][lane], block, acc, q);
        }
        __syncwarp();
    });
}

}  // namespace pmcount_gpu
