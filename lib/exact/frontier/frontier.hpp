// The frontier engine: permanents by dynamic programming over a vertex order of the bipartite
// graph, keeping the set of already-matched vertices on the frontier (library-internal).
//
// Vertices (rows and columns alike) are processed in an order π. After t steps the frontier B_t
// is the set of unprocessed vertices with a processed neighbour; a state S ⊆ B_t lists those
// already matched to a processed vertex, and its value is the weighted number of matchings that
// cover every processed vertex, with exactly S matched outside. Processing v either removes v
// from S (v was matched earlier) or matches v to an unprocessed neighbour u ∉ S (u joins S,
// weight a_vu). The permanent is the value of the empty state at the end. With w = max_t |B_t|
// (the vertex separation of π), at most C(w, ⌊w/2⌋) states are live at a time (processed rows
// minus processed columns fixes |S ∩ rows| − |S ∩ columns|), so the cost is
// O(Σ_t live_t · (1 + deg v_t) · words) — O(V·2^w·deg) in the terms of the issue, and the
// transfer-matrix method for strips: a 16×1000 grid has w = 16. The DP runs from both ends and
// meets in the middle (frontier.cpp), halving the word operations of exact counts. A general
// graph (the hafnian of a symmetric matrix) runs the same recurrence over its own vertices;
// only the balance goes, so up to 2^(w−1) states are live.
#pragma once

#include <complex>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "exact/outcome.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::exact {

namespace frontier {
struct Prepared;
}  // namespace frontier

/// A processing order of the n_left + n_right vertices (left u is u, right v is n_left + v),
/// with its frontier width and an upper bound on the live states it creates.
struct FrontierOrder {
    std::vector<vertex_t> order;
    int width = 0;           ///< max_t |B_t|
    int slots = 0;           ///< frontier vertices held at once during a step (≤ width + deg)
    double states = 0;       ///< Σ_t C(|B_t|, ⌊|B_t|/2⌋): bound on the state visits
    double peak_states = 0;  ///< max_t C(|B_t|, ⌊|B_t|/2⌋): bound on the states held at once
    const char* heuristic = "";  ///< which candidate won ("cuthill-mckee", "greedy", …)
};

/// The order of least width among the candidates: Cuthill–McKee and its reverse (Boost.Graph),
/// the index order (row i, then column i: banded matrices), and a greedy order that always
/// processes the frontier vertex adding the fewest new frontier vertices, from both ends of a
/// pseudo-diameter. O(E log w) per candidate. A greedy candidate whose frontier grows past
/// `width_cap` is abandoned (the planner passes the widest frontier that could change its plan).
FrontierOrder frontier_order(const BipartiteGraph& graph,
                             int width_cap = std::numeric_limits<int>::max());

/// The same for a general graph: its own vertices, states any subset of the frontier of the
/// processed vertices' parity (states = Σ_t 2^(|B_t| − 1)).
FrontierOrder frontier_order(const UndirectedGraph& graph,
                             int width_cap = std::numeric_limits<int>::max());

/// Widest frontier the engine accepts: a step holds up to width + degree slots in a 63-bit mask,
/// and beyond this even the state bound is far past any time budget.
inline constexpr int kMaxFrontierWidth = 40;

/// Exact perm(A) for a square integer matrix in two's-complement big integers whose width grows
/// with the values (no primes, no bound needed). ProblemTooLarge when the width exceeds
/// kMaxFrontierWidth.
ExactOutcome frontier_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run);

/// perm(A) in double / complex double with a common power-of-two scale, and the same DP over
/// |a_ij| giving the error bound (deg + 1)·V·u·perm(|A|).
FloatOutcome frontier_real(const SparseMatrix<double>& a, const run::EngineRun& run);
FloatOutcome frontier_complex(const SparseMatrix<std::complex<double>>& a,
                              const run::EngineRun& run);

/// haf(A) of a symmetric matrix with an empty diagonal (the weighted perfect matchings of any
/// graph) by the same DP over the graph of its entries: processing v either drops it from S
/// (matched earlier) or matches it to an unprocessed neighbour u ∉ S (weight a_vu), with no
/// balance between sides. Exact integers of growing width; double and complex with the same
/// error bound as the permanent's. Exact counts of a leaf that is a whole torus with its tiling
/// (run.embedding's cells, checked) run as the trace of frontier_torus.hpp instead.
ExactOutcome frontier_hafnian_exact(const SparseMatrix<std::int64_t>& a, const run::EngineRun& run);
FloatOutcome frontier_hafnian_real(const SparseMatrix<double>& a, const run::EngineRun& run);
FloatOutcome frontier_hafnian_complex(const SparseMatrix<std::complex<double>>& a,
                                      const run::EngineRun& run);

/// The matchings of every size (the empty one included) of the graph of a symmetric matrix's
/// off-diagonal entries, by the same DP with a fourth transition: v left unmatched (state
/// unchanged, weight `monomer`). The step plan is made once for both calls; `a` must outlive
/// the object. ProblemTooLarge beyond kMaxFrontierWidth.
struct MatchingResidues {
    std::vector<std::vector<std::uint64_t>> residues;
    std::uint64_t state_visits = 0;
};
class MatchingsFrontier {
public:
    /// `order`: frontier_order of the graph of a's off-diagonal entries.
    MatchingsFrontier(const SparseMatrix<std::int64_t>& a, const FrontierOrder& order);
    ~MatchingsFrontier();
    MatchingsFrontier(const MatchingsFrontier&) = delete;
    MatchingsFrontier& operator=(const MatchingsFrontier&) = delete;

    /// residues[j][l] = Σ_M Π_{e∈M} a_e · y_j^{|M|} · monomer^{n − 2|M|} mod primes[l], for
    /// each y_j of `points`; the lanes (points × primes, at most kMaxMatchingLanes a run) ride
    /// along in each state.
    MatchingResidues residues(const std::vector<std::int64_t>& points, std::int64_t monomer,
                              const std::vector<std::uint64_t>& primes,
                              const run::EngineRun& run) const;

    /// log2 of Σ_M Π_{e∈M} |a_e| · y^{|M|} · |monomer|^{n − 2|M|} (every term nonnegative), in
    /// double with a common scale, within a relative 10^−9 of the truth for graphs of up to 10^6
    /// vertices (each of its ≤ V·(deg + 2) roundings is relative, none cancels): sizes the
    /// primes of residues() far below a bound from the degrees. −inf when it is 0.
    double magnitude_log2(double y, double monomer, const run::EngineRun& run) const;

private:
    const SparseMatrix<std::int64_t>& a_;
    std::unique_ptr<const frontier::Prepared> prepared_;
};

/// Lanes (points × primes) one run of MatchingsFrontier::residues carries in each state; more
/// run again.
inline constexpr std::size_t kMaxMatchingLanes = 96;

}  // namespace pmcount::exact
