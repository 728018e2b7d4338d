// One sample of the monomer–dimer estimator, written once for CPU threads
// (lib/approx/monomer_dimer.cpp) and the GPU kernel (cuda/monomer_dimer_gpu.cu), so that both
// draw the same samples for a seed.
//
// Z(x) = Σ_M Π_{e∈M} a_e · x^(n−2|M|) over the matchings M of a graph (x > 0 the monomer weight;
// x = 1 and unit weights: the number of matchings, the Hosoya index) satisfies, for any vertex v
// of a graph G,
//     Z(G) = x·Z(G − v) + Σ_{u~v} a_vu · Z(G − v − u).
// A sample takes the vertices in a fixed order (the sweep: vertex t at step t, the labels being
// the positions), and at a vertex still free leaves it single with probability q_0/Q or matches
// it to a free neighbour u with probability q_u/Q, multiplying its estimate by (term)/(q/Q); the
// product over the n steps is an unbiased estimate of Z for any positive q. With x > 0 nothing
// is ever a dead end: every partial choice extends, so no sample is 0.
//
// x = 0 counts perfect matchings (the bethe estimator, EstimateOptions::bethe): v must be
// matched; a free neighbour with no other free neighbour is a forced move (two such, or none at
// all, end the sample as 0), and after each step a neighbour of v or of its partner left without
// free neighbours ends it as 0 — a stranded vertex is found where it appears, not at its turn.
// The choice mixes in a share kDefensiveShare drawn in proportion to the plain weights, so that
// no weight exceeds 1/γ times the plain rule's even where the guide is poor.
//
// The proposal follows the Bethe approximation (belief propagation for monomer–dimer, exact on
// trees; Bayati, Gamarnik, Katz, Nair and Tetali, STOC 2007): with R_{w→u} ≈ Z(G−u−w)/Z(G−u)
// the fixed point of R_{w→u} = 1/(x + Σ_{y~w, y≠u} a_wy R_{y→w}) on the whole graph (computed
// once), q_0 = x and q_u = a_vu·ρ_u with ρ_u = 1/(x + Σ a_uw R_{w→u}) over the neighbours w of u
// still free — ρ_u estimates Z(G'−v−u)/Z(G'−v) for the graph G' of free vertices, so that
// q/Q estimates the exact conditional probability and the factors Q (single) and Q/ρ_u (matched)
// each estimate a ratio Z(G')/Z(G' after the step). At x = 0 the messages are those of a small
// positive x' (monomer_dimer.cpp). Cost per step: deg(v)·deg(u).
//
// Populations (population.hpp) resample on the twisted weight w·Φ^e with Φ = Π R_u over the
// vertices that an earlier match took ahead of the sweep (R_u = 1/(x + Σ_w a_uw R_{w→u}), the
// Bethe estimate of Z(G−u)/Z(G)): particles then compare as if their futures were equally free.
// Φ is 1 once the sweep is done.
#pragma once

#include <cmath>
#include <cstdint>

#include "approx/philox.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {

/// The graph in sweep order (vertex t is taken at step t): CSR of both directions of each
/// positive edge, the Bethe messages and the static ratios.
struct MonomerDimerView {
    vertex_t n = 0;
    double monomer = 1;  ///< x ≥ 0 (0: perfect matchings)
    const std::int64_t* offsets = nullptr;
    const vertex_t* neighbours = nullptr;
    const double* weights = nullptr;
    /// incoming[e] for the entry e = (v, u) of v's list: R_{u→v}.
    const double* incoming = nullptr;
    /// log R_v = −log(x + Σ_u a_vu R_{u→v}), the potential's factor for a vertex taken early.
    const double* log_ratio = nullptr;
};

/// A sample between calls of monomer_dimer_advance(): the next step, the log of its factors
/// since it was last selected, and log Φ (the sum of log R_u over the vertices taken ahead).
struct MonomerDimerCursor {
    double log_estimate = 0;
    double log_taken = 0;
    vertex_t step = 0;
};

/// Perfect matchings (x = 0): the share of each choice drawn in proportion to the plain weights
/// rather than the guide's (defensive importance sampling; Hesterberg 1995).
constexpr double kDefensiveShare = 0.1;

namespace detail {

template <class Live>
PMCOUNT_HOST_DEVICE inline bool md_free(Live& live, vertex_t v) noexcept {
    return ((live(v >> 5) >> (v & 31)) & 1u) != 0;
}
template <class Live>
PMCOUNT_HOST_DEVICE inline void md_take(Live& live, vertex_t v) noexcept {
    live(v >> 5) &= ~(1u << (v & 31));
}

/// 1/ρ_u = x + Σ a_uw R_{w→u} over the free neighbours w of u, and whether u has one (at x = 0,
/// a u without one can only be matched now, or never). The messages are positive (clamped when
/// set up), so the sum is positive where either x or a free neighbour is.
template <class Live>
PMCOUNT_HOST_DEVICE inline double md_guide_sum(const MonomerDimerView& g, Live& live, vertex_t u,
                                               bool& any) noexcept {
    double s = g.monomer;
    any = false;
    for (std::int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        if (md_free(live, g.neighbours[e])) {
            s += g.weights[e] * g.incoming[e];
            any = true;
        }
    }
    return s;
}

/// Perfect matchings (x = 0): whether some free neighbour of v has no free neighbour left, so
/// that no perfect matching of the free vertices remains.
template <class Live>
PMCOUNT_HOST_DEVICE inline bool md_strands_a_neighbour(const MonomerDimerView& g, Live& live,
                                                       vertex_t v) noexcept {
    for (std::int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
        const vertex_t w = g.neighbours[e];
        bool any = false;
        if (md_free(live, w)) {
            md_guide_sum(g, live, w, any);
            if (!any) {
                return true;
            }
        }
    }
    return false;
}

}  // namespace detail

