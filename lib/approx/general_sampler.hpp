// Sequential importance sampling of the perfect matchings of a general graph (weighted: the
// hafnian of a nonnegative symmetric matrix), on CPU threads (library-internal).
//
// haf(A) = Σ_u a_vu haf(A − v − u) for any vertex v. A sample removes one vertex v at a time with
// a partner u drawn with probability a_vu / W, W = Σ a_vw over the candidates w, and multiplies
// its estimate by W; the product over the n/2 steps is an unbiased estimate of haf(A) as long as
// every partner w with haf(A − v − w) > 0 is a candidate (Rasmussen's estimator, carried over
// from permutations to pairings). Two rules, as for permanents (sampler.hpp):
//   rasmussen   v the lowest live vertex, the candidates its live neighbours; a sample that
//               leaves a vertex without neighbours is 0;
//   rasmussen+  v a live vertex of least live degree (populations: the lowest, so that all
//               particles share a front), and the candidates only the neighbours u for which
//               G − v − u still has a perfect matching (Gallai–Edmonds): with a perfect matching
//               M of the live graph and r = M(v), they are M(v) and the neighbours an
//               alternating search from r in G − v (r exposed) labels even (the characterisation
//               structure/allowed_edges.cpp uses). After the choice, M loses v and u and is
//               repaired by one augmenting search between r and M(u). The first search stops
//               after a budget of vertices, keeping what it left undecided; a kept candidate in
//               no perfect matching makes the repair fail and the sample 0 (rare on lattices).
// The searches are Edmonds' blossom searches on the live subgraph, resetting only what they
// touched; the first stops once every candidate is labelled.
//
// Cost per sample: n/2 steps, each an O(n) scan for the least degree (stopping at degree 1) and,
// for rasmussen+, two searches, each up to O(E) (typically a small neighbourhood of v).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "approx/setup.hpp"
#include "approx/sources.hpp"
#include "pmcount/types.hpp"

namespace pmcount::approx {

/// The graph as the sampler reads it: CSR of both directions of each positive entry, and a
/// perfect matching (rasmussen+).
struct GeneralProblem {
    vertex_t n = 0;
    std::vector<std::int64_t> offsets;
    std::vector<vertex_t> neighbours;
    std::vector<double> weights;
    std::vector<vertex_t> mate;
    /// The pruning search stops once it has touched this many vertices, keeping the candidates
    /// it has not decided: one in no perfect matching of the rest is then found out when the
    /// matching cannot be repaired after choosing it (a zero sample, still unbiased). On lattices
    /// the allowed candidates are labelled within a few rings of v; proving one not allowed
    /// takes a search of the whole live graph, which made a step of the 64×64 triangular patch
    /// cost 20 µs (7 µs with the budget).
    std::size_t search_budget = 512;
};

/// The sampler's problem for the symmetric entries `edges` (row < col, each edge once, positive
/// values) of a graph on n vertices; with `prune`, the edges in no perfect matching dropped
/// first (structure::allowed_edges) and a perfect matching kept. zero_reason is set instead
/// when the graph has no perfect matching.
struct GeneralSetup {
    GeneralProblem problem;
    std::string zero_reason;
    edge_t dropped = 0;  ///< edges in no perfect matching
};
GeneralSetup general_setup(vertex_t n, const std::vector<Entry>& edges, bool prune);

/// One sample's log estimate (−inf for 0), drawn from Philox(seed; sample, step).
double general_log_estimate(const GeneralProblem& p, bool prune, std::uint64_t seed,
                            std::uint64_t sample);

/// Samples on `threads` CPU threads: independent ones (sample()), or with plan.particles > 1
/// populations (populations()) of particles that take the vertices in index order and are
/// resampled every plan.every steps (of n/2) on the Kahn–Lovász potential Π_live (d!)^(1/2d)
/// raised to `exponent`.
std::unique_ptr<SampleSource> general_cpu_source(const GeneralProblem& p, bool prune,
                                                 std::uint64_t seed, int threads,
                                                 PopulationPlan plan, double exponent);

}  // namespace pmcount::approx
