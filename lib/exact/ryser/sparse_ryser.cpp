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
#include <complex>
#include <type_traits>

#include "core/stop.hpp"
#include "exact/ryser/gray_code.hpp"
#include "exact/ryser/ryser_driver.hpp"
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