/// Puts a sample at step 0: every vertex free. `live(k)` is the sample's k-th word of free bits.
template <class Live>
PMCOUNT_HOST_DEVICE void monomer_dimer_begin(vertex_t n, Live&& live,
                                             MonomerDimerCursor& cursor) noexcept {
    const vertex_t words = (n + 31) / 32;
    for (vertex_t k = 0; k < words; ++k) {
        const vertex_t bits = n - 32 * k;
        live(k) = bits >= 32 ? 0xFFFFFFFFu : (1u << bits) - 1u;
    }
    cursor = MonomerDimerCursor{};
}

/// Takes the sample's steps up to (not including) `until`; its draws are Philox(seed; step, 0,
/// sample).
template <class Live>
PMCOUNT_HOST_DEVICE void monomer_dimer_advance(const MonomerDimerView& g, Live&& live,
                                               MonomerDimerCursor& cursor, std::uint64_t seed,
                                               std::uint64_t sample, vertex_t until) noexcept {
    if (until > g.n) {
        until = g.n;
    }
    double log_estimate = cursor.log_estimate;
    double log_taken = cursor.log_taken;
    // A sample without a perfect matching left is 0 (log −∞) and done.
    auto zero = [&] {
        cursor.log_estimate = -HUGE_VAL;
        cursor.log_taken = 0;
        cursor.step = g.n;
    };
    for (vertex_t v = cursor.step; v < until; ++v) {
        if (!detail::md_free(live, v)) {
            log_taken -= g.log_ratio[v];  // the sweep reached a vertex taken ahead
            continue;
        }
        detail::md_take(live, v);
        // The options' totals: Q = x + Σ a_vu/s_u (the guide) and W = Σ a_vu (the weights). At
        // x = 0 a free neighbour u with no other free neighbour must be v's partner: one such
        // is a forced move (probability 1, factor a_vu), two leave no perfect matching, and so
        // does a vertex without options.
        // f(u, a_vu, s_u, u has another free neighbour) for each free neighbour u of v, in list
        // order, until f returns true.
        auto for_each_option = [&](auto&& f) {
            for (std::int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
                const vertex_t u = g.neighbours[e];
                if (detail::md_free(live, u)) {
                    bool any = false;
                    const double s = detail::md_guide_sum(g, live, u, any);
                    if (f(u, g.weights[e], s, any)) {
                        return;
                    }
                }
            }
        };
        double total = g.monomer, plain = 0;
        vertex_t forced = -1;
        double forced_weight = 0;
        bool stranded = false;
        for_each_option([&](vertex_t u, double a, double s, bool any) {
            if (any || g.monomer > 0) {
                total += a / s;
                plain += a;
            } else if (forced < 0) {
                forced = u;
                forced_weight = a;
            } else {
                stranded = true;  // two neighbours that only v could match
            }
            return stranded;
        });
        if (stranded) {
            return zero();
        }
        vertex_t chosen = -1;
        if (forced >= 0) {
            chosen = forced;
            log_estimate += ::log(forced_weight);
        } else {
            if (!(total > 0)) {
                return zero();
            }
            // Probabilities: single x/Q; matched to u (1 − γ)(a_vu/s_u)/Q + γ·a_vu/W, γ > 0 only
            // at x = 0, where the messages of the x → 0 limit may be far off on small cycles
            // (the defensive share keeps every weight within 1/γ of plain weights). The first
            // option whose cumulative probability exceeds the uniform draw; the last one
            // catches a draw that rounding left at or above the sum.
            const double mix = g.monomer > 0 ? 0.0 : kDefensiveShare;
            const double target = uniform01(seed, sample, static_cast<std::uint32_t>(v));
            double cumulative = g.monomer / total;
            double chosen_p = cumulative, chosen_weight = g.monomer;
            if (!(target < cumulative)) {
                for_each_option([&](vertex_t u, double a, double s, bool) {
                    const double p =
                        (1 - mix) * (a / s) / total + (mix > 0 ? mix * a / plain : 0.0);
                    cumulative += p;
                    chosen = u;
                    chosen_p = p;
                    chosen_weight = a;
                    return target < cumulative;
                });
            }
            log_estimate += ::log(chosen_weight) - ::log(chosen_p);
        }
        if (chosen >= 0) {
            detail::md_take(live, chosen);
            log_taken += g.log_ratio[chosen];
        }
        // x = 0: a neighbour of v or of its partner left without free neighbours ends it.
        if (g.monomer == 0 && (detail::md_strands_a_neighbour(g, live, v) ||
                               (chosen >= 0 && detail::md_strands_a_neighbour(g, live, chosen)))) {
            return zero();
        }
    }
    cursor.log_estimate = log_estimate;
    cursor.log_taken = until >= g.n ? 0.0 : log_taken;  // Φ of the finished sweep is exactly 1
    cursor.step = until;
}

}  // namespace pmcount::approx
