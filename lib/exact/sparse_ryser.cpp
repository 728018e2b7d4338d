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
#include "exact/sparse_ryser.hpp"

#include <algorithm>
#include <numeric>
#include <type_traits>

#include "exact/gray_code.hpp"
#include "exact/ryser_driver.hpp"

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
    std::vector<std::int32_t> row_start;  // width + 1
    std::vector<std::int8_t> row_bits;    // Gray bits with a nonzero in the slot's row, ascending
};

/// The first Gray index above k whose step flips bit b (its ctz is b).
inline std::uint64_t next_flip(std::uint64_t k, int b) noexcept {
    const std::uint64_t period = std::uint64_t{2} << b;
    std::uint64_t t = (k & ~(period - 1)) | (std::uint64_t{1} << b);
    return t > k ? t : t + period;
}

/// Whether Arith keeps exact lane products that can be updated one y_i at a time.
template <class Arith, class = void>
struct IncrementalLanes : std::false_type {};
template <class Arith>
struct IncrementalLanes<Arith, std::void_t<decltype(Arith::incremental_lanes)>>
    : std::bool_constant<Arith::incremental_lanes> {};

template <class Arith>
constexpr int incremental_lane_count() {
    if constexpr (IncrementalLanes<Arith>::value) {
        return Arith::lanes;
    } else {
        return 1;
    }
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
    // Exact lane arithmetics: the product of the nonzero y of each lane (slots s ≡ l mod L),
    // kept up to date so that a subset without zeros costs no n-fold product. Every value is an
    // exact integer below 2^53, so dividing out the old y_s is exact; zeros are left out of the
    // product (and counted in zero_rows), so nothing is ever divided by zero.
    constexpr bool kIncremental = IncrementalLanes<Arith>::value;
    constexpr int kLanes = incremental_lane_count<Arith>();
    double lane[kLanes];

    auto apply = [&](int j, bool add) {
        for (std::int32_t e = t.col_start[static_cast<std::size_t>(j)];
             e < t.col_start[static_cast<std::size_t>(j) + 1]; ++e) {
            const std::int32_t s = t.col_slot[static_cast<std::size_t>(e)];
            Elem& v = y[s];
            const Elem& d = t.col_delta[static_cast<std::size_t>(e)];
            const Elem old = v;
            v = add ? arith.add(v, d) : arith.sub(v, d);
            const std::uint64_t bit = std::uint64_t{1} << s;
            zero_rows = Arith::is_zero(v) ? (zero_rows | bit) : (zero_rows & ~bit);
            if constexpr (kIncremental) {
                double& p = lane[s % kLanes];
                if (!Arith::is_zero(old)) {
                    p /= old;
                }
                if (!Arith::is_zero(v)) {
                    p *= v;
                }
            }
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
        if constexpr (kIncremental) {
            std::fill(lane, lane + kLanes, 1.0);
            for (int s = 0; s < W; ++s) {
                if (!Arith::is_zero(y[s])) {
                    lane[s % kLanes] *= y[s];
                }
            }
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
        if constexpr (kIncremental) {
            if ((k & 1) != 0) {
                arith.template accumulate_lanes<true>(acc, lane);
            } else {
                arith.template accumulate_lanes<false>(acc, lane);
            }
        } else if ((k & 1) != 0) {
            arith.template accumulate<W, true, true>(acc, y);
        } else {
            arith.template accumulate<W, false, true>(acc, y);
        }
    };
    // The Gray index at which every zero row of y has been touched again (end if some never is).
    auto skip_target = [&](std::uint64_t k) {
        std::uint64_t target = k + 1;
        for (std::uint64_t rows = zero_rows; rows != 0 && target < end; rows &= rows - 1) {
            const int s = lowest_set_bit(rows);
            std::uint64_t touch = end;
            for (std::int32_t e = t.row_start[static_cast<std::size_t>(s)];
                 e < t.row_start[static_cast<std::size_t>(s) + 1]; ++e) {
                touch = std::min(touch, next_flip(k, t.row_bits[static_cast<std::size_t>(e)]));
            }
            target = std::max(target, touch);
        }
        return std::min(target, end);
    };

    load(begin);
    emit(begin);
    std::uint64_t k = begin + 1;
    while (k < end) {
        if (Skip && zero_rows != 0) {
            const std::uint64_t current = k - 1;
            const std::uint64_t target = skip_target(current);
            if (target >= end) {
                break;  // no term left in this chunk
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
    result = std::move(acc);
}

template <bool Skip>
struct SparseKernel {
    static constexpr const char* name = Skip ? "SkipPer" : "SpaRyser";

    template <class Arith, int W, class Entry, class Start>
    typename Arith::Acc run(const Arith& arith, vertex_t n, const std::vector<int>& slot_row,
                            typename Arith::Elem one, Entry entry, Start start,
                            const EngineRun& engine_run) const {
        using Elem = typename Arith::Elem;
        SparseTables<Elem> t;
        t.width = W;
        t.gray_bits = std::max(0, n - 1);
        t.base.assign(static_cast<std::size_t>(W), one);
        t.col_start.assign(static_cast<std::size_t>(t.gray_bits) + 1, 0);
        std::vector<std::vector<std::int8_t>> bits_of_slot(static_cast<std::size_t>(W));
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
                    bits_of_slot[static_cast<std::size_t>(s)].push_back(static_cast<std::int8_t>(j));
                }
            }
            t.col_start[static_cast<std::size_t>(j) + 1] = static_cast<std::int32_t>(t.col_slot.size());
        }
        t.row_start.assign(1, 0);
        for (int s = 0; s < W; ++s) {
            const int i = slot_row[static_cast<std::size_t>(s)];
            if (i >= 0) {
                t.base[static_cast<std::size_t>(s)] = start(i);
            }
            const auto& bits = bits_of_slot[static_cast<std::size_t>(s)];
            t.row_bits.insert(t.row_bits.end(), bits.begin(), bits.end());
            t.row_start.push_back(static_cast<std::int32_t>(t.row_bits.size()));
        }
        return driver::accumulate_chunks(
            arith, t.gray_bits, engine_run,
            [&](std::uint64_t begin, std::uint64_t end, typename Arith::Acc& acc) {
                sparse_range<Arith, W, Skip>(arith, t, begin, end, acc);
            });
    }
};

/// Columns of `a` permuted by `order` (new position → old column); perm is unchanged.
template <class T>
DenseMatrix<T> permute_columns(const DenseMatrix<T>& a, const std::vector<vertex_t>& order) {
    DenseMatrix<T> out(a.rows(), a.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            out(i, j) = a(i, order[static_cast<std::size_t>(j)]);
        }
    }
    return out;
}

template <class T>
DenseMatrix<std::int64_t> pattern_of(const DenseMatrix<T>& a) {
    DenseMatrix<std::int64_t> p(a.rows(), a.cols());
    for (vertex_t i = 0; i < a.rows(); ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            p(i, j) = a(i, j) != T{} ? 1 : 0;
        }
    }
    return p;
}

