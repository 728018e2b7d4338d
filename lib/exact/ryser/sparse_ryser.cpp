// SpaRyser and SkipPer kernels (see sparse_ryser.hpp), plugged into the shared Ryser driver.
//
// Per chunk [begin, end) of Gray indices:
//   1. load y = y(∅) + Σ_{j ∈ gray(begin)} 2·a_j from the column lists, count its zeros;
//   2. step k flips column ctz(k): only that column's nonzeros change y, and the zero count
//      follows them; the n-fold product is formed only when the count is 0;
//   3. SkipPer, when y has zeros: for each zero row i the next index whose flipped column has a
//      nonzero in row i is  min_b next(k, b)  over the Gray bits b of row i, where next(k, b) is
//      the first index above k with ctz = b; no term is nonzero before the largest of these
//      (every zero row must be touched), so the walk moves there directly, applying
//      gray(k) XOR gray(target) column by column.
// Floating arithmetics recompute y from the columns whenever the walk enters a new block of
// 2^reset_log2 indices, as dense Ryser does, so incremental rounding drift stays bounded.
//
// Workspaces per chunk: y[W], a mask of its zero rows (W ≤ 64). Tables (shared): y(∅)[W]; CSC of the Gray columns
// (slot, 2·a) for the updates; for each slot its Gray bits ascending (the CRS), for the jumps.
#include "exact/ryser/sparse_ryser.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>
#include <type_traits>

#include "core/hash.hpp"
#include "core/stop.hpp"
#include "exact/ryser/gray_code.hpp"
#include "exact/ryser/ryser_driver.hpp"
#include "numeric/int128.hpp"
#include "numeric/sub_block_bits.hpp"

