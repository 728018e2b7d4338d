// Counting perfect matchings (of bipartite and of general graphs), cycle covers, permanents and
// hafnians: options, result, entry points.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "pmcount/big_int.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

struct Input;

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

/// Progress of a long computation, reported to CountOptions::progress.
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

struct CountOptions {
    Method method = Method::automatic;
    Precision precision = Precision::automatic;
    Backend backend = Backend::automatic;
    /// GPUs to use (device indices); empty: every visible one.
    std::vector<int> gpus;
    /// The sparse GPU engines' kernels: tables, generated per matrix, or the planner's choice.
    GpuKernels gpu_kernels = GpuKernels::automatic;
    /// CPU threads; 0 uses every available core; at most kMaxThreads.
    int threads = 0;
    /// Structure front end: split into fine Dulmage–Mendelsohn blocks (the count is the product
    /// of the blocks' counts) and apply Forbert–Marx row/column reductions. Switch off to measure.
    /// For general graphs the same switches turn off the matching, component and block split
    /// (dulmage_mendelsohn) and the forced-edge and degree-2 reductions (reductions).
    bool dulmage_mendelsohn = true;
    bool reductions = true;
    /// Count through the general-graph path (blossom front end, hafnian and Pfaffian engines)
    /// even where the input or a piece of it is bipartite: a bipartite graph becomes the general
    /// graph on its two sides, a permanent perm(B) the hafnian of [[0, B], [Bᵀ, 0]]. For checking
    /// one path against the other; the default sends bipartite pieces to the bipartite engines.
    bool general = false;
    /// Build and report the plan (result.structure) without counting.
    bool explain_only = false;
    /// Refuse (ProblemTooLarge) a plan whose predicted time exceeds this many seconds.
    double max_predicted_seconds = std::numeric_limits<double>::infinity();
    /// Memory limit in bytes (0: none). What a small input can grow past about a gigabyte is
    /// predicted before it is allocated: the planner's own structures on a huge graph (refused
    /// before planning), and each engine's (the frontier DP's state tables, the planar and
    /// Pfaffian engines' elimination, the hafnian recursion's tables): an engine predicted past
    /// the limit is not chosen, and when none fits, ProblemTooLarge names what needs how much.
    std::uint64_t max_memory = default_max_memory();
    /// Called from one thread at most every progress_interval_s while an engine runs.
    std::function<void(const Progress&)> progress;
    double progress_interval_s = 0.25;
    /// Checkpoint file: the finished chunks of the exponential engines (Ryser, SpaRyser,
    /// SkipPer, the hafnian recursion on the CPU) and their partial sums are written to it,
    /// atomically, every checkpoint_interval_s seconds, at the end of each loop and on
    /// request_stop(). Empty: none.
    std::string checkpoint;
    /// Continue from `checkpoint` (which must exist and belong to this input, plan, precision
    /// and version; CheckpointError otherwise): its finished chunks are not computed again.
    bool resume = false;
    double checkpoint_interval_s = 10;
    /// Under MPI (the program called mpi_start() and runs on several ranks), hand the chunks of
    /// the exponential loops out to every rank. Every rank must call count() with the same input
    /// and options; every rank returns the same result.
    bool distributed = true;
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

struct Timings {
    double preprocess_s = 0;  ///< validation and setup before the engine
    double count_s = 0;       ///< the engine itself
    /// GPU engines: seconds in kernels and transfers, after run-time compilation (or the cache)
    /// and set-up; 0 when everything ran on the CPU. count_s − device_s is the GPU's set-up.
    double device_s = 0;
    /// Sparse GPU engines: writing the kernel generated for the matrix (0 for table kernels) and
    /// compiling it with NVRTC, or reading it from the kernel cache, and loading it (both inside
    /// count_s, outside device_s); kernel_cache says which: "compiled", "disk" or "memory"
    /// (loaded earlier in this process); empty when no sparse GPU engine ran.
    double codegen_s = 0;
    double compile_s = 0;
    std::string kernel_cache;
    double total_s = 0;
};

struct CountStats {
    vertex_t n = 0;   ///< matrix order (after squaring checks)
    edge_t nnz = 0;   ///< stored entries / edges
    int threads = 0;  ///< CPU threads used (per MPI rank)
    int ranks = 1;    ///< MPI ranks that shared the engines' loops
    /// Chunks of the engines' loops loaded from a resumed checkpoint instead of computed.
    std::uint64_t resumed_chunks = 0;
    int primes = 0;  ///< moduli used by the exact path (including the spare)
    /// Iterations of the exponential loops executed: Gray-code steps (Ryser's engines), leaves of
    /// the recursion over vertex pairs (the hafnian engine).
    std::uint64_t gray_steps = 0;
    /// Multiply-adds of the engines that count them (the hafnian recursion; in modular
    /// arithmetic summed over the primes): the work behind a GPU run's roofline fraction. 0
    /// otherwise.
    double multiply_adds = 0;
};

/// One sub-problem that an engine counted (a leaf of the plan).
struct BlockReport {
    vertex_t order = 0;
    edge_t nnz = 0;
    std::string engine;
    std::string origin;  ///< how it arose, e.g. "block 2 of 3, reduced"
    double predicted_s = 0;
    double seconds = 0;
};

/// What the structure front end found and the plan it made.
struct StructureReport {
    bool dulmage_mendelsohn = false;  ///< the decomposition ran
    bool reductions = false;          ///< reductions were allowed
    /// Size of a maximum matching of the nonzero pattern (top level).
    vertex_t matching_size = 0;
    /// When no perfect matching exists: rows S (indices) with fewer neighbours N(S).
    std::vector<vertex_t> hall_rows;
    std::vector<vertex_t> hall_cols;
    /// The general-graph front end ran (a general graph, a hafnian, or CountOptions::general).
    bool general = false;
    /// General graphs without a perfect matching: a Tutte set A (vertex indices, ascending)
    /// whose removal leaves tutte_odd_components > |A| odd components. With CountOptions::general
    /// on a bipartite input, vertices are rows first, then columns (index rows + c).
    std::vector<vertex_t> tutte_set;
    vertex_t tutte_odd_components = 0;
    /// Irreducible fine blocks of the whole matrix, and their orders (topological order).
    std::vector<vertex_t> block_orders;
    /// Nonzeros that lie in no perfect matching (between fine blocks), dropped; over all levels.
    edge_t dropped_entries = 0;
    int eliminated = 0;  ///< Forbert–Marx: lines with one nonzero multiplied out
    int merged = 0;      ///< lines with two nonzeros merged
    int split = 0;       ///< lines with three or four nonzeros split in two
    std::vector<BlockReport> leaves;
    double predicted_s = 0;
    /// The predictions are scaled by this machine's speed, measured by a probe of 40–60 ms (once
    /// per process and thread count): false for plans predicted under 10 ms, which skip it.
    bool machine_speed_measured = false;
    /// The plan as an indented tree (what --explain prints).
    std::string plan_text;
};

struct CountResult {
    ValueKind kind = ValueKind::binary;
    /// True when `exact` holds the exact integer result.
    bool is_exact = false;
    BigInt exact;
    /// Nearest double of the result (real part for complex); ±inf when it overflows double: use
    /// log10_abs and sign then.
    double value = 0;
    std::complex<double> complex_value;
    /// Floating results: the value as mantissa · 2^exponent2 (the larger of |re|, |im| in
    /// [1/2, 1), or 0), in range where `value` over- or underflows.
    std::complex<double> mantissa;
    std::int64_t exponent2 = 0;
    /// log10 |result|; -inf when the result is 0.
    double log10_abs = 0;
    /// Sign of the (real) result: -1, 0 or +1.
    int sign = 0;
    /// Floating results: estimated bound on |computed − true| / |true| (0 for exact results;
    /// infinite when the true value may be 0). abs_error bounds |computed − true|.
    double rel_error = 0;
    double abs_error = 0;
    /// What abs_error is: "none" (exact results), "estimate" (the double and double-double
    /// engines' first-order figure, which cancellation can defeat) or "bound" (certified: value
    /// ± abs_error provably holds the exact permanent of the given matrix).
    std::string error_kind = "none";
    /// "double" when the default precision counted in double, found the result's digits lost to
    /// cancellation (rel_error above 10^-8) and counted again in the arithmetic named by
    /// `arithmetic` (certified, else double-double); the note says why. Empty otherwise.
    std::string escalated_from;
    std::string method;      ///< engine that ran, e.g. "ryser"
    std::string backend;     ///< where it ran: "cpu", "cuda" or "cpu+cuda"
    std::string device;      ///< GPU runs: the devices and how the work was split
    std::string arithmetic;  ///< e.g. "modular (3 primes of 62 bits) + CRT"
    /// Why the result is what it is when no engine had to run (e.g. unequal sides), and warnings.
    std::string note;
    Timings timings;
    CountStats stats;
    StructureReport structure;
    /// True when options.explain_only: the plan was made, nothing was counted.
    bool explained_only = false;

