// One sample of the four permanent estimators (Rasmussen, Rasmussen+, Scaling, Scaling+), written
// once for the CPU engine (lib/approx/estimate.cpp) and the GPU kernel (cuda/approx_gpu.cu), so
// that both draw the same samples for a seed.
//
// Every estimator expands the permanent along one line of the live submatrix A' at each step:
// perm(A') = Σ_j a'_ij perm(A'_ij). Picking the partner j with probability p_j > 0 for every
// nonzero and multiplying the estimate by a'_ij / p_j gives an unbiased estimate of perm(A)
// after n steps (Rasmussen, Random Struct. Alg. 1994, for 0-1 matrices; Dufossé, Kaya,
// Panagiotas and Uçar, Discrete Appl. Math. 2022, and Kaya's thesis §4 for the variants):
//   rasmussen    rows in order, j uniform among the live nonzeros: p_j = 1/d, factor a_ij·d;
//   rasmussen+   the live line (row or column) with the fewest live nonzeros first, uniform;
//   scaling      rows in order, p_j ∝ a_ij·c_j where r, c scale the live submatrix towards
//                doubly stochastic (Sinkhorn–Knopp, `scale_iters` sweeps every `scale_every`
//                steps, warm-started from the previous scaling; skipped before forced moves);
//   scaling+     fewest-nonzeros line first, scaled choice (p_i ∝ r_i·a_ij for a column).
// Taking the sparsest line first makes a degree-1 line a forced move (its entry lies in every
// perfect matching of A', so the other entries of its partner line lie in none and vanish with
// it) and finds an empty line, i.e. perm(A') = 0, as soon as it appears; expanding along a column
// instead of a row changes nothing in the unbiasedness argument (perm(A) = perm(Aᵀ)).
// The + variants also prune: they keep a perfect matching M of A' and give probability 0 to a
// candidate whose entry lies in no perfect matching of A' (perm(A'_ij) = 0, so dropping it from
// the sum keeps the estimate unbiased), testing each by one alternating-path search. Without it
// most samples on large grids are 0 (92% on the 32×32 grid): a choice that cuts off an odd
// region is only found out many steps later.
//
// Cost per sample: n steps of O(line length) plus, for scaling, O(scale_iters · nnz) per
// rescale and, for the + variants, an O(n) scan for the sparsest line (stopping at degree 1).
// The result is log(estimate), −inf for a zero sample; exact in the sense that the product of
// the factors is accumulated as a sum of their logs, so nothing overflows.
//
// Workspace (per sample, O(n)): live rows and columns as bitsets of 32-bit words, row and column
// scales (0 on dead lines, so the Sinkhorn sums skip dead entries without a bitset test), live
// degrees (+ variants), and for pruning a perfect matching of the live submatrix with a queue,
// visit stamps and parents for the alternating-path search. The GPU stores it interleaved across
// threads, the CPU contiguously; both satisfy the accessors used below.
#pragma once

#include <climits>
#include <cmath>
#include <cstdint>

#include "approx/philox.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {

struct SamplerConfig {
    bool sparsest_line = false;  ///< + variants: the line with the fewest live nonzeros first
    bool scaled = false;         ///< Scaling variants: choose proportionally to the scaled entry
    int scale_every = 1;         ///< rescale before every scale_every-th step (step 0 excepted)
    int scale_iters = 1;         ///< Sinkhorn–Knopp sweeps (row pass + column pass) per rescale
    /// + variants: keep a perfect matching of the live submatrix and never choose an entry that
    /// lies in none (checked on lines of at most kPruneMaxDegree live entries).
    bool prune = false;
    /// Populations of scaling estimators: compute log_potential() at the end of each advance,
    /// raised to the power potential_exponent (log Φ × potential_exponent).
    bool potential = false;
    double potential_exponent = 1;
    std::uint64_t seed = 0;
};

/// Lines with more live entries than this are not pruned: their candidates would cost one
/// search each, and an entry in no perfect matching is rare among many. The choice stays
/// unbiased either way; a chosen entry that turns out to lie in no perfect matching ends the
/// sample as a zero at once.
constexpr std::int32_t kPruneMaxDegree = 8;

