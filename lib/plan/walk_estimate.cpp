// The walk estimate (walk_estimate.hpp): SkipPer's walk taken whole, sampled as a tree, or
// walked in windows, with the engine's own column order and jump rule (exact/ryser/
// sparse_ryser.hpp), so that the estimate walks as the engine does.
#include "plan/walk_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/hash.hpp"
#include "core/stop.hpp"
#include "exact/ryser/gray_code.hpp"
#include "exact/ryser/sparse_ryser.hpp"
#include "numeric/int128.hpp"
#include "numeric/sub_block_bits.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::plan {

using exact::gray;
using exact::is_binary;
using exact::kMaxFreeBits;
using exact::lowest_set_bit;
using exact::pattern_of;
using exact::skip_target;
using exact::sparse_column_order;
using exact::SparseVariant;
using run::chunk_log2_for;

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
//     about 16 expected terms (at most 2^(n−1−22) indices). The windows go one per stratum of the
//     12 highest Gray bits, in bit-reversed order, each at a seeded random place inside its
//     stratum; the estimate stops where they cover the strata evenly (2^p windows, or whole rounds
//     of 4096), once the row tests reach 1/256 of the walk's estimated visits (its run costs more
//     than that), at least 2^13 and at most 2^20. General rows (a sum per entry) get an eighth of
//     those tests.
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

}  // namespace pmcount::plan
