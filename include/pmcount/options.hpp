// What a caller tells a count or an estimate: the engines, arithmetics, backends and estimators
// to choose from, progress, stop requests, and the options of count() (pmcount/count.hpp) and
// estimate() (pmcount/approx.hpp). Nothing here depends on the input.
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace pmcount {

/// Which engine computes the permanent.
enum class Method {
    automatic,    ///< let pmcount choose
    brute_force,  ///< sum over permutations (n <= 12); the oracle
    ryser,        ///< dense Ryser / Nijenhuis–Wilf in Gray-code order, O(2^(n-1) n)
    sparyser,     ///< sparse Ryser: column updates of nonzeros only, products only without zeros
    skipper,      ///< SpaRyser plus skipping runs of Gray codes that cannot contribute
    planar,       ///< planar patterns: c·det of a Kasteleyn-signed matrix (bipartite), or the
                  ///< Pfaffian of an FKT orientation (general graphs); polynomial time
    frontier,     ///< dynamic programming over a vertex order of small frontier width w
    hafnian,      ///< Björklund's recursion over vertex pairs, O(n²·2^(n/2)): any graph (a
                  ///< bipartite block is counted as the hafnian of [[0, B], [Bᵀ, 0]])
};

/// Arithmetic of the computation.
enum class Precision {
    automatic,         ///< exact for binary/integer inputs, double for real/complex
    exact,             ///< multi-modular + CRT (binary/integer inputs only)
    double_precision,  ///< double, compensated accumulation
    double_double,     ///< double-double (about 106 bits)
    double_plain,      ///< double, plain accumulation on GPUs (the CPU engines always compensate)
    /// double with a certified error bound: the interval value ± abs_error provably holds the
    /// exact permanent of the given (real or integer) matrix; dense Ryser on the CPU.
    certified,
};

/// Where the engines run.
enum class Backend {
    automatic,  ///< GPUs when the planner predicts them faster and one is visible
    cpu,
    cuda,  ///< GPUs for every block a GPU engine can take; DeviceError when none is visible
};

/// How the sparse GPU engines (SpaRyser, SkipPer) receive the matrix.
enum class GpuKernels {
    automatic,  ///< the planner's choice: a generated kernel when it repays its compilation
    tables,     ///< one compiled kernel per order and arithmetic; the matrix as tables in shared
                ///< memory
    generated,  ///< a kernel generated for the matrix (literal rows and values, x in registers),
                ///< compiled by NVRTC and cached on disk
};

const char* to_string(Method method) noexcept;
const char* to_string(Backend backend) noexcept;
const char* to_string(Precision precision) noexcept;
/// Parse the CLI spellings ("auto", "brute-force", "ryser", "sparyser", "skipper", "planar",
/// "frontier", "hafnian", "exact", "double", "dd");
/// InvalidArgument lists the accepted names on failure.
Method method_from_string(std::string_view name);
Backend backend_from_string(std::string_view name);
const char* to_string(GpuKernels kernels) noexcept;
GpuKernels gpu_kernels_from_string(std::string_view name);
Precision precision_from_string(std::string_view name);

enum class Estimator {
    rasmussen,       ///< rows in order, partner uniform among live nonzeros
    rasmussen_plus,  ///< sparsest live line first (forced moves, early zeros), uniform partner
    scaling,         ///< rows in order, partner ∝ entry of the Sinkhorn-scaled live submatrix
    scaling_plus,    ///< sparsest live line first, scaled partner (the default)
    /// Any graph (both sides of a bipartite one as one graph): the vertices in index order (a
    /// matrix: row i, then column i), each still free matched to a free neighbour drawn by its
    /// belief-propagation (Bethe) weight, forced moves taken, a stranded vertex a zero sample;
    /// on CPU threads or GPUs (docs/estimators.md). The default for general graphs.
    bethe,
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

/// Progress of a long computation, reported to RunOptions::progress.
struct Progress {
    double fraction;   ///< in [0, 1]
    double elapsed_s;  ///< since the engine started
};

/// Most CPU threads a count or an estimate may ask for: above the hardware threads of any host
/// we know of, and below the counts at which starting the threads fails (OpenMP crashed asking
/// for 100 000 on a 2-core machine).
inline constexpr int kMaxThreads = 4096;

/// Half of this machine's physical memory in bytes (4·10^9 where the system does not say): the
/// default memory limit of a count or an estimate (CountOptions::max_memory,
/// EstimateOptions::max_memory).
std::uint64_t default_max_memory() noexcept;

/// What a count and an estimate are both told: where to run, how many threads, how much memory,
/// progress, checkpoints and MPI. CountOptions and EstimateOptions extend it, so a caller that
/// has one can pass these on with `static_cast<RunOptions&>(estimate_options) = count_options`.
struct RunOptions {
    /// automatic: counts use GPUs where the planner predicts them faster, estimates whenever one
    /// is visible; cuda: DeviceError when none is visible.
    Backend backend = Backend::automatic;
    /// GPUs to use (device indices); empty: every visible one (estimates share the samples).
    std::vector<int> gpus;
    /// CPU threads; 0 uses every available core; at most kMaxThreads.
    int threads = 0;
    /// Memory limit in bytes (0: none; default: half of the physical memory,
    /// default_max_memory()). What would grow past it is predicted before it is allocated and
    /// refused with ProblemTooLarge naming what needs how much (CountOptions, EstimateOptions
    /// say what each predicts).
    std::uint64_t max_memory = default_max_memory();
    /// Called from one thread while the run goes on (CountOptions: at most every
    /// progress_interval_s; EstimateOptions: after every round of samples).
    std::function<void(const Progress&)> progress;
    /// Checkpoint file (empty: none), written atomically every checkpoint_interval_s, at the end
    /// and on request_stop(); with `resume` the run continues from it (CheckpointError when it
    /// belongs to another input or setting). What it records: CountOptions, EstimateOptions.
    std::string checkpoint;
    bool resume = false;
    double checkpoint_interval_s = 10;
    /// Under MPI (pmcount/distributed.hpp: the program called mpi_start() and runs on several
    /// ranks), share the work over every rank; every rank must make the same call and gets the
    /// same result.
    bool distributed = true;
};

struct CountOptions : RunOptions {
    Method method = Method::automatic;
    Precision precision = Precision::automatic;
    /// The sparse GPU engines' kernels: tables, generated per matrix, or the planner's choice.
    GpuKernels gpu_kernels = GpuKernels::automatic;
    /// Structure front end: split into fine Dulmage–Mendelsohn blocks (the count is the product
    /// of the blocks' counts) and apply Forbert–Marx row/column reductions. Switch off to measure.
    /// For general graphs the same switches turn off the matching, component and block split
    /// (dulmage_mendelsohn) and the forced-edge and degree-2 reductions (reductions).
    bool dulmage_mendelsohn = true;
    bool reductions = true;
    /// Matchings of every size (pmcount/matchings.hpp): which disjoint set of 62-bit primes the
    /// residues are taken modulo (0: the largest; k: the k-th set below it). Two sets giving
    /// the same count check it independently of the primes.
    int prime_set = 0;
    /// Count through the general-graph path (blossom front end, hafnian and Pfaffian engines)
    /// even where the input or a piece of it is bipartite: a bipartite graph becomes the general
    /// graph on its two sides, a permanent perm(B) the hafnian of [[0, B], [Bᵀ, 0]]. For checking
    /// one path against the other; the default sends bipartite pieces to the bipartite engines.
    bool general = false;
    /// Build and report the plan (result.structure) without counting.
    bool explain_only = false;
    /// Refuse (ProblemTooLarge) a plan whose predicted time exceeds this many seconds.
    double max_predicted_seconds = std::numeric_limits<double>::infinity();
    /// RunOptions::progress is called at most this often.
    double progress_interval_s = 0.25;
    // RunOptions::max_memory: the planner's own structures on a huge graph (refused before
    // planning), and each engine's (the frontier DP's state tables, the planar and Pfaffian
    // engines' elimination, the hafnian recursion's tables): an engine predicted past the limit
    // is not chosen, and when none fits, ProblemTooLarge names what needs how much.
    // RunOptions::checkpoint: the finished chunks of the exponential engines (Ryser, SpaRyser,
    // SkipPer, the hafnian recursion on the CPU) and their partial sums, also written at the end
    // of each loop; a resumed count does not compute them again. A checkpoint must belong to
    // this input, plan, precision and version.
    // RunOptions::distributed: the chunks of the exponential loops go to every rank.
};

struct EstimateOptions : RunOptions {
    Estimator estimator = Estimator::scaling_plus;
    EstimatorLayout layout = EstimatorLayout::automatic;
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
    // RunOptions::distributed: every round's samples (populations) are split over the ranks:
    // each rank draws its contiguous share and every rank gets every estimate, so the answer for
    // a sample budget is bit-identical to one process's.
    // RunOptions::checkpoint: the estimates of the samples (populations) drawn so far, written
    // between rounds. A sample budget resumed gives the uninterrupted estimate bit for bit, and a
    // finished run resumed with a larger budget goes on drawing. A checkpoint of another input,
    // estimator, seed, population setting, backend or version is refused. A time limit counts
    // this process's time only.
    // RunOptions::max_memory: the populations drawn side by side (particles × two copies of a
    // sampler's state, for resampling), a dense matrix and, under a checkpoint, the record of
    // every estimate are predicted first.
};

/// Asks the count under way (or the next one) to stop: every phase gives up within 0.1 s of
/// work (the exponential loops drop the chunks under way), the checkpoint is written with the
/// chunks finished before, and count() throws Interrupted. Also stops estimates, generators and
/// the structure functions. The request stands until a count, an estimate or a generator it
/// stopped has thrown (after a structure function's Interrupted: until clear_stop_request()).
/// Async-signal-safe: meant for a SIGINT or SIGTERM handler.
void request_stop() noexcept;
/// Withdraws a stop request: one that no count has acted on (e.g. one that arrived as a count
/// ended), or one that stopped a structure function.
void clear_stop_request() noexcept;

}  // namespace pmcount