/// The state every sample starts from: the scaling of the whole matrix (computed once, to
/// convergence) and the nonzeros per line.
struct SamplerStart {
    const double* row_scale = nullptr;
    const double* col_scale = nullptr;
    const std::int32_t* row_degree = nullptr;
    const std::int32_t* col_degree = nullptr;
    /// A perfect matching (prune): the column of each row and the row of each column.
    const vertex_t* row_match = nullptr;
    const vertex_t* col_match = nullptr;
};

/// CSR and CSC of the positive entries (the CSC values duplicated so a column walk reads no
/// indirection).
struct SparseView {
    vertex_t n = 0;
    const std::int64_t* row_ptr = nullptr;
    const vertex_t* col_idx = nullptr;
    const double* row_val = nullptr;
    const std::int64_t* col_ptr = nullptr;
    const vertex_t* row_idx = nullptr;
    const double* col_val = nullptr;

    PMCOUNT_HOST_DEVICE vertex_t order() const noexcept { return n; }
    template <class F>
    PMCOUNT_HOST_DEVICE void for_row(vertex_t i, F&& f) const noexcept {
        for (std::int64_t e = row_ptr[i]; e < row_ptr[i + 1]; ++e) {
            f(col_idx[e], row_val[e]);
        }
    }
    template <class F>
    PMCOUNT_HOST_DEVICE void for_col(vertex_t j, F&& f) const noexcept {
        for (std::int64_t e = col_ptr[j]; e < col_ptr[j + 1]; ++e) {
            f(row_idx[e], col_val[e]);
        }
    }
};

/// Row-major n×n entries; zeros are skipped on the fly.
struct DenseView {
    vertex_t n = 0;
    const double* a = nullptr;

    PMCOUNT_HOST_DEVICE vertex_t order() const noexcept { return n; }
    template <class F>
    PMCOUNT_HOST_DEVICE void for_row(vertex_t i, F&& f) const noexcept {
        const double* row = a + static_cast<std::int64_t>(i) * n;
        for (vertex_t j = 0; j < n; ++j) {
            if (row[j] != 0) {
                f(j, row[j]);
            }
        }
    }
    template <class F>
    PMCOUNT_HOST_DEVICE void for_col(vertex_t j, F&& f) const noexcept {
        for (vertex_t i = 0; i < n; ++i) {
            const double v = a[static_cast<std::int64_t>(i) * n + j];
            if (v != 0) {
                f(i, v);
            }
        }
    }
};