namespace pmcount::exact {

namespace {

template <class Elem>
struct SparseTables {
    int width = 0;
    int gray_bits = 0;
    std::vector<Elem> base;
    std::vector<std::int32_t> col_start;  // gray_bits + 1
    std::vector<std::int32_t> col_slot;
    std::vector<Elem> col_delta;
    std::vector<std::uint64_t> row_mask;  // per slot: the Gray bits with a nonzero in its row
};

/// Whether Arith holds y as exact integers in doubles (ExactLanes): its products may be formed
/// in any order, and a 0-1 matrix's y can be recomputed from counts.
template <class Arith, class = void>
struct ExactIntegerLanes : std::false_type {};
template <class Arith>
struct ExactIntegerLanes<Arith, std::void_t<decltype(Arith::lanes)>> : std::true_type {};

/// The Gray index at which every zero row (bit s of zero_rows) has been touched again: the
/// largest of their next touches (thesis eq. 5.1), at least k + 1.
inline std::uint64_t skip_target(std::uint64_t k, std::uint64_t zero_rows,
                                 const std::uint64_t* row_mask, std::uint64_t end) noexcept {
    std::uint64_t target = k + 1;
    for (std::uint64_t rows = zero_rows; rows != 0 && target < end; rows &= rows - 1) {
        const std::uint64_t mask = row_mask[lowest_set_bit(rows)];
        target = mask == 0 ? end : std::max(target, next_step_flipping(k, mask));
    }
    return std::min(target, end);
}

template <class Arith, int W, bool Skip>
void sparse_range(const Arith& arith, const SparseTables<typename Arith::Elem>& t,
                  std::uint64_t begin, std::uint64_t end, typename Arith::Acc& result) noexcept {
    using Elem = typename Arith::Elem;
    // A local accumulator: neighbouring chunks' accumulators share cache lines, and writing to
    // them term by term from two threads would bounce those lines between cores.
    typename Arith::Acc acc = result;
    static_assert(W <= 64, "zero rows are tracked in one 64-bit mask");
    alignas(64) Elem y[W];
    std::uint64_t zero_rows = 0;   // bit s set ⇔ y[s] is zero
    std::uint64_t loaded = begin;  // index y was last recomputed at (floating resets)

    // Updates touch only the changed column's nonzeros; the product is formed afresh from y
    // when y has no zero. (Keeping exact lane products up to date instead, dividing out the old
    // y_s at every update, measured 2–5× slower: a division per update, on every step, for
    // products that are rarely needed.)
    auto apply = [&](int j, bool add) {
        for (std::int32_t e = t.col_start[static_cast<std::size_t>(j)];
             e < t.col_start[static_cast<std::size_t>(j) + 1]; ++e) {
            const std::int32_t s = t.col_slot[static_cast<std::size_t>(e)];
            Elem& v = y[s];
            const Elem& d = t.col_delta[static_cast<std::size_t>(e)];
            v = add ? arith.add(v, d) : arith.sub(v, d);
            const std::uint64_t bit = std::uint64_t{1} << s;
            zero_rows = Arith::is_zero(v) ? (zero_rows | bit) : (zero_rows & ~bit);
        }
    };
    auto load = [&](std::uint64_t k) {
        std::copy(t.base.begin(), t.base.end(), y);
        for (std::uint64_t g = gray(k); g != 0; g &= g - 1) {
            const int j = lowest_set_bit(g);
            for (std::int32_t e = t.col_start[static_cast<std::size_t>(j)];
                 e < t.col_start[static_cast<std::size_t>(j) + 1]; ++e) {
                Elem& v = y[t.col_slot[static_cast<std::size_t>(e)]];
                v = arith.add(v, t.col_delta[static_cast<std::size_t>(e)]);
            }
        }
        zero_rows = 0;
        for (int s = 0; s < W; ++s) {
            zero_rows |= Arith::is_zero(y[s]) ? std::uint64_t{1} << s : 0;
        }
        loaded = k;
    };
    auto needs_reload = [&](std::uint64_t k) {
        return Arith::reset_log2 > 0 && ((k ^ loaded) >> Arith::reset_log2) != 0;
    };
    auto emit = [&](std::uint64_t k) {
        if (zero_rows != 0) {
            return;
        }
        if ((k & 1) != 0) {
            arith.template accumulate<W, true, true>(acc, y);
        } else {
            arith.template accumulate<W, false, true>(acc, y);
        }
    };

    load(begin);
    emit(begin);
    run::StopPoll stop;
    std::uint64_t k = begin + 1;
    while (k < end) {
        // Pieces of kPollPiece indices (a jump may leave one early), polled between them.
        const std::uint64_t piece_end = poll_piece_end(k, end);
        while (k < piece_end) {
            if (Skip && zero_rows != 0) {
                const std::uint64_t current = k - 1;
                const std::uint64_t target =
                    skip_target(current, zero_rows, t.row_mask.data(), end);
                if (target >= end) {
                    k = end;  // no term left in this chunk
                    break;
                }
                if (needs_reload(target)) {
                    load(target);
                } else {
                    const std::uint64_t to = gray(target);
                    for (std::uint64_t diff = gray(current) ^ to; diff != 0; diff &= diff - 1) {
                        const int b = lowest_set_bit(diff);
                        apply(b, ((to >> b) & 1U) != 0);
                    }
                }
                emit(target);
                k = target + 1;
                continue;
            }
            if (needs_reload(k)) {
                load(k);
            } else {
                const int j = lowest_set_bit(k);
                apply(j, gray_step_adds(k, j));
            }
            emit(k);
            ++k;
        }
        if (stop(kPollPiece)) {
            return;  // a stop was asked for: the chunk is dropped
        }
    }
    result = std::move(acc);
}

/// Blocks of the 0-1 path span at most 2^16 indices (and never more than a chunk).
constexpr int kMaxFreeBits = 16;
/// Terms of a sub-block formed at once (binary_skip_range).
constexpr std::uint64_t kDynamicTile = 64;

/// SkipPer's tables for a 0-1 matrix in exact lanes. Every step changes y_s by ±2, so
///     y_s(k) = y_s(∅) + 2·popcount(gray(k) & row_mask[s]),
/// and y_s = 0 exactly when that popcount is −y_s(∅)/2. Rows with odd y_s(∅) are never zero
/// (about half of them); the others are listed in `test_*`, padded to a multiple of 8 with
/// entries that never match.
struct BinaryTables {
    std::vector<std::uint64_t> row_mask;  // W
    std::vector<double> base;             // W
    std::vector<std::uint64_t> test_mask;
    std::vector<std::int64_t> test_count;
    std::vector<std::uint64_t> test_low;      // mask | bits above its lowest: candidate h
    std::vector<std::uint64_t> test_low_bit;  // the lowest bit of mask
    int free_bits = 0;  // the lowest Gray bits touch no tested row: a visit covers 2^free_bits
    // Sub-blocks of 2^sub_bits terms (numeric/sub_block_bits.hpp): per slot, y is kept (keep 1,
    // drop 0) for the static rows and replaced by 1 (keep 0, drop 1) for the dynamic ones, whose
    // masks and y(∅) are listed apart.
    int sub_bits = 0;
    std::vector<double> keep, drop;  // W
    std::vector<std::uint64_t> dynamic_mask;
    std::vector<double> dynamic_base;
};

/// SkipPer's walk on a 0-1 matrix: a visit tests the rows that can be zero straight from
/// gray(k) (AND, popcount, compare: a few vector instructions), so no y is kept between visits
/// and a jump costs nothing however many columns it flips. Terms form y and its lane products in
/// two interleaved chains per lane (exact: every partial product is an integer below the lane's
/// bound), half the latency of one chain. With sub_bits > 0 a block's terms go by sub-blocks of
/// 2^sub_bits (numeric/sub_block_bits.hpp): the static rows' lanes once per sub-block, the
/// dynamic rows' products of its terms summed exactly in double, and the sum handed to the
/// exact lanes as a fifth factor (1.9–2.5× faster at n = 44 and 48, density 0.1, 2 threads).
template <class Arith, int W>
void binary_skip_range(const Arith& arith, const BinaryTables& t, std::uint64_t begin,
                       std::uint64_t end, typename Arith::Acc& result) noexcept {
    constexpr int L = Arith::lanes;
    static_assert(W % L == 0, "lanes must divide the width");
    typename Arith::Acc acc = result;
    const std::uint64_t* test_mask = t.test_mask.data();
    const std::int64_t* test_count = t.test_count.data();
    const std::uint64_t* test_low = t.test_low.data();
    const std::uint64_t* test_low_bit = t.test_low_bit.data();
    const std::size_t tests = t.test_mask.size();
    const std::uint64_t* row_mask = t.row_mask.data();
    const double* base = t.base.data();
    const std::uint64_t block = std::uint64_t{1} << t.free_bits;
    const std::uint64_t sub_size = std::uint64_t{1} << t.sub_bits;
    const double* keep = t.keep.data();
    const double* drop = t.drop.data();
    const std::uint64_t* dynamic_mask = t.dynamic_mask.data();
    const double* dynamic_base = t.dynamic_base.data();
    const std::size_t dynamic = t.dynamic_mask.size();
    alignas(64) double y[W];
    run::StopPoll stop;
    std::uint64_t k = begin;
    while (k < end) {
        // Pieces of kPollPiece indices (a jump or a block may leave one early), polled between
        // them.
        const std::uint64_t piece_end = poll_piece_end(k, end);
        while (k < piece_end) {
            const std::uint64_t g = gray(k);
            // The largest next touch of a zero row (next_step_flipping, written with p = 2^h so
            // that it vectorises); 0 when no row is zero.
            std::uint64_t target = 0;
            for (std::size_t e = 0; e < tests; ++e) {
                const std::uint64_t zero =
                    std::uint64_t{0} - static_cast<std::uint64_t>(
                                           __builtin_popcountll(g & test_mask[e]) == test_count[e]);
                const std::uint64_t x = ~k & test_low[e];
                const std::uint64_t p = x & (0 - x);
                // p ∉ mask ⇔ (p & mask) − 1 has its top bit set: then the lowest bit joins.
                const std::uint64_t low_bit =
                    test_low_bit[e] & (std::uint64_t{0} - (((test_mask[e] & p) - 1) >> 63));
                target = std::max(target, (((k | (p - 1)) + 1) | low_bit) & zero);
            }
            if (target != 0) {
                k = target;
                continue;
            }
            if (sub_size == 1) {
                for (std::uint64_t i = 0; i < block; ++i) {
                    const std::uint64_t h = g ^ gray(i);
                    for (int s = 0; s < W; ++s) {
                        y[s] = base[s] +
                               2.0 * static_cast<double>(__builtin_popcountll(h & row_mask[s]));
                    }
                    double lane[L];
                    lane_products_two_chains<L, W>(y, lane);
                    if (((k + i) & 1) != 0) {
                        arith.template accumulate_lanes<true>(acc, lane);
                    } else {
                        arith.template accumulate_lanes<false>(acc, lane);
                    }
                }
            } else {
                // Sub-blocks: the static rows' lanes once, the dynamic rows' signed products summed
                // exactly in double (k + b is even, so term i has sign (−1)^i).
                for (std::uint64_t b = 0; b < block; b += sub_size) {
                    const std::uint64_t h = g ^ gray(b);
                    for (int s = 0; s < W; ++s) {
                        y[s] = (base[s] +
                                2.0 * static_cast<double>(__builtin_popcountll(h & row_mask[s]))) *
                                   keep[s] +
                               drop[s];
                    }
                    double lane[L];
                    lane_products_two_chains<L, W>(y, lane);
                    // The dynamic products in tiles of up to 64 terms, row by row, so the loops
                    // over the terms vectorise (popcounts included, with AVX-512); every partial
                    // sum is an integer below 2^53, so the even and odd sums are exact in any
                    // order.
                    double sum = 0;
                    const std::uint64_t tile = std::min(kDynamicTile, sub_size);
                    for (std::uint64_t first = 0; first < sub_size; first += tile) {
                        alignas(64) std::uint64_t codes[kDynamicTile];
                        alignas(64) double term[kDynamicTile];
                        for (std::uint64_t i = 0; i < tile; ++i) {
                            codes[i] = h ^ gray(first + i);
                            term[i] = 1;
                        }
                        for (std::size_t d = 0; d < dynamic; ++d) {
                            const std::uint64_t mask = dynamic_mask[d];
                            const double start = dynamic_base[d];
                            for (std::uint64_t i = 0; i < tile; ++i) {
                                term[i] *= start + 2.0 * static_cast<double>(
                                                             __builtin_popcountll(codes[i] & mask));
                            }
                        }
                        double even = 0, odd = 0;
                        for (std::uint64_t i = 0; i < tile; i += 2) {
                            even += term[i];
                            odd += term[i + 1];
                        }
                        sum += even - odd;
                    }
                    arith.template accumulate_lanes_times<false>(acc, lane, sum);
                }
            }
            k += block;
        }
        if (stop(kPollPiece)) {
            return;  // a stop was asked for: the chunk is dropped
        }
    }
    result = std::move(acc);
}

template <bool Skip>
struct SparseKernel {
    static constexpr const char* name = Skip ? "SkipPer" : "SpaRyser";

