// Matchings of every size, not only perfect ones: the matching polynomial's coefficients, the
// Hosoya index (all matchings, the empty one included), the matchings of one size, and the
// monomer–dimer partition function Z(x) = Σ_k m_k x^(n−2k).
//
// m_k is the number of matchings of k edges, weighted (an edge's weight is its matrix entry) by
// the product of their edges' weights. Counted exactly: the frontier DP with a transition that
// leaves a vertex unmatched, or the loop hafnian of y·A + x·I for small dense components
// (lhaf(y·A + x·I) = Σ_M y^{|M|} Π_{e∈M} a_e · x^(n−2|M|)), modulo primes, the coefficients by
// evaluation at y = 0 … ν (ν the largest matching's size) and interpolation, CRT with a spare.
// Connected components are counted apart (their polynomials convolve). docs/matchings.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "pmcount/big_int.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"

namespace pmcount {

struct Input;

/// What to count among the matchings of every size.
enum class MatchingQuery {
    all,            ///< the Hosoya index: Σ_k m_k
    polynomial,     ///< m_0 … m_⌊n/2⌋
    size,           ///< m_K for one K
    monomer_dimer,  ///< Z(x) = Σ_k m_k x^(n−2k) at a rational x
};
const char* to_string(MatchingQuery query) noexcept;

struct MatchingsResult {
    MatchingQuery query = MatchingQuery::all;
    /// polynomial: m_0 … m_⌊n/2⌋; empty for the other queries.
    std::vector<BigInt> coefficients;
    /// all: the Hosoya index; size: m_K; monomer_dimer: Z(x) = numerator / denominator in lowest
    /// terms (denominator > 0); polynomial: the Hosoya index too (Σ m_k).
    BigInt numerator;
    BigInt denominator = 1;
    vertex_t vertices = 0;
    edge_t edges = 0;
    int size = 0;                ///< K (size)
    std::string monomer_weight;  ///< x as given (monomer_dimer)
    int components = 0;          ///< connected components counted apart
    std::string method;          ///< the engines: "frontier", "loop-hafnian" or both
    std::string arithmetic;      ///< primes, evaluation points
    double seconds = 0;
    /// The numerator, or "numerator/denominator".
    std::string value_string() const;
};

/// The counts of an undirected graph (edge weight 1), or of the weighted graph of a symmetric
/// integer matrix's off-diagonal entries (its diagonal is ignored). DimensionMismatch for a matrix
/// that is not square; InvalidArgument for one that is not symmetric, a negative K, or a
/// monomer weight that is not a rational
/// number ("3", "-1/2", "0.25", "1e-3"; numerator and denominator within 64 bits);
/// ProblemTooLarge for a component that neither engine can count (frontier width beyond
/// exact::kMaxFrontierWidth and more than 64 vertices).
MatchingsResult matching_polynomial(const UndirectedGraph& graph, const CountOptions& options = {});
MatchingsResult matching_polynomial(const SparseMatrix<std::int64_t>& symmetric,
                                    const CountOptions& options = {});
MatchingsResult count_all_matchings(const UndirectedGraph& graph, const CountOptions& options = {});
MatchingsResult count_all_matchings(const SparseMatrix<std::int64_t>& symmetric,
                                    const CountOptions& options = {});
MatchingsResult count_matchings_of_size(const UndirectedGraph& graph, int size,
                                        const CountOptions& options = {});
MatchingsResult count_matchings_of_size(const SparseMatrix<std::int64_t>& symmetric, int size,
                                        const CountOptions& options = {});
MatchingsResult monomer_dimer(const UndirectedGraph& graph, const std::string& monomer_weight,
                              const CountOptions& options = {});
MatchingsResult monomer_dimer(const SparseMatrix<std::int64_t>& symmetric,
                              const std::string& monomer_weight, const CountOptions& options = {});

/// The same for anything count_matchings reads: an undirected graph or a symmetric matrix read
/// as one (its off-diagonal entries the weights) as it is; a bipartite graph, or a matrix as the
/// bipartite graph of its rows and columns (entry a_ij: the edge between row i and column j), as
/// one graph of both sides. InvalidArgument for a digraph (matchings are of undirected graphs)
/// and for real or complex entries. `size` for MatchingQuery::size, `monomer_weight` for
/// monomer_dimer.
MatchingsResult count_matchings(const Input& input, MatchingQuery query,
                                const CountOptions& options = {}, int size = 0,
                                const std::string& monomer_weight = "1");

/// Estimates, for graphs beyond exact counting: Z(x) for a monomer weight x > 0 (x = 1: the
/// number of all matchings), by sequential importance sampling along the frontier DP's sweep
/// order with a belief-propagation guide (Bethe approximation) and the estimators' populations,
/// rounds, stopping rules and interval (pmcount/approx.hpp; docs/matchings.md). On CPU threads
/// or GPUs (EstimateOptions::backend). InvalidArgument for x ≤ 0 or not finite, and for a
/// negative or non-finite weight; estimator, layout and scaling options do not apply.
EstimateResult estimate_monomer_dimer(const UndirectedGraph& graph, double monomer_weight,
                                      const EstimateOptions& options = {});
EstimateResult estimate_monomer_dimer(const SparseMatrix<double>& symmetric, double monomer_weight,
                                      const EstimateOptions& options = {});
EstimateResult estimate_all_matchings(const UndirectedGraph& graph,
                                      const EstimateOptions& options = {});
/// The same for anything count_matchings reads (as count_matchings(Input, …) reads it; real
/// weights too): MatchingQuery::all or monomer_dimer with `monomer_weight` as text (what the
/// exact count accepts, or any decimal). The other queries are InvalidArgument (counted exactly).
EstimateResult estimate_matchings(const Input& input, MatchingQuery query,
                                  const std::string& monomer_weight,
                                  const EstimateOptions& options = {});

}  // namespace pmcount