namespace detail {

/// Index of the lowest set bit of a nonzero word.
PMCOUNT_HOST_DEVICE inline vertex_t lowest_bit(std::uint32_t bits) noexcept {
#if defined(__CUDA_ARCH__)
    return __ffs(static_cast<int>(bits)) - 1;
#else
    return __builtin_ctz(bits);
#endif
}

template <class Workspace>
PMCOUNT_HOST_DEVICE inline bool row_live(Workspace& w, vertex_t i) noexcept {
    return ((w.row_live(i >> 5) >> (i & 31)) & 1u) != 0;
}
template <class Workspace>
PMCOUNT_HOST_DEVICE inline bool col_live(Workspace& w, vertex_t j) noexcept {
    return ((w.col_live(j >> 5) >> (j & 31)) & 1u) != 0;
}

enum class Rescale { ok, empty_line };

enum class Sweep { ok, degenerate, empty_line };

/// One half of a Sinkhorn–Knopp sweep: scale = 1 / Σ a·(partner's scale) for every live line of
/// one side, in index order (so the threads of a GPU warp walk the same lines together).
/// `for_line(k, f)` walks line k's entries (partner, value); `live` and `partner_live` test
/// lines of this side and the other; `scale` and `partner_scale` are their scales. A sum that
/// is not a positive finite number stops the pass: empty_line when the line has no live entry.
template <class ForLine, class Live, class PartnerLive, class Scale, class PartnerScale>
PMCOUNT_HOST_DEVICE Sweep half_sweep(vertex_t n, ForLine&& for_line, Live&& live,
                                     PartnerLive&& partner_live, Scale&& scale,
                                     PartnerScale&& partner_scale) noexcept {
    for (vertex_t k = 0; k < n; ++k) {
        if (!live(k)) {
            continue;
        }
        double s = 0;
        for_line(k, [&](vertex_t p, double v) { s += v * partner_scale(p); });
        if (s > 0 && s < HUGE_VAL) {
            scale(k) = 1 / s;
            continue;
        }
        bool any = false;
        for_line(k, [&](vertex_t p, double) { any = any || partner_live(p); });
        return any ? Sweep::degenerate : Sweep::empty_line;
    }
    return Sweep::ok;
}

/// `iters` Sinkhorn–Knopp sweeps over the live submatrix: r_i = 1 / Σ_j a_ij c_j, then
/// c_j = 1 / Σ_i a_ij r_i. Dead lines have scale 0 and stay so. A live line whose sum is 0 and
/// that has no live entry means perm(live submatrix) = 0 (empty_line). A sum that under- or
/// overflowed (possible only far from total support) resets the live scales to 1: any positive
/// weights keep the estimator unbiased, only its variance depends on them.
template <class Matrix, class Workspace>
PMCOUNT_HOST_DEVICE Rescale sinkhorn(const Matrix& a, Workspace& w, int iters) noexcept {
    const vertex_t n = a.order();
    auto rows = [&](vertex_t i, auto&& f) { a.for_row(i, f); };
    auto cols = [&](vertex_t j, auto&& f) { a.for_col(j, f); };
    auto is_row_live = [&](vertex_t i) { return row_live(w, i); };
    auto is_col_live = [&](vertex_t j) { return col_live(w, j); };
    auto row_scale = [&](vertex_t i) -> double& { return w.row_scale(i); };
    auto col_scale = [&](vertex_t j) -> double& { return w.col_scale(j); };
    Sweep sweep = Sweep::ok;
    for (int it = 0; it < iters && sweep == Sweep::ok; ++it) {
        sweep = half_sweep(n, rows, is_row_live, is_col_live, row_scale, col_scale);
        if (sweep == Sweep::ok) {
            sweep = half_sweep(n, cols, is_col_live, is_row_live, col_scale, row_scale);
        }
    }
    if (sweep == Sweep::empty_line) {
        return Rescale::empty_line;
    }
    if (sweep == Sweep::degenerate) {
        for (vertex_t k = 0; k < n; ++k) {
            w.row_scale(k) = row_live(w, k) ? 1.0 : 0.0;
            w.col_scale(k) = col_live(w, k) ? 1.0 : 0.0;
        }
    }
    return Rescale::ok;
}

/// Picks a partner on a line. `for_line` walks the line's entries (partner, value); `live` says
/// whether a partner is live; `scale` is the partner's scale (scaled estimators). Returns the
/// partner (−1: no live entry) and adds log(a / p) to log_estimate.
template <class ForLine, class Live, class Scale>
PMCOUNT_HOST_DEVICE vertex_t choose_partner(ForLine&& for_line, Live&& live, Scale&& scale,
                                            bool scaled, double u, double& log_estimate) noexcept {
    double total = 0;
    std::int32_t count = 0;
    for_line([&](vertex_t k, double v) {
        if (live(k)) {
            total += scaled ? v * scale(k) : 1.0;
            ++count;
        }
    });
    if (count == 0) {
        return -1;
    }
    // Scaled weights that vanished or overflowed fall back to the uniform choice (still unbiased).
    const bool by_scale = scaled && total > 0 && total < HUGE_VAL;
    const double target = u * (by_scale ? total : static_cast<double>(count));
    // The first entry whose cumulative weight exceeds the target; the last entry of positive
    // weight catches a target that rounding left at or above the cumulative sum.
    double cumulative = 0;
    vertex_t chosen = -1, last = -1;
    double chosen_value = 0, chosen_weight = 0, last_value = 0, last_weight = 0;
    for_line([&](vertex_t k, double v) {
        if (!live(k)) {
            return;
        }
        const double weight = by_scale ? v * scale(k) : 1.0;
        cumulative += weight;
        if (weight > 0) {
            if (chosen < 0 && target < cumulative) {
                chosen = k;
                chosen_value = v;
                chosen_weight = weight;
            }
            last = k;
            last_value = v;
            last_weight = weight;
        }
    });
    if (chosen < 0) {
        if (last < 0) {
            return -1;
        }
        chosen = last;
        chosen_value = last_value;
        chosen_weight = last_weight;
    }
    log_estimate += by_scale ? ::log(chosen_value) + ::log(total) - ::log(chosen_weight)
                             : ::log(chosen_value * static_cast<double>(count));
    return chosen;
}

/// With M the perfect matching of the live submatrix (w.row_match / w.col_match) and (i, j) a
/// live entry not in M: whether the live submatrix without row i and column j still has a perfect
/// matching, i.e. whether an M-alternating path leads from row M(j) to column M(i) avoiding i
/// and j (one breadth-first search as in Hopcroft–Karp; O(live entries) at worst, a few
/// neighbourhoods on lattices). With `augment`, M is updated along the path to a perfect matching
/// of the remainder (i and j are left to be deleted). `stamp` must differ from every earlier
/// search's in this sample.
template <class Matrix, class Workspace>
PMCOUNT_HOST_DEVICE bool alternating_path(const Matrix& a, Workspace& w, vertex_t i, vertex_t j,
                                          std::int32_t stamp, bool augment) noexcept {
    const vertex_t start = w.col_match(j), target = w.row_match(i);
    std::int32_t head = 0, tail = 0;
    w.queue(tail++) = start;
    w.row_stamp(start) = stamp;
    vertex_t end_row = -1;
    while (head < tail && end_row < 0) {
        const vertex_t r = w.queue(head++);
        a.for_row(r, [&](vertex_t c, double) {
            if (end_row >= 0 || c == j || !col_live(w, c)) {
                return;
            }
            if (c == target) {
                end_row = r;
                return;
            }
            // c is live and neither j nor M(i), so its partner is a live row other than i.
            const vertex_t next = w.col_match(c);
            if (w.row_stamp(next) != stamp) {
                w.row_stamp(next) = stamp;
                w.row_parent(next) = r;
                w.queue(tail++) = next;
            }
        });
    }
    if (end_row < 0) {
        return false;
    }
    if (augment) {
        // Rows r_0 = start, …, r_k = end_row: r_k takes M(i), each r_m−1 the old column of r_m.
        vertex_t r = end_row, c = target;
        while (true) {
            const vertex_t previous = w.row_match(r);
            w.row_match(r) = c;
            w.col_match(c) = r;
            if (r == start) {
                break;
            }
            c = previous;
            r = w.row_parent(r);
        }
    }
    return true;
}

/// log Φ of the live submatrix A' from its current scales r, c: Φ = Π 1/r_i · Π 1/c_j ·
/// Π over live entries (1 − b_ij)^(1 − b_ij), b = r_i a_ij c_j — the matrix-scaling estimate of
/// perm(A') corrected by Schrijver's and Gurvits' factor for the doubly stochastic B (perm(B) ≥
/// Π (1 − b)^(1 − b)), which sees how constrained the live region is (an entry with b = 1 is
/// forced and adds nothing; a region of free choices lowers Φ). Any positive function of the
/// state keeps populations unbiased (population.hpp); this one ranks particles by how much the
/// part still to be matched is likely to contribute. Entries with b ≥ 1 (scales not converged)
/// contribute 0. Φ of the empty matrix is 1.
template <class Matrix, class Workspace>
PMCOUNT_HOST_DEVICE double log_potential(const Matrix& a, Workspace& w) noexcept {
    const vertex_t n = a.order();
    double log_phi = 0;
    for (vertex_t i = 0; i < n; ++i) {
        if (!row_live(w, i)) {
            continue;
        }
        const double r = w.row_scale(i);
        log_phi -= ::log(r);
        a.for_row(i, [&](vertex_t j, double v) {
            if (col_live(w, j)) {
                const double b = r * v * w.col_scale(j);
                if (b < 1) {
                    log_phi += (1 - b) * ::log1p(-b);
                }
            }
        });
    }
    for (vertex_t j = 0; j < n; ++j) {
        if (col_live(w, j)) {
            log_phi -= ::log(w.col_scale(j));
        }
    }
    return log_phi;
}

}  // namespace detail

