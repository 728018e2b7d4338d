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
//     host generates for one matrix (cuda/ryser_gpu.cu, generated_source). Every column update is
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
//   index at which every zero row has been touched again, and forms the terms of a block of
//   2^free_bits indices when no row is zero. Lanes of a warp jump independently (their k differ);
//   only the term blocks diverge.

namespace pmcount_gpu {

/// The tables in global memory (TablePattern copies them to shared memory). Mirrored by the host
/// (SparseTablesArg in cuda/ryser_gpu.cu).
struct SparseTables {
    const double* values;     // walk: per entry kWords doubles (2·a), entries of column 0 first
    const double* base;       // walk: y(∅), N × kWords; skip: y(∅), N
    const int* col_start;     // walk: N entries (N − 1 Gray columns + 1)
    const int* col_row;       // walk: per entry its row
    const u64* row_mask;      // skip: per row, its Gray bits
    const u64* test_mask;     // skip: per tested row, its Gray bits
    const u64* test_low;      //       mask | the bits above its lowest
    const u64* test_low_bit;  //       the lowest bit of mask
    const int* test_count;    //       the row is zero when popcount(gray & mask) equals this
    int entries;
    int tests;
    int free_bits;            // skip: a visit without a zero row covers 2^free_bits indices
};

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
    __device__ u64 row_mask(int s) const { return masks[s]; }
    __device__ int free_bits() const { return free; }
    /// SkipPer's jump from k (g = gray(k)): the largest next touch of a zero tested row, 0 when
    /// none is zero (lib/exact/ryser/sparse_ryser.cpp, binary_skip_range).
    __device__ u64 skip_target(u64 k, u64 g) const {
        u64 target = 0;
        for (int e = 0; e < tests; ++e) {
            target = max(target, next_touch(k, g, test_masks[e], test_lows[e], test_low_bits[e],
                                            test_counts[e]));
        }
        return target;
    }
    __device__ static u64 next_touch(u64 k, u64 g, u64 mask, u64 low, u64 low_bit, int count) {
        const u64 zero = u64{0} - static_cast<u64>(__popcll(g & mask) == count);
        const u64 x = ~k & low;
        const u64 p = x & (u64{0} - x);
        const u64 join = low_bit & (u64{0} - (((mask & p) - 1) >> 63));
        return (((k | (p - 1)) + 1) | join) & zero;
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

    __device__ GeneratedPattern(const SparseTables&, double*) {}

    __device__ Elem base(int i) const {
        return elem_of<MODE>(G::base_word(kWords * i), kWords == 2 ? G::base_word(kWords * i + 1) : 0.0);
    }
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
    __device__ u64 row_mask(int s) const { return G::mask(s); }
    __device__ int free_bits() const { return G::kFreeBits; }
    template <int E>
    __device__ __forceinline__ static u64 skip_from(u64 k, u64 g, u64 target) {
        if constexpr (E < G::kTests) {
            constexpr u64 mask = G::test_mask[E], low = G::test_low[E], low_bit = G::test_low_bit[E];
            constexpr int count = G::test_count[E];
            target = max(target, TablePattern<N, MODE>::next_touch(k, g, mask, low, low_bit, count));
            return skip_from<E + 1>(k, g, target);
        } else {
            return target;
        }
    }
    __device__ u64 skip_target(u64 k, u64 g) const { return skip_from<0>(k, g, 0); }
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

/// Takes the launch's groups from q.counter, one per warp at a time (as ryser_dense), and calls
/// body(chunk, acc) for each lane's chunk; the warp writes the group's record.
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
        if constexpr (MODE == 4) {
#pragma unroll
            for (int k = 0; k < kMaxPrimes; ++k) {
                acc.sum[k] = 0;
            }
        }
        const u64 chunk = (q.first_group + taken) * kGroupChunks + lane;
        if (chunk < q.chunk_count) {
            body(chunk, acc);
        }
        write_record<MODE>(acc, q, taken);
    }
}

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
    for_each_group<MODE>(q, [&](u64 chunk, typename A::Acc& acc) {
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
            if (b == 0 || (A::kReset && (s & ((u64{1} << kResetLog2) - 1)) == 0)) {
                load(s);
            } else {
                const int j = __ffsll(static_cast<long long>(s)) - 1;
                pattern.apply(j, x, ((gray(s) >> j) & 1) != 0 ? 1.0 : -1.0);
            }
            A::template emit<N, S>(acc, x, 1.0, q);
            SparseSuperBlock<N, MODE, S, P, 1>::run(pattern, x, acc, ((s >> kM) & 1) != 0 ? -1.0 : 1.0, q);
        }
        A::end_block(acc);
    });
}

// ---- SkipPer's 0-1 path --------------------------------------------------------------------------

template <int N, class S, class P>
__global__ void __launch_bounds__(kBlockThreads, S::kMinBlocks)
    skip_binary(const __grid_constant__ Params q, const __grid_constant__ SparseTables t) {
    typedef Arith<4> A;
    extern __shared__ double2 shared_pairs[];
    const P pattern(t, reinterpret_cast<double*>(shared_pairs));
    __syncthreads();
    const u64 steps = u64{1} << (N - 1);
    for_each_group<4>(q, [&](u64 chunk, typename A::Acc& acc) {
        u64 k = chunk << q.chunk_log2;
        const u64 end = min(k + (u64{1} << q.chunk_log2), steps);
        const u64 block = u64{1} << pattern.free_bits();
        while (k < end) {
            const u64 g = gray(k);
            const u64 target = pattern.skip_target(k, g);
            if (target != 0) {
                k = target;
                continue;
            }
            for (u64 i = 0; i < block; ++i) {
                const u64 h = g ^ gray(i);
                double y[N];
#pragma unroll
                for (int s = 0; s < N; ++s) {
                    y[s] = pattern.base(s) + 2.0 * __popcll(h & pattern.row_mask(s));
                }
                A::template emit<N, S>(acc, y, ((k + i) & 1) != 0 ? -1.0 : 1.0, q);
            }
            k += block;
        }
    });
}

}  // namespace pmcount_gpu
