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

#include "pmcount/count.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

struct Input;

enum class Estimator {
    rasmussen,       ///< rows in order, partner uniform among live nonzeros
    rasmussen_plus,  ///< sparsest live line first (forced moves, early zeros), uniform partner
    scaling,         ///< rows in order, partner ∝ entry of the Sinkhorn-scaled live submatrix
    scaling_plus,    ///< sparsest live line first, scaled partner (the default)
};

/// How the sampler reads the matrix.
enum class EstimatorLayout {
    automatic,  ///< dense when at least a quarter of the entries are nonzero
    dense,      ///< row-major n×n
    sparse,     ///< CSR + CSC of the nonzeros
};

/// "rasmussen", "rasmussen+", "scaling", "scaling+".
const char* to_string(Estimator estimator) noexcept;
/// Also accepts "rasmussen-plus" and "scaling-plus"; InvalidArgument lists the names otherwise.
Estimator estimator_from_string(std::string_view name);
const char* to_string(EstimatorLayout layout) noexcept;
EstimatorLayout estimator_layout_from_string(std::string_view name);

/// Why sampling stopped.
enum class StopReason { samples, time, rel_error, exact };
const char* to_string(StopReason reason) noexcept;

struct EstimateOptions {
    Estimator estimator = Estimator::scaling_plus;
    EstimatorLayout layout = EstimatorLayout::automatic;
    /// automatic: the GPUs when one is visible, else the CPU; cuda: DeviceError without a GPU.
    Backend backend = Backend::automatic;
    std::vector<int> gpus;  ///< GPU indices; empty: every visible one (they share the samples)
    int threads = 0;        ///< CPU threads; 0: all cores
    /// Stop at whichever comes first; 0 disables a criterion. With all three 0: populations
    /// until the interval's half-width is 1% or 120 s have passed; independent samples
    /// (particles = 1): 100000 samples.
    std::uint64_t samples = 0;
    double time_s = 0;
    /// Relative half-width of the confidence interval to reach (e.g. 0.01); checked from 1024
    /// samples on.
    double rel_error = 0;
    double confidence = 0.95;
    std::uint64_t seed = 1;
    /// Scaling estimators: Sinkhorn–Knopp sweeps per rescale and how often (in steps) to rescale.
    int scale_every = 1;
    int scale_iters = 1;
    /// Particles per population. 0 (default): chosen by choose_populations() from the order and
    /// the sample budget. 1: independent samples. P > 1: each estimate averaged is one
    /// population of P samples drawn side by side and resampled every `resample_every` steps
    /// (0: 16) (sequential Monte Carlo with twisted weights, lib/approx/population.hpp; still
    /// unbiased). `samples` then counts particles; the interval comes from the spread of the
    /// populations.
    /// Measured on grids (docs/estimators.md): with about 8n particles per population and
    /// resample_every = 16, the 64×64 grid (n = 2048) within 1% in 112 s on one H100, where
    /// independent samples leave a 29% standard error. The interval needs 16 or more populations.
    std::uint64_t particles = 0;
    int resample_every = 0;
    /// Populations of scaling estimators: particles are resampled on w·Φ^e, Φ the scaling
    /// estimate of the live submatrix's permanent and e this exponent (any e ≥ 0 keeps the
    /// estimate unbiased; 0: plain weights). Φ overstates how far apart particles' futures are:
    /// on grids e ≈ 0.6 spreads a population's log 3× (32×32) to 14× (64×64) less than e = 1.
    double potential_exponent = 0.6;
    /// Called after every round of samples, from the calling thread.
    std::function<void(const Progress&)> progress;
    /// Under MPI (pmcount/distributed.hpp), split every round's samples (populations) over the
    /// ranks: each rank draws its contiguous share and every rank gets every estimate, so the
    /// answer for a sample budget is bit-identical to one process's.
    bool distributed = true;
    /// Checkpoint file (empty: none): the estimates of the samples (populations) drawn so far,
    /// written atomically every checkpoint_interval_s between rounds, at the end and on
    /// request_stop() (pmcount/count.hpp; Interrupted is thrown then). With `resume` the run
    /// continues from it: a sample budget gives the uninterrupted estimate bit for bit, and a
    /// finished run resumed with a larger budget goes on drawing. A checkpoint of another input,
    /// estimator, seed, population setting, backend or version is refused (CheckpointError).
    /// A time limit counts this process's time only.
    std::string checkpoint;
    bool resume = false;
    double checkpoint_interval_s = 10;
    /// Memory limit in bytes (0: none): the populations drawn side by side (particles × two
    /// copies of a sampler's state, for resampling), a dense matrix and, under a checkpoint, the
    /// record of every estimate are predicted first; past the limit ProblemTooLarge says what
    /// needs how much. Default: half of the physical memory (default_max_memory()).
    std::uint64_t max_memory = default_max_memory();
};

struct EstimateResult {
    std::string estimator;  ///< e.g. "scaling+"
    std::string layout;     ///< "dense" or "sparse"
    std::string backend;    ///< "cpu" or "cuda"
    std::string device;     ///< GPU runs: the GPUs
    /// log10 of the estimate (the mean of the samples); −inf for an estimate of 0.
    double log10_value = 0;
    /// The estimate as a double; +inf when it overflows (use log10_value then).
    double value = 0;
    /// Relative standard error of the mean, and the confidence interval in log10 (see
    /// lib/approx/log_mean.hpp for how it is built).
    double rel_std_error = 0;
    double log10_ci_low = 0;
    double log10_ci_high = 0;
    double confidence = 0.95;
    std::uint64_t samples = 0;     ///< samples drawn (particles × populations)
    std::uint64_t particles = 1;   ///< particles per population (1: independent samples)
    /// Why that many: choose_populations()' reason, and on the CPU under a time limit the speed
    /// pilot's halving ("…; halved to 512: 16 populations predicted in 41 s of the 120 s").
    std::string particles_reason;
    std::uint64_t populations = 0;  ///< particles > 1: populations, the estimates averaged
    /// Samples (particles) a resumed run found in its checkpoint, part of `samples`.
    std::uint64_t resumed_samples = 0;
    double zero_fraction = 0;      ///< samples (populations) that were 0
    double effective_samples = 0;  ///< (Σx)²/Σx²
    double max_share = 0;          ///< largest sample / sum; near 1: the interval is not reliable
    /// Standard deviation of the logs of the nonzero samples: CV² ≈ exp(log_sd²) − 1, so the
    /// samples needed for a relative error e grow like exp(log_sd²)/e².
    double log_sd = 0;
    StopReason stopped = StopReason::samples;
    vertex_t n = 0;
    edge_t nnz = 0;  ///< entries the sampler walks (after pruning, + variants)
    int threads = 0;
    int ranks = 1;  ///< MPI ranks that shared the samples
    std::uint64_t seed = 0;
    double seconds = 0;         ///< whole call
    double sample_seconds = 0;  ///< sampling only (after set-up); per sample: / samples
    std::string note;           ///< e.g. why the estimate is exactly 0, or a heavy-tail warning
};

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