    /// The exact integer in decimal, or the floating value with 17 significant digits
    /// (complex: "re+imi"); huge floating values are printed from log10_abs.
    std::string value_string() const;
};

/// Number of perfect matchings of a bipartite graph (exact). Unequal sides give 0 with a note.
CountResult count_perfect_matchings(const BipartiteGraph& graph, const CountOptions& options = {});
/// Number of perfect matchings of any graph (exact): the hafnian of its adjacency matrix. An
/// odd number of vertices gives 0 with a note; no perfect matching gives 0 with a Tutte set
/// (result.structure.tutte_set).
CountResult count_perfect_matchings(const UndirectedGraph& graph, const CountOptions& options = {});
/// The same for a graph drawn on a surface (Embedding, graph.hpp: a bipartite graph's right
/// vertex j is num_left() + j): the planner may also count it as 4^g Pfaffians (engine
/// pfaffian-surface, polynomial time, components of genus ≤ 1), where that is predicted faster
/// than what it plans without the embedding — tori of any size. InvalidArgument when the
/// embedding does not fit the graph.
CountResult count_perfect_matchings(const BipartiteGraph& graph, const Embedding& embedding,
                                    const CountOptions& options = {});
CountResult count_perfect_matchings(const UndirectedGraph& graph, const Embedding& embedding,
                                    const CountOptions& options = {});
/// Number of cycle covers of a digraph (exact).
CountResult count_cycle_covers(const Digraph& graph, const CountOptions& options = {});
/// Permanent of a matrix; 0×0 gives 1. An m×n matrix with m < n has the rectangular permanent:
/// the sum over the injective maps σ of the rows into the columns of Π_i a_{i,σ(i)} (1 when
/// m = 0); m > n: the permanent of the transpose. It is computed as the permanent of the n×n
/// matrix with n − m rows of ones appended, divided by (n − m)!, so it costs a permanent of
/// order n (note says so). A graph's count of perfect matchings with unequal sides stays 0.
template <class T>
CountResult permanent(const SparseMatrix<T>& matrix, const CountOptions& options = {});
template <class T>
CountResult permanent(const DenseMatrix<T>& matrix, const CountOptions& options = {});
/// Hafnian of a symmetric matrix: Σ over the perfect matchings M of the complete graph of
/// Π_{uv∈M} a_uv, the weighted count of a general graph's perfect matchings. The diagonal is
/// ignored; an odd order gives 0 with a note; 0×0 gives 1. DimensionMismatch when not square,
/// InvalidArgument (naming an entry) when not symmetric.
template <class T>
CountResult hafnian(const SparseMatrix<T>& matrix, const CountOptions& options = {});
template <class T>
CountResult hafnian(const DenseMatrix<T>& matrix, const CountOptions& options = {});
/// Whatever read_input() returned: the graph's count, the matrix's permanent, or its hafnian
/// (Input::hafnian). An input with a declared vertex that no entry touches (Input::isolated)
/// counts 0 at once, the note naming that vertex.
CountResult count(const Input& input, const CountOptions& options = {});

}  // namespace pmcount
