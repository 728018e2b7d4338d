// The frontier DP on a torus: the trace of the transfer matrix between rows of cells, summed
// over the orbits of the translations along the rows (library-internal).
//
// A torus's frontier is at least two rows wide: the DP of frontier.hpp, sweeping row after row,
// keeps the first row's unmatched vertices on the frontier until the last row comes back to
// them (tri-torus:12x12: width 25, 87 s and 6.3 GB on two cores). With a tiling
// (TorusCells, checked by cell_tiling) whose edges join only cells of the same or adjacent rows,
// let layer r be the m = C·b sites of row r of cells and X_r ⊆ layer r those matched to layer
// r − 1. Every perfect matching is a cyclic sequence X_0, …, X_{R−1}, X_R = X_0 and, given it,
// factors into independent choices per layer, so
//     haf(A) = tr(T^R),   T[X, Y] = weighted ways to match layer r's sites outside X within the
//                                  layer or to layer r + 1 using exactly Y there,
// the same T for every layer by translation. T·x is the frontier DP over one layer (m steps, a
// state being the matched set of the layer's unprocessed sites and of the next layer's sites
// reached so far; slots are reused, so 2^(m+2) states for the triangular lattice), run on dense
// arrays indexed by the state mask. The translation τ by one cell along the rows commutes with
// T, so (T^R)[X, X] is constant on τ's orbits: the trace is Σ over orbit representatives X of
// |orbit| · (T^R e_X)[X], about 2^m / C representatives of R products T·x each. The direction
// (rows or columns of cells) with the smaller layer is taken.
//
// Cost: (2^m / C) · R · Σ_steps 2^(live slots) · (1 + forward edges) lane updates, one lane per
// prime (numeric::hafnian_bound_log2 plus one spare, CRT checked against it): tri-torus:12x12
// 352 representatives, m = 12. Memory: two arrays of 2^W · lanes words per thread (W: the
// slots, m + 2 on the triangular lattice). Representatives run in parallel; the result is the
// same for any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

/// One layer's transfer as frontier steps over dense state masks.
struct TorusTransfer {
    struct Forward {
        std::uint64_t bit;    ///< the neighbour's slot
        std::int64_t weight;  ///< the edge's
    };
    struct Step {
        std::uint64_t vertex_bit;   ///< the processed site's slot
        std::uint64_t live_before;  ///< slots holding unprocessed sites before the step
        std::uint64_t entering;     ///< next-layer sites first reached at this step
        std::vector<Forward> forward;
    };
    int layers = 0;      ///< R
    int layer_size = 0;  ///< m
    int cells = 0;       ///< C: cells per layer; τ rotates a layer's mask by m / C bits
    int slots = 0;       ///< W
    bool unit_weights = true;
    std::vector<Step> steps;    ///< one per site of the layer, in layer order
    std::vector<int> out_slot;  ///< per site of the next layer: its slot after the last step
    std::uint64_t representatives = 0;  ///< orbits of τ on the subsets of a layer
    double lane_updates = 0;  ///< per prime: Σ over representatives and layers of the steps' work
    std::string description;  ///< "12×12 cells of 1 site, rows of 12 sites"
};

/// The transfer of the symmetric matrix `a` on the tiling `cells` (groupings of 1×1, 1×2, 2×1
/// and 2×2 cells tried, both directions, the smallest layer kept), or nullopt when no tiling
/// fits (cell_tiling), an edge joins cells two rows apart in every direction, or the state
/// masks would need more than kMaxTorusSlots bits. O(V + E log E).
std::optional<TorusTransfer> torus_transfer(const SparseMatrix<std::int64_t>& a,
                                            const TorusCells& cells);

/// Widest state mask the dense arrays take: 2^22 words per lane and array, per thread.
inline constexpr int kMaxTorusSlots = 22;

/// Exact haf(A) = tr(T^R) as above, modulo primes for numeric::hafnian_bound_log2(a) plus one
/// spare, CRT into a big integer checked against the spare; representatives in parallel on
/// run.threads.
ExactOutcome frontier_torus_exact(const SparseMatrix<std::int64_t>& a,
                                  const TorusTransfer& transfer, const run::EngineRun& run);

}  // namespace pmcount::exact