    template <class Arith, int W, class Entry, class Start>
    typename Arith::Acc run(const Arith& arith, vertex_t n, const std::vector<int>& slot_row,
                            typename Arith::Elem one, Entry entry, Start start,
                            const run::EngineRun& engine_run) const {
        using Elem = typename Arith::Elem;
        SparseTables<Elem> t;
        t.width = W;
        t.gray_bits = std::max(0, n - 1);
        t.base.assign(static_cast<std::size_t>(W), one);
        t.col_start.assign(static_cast<std::size_t>(t.gray_bits) + 1, 0);
        t.row_mask.assign(static_cast<std::size_t>(W), 0);
        bool binary = true;  // every entry 2·1 (exact lanes only)
        for (int j = 0; j < t.gray_bits; ++j) {
            for (int s = 0; s < W; ++s) {
                const int i = slot_row[static_cast<std::size_t>(s)];
                if (i < 0) {
                    continue;
                }
                const Elem d = entry(i, j);
                if (!Arith::is_zero(d)) {
                    t.col_slot.push_back(s);
                    t.col_delta.push_back(d);
                    t.row_mask[static_cast<std::size_t>(s)] |= std::uint64_t{1} << j;
                    if constexpr (ExactIntegerLanes<Arith>::value) {
                        binary = binary && d == 2.0;
                    }
                }
            }
            t.col_start[static_cast<std::size_t>(j) + 1] = static_cast<std::int32_t>(t.col_slot.size());
        }
        for (int s = 0; s < W; ++s) {
            const int i = slot_row[static_cast<std::size_t>(s)];
            if (i >= 0) {
                t.base[static_cast<std::size_t>(s)] = start(i);
            }
        }
        if constexpr (Skip && ExactIntegerLanes<Arith>::value) {
            if (binary) {
                BinaryTables b;
                b.row_mask = t.row_mask;
                b.base = t.base;
                for (int s = 0; s < W; ++s) {
                    const double y0 = t.base[static_cast<std::size_t>(s)];
                    const std::uint64_t mask = t.row_mask[static_cast<std::size_t>(s)];
                    if (mask != 0 && y0 <= 0 && std::fmod(y0, 2.0) == 0) {
                        const std::uint64_t low_bit = mask & (0 - mask);
                        b.test_mask.push_back(mask);
                        b.test_count.push_back(static_cast<std::int64_t>(-y0 / 2));
                        b.test_low.push_back(mask | ~(2 * low_bit - 1));
                        b.test_low_bit.push_back(low_bit);
                    }
                }
                std::uint64_t tested = 0;
                for (const std::uint64_t mask : b.test_mask) {
                    tested |= mask;
                }
                const int free_limit = std::min(run::chunk_log2_for(t.gray_bits), kMaxFreeBits);
                while (b.free_bits < free_limit && ((tested >> b.free_bits) & 1U) == 0) {
                    ++b.free_bits;
                }
                b.sub_bits = numeric::sub_block_bits(b.base, b.row_mask, b.free_bits);
                const std::uint64_t low = (std::uint64_t{1} << b.sub_bits) - 1;
                for (int s = 0; s < W; ++s) {
                    const bool dynamic = (b.row_mask[static_cast<std::size_t>(s)] & low) != 0;
                    b.keep.push_back(dynamic ? 0.0 : 1.0);
                    b.drop.push_back(dynamic ? 1.0 : 0.0);
                    if (dynamic) {
                        b.dynamic_mask.push_back(b.row_mask[static_cast<std::size_t>(s)]);
                        b.dynamic_base.push_back(b.base[static_cast<std::size_t>(s)]);
                    }
                }
                while (b.test_mask.size() % 8 != 0) {
                    b.test_mask.push_back(0);
                    b.test_count.push_back(-1);
                    b.test_low.push_back(~std::uint64_t{0});
                    b.test_low_bit.push_back(0);
                }
                return driver::accumulate_chunks(
                    arith, t.gray_bits, engine_run,
                    [&](std::uint64_t begin, std::uint64_t end, typename Arith::Acc& acc) {
                        binary_skip_range<Arith, W>(arith, b, begin, end, acc);
                    });
            }
        }
        return driver::accumulate_chunks(
            arith, t.gray_bits, engine_run,
            [&](std::uint64_t begin, std::uint64_t end, typename Arith::Acc& acc) {
                sparse_range<Arith, W, Skip>(arith, t, begin, end, acc);
            });
    }
};

/// Whether every entry is 0 or 1.
template <class T>
bool is_binary(const DenseMatrix<T>& a) {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return std::all_of(a.data().begin(), a.data().end(),
                           [](std::int64_t v) { return v == 0 || v == 1; });
    } else {
        return false;
    }
}

/// Runs f(kernel, column-reordered matrix) for the variant.
template <class T, class F>
auto with_kernel(const DenseMatrix<T>& a, SparseVariant variant, F f) {
    const DenseMatrix<T> ordered =
        a.is_square()
            ? permute_columns(a, sparse_column_order(pattern_of(a), variant, is_binary(a)))
            : a;
    return variant == SparseVariant::skipper ? f(SparseKernel<true>{}, ordered)
                                             : f(SparseKernel<false>{}, ordered);
}

}  // namespace