/// Runs f(kernel, column-reordered matrix) for the variant.
template <class T, class F>
auto with_kernel(const DenseMatrix<T>& a, SparseVariant variant, F f) {
    const DenseMatrix<T> ordered =
        a.is_square() ? permute_columns(a, sparse_column_order(pattern_of(a), variant)) : a;
    return variant == SparseVariant::skipper ? f(SparseKernel<true>{}, ordered)
                                             : f(SparseKernel<false>{}, ordered);
}

}  // namespace

const char* to_string(SparseVariant variant) noexcept {
    return variant == SparseVariant::skipper ? "skipper" : "sparyser";
}

std::vector<vertex_t> sparse_column_order(const DenseMatrix<std::int64_t>& pattern,
                                          SparseVariant variant) {
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
        std::vector<char> touched(static_cast<std::size_t>(pattern.rows()), 0);
        while (!rest.empty()) {
            auto best = rest.begin();
            int best_new = 0, best_count = 0;
            for (auto it = rest.begin(); it != rest.end(); ++it) {
                int fresh = 0;
                for (vertex_t i = 0; i < pattern.rows(); ++i) {
                    fresh += pattern(i, *it) != 0 && touched[static_cast<std::size_t>(i)] == 0 ? 1 : 0;
                }
                const int c = count[static_cast<std::size_t>(*it)];
                if (it == rest.begin() || fresh < best_new || (fresh == best_new && c < best_count)) {
                    best = it;
                    best_new = fresh;
                    best_count = c;
                }
            }
            for (vertex_t i = 0; i < pattern.rows(); ++i) {
                if (pattern(i, *best) != 0) {
                    touched[static_cast<std::size_t>(i)] = 1;
                }
            }
            order.push_back(*best);
            rest.erase(best);
        }
    }
    order.push_back(base);
    return order;
}

ExactOutcome sparse_ryser_exact(const DenseMatrix<std::int64_t>& a, bool binary,
                                SparseVariant variant, const EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<std::int64_t>& m) {
        return driver::exact_permanent(m, binary, run, kernel);
    });
}

std::uint64_t sparse_ryser_modular(const DenseMatrix<std::int64_t>& a, std::uint64_t p,
                                   SparseVariant variant, const EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<std::int64_t>& m) {
        return driver::modular_permanent(m, p, run, kernel);
    });
}

FloatOutcome sparse_ryser_real(const DenseMatrix<double>& a, Precision precision,
                               SparseVariant variant, const EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<double>& m) {
        return driver::real_permanent(m, precision, run, kernel);
    });
}

FloatOutcome sparse_ryser_complex(const DenseMatrix<std::complex<double>>& a,
                                  SparseVariant variant, const EngineRun& run) {
    return with_kernel(a, variant, [&](auto kernel, const DenseMatrix<std::complex<double>>& m) {
        return driver::complex_permanent(m, run, kernel);
    });
}

}  // namespace pmcount::exact
