// The estimator's set-up (estimate.cpp, phases 1-3): the positive entries, the pattern whose
// perfect matching decides an exact 0, the + variants' pruning to the fine Dulmage–Mendelsohn
// blocks, the sampler's matrix (approx/problem.hpp) and its whole-matrix scaling, and the sampler
// configuration an estimator's options ask for.
#pragma once

#include <cstdint>
#include <vector>

#include "approx/problem.hpp"
#include "approx/sampler.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/options.hpp"
#include "pmcount/structure.hpp"

namespace pmcount::approx {

/// What the estimator's set-up was doing when stopped (pmcount::detail::throw_if_stopped).
constexpr const char* kSettingUp = "setting up the estimator";

/// A positive entry of the matrix.
struct Entry {
    vertex_t row;
    vertex_t col;
    double value;
};

/// The 0-1 pattern of the entries, an n × n bipartite graph.
BipartiteGraph pattern_of(vertex_t n, const std::vector<Entry>& entries);

/// Phase 2: keeps the entries inside one fine Dulmage–Mendelsohn block.
std::vector<Entry> prune(const std::vector<Entry>& entries, const DMDecomposition& dm);

/// The sampler's matrix of the entries: row-major (dense) or CSR + CSC, with the degrees.
SamplerProblem build_problem(vertex_t n, const std::vector<Entry>& entries, bool dense);

/// Phase 3: Sinkhorn–Knopp on the whole matrix until every row sum of the scaled matrix is
/// within 1e-9 of 1 (after the column pass the column sums are exactly 1), at most 10000 sweeps.
/// The matrix has total support after pruning, so this converges (Sinkhorn and Knopp, Pacific
/// J. Math. 1967); without pruning (scaling) the partial scaling is still a valid start.
void scale_whole_matrix(SamplerProblem& p);

/// The sampler's configuration for the estimator and the options (particles: per population).
SamplerConfig sampler_config(const EstimateOptions& o, std::uint64_t particles);

}  // namespace pmcount::approx