const char* to_string(SparseVariant variant) noexcept {
    return variant == SparseVariant::skipper ? "skipper" : "sparyser";
}

std::vector<vertex_t> sparse_column_order(const DenseMatrix<std::int64_t>& pattern,
                                          SparseVariant variant, bool binary) {
    const vertex_t n = pattern.cols();
    std::vector<vertex_t> order;
    if (n == 0) {
        return order;
    }
    std::vector<int> count(static_cast<std::size_t>(n), 0);
    for (vertex_t i = 0; i < pattern.rows(); ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            count[static_cast<std::size_t>(j)] += pattern(i, j) != 0 ? 1 : 0;
        }
    }
    // The densest column never flips: it becomes the last (base) column.
    const vertex_t base = static_cast<vertex_t>(
        std::max_element(count.begin(), count.end()) - count.begin());
    std::vector<vertex_t> rest;
    for (vertex_t j = 0; j < n; ++j) {
        if (j != base) {
            rest.push_back(j);
        }
    }
    if (variant == SparseVariant::sparyser) {
        std::stable_sort(rest.begin(), rest.end(), [&](vertex_t x, vertex_t y) {
            return count[static_cast<std::size_t>(x)] < count[static_cast<std::size_t>(y)];
        });
        order = rest;
    } else {
        // Row sets as bit sets: each column's rows, the rows that can be zero (all of them, or on
        // a 0-1 matrix those with an even count: y_i ≡ count mod 2) and the rows touched so far.
        const vertex_t rows = pattern.rows();
        const std::size_t words = (static_cast<std::size_t>(rows) + 63) / 64;
        std::vector<std::uint64_t> col_rows(static_cast<std::size_t>(n) * words, 0);
        std::vector<std::uint64_t> relevant(words, 0), touched(words, 0);
        for (vertex_t i = 0; i < rows; ++i) {
            int r = 0;
            for (vertex_t j = 0; j < n; ++j) {
                if (pattern(i, j) != 0) {
                    col_rows[static_cast<std::size_t>(j) * words + static_cast<std::size_t>(i / 64)] |=
                        std::uint64_t{1} << (i % 64);
                    ++r;
                }
            }
            if (!binary || r % 2 == 0) {
                relevant[static_cast<std::size_t>(i / 64)] |= std::uint64_t{1} << (i % 64);
            }
        }
        auto fresh = [&](vertex_t j) {
            int c = 0;
            for (std::size_t w = 0; w < words; ++w) {
                c += __builtin_popcountll(col_rows[static_cast<std::size_t>(j) * words + w] &
                                         relevant[w] & ~touched[w]);
            }
            return c;
        };
        // Columns without a relevant row never start or end a zero: first (SkipPer's 0-1 path
        // enumerates them in blocks without tests).
        const auto free_end =
            std::stable_partition(rest.begin(), rest.end(), [&](vertex_t j) { return fresh(j) == 0; });
        order.assign(rest.begin(), free_end);
        rest.erase(rest.begin(), free_end);
        while (!rest.empty()) {
            auto best = rest.begin();
            int best_new = 0, best_count = 0;
            for (auto it = rest.begin(); it != rest.end(); ++it) {
                const int f = fresh(*it);
                const int c = count[static_cast<std::size_t>(*it)];
                if (it == rest.begin() || f < best_new || (f == best_new && c < best_count)) {
                    best = it;
                    best_new = f;
                    best_count = c;
                }
            }
            for (std::size_t w = 0; w < words; ++w) {
                touched[w] |= col_rows[static_cast<std::size_t>(*best) * words + w];
            }
            order.push_back(*best);
            rest.erase(best);
        }
    }
    order.push_back(base);
    return order;
}