/// Where a sample stands between calls of advance_sample(): the next step (n when done), the log
/// of the product of its factors so far (−inf: the sample is 0, and done), and its counters.
/// Particle populations (estimate.cpp) copy it with the workspace when they resample.
struct SampleCursor {
    double log_estimate = 0;
    /// Populations: log Φ of the live submatrix after the last advance (log_potential()), 0
    /// once the sample is done.
    double log_potential = 0;
    vertex_t step = 0;
    std::int32_t searches = 0;             ///< alternating-path searches so far (their stamps)
    std::int32_t steps_since_scaling = -1;  ///< the start scaling is exact for step 0
};

/// Puts a sample at step 0: every line live, the start scaling, degrees and matching.
template <class Workspace>
PMCOUNT_HOST_DEVICE void begin_sample(vertex_t n, const SamplerStart& start,
                                      const SamplerConfig& config, Workspace& w,
                                      SampleCursor& cursor) noexcept {
    // Phase 1: every line live, the start scaling and degrees.
    const vertex_t words = (n + 31) / 32;
    for (vertex_t k = 0; k < words; ++k) {
        const vertex_t bits = n - 32 * k;
        const std::uint32_t mask = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
        w.row_live(k) = mask;
        w.col_live(k) = mask;
    }
    for (vertex_t k = 0; k < n; ++k) {
        if (config.scaled) {
            w.row_scale(k) = start.row_scale[k];
            w.col_scale(k) = start.col_scale[k];
        }
        if (config.sparsest_line) {
            w.row_degree(k) = start.row_degree[k];
            w.col_degree(k) = start.col_degree[k];
        }
        if (config.prune) {
            w.row_match(k) = start.row_match[k];
            w.col_match(k) = start.col_match[k];
            w.row_stamp(k) = -1;
        }
    }
    cursor = SampleCursor{};
}

