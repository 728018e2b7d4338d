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
// product over the n steps is an unbiased estimate of Z for any positive q. Nothing is ever a
// dead end: every partial choice extends (x > 0), so no sample is 0.
//
// The proposal follows the Bethe approximation (belief propagation for monomer–dimer, exact on
// trees; Bayati, Gamarnik, Katz, Nair and Tetali, STOC 2007): with R_{w→u} ≈ Z(G−u−w)/Z(G−u)
// the fixed point of R_{w→u} = 1/(x + Σ_{y~w, y≠u} a_wy R_{y→w}) on the whole graph (computed
// once), q_0 = x and q_u = a_vu·ρ_u with ρ_u = 1/(x + Σ a_uw R_{w→u}) over the neighbours w of u
// still free — ρ_u estimates Z(G'−v−u)/Z(G'−v) for the graph G' of free vertices, so that
// q/Q estimates the exact conditional probability and the factors Q (single) and Q/ρ_u (matched)
// each estimate a ratio Z(G')/Z(G' after the step). Cost per step: deg(v)·deg(u).
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
    double monomer = 1;  ///< x > 0
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

namespace detail {

template <class Live>
PMCOUNT_HOST_DEVICE inline bool md_free(Live& live, vertex_t v) noexcept {
    return ((live(v >> 5) >> (v & 31)) & 1u) != 0;
}
template <class Live>
PMCOUNT_HOST_DEVICE inline void md_take(Live& live, vertex_t v) noexcept {
    live(v >> 5) &= ~(1u << (v & 31));
}

/// ρ_u = 1/(x + Σ a_uw R_{w→u}) over the free neighbours w of u.
template <class Live>
PMCOUNT_HOST_DEVICE inline double md_guide(const MonomerDimerView& g, Live& live,
                                           vertex_t u) noexcept {
    double s = g.monomer;
    for (std::int64_t e = g.offsets[u]; e < g.offsets[u + 1]; ++e) {
        if (md_free(live, g.neighbours[e])) {
            s += g.weights[e] * g.incoming[e];
        }
    }
    return 1 / s;
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
    for (vertex_t v = cursor.step; v < until; ++v) {
        if (!detail::md_free(live, v)) {
            log_taken -= g.log_ratio[v];  // the sweep reached a vertex taken ahead
            continue;
        }
        detail::md_take(live, v);
        double total = g.monomer;
        for (std::int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
            const vertex_t u = g.neighbours[e];
            if (detail::md_free(live, u)) {
                total += g.weights[e] * detail::md_guide(g, live, u);
            }
        }
        // The first option whose cumulative weight exceeds the target; the last one catches a
        // target that rounding left at or above the sum (same sums in the same order as above).
        const double target = uniform01(seed, sample, static_cast<std::uint32_t>(v)) * total;
        double cumulative = g.monomer;
        vertex_t chosen = -1;
        double chosen_guide = 1;
        if (!(target < cumulative)) {
            for (std::int64_t e = g.offsets[v]; e < g.offsets[v + 1]; ++e) {
                const vertex_t u = g.neighbours[e];
                if (!detail::md_free(live, u)) {
                    continue;
                }
                const double guide = detail::md_guide(g, live, u);
                cumulative += g.weights[e] * guide;
                chosen = u;
                chosen_guide = guide;
                if (target < cumulative) {
                    break;
                }
            }
        }
        // Single: factor x·Q/q_0 = Q; matched to u: a_vu·Q/q_u = Q/ρ_u.
        log_estimate += ::log(total) - (chosen < 0 ? 0.0 : ::log(chosen_guide));
        if (chosen >= 0) {
            detail::md_take(live, chosen);
            log_taken += g.log_ratio[chosen];
        }
    }
    cursor.log_estimate = log_estimate;
    cursor.log_taken = until >= g.n ? 0.0 : log_taken;  // Φ of the finished sweep is exactly 1
    cursor.step = until;
}

}  // namespace pmcount::approx
