// The planner: every count goes through it. A permanent (bipartite graphs, digraphs, matrices):
//
//   matrix ─► Hopcroft–Karp (no perfect matching? → 0, with a Hall witness)
//          ─► fine Dulmage–Mendelsohn: product over irreducible blocks, entries between blocks
//             dropped
//          ─► per block: Forbert–Marx reductions (eliminate, merge, split), then DM again on the
//             reduced matrix where it changed
//          ─► leaves: an engine per leaf chosen by order, value kind and the cost model
//          ─► evaluate the tree: exact big integers, or floats with propagated error bounds.
//
// A hafnian (general graphs, symmetric matrices; general.cpp):
//
//   symmetric matrix ─► Edmonds' blossom (no perfect matching? → 0, with a Tutte set)
//          ─► drop the edges in no perfect matching; product over connected components and over
//             the pieces of the block (cut vertex) split
//          ─► a bipartite piece becomes a permanent and takes the path above (unless
//             Settings::general); per piece forced edges and degree-2 contractions
//          ─► hafnian leaves: an engine per leaf (hafnian recursion, Pfaffian of a planar graph,
//             pairings brute force) by the cost model.
//
// The tree is built without counting, so --explain can print it with predicted times, and a
// plan predicted to exceed the time limit is refused before any exponential work starts.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "plan/cost_model.hpp"
#include "plan/problem.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"
#include "pmcount/matrix.hpp"
#include "reduce/forbert_marx.hpp"

namespace pmcount::run {
class Session;
}

namespace pmcount::plan {

struct Settings {
    bool dulmage_mendelsohn = true;
    bool reductions = true;
    Method method = Method::automatic;
    /// Resolved: exact, double_precision, double_plain or double_double.
    Precision precision = Precision::exact;
    Backend backend = Backend::automatic;
    GpuKernels gpu_kernels = GpuKernels::automatic;
    int threads = 1;
    /// GPUs the engines use (CountOptions::gpus, else this rank's share of the visible ones).
    std::vector<int> gpus;
    /// MPI ranks sharing the exponential CPU loops (run/session.hpp), in the predictions.
    int ranks = 1;
    /// What the GPUs above bring to the predictions, this rank's and all ranks' (gpu_throughput).
    GpuThroughput gpu_throughput;
    /// Splits of lines with 3–4 nonzeros the planner may try in one plan. Each attempt plans
    /// both parts to compare them with keeping the matrix whole, so this bounds planning time.
    int max_splits = 2048;
    /// Floating results are 2^exponent2 times the plan's value (count_matrix balanced the matrix
    /// by powers of two).
    std::int64_t exponent2 = 0;
    /// The plan's time limit (CountOptions::max_predicted_seconds): facts that could only
    /// matter for an engine predicted beyond it are not computed (see planarity_fact).
    double time_limit_s = std::numeric_limits<double>::infinity();
    /// CountOptions::general: bipartite pieces of a general graph stay hafnians.
    bool general = false;
    /// CountOptions::max_memory: engines predicted past it are not chosen (0: no limit).
    std::uint64_t max_memory = 0;
    /// The graph's embedding, when it came with one (a permanent's: rows, then columns, as in
    /// bipartite_embedding): the surface Pfaffians may count the whole graph (prefer_surface).
    const Embedding* embedding = nullptr;
};

template <class T>
struct Node {
    enum class Kind { leaf, product, sum, zero };
    Kind kind = Kind::leaf;
    /// What the subtree computes; a leaf's engine is one for this problem. The children of a
    /// hafnian node may be permanents (bipartite pieces), never the other way round.
    Problem problem = Problem::permanent;
    /// Entries multiplied out by eliminations on the way to this node.
    std::vector<T> factors;
    std::vector<Node> children;
    SparseMatrix<T> matrix;  ///< leaves only (a hafnian's: symmetric, empty diagonal)
    std::string origin;      ///< how the node arose ("block 2 of 3", "split part 1", …)
    std::string engine;      ///< leaves only
    std::string detail;      ///< leaves: what --explain adds to the engine (the frontier's width)
    bool embedded = false;   ///< a leaf counting the whole graph with Settings::embedding
    bool fourier = false;  ///< … a torus's, by Fourier transform (exact/planar/torus_fourier.hpp)
    /// Reductions applied between the parent and this node, and the order they started from.
    reduce::ReductionCounts reductions;
    vertex_t reduced_from = 0;
    double predicted_s = 0;  ///< of the whole subtree
};

/// Builds the plan of perm(a) for a square matrix; fills the structure fields of `report`.
template <class T>
Node<T> build_plan(const SparseMatrix<T>& a, const Settings& settings, StructureReport& report);

/// Builds the plan of haf(a) for a symmetric matrix of even order with an empty diagonal; fills
/// the structure fields of `report` (report.general, the Tutte set, …).
template <class T>
Node<T> build_hafnian_plan(const SparseMatrix<T>& a, const Settings& settings,
                           StructureReport& report);

/// Evaluates a plan built by build_plan, filling value fields, timings of the leaves
/// (result.structure.leaves) and stats of `result`. The engines' loops run through `session`
/// (checkpoints, MPI ranks, stop requests).
template <class T>
void evaluate_plan(const Node<T>& root, const Settings& settings, const CountOptions& options,
                   CountResult& result, run::Session& session);

}  // namespace pmcount::plan
