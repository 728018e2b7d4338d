// Predicted running time of the engines, for the planner: estimates for choosing engines and
// refusing hopeless plans, not promises. Each CPU model is nanoseconds per Gray step on one
// thread, times the 2^(n−1) steps, divided by the threads used, plus a fixed start-up; the
// per-step costs follow what each engine does per step (cost_model.cpp gives the formulas and
// the measurement behind every constant).
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "exact/ryser/ryser.hpp"
#include "plan/problem.hpp"
#include "pmcount/build_info.hpp"
#include "pmcount/options.hpp"
#include "pmcount/types.hpp"

namespace pmcount::plan {

enum class Arithmetic { exact, double_precision, double_double, complex };

/// Counts predicted below this take no machine-speed probe (cost_model.cpp: 40–60 ms of dense
/// Ryser, longer than such a count).
inline constexpr double kProbeFrom_s = 0.01;

/// The fastest this machine is taken to be against the model's (the probe's factor is clamped
/// there): a prediction that wants the probe but loses by more than this cannot win with it.
inline constexpr double kFastestSpeedFactor = 0.5;

/// While one is alive on this thread, predictions do not run the machine-speed probe: they use
/// the speed measured earlier in this process, or the model's own, and note that they wanted
/// the probe. The planner plans under one first, and plans again without it only when the plan
/// is predicted to take kProbeFrom_s or more and a prediction wanted the probe.
class DeferredProbe {
public:
    DeferredProbe();
    ~DeferredProbe();
    DeferredProbe(const DeferredProbe&) = delete;
    DeferredProbe& operator=(const DeferredProbe&) = delete;
    bool wanted() const noexcept { return wanted_; }
    /// The innermost one on this thread, or none.
    static DeferredProbe* current() noexcept;
    void want() noexcept { wanted_ = true; }
    /// Whether a prediction was scaled by this machine's speed (or would have been, had it been
    /// measured): such a prediction changes with the probe, however small.
    bool consulted() const noexcept { return consulted_; }
    void consult() noexcept { consulted_ = true; }

private:
    DeferredProbe* outer_;
    bool wanted_ = false;
    bool consulted_ = false;
};

/// The machine-speed probe: dense double Ryser of order 23 + log2(threads) on `threads` threads
/// (2^22 steps per thread, the faster of two runs: 40–60 ms), in nanoseconds per Gray step and
/// thread. Predictions are scaled by it over cpu.probe.one_thread (cpu.probe.threads).
double probe_ns(int threads);

/// While one is alive (in any thread), CPU predictions are the model's own: not scaled by this
/// machine's speed, and no probe runs. A calibration fits the rates to measured times with it.
class ModelSpeedOnly {
public:
    ModelSpeedOnly();
    ~ModelSpeedOnly();
    ModelSpeedOnly(const ModelSpeedOnly&) = delete;
    ModelSpeedOnly& operator=(const ModelSpeedOnly&) = delete;
};

/// FP64 throughput and multiprocessors of the GPUs a count uses.
struct GpuThroughput {
    double own_rate = 0;                ///< FP64 instructions/s of this rank's GPUs
    double own_multiprocessors = 0;     ///< theirs (the hafnian's rates are per multiprocessor)
    double shared_rate = 0;             ///< all ranks' GPUs together, for the loops ranks share
    double shared_multiprocessors = 0;  ///< theirs
};

/// FP64 instructions per second of a GPU: its multiprocessors times the rate per multiprocessor
/// of its architecture (gpu.fp64_per_sm.* in plan/rates/gpu.txt).
double gpu_fp64_rate(const DeviceInfo& device);

/// The GPUs of a count from the visible `devices`: this rank's are `chosen` (empty: all). Under
/// `ranks` MPI ranks, `local_ranks` to a host, each host brings the GPUs its ranks use: all of
/// them when the ranks split them (`shared`: run::mpi::gpu_share), else the one `chosen` list
/// every rank names (--gpus); hosts are assumed alike.
GpuThroughput gpu_throughput(const std::vector<DeviceInfo>& devices, const std::vector<int>& chosen,
                             int ranks, int local_ranks, bool shared);

/// What the planner knows about a leaf when it chooses an engine.
struct LeafFacts {
    Problem problem = Problem::permanent;
    /// Precision::certified: only the CPU dense Ryser engine may take the leaf.
    bool certified = false;
    vertex_t order = 0;
    edge_t nnz = 0;
    bool binary = false;
    /// Exact arithmetic: whether the GPU's four exact lanes and ≤ 16 primes of 31 bits suffice.
    bool gpu_exact_fits = false;
    Arithmetic arithmetic = Arithmetic::exact;
    int primes = 0;  ///< exact arithmetic: moduli including the spare
    /// Exact arithmetic: how the CPU engines multiply (exact::exact_products).
    exact::ExactProducts products = exact::ExactProducts::compact;
    int threads = 1;
    /// MPI ranks that share the CPU engines' loops of 2^20 steps or more (run/session.cpp).
    int ranks = 1;
    /// Which kernels the sparse GPU engines may use (CountOptions::gpu_kernels).
    GpuKernels gpu_kernels = GpuKernels::automatic;
    /// The GPUs the predictions count (gpu_throughput): this rank's, and what all ranks bring
    /// to the loops they share (dense and sparse Ryser); 0 without a GPU.
    GpuThroughput gpus;
    /// From exact::estimate_sparse_walk: the fraction of Gray indices without a zero y_i (the
    /// terms), the fraction SkipPer visits, SpaRyser's nonzeros per step, and whether the Gray
    /// columns are 0-1 (SkipPer's 0-1 path, in exact lanes).
    double term_fraction = 1;
    double visit_fraction = 1;
    double entries_per_step = 0;
    bool binary_walk = false;
    int sub_bits = 0;  ///< the 0-1 path's sub-blocks (SparseWalkEstimate)
    int dynamic_rows = 0;
    int tested_rows = 0;  ///< the 0-1 path's rows a visit tests (those that can be zero)
    /// Whether the walk's fractions are known (SparseWalkEstimate::trusted); where not, the
    /// planner prefers an engine whose cost is known (choose_engine) and --explain says so.
    bool walk_trusted = true;
    /// Whether the sparse GPU engines' generated kernels for this leaf are compiled already (in
    /// this process or the disk cache: exact::sparse_generated_cached), in SpaRyser's and in
    /// SkipPer's column order; then their predictions leave NVRTC's compilation out.
    bool generated_cached_sparyser = false;
    bool generated_cached_skipper = false;
    /// Structure for the polynomial engines, measured for leaves of order ≥
    /// kMinPolynomialOrder (and whenever --method names one of them): whether the nonzero
    /// pattern is planar, the frontier width of the best vertex order found (−1: not measured)
    /// and its bound on the DP's state visits (exact::FrontierOrder).
    bool planar = false;
    int frontier_width = -1;
    /// frontier_width is only a lower bound (the least degree), large enough to rule the
    /// frontier engine out: no order was searched.
    bool frontier_width_is_bound = false;
    int frontier_slots = 0;  ///< frontier vertices held at once during a step (≤ 63 fit a mask)
    double frontier_states = 0;
    double frontier_peak_states = 0;  ///< bound on the states held at once
    /// log2 of the proven bound on |perm| (exact arithmetic; sizes the frontier's integers).
    double bound_log2 = 0;
    /// The memory limit in bytes (CountOptions::max_memory; infinity for none): an engine whose
    /// predicted memory (frontier_bytes, planar_bytes, hafnian_bytes) exceeds it does not apply.
    double max_memory = std::numeric_limits<double>::infinity();
};

/// Leaves below this order are left to the Ryser engines without the planarity test and the
/// frontier order (both cost more than counting such a leaf: 2^19 Gray steps take ~1 ms).
inline constexpr vertex_t kMinPolynomialOrder = 20;

/// Predicted seconds of dense Ryser, SpaRyser and SkipPer on the CPU.
double ryser_seconds(const LeafFacts& facts);
double sparyser_seconds(const LeafFacts& facts);
double skipper_seconds(const LeafFacts& facts);

/// Predicted seconds of dense Ryser on the count's GPUs (facts.gpus.shared_rate): set-up
/// (compilation is cached on disk; loading and transfers) plus 2n FP64 instructions per Gray step
/// at the GPUs' FP64 rate and the share of it the kernel reaches (docs/gpu.md), times the
/// arithmetic's measured factor over the plain double kernel (gpu.ryser.* in plan/rates/gpu.txt).
double gpu_ryser_seconds(const LeafFacts& facts);

/// Predicted seconds of the sparse GPU engines (cuda/kernels/ryser_sparse.cuh) on the count's
/// GPUs (facts.gpus.shared_rate). The SpaRyser walk costs per Gray step the flipped column's
/// nonzeros and the product (generated floating kernels: partial products, about a third of the
/// rows), at the dense engine's FP64 rate; table kernels keep x in local memory (a measured
/// slowdown). SkipPer's 0-1 path is the CPU SkipPer's model on 16 threads times the GPU/CPU ratio
/// measured on an H100 host. Generated kernels add their NVRTC compilation (the disk cache makes
/// later runs pay nothing, which the prediction does not know).
double gpu_sparse_seconds(const LeafFacts& facts, bool skipper, bool generated);

/// Predicted seconds of the planar engine: set-up (planarity, embedding, faces, Dulmage–Mendelsohn,
/// minimum degree) linear in the vertices, then one sparse elimination per prime (exact) or one in
/// floating point. An elimination with a minimum degree order costs about min(c₁·n^1.5, c₂·n·w²)
/// (planar separators; a narrow band of width w).
double planar_seconds(const LeafFacts& facts);

/// The widest frontier that can change a plan for order n: the frontier engine's limit, or the
/// width below which the planar engine's banded elimination beats its nested one.
int frontier_width_that_matters(vertex_t n);

/// Predicted seconds of the frontier engine: a cost per processed vertex, and state visits ×
/// (a fixed cost + a cost per 64-bit word of the values — each of the two passes grows its
/// integers to half the bound's bits, so a quarter of them on average — + a cost per doubling of
/// the live states beyond 2^14), over the threads' speed-up (the two passes side by side, less
/// for lists beyond the caches; a power of T/2 within a pass).
double frontier_seconds(const LeafFacts& facts);

/// Bound on the frontier engine's memory: the states held at once × (the masks, the sources
/// and the values, in 64-bit words; fitted to measured peaks).
double frontier_bytes(const LeafFacts& facts);

/// Bound on the planar engine's memory (the embedding and the sparse elimination's fill in a
/// minimum degree order, O(V log V) for planar graphs), and the Pfaffian engine's for a general
/// graph of facts.order vertices: a rate times log2 V bytes per vertex (memory.planar_vertex), the
/// primes' eliminations replayed in the same tables.
double planar_bytes(const LeafFacts& facts);
double pfaffian_bytes(const LeafFacts& facts);

/// The hafnian recursion's tables: per thread, one per depth d < n/2 of s(s−1)/2 polynomials of
/// n/2 coefficients (s = n − 2d vertices left), an element being 8 bytes in double, 16 in
/// double-double and complex, and in exact arithmetic a vector of prime lanes (64 bytes with
/// AVX-512, 32 with AVX2: 64 counted).
double hafnian_bytes(const LeafFacts& facts);

/// The planner's own memory for a matrix with `vertices` rows plus columns and `entries`
/// nonzeros, planarity test included: bytes per vertex and per entry (memory.planning_*).
double planning_bytes(double vertices, double entries);

/// Predicted seconds of brute force (n! / (n−1)!! paths, about e·n! node visits).
double brute_force_seconds(vertex_t n);

/// Multiply-adds of Björklund's recursion for a hafnian of order n = 2m: each of the 2^d nodes at
/// depth d (s = n − 2d vertices left) forms (s−2)(s−3)/2 truncated polynomial entries (two
/// products, m(m−1) multiply-adds) and g·(1 + λb) (m(m+1)/2). About 4.7·m²·2^m.
double hafnian_multiply_adds(vertex_t n);

/// Predicted seconds of the hafnian engine on the CPU: the multiply-adds at a rate per
/// arithmetic (exact: per group of prime lanes) on the threads, plus a start-up.
double hafnian_seconds(const LeafFacts& facts);

/// Predicted seconds of the sum over the multiplicities (exact/hafnian/repeated.hpp): `points`
/// points of `units` updates and powers each (k modes + N photons), at the rate of the
/// arithmetic (exact: per prime; the floating ones in double-double), on `threads` threads.
double repeated_seconds(double points, double units, Arithmetic arithmetic, int primes,
                        int threads);

/// Predicted seconds of the paired engine (exact/hafnian/paired.hpp): `nodes` characteristic
/// polynomials of order `modes` (half of them by symmetry, about modes³/2 multiply-adds each)
/// and `points` series to degree `half` (modes·half, and half² more with loops), at the rate of
/// the arithmetic (exact: per prime; floating: the two runs of the figure), on `threads` threads.
double paired_seconds(double points, double nodes, int modes, int half, bool loops,
                      Arithmetic arithmetic, int primes, int threads);

/// Predicted seconds of the hafnian engine on this rank's GPUs (every rank counts the whole
/// hafnian; infinite without a GPU).
double gpu_hafnian_seconds(const LeafFacts& facts);

/// Predicted seconds of the Pfaffian (FKT) engine for a planar general graph: the planar
/// engine's model (embedding and one sparse elimination per prime), n being the vertices.
double pfaffian_seconds(const LeafFacts& facts);

/// Predicted seconds of the Pfaffians on a surface (pfaffian-surface): `orientations` (4^genus)
/// sparse eliminations of the graph's n vertices, each prime's (facts.bound_log2: the bound the
/// engine uses, exact::pfaffian_bound_log2) in exact arithmetic.
double surface_pfaffian_seconds(const LeafFacts& facts, int orientations);

/// Predicted seconds of the torus's four Pfaffians by Fourier transform
/// (exact/planar/torus_fourier.hpp, exact arithmetic only): per prime (facts.bound_log2), `cells`
/// wave vectors each summing `bonds` terms (both directions of each class of edges) into a
/// matrix of order `sites` and taking its determinant, the primes spread over the threads.
double torus_fourier_seconds(const LeafFacts& facts, double cells, int sites, int bonds);

/// Predicted seconds of the frontier DP over the matchings of every size
/// (exact::frontier_matchings): `states` state visits (both passes), each carrying `lanes`
/// residues, with the frontier engine's speed-up on `threads` (peak states `peak_states`).
double matchings_frontier_seconds(double states, double peak_states, double lanes, int threads);

/// Predicted seconds of the frontier DP's trace on a torus (exact/frontier/frontier_torus.hpp):
/// `lane_updates` per prime (TorusTransfer::lane_updates) for facts.bound_log2 plus a spare,
/// the representatives spread over the threads.
double torus_frontier_seconds(const LeafFacts& facts, double lane_updates);

/// Predicted seconds of brute force over pairings ((n−1)!! matchings of the complete graph).
double pairings_seconds(vertex_t n);

}  // namespace pmcount::plan
