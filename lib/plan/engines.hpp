// The engines the planner can put on a leaf, in one table: each says which leaves it can count
// (permanents or hafnians, and which of those), predicts its time, and counts in the arithmetics
// it supports. A new engine is a new row; the planner picks, for each leaf, the applicable
// automatic engine for the leaf's problem with the least predicted time (or the one --method
// names).
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

#include "exact/ryser/ryser.hpp"
#include "plan/cost_model.hpp"
#include "plan/problem.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "run/chunked_run.hpp"

namespace pmcount::plan {

struct Engine {
    const char* name;
    Method method;    ///< the --method value that forces this engine
    Backend backend;  ///< cpu or cuda
    Problem problem;  ///< the leaves it counts: their matrix is square (permanent) or symmetric
    bool automatic;   ///< the planner may choose it on its own
    bool (*applies)(const LeafFacts&);
    double (*predict_s)(const LeafFacts&);
    exact::ExactOutcome (*count_exact)(const SparseMatrix<std::int64_t>&, const run::EngineRun&);
    exact::FloatOutcome (*count_real)(const SparseMatrix<double>&, Precision,
                                      const run::EngineRun&);
    exact::FloatOutcome (*count_complex)(const SparseMatrix<std::complex<double>>&,
                                         const run::EngineRun&);
    /// Counts in Precision::certified (tracks every rounding of its real arithmetic).
    bool certifies = false;
};

/// perm(B) = haf([[0, B], [Bᵀ, 0]]): row r of B is vertex r, column c is vertex rows + c (for a
/// non-square B, the graph with no perfect matching).
template <class T>
SparseMatrix<T> bipartite_embedding(const SparseMatrix<T>& b) {
    std::vector<Triplet<T>> entries;
    entries.reserve(2 * static_cast<std::size_t>(b.nnz()));
    for (const auto& t : b.triplets()) {
        entries.push_back({t.row, b.rows() + t.col, t.value});
        entries.push_back({b.rows() + t.col, t.row, t.value});
    }
    const vertex_t n = b.rows() + b.cols();
    return {n, n, std::move(entries)};
}

/// Every engine, in the order ties are broken.
const std::vector<Engine>& engines();

/// The engine for a leaf (facts.problem): among the engines `method` names (all automatic ones
/// for Method::automatic) on the allowed backends, the cheapest applicable one. Backend::cuda
/// prefers a GPU engine whenever one applies. nullptr when none applies.
/// An untrusted walk estimate (LeafFacts::walk_trusted) makes SkipPer and SpaRyser give way to
/// a polynomial engine that applies (their cost is known).
const Engine* choose_engine(const LeafFacts& facts, Method method, Backend backend);

/// What --explain says of a leaf's engine choice beyond its name: the frontier's width, and
/// that the walk estimate was not trusted ("" when there is nothing to say).
std::string engine_choice_detail(const LeafFacts& facts, const Engine* chosen);

/// The engine called `name` for `problem` (InternalError if there is none).
const Engine& engine_named(const std::string& name, Problem problem);

/// LeafFacts::generated_cached_sparyser and _skipper for the leaf `a` counted in `precision` on
/// `gpus` (exact::sparse_generated_cached). Left false (the compilation predicted) when the
/// probe fails: the engine itself reports the failure, if it is chosen.
void generated_kernel_facts(const DenseMatrix<std::int64_t>& a, Precision precision,
                            const std::vector<int>& gpus, LeafFacts& facts);
void generated_kernel_facts(const DenseMatrix<double>& a, Precision precision,
                            const std::vector<int>& gpus, LeafFacts& facts);
void generated_kernel_facts(const DenseMatrix<std::complex<double>>& a, Precision precision,
                            const std::vector<int>& gpus, LeafFacts& facts);

}  // namespace pmcount::plan