/// Takes the sample's steps up to (not including) step `until` or its end; a zero sample ends
/// at once with log_estimate = −inf. `sample` is the sample's index: its random draws are
/// Philox(seed; step, 0, sample).
template <class Matrix, class Workspace>
PMCOUNT_HOST_DEVICE void advance_sample(const Matrix& a, const SamplerConfig& config,
                                        Workspace& w, SampleCursor& cursor, std::uint64_t sample,
                                        vertex_t until) noexcept {
    const vertex_t n = a.order();
    const vertex_t words = (n + 31) / 32;
    if (until > n) {
        until = n;
    }
    std::int32_t searches = cursor.searches;
    double log_estimate = cursor.log_estimate;
    int steps_since_scaling = cursor.steps_since_scaling;
    vertex_t step = cursor.step;
    // A zero sample jumps to the end.
    auto zero = [&] {
        cursor.log_estimate = -HUGE_VAL;
        cursor.step = n;
    };
    for (; step < until; ++step) {
        // Phase 2: the line to expand and its live degree. Ties go to the lowest row, then the
        // lowest column; a degree-1 line is taken at once (only an empty line is sparser).
        bool along_row = true;
        vertex_t line = step;
        std::int32_t degree = 0;
        if (config.sparsest_line) {
            // Word by word through the live bits, so dead lines cost 1/32 each.
            degree = INT_MAX;
            for (vertex_t k = 0; k < words && degree > 1; ++k) {
                for (std::uint32_t bits = w.row_live(k); bits != 0 && degree > 1;
                     bits &= bits - 1) {
                    const vertex_t i = 32 * k + detail::lowest_bit(bits);
                    if (w.row_degree(i) < degree) {
                        degree = w.row_degree(i);
                        line = i;
                    }
                }
            }
            for (vertex_t k = 0; k < words && degree > 1; ++k) {
                for (std::uint32_t bits = w.col_live(k); bits != 0 && degree > 1;
                     bits &= bits - 1) {
                    const vertex_t j = 32 * k + detail::lowest_bit(bits);
                    if (w.col_degree(j) < degree) {
                        degree = w.col_degree(j);
                        line = j;
                        along_row = false;
                    }
                }
            }
        } else {
            a.for_row(line, [&](vertex_t j, double) { degree += detail::col_live(w, j) ? 1 : 0; });
        }
        if (degree == 0) {
            return zero();
        }
        // Phase 3: rescale the live submatrix, at most every scale_every steps and only before a
        // real choice: a forced move (degree 1) has p = 1 whatever the scaling.
        ++steps_since_scaling;
        if (config.scaled && degree > 1 && steps_since_scaling >= config.scale_every) {
            steps_since_scaling = 0;
            if (detail::sinkhorn(a, w, config.scale_iters) == detail::Rescale::empty_line) {
                return zero();
            }
        }
        // Phase 4a (prune): the candidates whose entry lies in no perfect matching of the live
        // submatrix, found against the matching kept in the workspace.
        vertex_t excluded[kPruneMaxDegree];
        std::int32_t excluded_count = 0;
        if (config.prune && degree > 1 && degree <= kPruneMaxDegree) {
            auto check = [&](vertex_t r, vertex_t c, vertex_t partner) {
                if (w.row_match(r) != c &&
                    !detail::alternating_path(a, w, r, c, searches++, false)) {
                    excluded[excluded_count++] = partner;
                }
            };
            if (along_row) {
                a.for_row(line, [&](vertex_t j, double) {
                    if (detail::col_live(w, j)) {
                        check(line, j, j);
                    }
                });
            } else {
                a.for_col(line, [&](vertex_t i, double) {
                    if (detail::row_live(w, i)) {
                        check(i, line, i);
                    }
                });
            }
        }
        auto allowed = [&](vertex_t partner) {
            for (std::int32_t k = 0; k < excluded_count; ++k) {
                if (excluded[k] == partner) {
                    return false;
                }
            }
            return true;
        };
        // Phase 4b: the partner, with probability 1/d or proportional to its scaled entry.
        const double u = uniform01(config.seed, sample, static_cast<std::uint32_t>(step));
        vertex_t row = line, col = line;
        if (along_row) {
            col = detail::choose_partner(
                [&](auto&& f) { a.for_row(line, f); },
                [&](vertex_t j) { return detail::col_live(w, j) && allowed(j); },
                [&](vertex_t j) { return w.col_scale(j); }, config.scaled, u, log_estimate);
            if (col < 0) {
                return zero();
            }
        } else {
            row = detail::choose_partner(
                [&](auto&& f) { a.for_col(line, f); },
                [&](vertex_t i) { return detail::row_live(w, i) && allowed(i); },
                [&](vertex_t i) { return w.row_scale(i); }, config.scaled, u, log_estimate);
            if (row < 0) {
                return zero();
            }
        }
        // Phase 4c (prune): carry the matching over to the remainder; an unpruned line's choice
        // may leave none, and then the sample is 0.
        if (config.prune && w.row_match(row) != col &&
            !detail::alternating_path(a, w, row, col, searches++, true)) {
            return zero();
        }
        // Phase 5: delete the row and the column; their live neighbours lose one nonzero.
        w.row_live(row >> 5) &= ~(1u << (row & 31));
        w.col_live(col >> 5) &= ~(1u << (col & 31));
        if (config.scaled) {
            w.row_scale(row) = 0;
            w.col_scale(col) = 0;
        }
        if (config.sparsest_line) {
            a.for_row(row, [&](vertex_t j, double) {
                if (detail::col_live(w, j)) {
                    --w.col_degree(j);
                }
            });
            a.for_col(col, [&](vertex_t i, double) {
                if (detail::row_live(w, i)) {
                    --w.row_degree(i);
                }
            });
        }
    }
    cursor.log_estimate = log_estimate;
    cursor.step = step;
    cursor.searches = searches;
    cursor.steps_since_scaling = steps_since_scaling;
    cursor.log_potential = config.potential && step < n
                               ? config.potential_exponent * detail::log_potential(a, w)
                               : 0.0;
}

/// log of one sample of the estimator `config` describes (−inf for a zero sample), drawn with
/// the random numbers of sample index `sample`.
template <class Matrix, class Workspace>
PMCOUNT_HOST_DEVICE double sample_log_estimate(const Matrix& a, const SamplerStart& start,
                                               const SamplerConfig& config, Workspace& w,
                                               std::uint64_t sample) noexcept {
    SampleCursor cursor;
    begin_sample(a.order(), start, config, w, cursor);
    advance_sample(a, config, w, cursor, sample, a.order());
    return cursor.log_estimate;
}

}  // namespace pmcount::approx
