// The Gray-code loop of Ryser's formula with the Nijenhuis–Wilf half-sum, written once for every
// arithmetic (modular, double, double-double, complex).
//
// For an n×n matrix A, with y_i(S) = Σ_{j∈S∪{n−1}} a_ij − Σ_{j∉S∪{n−1}} a_ij (twice the
// Nijenhuis–Wilf x_i; an integer whenever A is),
//
//     perm(A) = (−1)^(n−1) / 2^(n−1) · Σ_{S ⊆ {0..n−2}} (−1)^|S| Π_i y_i(S)
//
// (Nijenhuis & Wilf, Combinatorial Algorithms, 1978, ch. 23). Walking S in Gray-code order changes
// y by ±2·column j per step: n additions and one n-fold product per subset, O(2^(n−1)·n) in all.
// Doubling x keeps integer inputs integral, which the modular arithmetic needs.
//
// Arith supplies:
//   Elem                       the type of y_i
//   Acc                        a per-chunk accumulator (even and odd subsets kept apart)
//   reset_log2                 recompute y from the tables every 2^reset_log2 steps (0: never);
//                              bounds floating-point drift of the incremental updates
//   add(a, b), sub(a, b)       Elem arithmetic
//   accumulate<W, Odd>(acc, y) add ±Π_{i<W} y_i to acc (Odd: subset of odd size, sign −)
//
// Rows are padded to a compile-time width W (a multiple of 8): padding rows have y = 1 and
// zero columns, so they change nothing; the fixed width lets the compiler unroll and vectorise.
//
// Both loops poll for a stop (run::StopPoll) and leave the range at once when one is asked for
// (the chunk is then dropped: see run::run_chunks).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "exact/ryser/gray_code.hpp"
#include "exact/ryser/lanes.hpp"
#include "run/session.hpp"