namespace {

/// The value type the walk estimate sums y in: exact for integers.
template <class T>
using WalkValue = std::conditional_t<std::is_same_v<T, std::int64_t>, numeric::int128_t, T>;

/// The lowest `bits` bits of x in reverse order.
inline std::uint64_t bit_reverse(std::uint64_t x, int bits) noexcept {
    std::uint64_t r = 0;
    for (int i = 0; i < bits; ++i, x >>= 1) {
        r = (r << 1) | (x & 1U);
    }
    return r;
}

/// Knuth's estimate of a backtrack tree's size (Math. Comp. 29, 1975), on SkipPer's walk.
struct TreeEstimate {
    double visits = 0;
    double terms = 0;
    double probes = 0;
    /// The visits' standard error over their mean (infinite when no probe reached a term).
    double relative_error = std::numeric_limits<double>::infinity();
};

/// SkipPer's walk seen as a tree: a node at level b is an aligned block of 2^b Gray indices
/// (prefix p = k >> b), whose Gray bits from b up are gray(p) << b. A row whose lowest Gray bit
/// is b has the same y in the whole block, so a block where one is zero is dead: the walk enters
/// it once and jumps out (one visit), or, when the bit flipped on entering it (b + ctz p) is not
/// in a zero row's mask, the jump that skipped the block before it skips this one too (no
/// visit). Blocks of 2^free_bits live indices are the walk's term visits. A probe descends from
/// the root choosing one live child at random and weighs what it meets by the product of the
/// live children counted on its way: an unbiased estimate of the visits and terms, which on the
/// regular structures where windows miss (tori: terms in 10^−7 of the indices, in clusters the
/// windows never meet) sees the whole depth of the walk in n steps. It leaves out the jumps'
/// landings inside a live block (a row zero at a block's end whose next touch lies inside the
/// next block), an over-estimate of a few percent. `zero_rows(b, g)`: the zero rows whose
/// lowest Gray bit is b at the Gray set g. Probes until the visits' standard error is 10% of
/// their mean, from 2^10 to 2^14 probes (about n·2^15 row tests at most).
template <class ZeroRows>
TreeEstimate tree_estimate(int bits, int free_bits, ZeroRows zero_rows,
                           const std::vector<std::uint64_t>& row_mask, std::uint64_t& state) {
    constexpr double kMinProbes = 0x1p10, kMaxProbes = 0x1p14, kWantedError = 0.1;
    TreeEstimate out;
    double sum = 0, sum_sq = 0, terms = 0;
    for (double probe = 1; probe <= kMaxProbes; ++probe) {
        std::uint64_t p = 0, random = 0;
        int random_left = 0;
        double weight = 1, visits = 0;
        for (int b = bits - 1; b >= free_bits; --b) {
            std::uint64_t live[2];
            int lives = 0;
            for (std::uint64_t child = 2 * p; child <= 2 * p + 1; ++child) {
                const std::uint64_t zeros = zero_rows(b, gray(child) << b);
                if (zeros == 0) {
                    live[lives++] = child;
                    continue;
                }
                bool skipped = false;
                if (child > 0) {
                    const std::uint64_t entered = std::uint64_t{1} << (b + lowest_set_bit(child));
                    for (std::uint64_t z = zeros; z != 0 && !skipped; z &= z - 1) {
                        skipped =
                            (row_mask[static_cast<std::size_t>(lowest_set_bit(z))] & entered) == 0;
                    }
                    if (skipped && b + 1 < bits) {
                        skipped = zero_rows(b + 1, gray(p - 1) << (b + 1)) == 0;
                    }
                }
                visits += skipped ? 0 : weight;
            }
            if (lives == 0) {
                break;
            }
            if (lives == 2) {
                if (random_left == 0) {
                    random = split_mix(state);
                    random_left = 64;
                }
                p = live[random & 1U];
                random >>= 1;
                --random_left;
                weight *= 2;
            } else {
                p = live[0];
            }
            if (b == free_bits) {
                visits += weight;
                terms += std::ldexp(weight, free_bits);
            }
        }
        sum += visits;
        sum_sq += visits * visits;
        const double mean = sum / probe;
        if (probe >= kMinProbes && mean > 0) {
            const double variance = std::max(0.0, sum_sq / probe - mean * mean);
            out.relative_error = std::sqrt(variance / probe) / mean;
            if (out.relative_error <= kWantedError) {
                out.probes = probe;
                break;
            }
        }
        out.probes = probe;
    }
    out.visits = sum / out.probes;
    out.terms = terms / out.probes;
    return out;
}

}  // namespace

