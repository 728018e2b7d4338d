// Randomized estimates of the number of perfect matchings / the permanent of a nonnegative
// matrix: Rasmussen, Rasmussen+, Scaling and Scaling+ (Kaya's thesis §4; Dufossé, Kaya,
// Panagiotas and Uçar, Discrete Appl. Math. 2022), on CPU threads or GPUs, in log space, with a
// confidence interval. For graphs far beyond exact counting (lattices with 10^4+ vertices).
//
// Each sample is an unbiased estimate of the permanent; the result is their mean, computed as a
// log-sum-exp so that nothing overflows. Samples are indexed and each one's randomness comes from
// a counter-based generator (Philox4x32-10) keyed by the seed, so for a seed and a sample count
// the result is the same on any number of threads (and the GPU draws the same samples as the CPU,
// up to the last bits of log()).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "pmcount/options.hpp"
#include "pmcount/result.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

struct Input;

/// How an estimate of order n draws its samples under `options`.
struct PopulationChoice {
    std::uint64_t particles = 1;  ///< 1: independent samples
    int resample_every = 16;
    double potential_exponent = 0.6;
    std::string reason;  ///< "automatic: about 8 particles per row (2048 rows)", …
    /// The stopping rules in force (0: none): the options', or without any the default.
    std::uint64_t samples = 0;
    double rel_error = 0;
    double time_s = 0;
    /// A CPU run times a pilot first and may halve `particles` so that 16 populations fit in
    /// half of time_s (an automatic P above 64, a time limit, no checkpoint; GPUs skip it).
    bool time_pilot = false;
};
/// particles = 0 (automatic): populations of about 8n particles (a power of two in [64, 16384]),
/// resampled every 16 steps on Φ^0.6 — on grids a population's log then has sd ≈ 0.04 from
/// 16×16 to 64×64, where independent samples' relative variance grows like exp(0.02·n). A sample
/// budget keeps 16 populations (fewer particles); below 64 particles, independent samples.
/// Under a time limit the CPU estimator may halve P further from a speed pilot (see
/// EstimateResult::particles_reason); this function does not time anything.
PopulationChoice choose_populations(vertex_t n, const EstimateOptions& options);

/// Estimated number of perfect matchings. Unequal sides or no perfect matching give an exact 0
/// (stopped = exact) with a note.
EstimateResult estimate_perfect_matchings(const BipartiteGraph& graph,
                                          const EstimateOptions& options = {});
/// Estimated number of perfect matchings of a general graph (general_sampler: independent
/// samples on CPU threads; rasmussen for Estimator::rasmussen, else least degree first with the
/// partners that keep a perfect matching, rasmussen+). No perfect matching gives an exact 0.
/// particles > 1 or Backend::cuda is InvalidArgument.
EstimateResult estimate_perfect_matchings(const UndirectedGraph& graph,
                                          const EstimateOptions& options = {});
/// Estimated hafnian of a nonnegative symmetric matrix (T = std::int64_t or double; the diagonal
/// is ignored): the weighted perfect matchings of its graph, sampled as above with partners in
/// proportion to their entries. Not square: DimensionMismatch; not symmetric, negative or
/// non-finite: InvalidArgument.
template <class T>
EstimateResult estimate_hafnian(const SparseMatrix<T>& matrix, const EstimateOptions& options = {});
/// Estimated permanent of a nonnegative square matrix (T = std::int64_t or double); a negative
/// or non-finite entry is InvalidArgument, a non-square matrix DimensionMismatch (its
/// rectangular permanent is not 0: pmcount::permanent counts it exactly).
template <class T>
EstimateResult estimate_permanent(const SparseMatrix<T>& matrix,
                                  const EstimateOptions& options = {});
template <class T>
EstimateResult estimate_permanent(const DenseMatrix<T>& matrix,
                                  const EstimateOptions& options = {});
/// Whatever read_input() returned: a graph's perfect matchings, a digraph's cycle covers, a
/// matrix's permanent. A complex matrix, or a negative or non-finite entry, is InvalidInput
/// naming the file (and the entry by the file's row and column ids), and so is a non-square
/// matrix read as a permanent. A declared vertex that no entry touches (Input::isolated) gives
/// 0 at once, the note naming it.
EstimateResult estimate(const Input& input, const EstimateOptions& options = {});

}  // namespace pmcount