namespace pmcount::exact {

/// y for the empty subset and the per-column steps, padded to `width` rows.
template <class Elem>
struct RyserTables {
    int width = 0;      // W: padded row count
    int gray_bits = 0;  // n − 1: columns walked by the Gray code
    std::vector<Elem> base;   // y_i(∅), size W
    std::vector<Elem> delta;  // 2·a_ij at [j·W + i], j < n − 1
};

/// The loops below run in pieces that end at multiples of kPollPiece steps and poll for a stop
/// between them, so that the steps themselves carry no test.
inline constexpr std::int64_t kPollPiece = std::int64_t{1} << 12;

/// The end of the piece that holds step k (exclusive), at most `end`.
inline std::uint64_t poll_piece_end(std::uint64_t k, std::uint64_t end) noexcept {
    return std::min(end, (k | static_cast<std::uint64_t>(kPollPiece - 1)) + 1);
}

/// Whether Arith takes y as Double8 vectors (Arith::vector_y, accumulate_vector<W, Odd>).
template <class Arith, class = void>
inline constexpr bool kVectorY = false;
template <class Arith>
inline constexpr bool kVectorY<Arith, std::void_t<decltype(Arith::vector_y)>> = Arith::vector_y;

/// ryser_range for double arithmetics that keep y in registers: W/8 vectors updated in place
/// and multiplied without leaving them (the steps and their order are those of ryser_range).
template <class Arith, int W>
void ryser_range_vector(const Arith& arith, const RyserTables<double>& tables,
                        std::uint64_t begin, std::uint64_t end, typename Arith::Acc& acc) noexcept {
    constexpr int V = W / 8;
    const double* base = tables.base.data();
    const double* delta = tables.delta.data();
    Double8 y[V];
    auto add_column = [&](const double* d, bool adds) {
        for (int c = 0; c < V; ++c) {
            Double8 column;
            std::memcpy(&column, d + 8 * c, sizeof column);
            y[c] = adds ? y[c] + column : y[c] - column;
        }
    };
    typename Arith::Acc sum = acc;
    run::StopPoll stop;
    const std::uint64_t block =
        Arith::reset_log2 > 0 ? (std::uint64_t{1} << Arith::reset_log2) : (end - begin);
    for (std::uint64_t block_begin = begin; block_begin < end; block_begin += block) {
        const std::uint64_t block_end = std::min(end, block_begin + block);
        for (int c = 0; c < V; ++c) {
            std::memcpy(&y[c], base + 8 * c, sizeof y[c]);
        }
        for (std::uint64_t g = gray(block_begin); g != 0; g &= g - 1) {
            add_column(delta + static_cast<std::size_t>(lowest_set_bit(g)) * W, true);
        }
        arith.template accumulate_vector<W, false>(sum, y);  // block_begin is even
        for (std::uint64_t k = block_begin + 1; k < block_end;) {
            const std::uint64_t piece_end = poll_piece_end(k, block_end);
            for (; k < piece_end; ++k) {
                const int j = lowest_set_bit(k);
                add_column(delta + static_cast<std::size_t>(j) * W, gray_step_adds(k, j));
                if (k % 2 == 1) {
                    arith.template accumulate_vector<W, true>(sum, y);
                } else {
                    arith.template accumulate_vector<W, false>(sum, y);
                }
            }
            if (stop(kPollPiece)) {
                return;
            }
        }
    }
    acc = std::move(sum);
}

/// ryser_range for the other arithmetics: y in an array, any Elem.
template <class Arith, int W>
void ryser_range_elements(const Arith& arith, const RyserTables<typename Arith::Elem>& tables,
                          std::uint64_t begin, std::uint64_t end,
                          typename Arith::Acc& acc) noexcept {
    using Elem = typename Arith::Elem;
    const Elem* base = tables.base.data();
    const Elem* delta = tables.delta.data();
    alignas(64) Elem y[W];
    // A local accumulator stays in registers; the caller's may alias the tables as far as the
    // compiler knows, which would force a store per step.
    typename Arith::Acc sum = acc;
    run::StopPoll stop;

    auto step = [&](std::uint64_t k) {
        const int j = lowest_set_bit(k);
        const Elem* d = delta + static_cast<std::size_t>(j) * W;
        if (gray_step_adds(k, j)) {
            for (int i = 0; i < W; ++i) {
                y[i] = arith.add(y[i], d[i]);
            }
        } else {
            for (int i = 0; i < W; ++i) {
                y[i] = arith.sub(y[i], d[i]);
            }
        }
    };

    const std::uint64_t block =
        Arith::reset_log2 > 0 ? (std::uint64_t{1} << Arith::reset_log2) : (end - begin);
    for (std::uint64_t block_begin = begin; block_begin < end; block_begin += block) {
        const std::uint64_t block_end = std::min(end, block_begin + block);
        // y = base + Σ_{j ∈ gray(block_begin)} delta_j, summed afresh.
        std::copy(base, base + W, y);
        for (std::uint64_t g = gray(block_begin); g != 0; g &= g - 1) {
            const Elem* d = delta + static_cast<std::size_t>(lowest_set_bit(g)) * W;
            for (int i = 0; i < W; ++i) {
                y[i] = arith.add(y[i], d[i]);
            }
        }
        arith.template accumulate<W, false>(sum, y);  // block_begin is even
        std::uint64_t k = block_begin + 1;
        while (k + 1 < block_end) {
            // (k is odd: the piece holding k + 1 ends after a whole pair)
            const std::uint64_t piece_end = poll_piece_end(k + 1, block_end);
            for (; k + 1 < piece_end; k += 2) {
                step(k);
                arith.template accumulate<W, true>(sum, y);
                step(k + 1);
                arith.template accumulate<W, false>(sum, y);
            }
            if (stop(kPollPiece)) {
                return;
            }
        }
        if (k < block_end) {
            step(k);
            arith.template accumulate<W, true>(sum, y);
        }
    }
    acc = std::move(sum);
}

/// Adds the terms of Gray indices [begin, end) to acc. begin must be even (chunks are aligned).
template <class Arith, int W>
void ryser_range(const Arith& arith, const RyserTables<typename Arith::Elem>& tables,
                 std::uint64_t begin, std::uint64_t end, typename Arith::Acc& acc) noexcept {
    static_assert(W % 8 == 0, "row width must be a multiple of 8");
    if constexpr (kVectorY<Arith>) {
        ryser_range_vector<Arith, W>(arith, tables, begin, end, acc);
    } else {
        ryser_range_elements<Arith, W>(arith, tables, begin, end, acc);
    }
}

/// Calls f(std::integral_constant<int, W>) for the smallest supported W ≥ rows (8, 16, …, 64).
template <class F>
decltype(auto) dispatch_width(int rows, F&& f) {
    switch ((std::max(rows, 1) + 7) / 8) {
        case 1: return f(std::integral_constant<int, 8>{});
        case 2: return f(std::integral_constant<int, 16>{});
        case 3: return f(std::integral_constant<int, 24>{});
        case 4: return f(std::integral_constant<int, 32>{});
        case 5: return f(std::integral_constant<int, 40>{});
        case 6: return f(std::integral_constant<int, 48>{});
        case 7: return f(std::integral_constant<int, 56>{});
        default: return f(std::integral_constant<int, 64>{});
    }
}

inline constexpr int kMaxRyserOrder = 64;

}  // namespace pmcount::exact