// Estimate of SkipPer's walk: its visits (terms, and the indices its jumps land on) and its
// terms, both by walking windows of the Gray code exactly as the engine walks its chunks.
//   - A walk of at most 2^14 row tests (a fraction of a millisecond) is taken whole: exact.
//   - Otherwise 1024 seeded uniform indices decide whether every index is a term; if not, the
//     tree estimate (tree_estimate: Knuth's random descents through the walk's blocks) is taken
//     when its visits have settled to a standard error of 50%. On tori, grids, bands and coupled
//     blocks of order 24–50 and on the random matrices below, visits within 0.85–1.11 of the whole
//     walk and terms within 0.9–1.37 (tori 8×12 and 10×10: 1.6·10^7 and 3.6·10^7 visits against
//     1.87·10^7 and 3.22·10^7, in 0.03–0.05 s). The windows below, the estimate before the
//     tree, met no term on those two tori (10^−7 of the indices, in clusters) and read 0: SkipPer
//     was predicted 0.3 ms for a count of 1–2.5 s (8×16: minutes).
//   - Where the probes have not settled, the pilot's rough term fraction sizes the windows to
//     about 16 expected terms (at most 2^(n−1−22) indices). The windows go one per stratum of the 12 highest Gray bits, in
//     bit-reversed order, each at a seeded random place inside its stratum; the estimate stops
//     where they cover the strata evenly (2^p windows, or whole rounds of 4096), once the row
//     tests reach 1/256 of the walk's estimated visits (its run costs more than that), at least
//     2^13 and at most 2^20. General rows (a sum per entry) get an eighth of those tests.
//   - A window that starts inside a jump does not count its first visit: the engine's walk landed
//     before it. From there the two walks meet at the next term at the latest (no jump passes a
//     term), so a window's terms are exact and its visits off by a couple at most; the spread
//     comes from the few regions that hold the walk's work, and the strata keep every high-bit
//     region in every round.
// On random 0-1 matrices of order 40–48, density 0.1–0.12 (the truth from full walks on 2
// threads, 0.02–30 s): visits and terms within 0.85–1.17 of the truth (one 0.3 s walk 1.38), in
// 2–35 ms. Smaller walks (10–100 ms) read 0.58–2.6. Before (uniform indices for the term
// fraction, visits per term from short walks out of random starts, rows taken as independent
// where terms were rare): 0.17–9.8 for terms, 0.23–8.5 for visits.
template <class T>
SparseWalkEstimate estimate_sparse_walk(const DenseMatrix<T>& a, bool whole) {
    using V = WalkValue<T>;
    SparseWalkEstimate out;
    const vertex_t n = a.rows();
    if (!a.is_square() || n < 2) {
        return out;
    }
    const DenseMatrix<std::int64_t> pattern = pattern_of(a);
    const int bits = n - 1;
    // SpaRyser: column position j flips on a fraction 2^−(j+1) of the steps.
    const std::vector<vertex_t> sorted = sparse_column_order(pattern, SparseVariant::sparyser);
    for (int j = 0; j < bits; ++j) {
        for (vertex_t i = 0; i < n; ++i) {
            out.entries_per_step += std::ldexp(
                static_cast<double>(pattern(i, sorted[static_cast<std::size_t>(j)])), -(j + 1));
        }
    }
    // SkipPer's tables: y_s(k) = base_s + Σ_{j ∈ gray(k)} 2·a_{s, order[j]}.
    const std::vector<vertex_t> order =
        sparse_column_order(pattern, SparseVariant::skipper, is_binary(a));
    std::vector<V> base(static_cast<std::size_t>(n));
    std::vector<std::vector<V>> delta(static_cast<std::size_t>(n));  // row s: its Gray entries
    std::vector<std::uint64_t> row_mask(static_cast<std::size_t>(n), 0);
    out.binary = std::is_same_v<T, std::int64_t>;
    for (vertex_t i = 0; i < n; ++i) {
        V sum{};
        for (vertex_t j = 0; j < n; ++j) {
            sum += static_cast<V>(a(i, j));
        }
        base[static_cast<std::size_t>(i)] =
            static_cast<V>(a(i, order[static_cast<std::size_t>(bits)])) * V(2) - sum;
        for (int j = 0; j < bits; ++j) {
            const T v = a(i, order[static_cast<std::size_t>(j)]);
            if (v != T{}) {
                row_mask[static_cast<std::size_t>(i)] |= std::uint64_t{1} << j;
                delta[static_cast<std::size_t>(i)].push_back(static_cast<V>(v) * V(2));
                out.binary = out.binary && v == T(1);
            }
        }
    }
    // y_s(k) = 0? On 0-1 rows: popcount(gray(k) & mask) = −base/2, tested for the rows with an
    // even base ≤ 0 only (the others are never zero), in a loop that vectorises.
    std::vector<vertex_t> rows;  // rows that can be zero
    std::vector<std::uint64_t> test_mask, test_bit;
    std::vector<std::int64_t> test_count;
    for (vertex_t i = 0; i < n; ++i) {
        const auto s = static_cast<std::size_t>(i);
        if constexpr (std::is_same_v<T, std::int64_t>) {
            if (out.binary) {
                if (base[s] <= 0 && base[s] % 2 == 0) {
                    test_mask.push_back(row_mask[s]);
                    test_count.push_back(static_cast<std::int64_t>(-base[s] / 2));
                    test_bit.push_back(std::uint64_t{1} << i);
                }
                continue;
            }
        }
        rows.push_back(i);
    }
    out.tested_rows = static_cast<int>(test_mask.size());
    // y_i at the Gray set g (only the bits of row_mask[i] matter).
    auto row_is_zero = [&](vertex_t i, std::uint64_t g) {
        const auto s = static_cast<std::size_t>(i);
        V y = base[s];
        std::size_t e = 0;  // delta[s][e] belongs to the e-th set bit of row_mask[s]
        for (std::uint64_t m = row_mask[s]; m != 0; m &= m - 1, ++e) {
            y += delta[s][e] * static_cast<V>(static_cast<int>((g >> lowest_set_bit(m)) & 1U));
        }
        return y == V{};
    };
    // The rows (tests of 0-1 rows, general rows) by their lowest Gray bit, where the tree
    // estimate first knows their value.
    std::vector<std::vector<std::size_t>> tested_at(static_cast<std::size_t>(bits));
    std::vector<std::vector<vertex_t>> rows_at(static_cast<std::size_t>(bits));
    for (std::size_t e = 0; e < test_mask.size(); ++e) {
        if (test_mask[e] != 0) {
            tested_at[static_cast<std::size_t>(lowest_set_bit(test_mask[e]))].push_back(e);
        }
    }
    for (const vertex_t i : rows) {
        const std::uint64_t m = row_mask[static_cast<std::size_t>(i)];
        if (m != 0) {
            rows_at[static_cast<std::size_t>(lowest_set_bit(m))].push_back(i);
        }
    }
    auto zero_rows = [&](std::uint64_t k) {
        const std::uint64_t g = gray(k);
        std::uint64_t zeros = 0;
        for (std::size_t e = 0; e < test_mask.size(); ++e) {
            zeros |= __builtin_popcountll(g & test_mask[e]) == test_count[e] ? test_bit[e] : 0;
        }
        for (const vertex_t i : rows) {
            zeros |= row_is_zero(i, g) ? std::uint64_t{1} << i : 0;
        }
        return zeros;
    };
    auto is_term = [&](std::uint64_t k) { return zero_rows(k) == 0; };
    // The 0-1 path's blocks: the lowest Gray bits that touch no row that can be zero.
    const std::uint64_t steps = std::uint64_t{1} << bits;
    std::uint64_t block = 1;
    if constexpr (std::is_same_v<T, std::int64_t>) {
        std::uint64_t tested = 0;
        for (vertex_t i = 0; i < n; ++i) {
            const auto s = static_cast<std::size_t>(i);
            tested |= base[s] <= 0 && base[s] % 2 == 0 ? row_mask[s] : 0;
        }
        const int limit = out.binary ? std::min(run::chunk_log2_for(bits), kMaxFreeBits) : 0;
        int free_bits = 0;
        for (; free_bits < limit && ((tested >> free_bits) & 1U) == 0; ++free_bits) {
            block *= 2;
        }
        if (out.binary) {
            const std::vector<double> start(base.begin(), base.end());
            out.sub_bits = numeric::sub_block_bits(start, row_mask, free_bits);
            const std::uint64_t low = (std::uint64_t{1} << out.sub_bits) - 1;
            out.dynamic_rows = static_cast<int>(std::count_if(
                row_mask.begin(), row_mask.end(), [&](std::uint64_t m) { return (m & low) != 0; }));
        }
    }
    // One walk over [first, end) as the engine walks a chunk: SkipPer's visits and terms, until
    // the row tests reach `limit` (then false). `counted_start`: whether a jump at `first` is a
    // visit of the engine's walk.
    double tests = 0, term_visits = 0;
    // General rows' tests take microseconds at order 40 and more: 2^17 of them, a second on a
    // busy machine, are polled for a stop.
    pmcount::detail::StopPoll<> stop;
    auto walk = [&](std::uint64_t first, std::uint64_t end, bool counted_start, double limit,
                    double& visits, double& terms) {
        std::uint64_t k = first & ~(block - 1);
        bool counted = counted_start;
        for (; k < end && tests < limit; tests += 1, counted = true) {
            if (stop(static_cast<std::int64_t>(rows.size()) + 1)) {
                pmcount::detail::throw_if_stopped("planning (estimating SkipPer's walk)");
            }
            const std::uint64_t zeros = zero_rows(k);
            if (zeros == 0) {
                visits += 1;
                terms += static_cast<double>(block);
                term_visits += 1;
                k += block;
            } else {
                visits += counted ? 1 : 0;
                k = skip_target(k, zeros, row_mask.data(), steps);
            }
        }
        return k >= end;
    };
    // Row tests: 0-1 rows take a few vector instructions each, general rows a sum per entry.
    const double unit = rows.empty() ? 1.0 : 0.125;
    const double whole_tests = 0x1p14 * unit, min_tests = 0x1p13 * unit, max_tests = 0x1p20 * unit;
    {
        double visits = 0, terms = 0;
        if (walk(0, steps, true, whole ? std::numeric_limits<double>::infinity() : whole_tests,
                 visits, terms)) {
            out.visit_fraction = visits / static_cast<double>(steps);
            out.term_fraction = terms / static_cast<double>(steps);
            return out;
        }
    }
    tests = 0;
    term_visits = 0;
    std::uint64_t state = 0x5ca1ab1e;
    // Either estimate is trusted with the tree's visits known to ±50% (one standard error) or
    // with 64 term visits met in the windows.
    constexpr double kTrustedTreeError = 0.5, kTrustedTermsMet = 64;
    constexpr std::uint64_t kPilot = 1024;
    std::uint64_t hits = 0;
    for (std::uint64_t s = 0; s < kPilot; ++s) {
        hits += is_term(split_mix(state) >> (64 - bits)) ? 1 : 0;
    }
    if (hits == kPilot) {
        return out;  // no zero seen: every index is a term and a visit
    }
    const TreeEstimate tree = tree_estimate(
        bits, lowest_set_bit(block),
        [&](int level, std::uint64_t g) {
            std::uint64_t zeros = 0;
            for (const std::size_t e : tested_at[static_cast<std::size_t>(level)]) {
                zeros |= __builtin_popcountll(g & test_mask[e]) == test_count[e] ? test_bit[e] : 0;
            }
            for (const vertex_t i : rows_at[static_cast<std::size_t>(level)]) {
                zeros |= row_is_zero(i, g) ? std::uint64_t{1} << i : 0;
            }
            return zeros;
        },
        row_mask, state);
    if (tree.relative_error <= kTrustedTreeError) {
        out.visit_fraction = std::min(1.0, tree.visits / static_cast<double>(steps));
        out.term_fraction = std::min(1.0, tree.terms / static_cast<double>(steps));
        out.windows = static_cast<std::uint64_t>(tree.probes);
        out.trusted = true;
        return out;
    }
    constexpr int kStrataBits = 12, kMaxWindowBits = 22;
    constexpr double kTermsPerWindow = 16, kShareOfVisits = 1.0 / 256;
    constexpr std::uint64_t kFirstCheck = 256;
    const double pilot = std::max(1.0, static_cast<double>(hits)) / static_cast<double>(kPilot);
    const int free_bits = lowest_set_bit(block);
    const int window_bits = std::clamp(
        static_cast<int>(
            std::lround(std::log2(kTermsPerWindow * static_cast<double>(block) / pilot))),
        free_bits, bits - std::min(kMaxWindowBits, bits - free_bits));
    const int strata_bits = std::min(kStrataBits, bits - window_bits);
    const int offset_bits = bits - strata_bits - window_bits;
    const std::uint64_t strata_mask = (std::uint64_t{1} << strata_bits) - 1;
    double visits = 0, terms = 0, windows = 0;
    for (std::uint64_t i = 0;; ++i) {
        const std::uint64_t offset = offset_bits > 0 ? split_mix(state) >> (64 - offset_bits) : 0;
        const std::uint64_t first =
            ((bit_reverse(i & strata_mask, strata_bits) << offset_bits) | offset) << window_bits;
        walk(first, first + (std::uint64_t{1} << window_bits), false,
             std::numeric_limits<double>::infinity(), visits, terms);
        windows += 1;
        // Stop only where the windows cover the strata evenly: after 2^p of them, or whole rounds.
        const std::uint64_t done = i + 1;
        if (done < kFirstCheck || ((done & (done - 1)) != 0 && (done & strata_mask) != 0)) {
            continue;
        }
        const double all_visits = visits * std::ldexp(1.0, bits - window_bits) / windows;
        if (tests >= max_tests ||
            (tests >= min_tests && tests >= kShareOfVisits * unit * all_visits)) {
            break;
        }
    }
    const double terms_met = term_visits;
    const double per_index = 1.0 / (windows * std::ldexp(1.0, window_bits));
    out.visit_fraction = std::min(1.0, visits * per_index);
    out.term_fraction = std::min(1.0, terms * per_index);
    out.windows = static_cast<std::uint64_t>(windows);
    // Few terms met: the windows' fractions are a guess (on tori they met none of 10^7).
    out.trusted = terms_met >= kTrustedTermsMet;
    if (!out.trusted && tree.terms > 0) {
        out.visit_fraction = std::min(1.0, tree.visits / static_cast<double>(steps));
        out.term_fraction = std::min(1.0, tree.terms / static_cast<double>(steps));
    }
    return out;
}

template SparseWalkEstimate estimate_sparse_walk(const DenseMatrix<std::int64_t>&, bool);
template SparseWalkEstimate estimate_sparse_walk(const DenseMatrix<double>&, bool);
template SparseWalkEstimate estimate_sparse_walk(const DenseMatrix<std::complex<double>>&, bool);

ExactOutcome sparse_ryser_exact(const DenseMatrix<std::int64_t>& a, bool binary,
                                SparseVariant variant, const run::EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<std::int64_t>& m) {
        return driver::exact_permanent(m, binary, run, kernel);
    });
}

std::uint64_t sparse_ryser_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                                   SparseVariant variant, const run::EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<std::int64_t>& m) {
        return driver::modular_permanent(m, p, run, kernel);
    });
}

FloatOutcome sparse_ryser_real(const DenseMatrix<double>& a, Precision precision,
                               SparseVariant variant, const run::EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<double>& m) {
        return driver::real_permanent(m, precision, run, kernel);
    });
}

FloatOutcome sparse_ryser_complex(const DenseMatrix<std::complex<double>>& a, SparseVariant variant,
                                  const run::EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<std::complex<double>>& m) {
        return driver::complex_permanent(m, run, kernel);
    });
}

}  // namespace pmcount::exact
