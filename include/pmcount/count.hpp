// Counting perfect matchings (of bipartite and of general graphs), cycle covers, permanents and
// hafnians: the entry points (options: pmcount/options.hpp, results: pmcount/result.hpp).
#pragma once

#include <vector>

#include "pmcount/big_int.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

struct Input;

/// Number of perfect matchings of a bipartite graph (exact). Unequal sides give 0 with a note.
CountResult count_perfect_matchings(const BipartiteGraph& graph, const CountOptions& options = {});
/// Number of perfect matchings of any graph (exact): the hafnian of its adjacency matrix. An
/// odd number of vertices gives 0 with a note; no perfect matching gives 0 with a Tutte set
/// (result.structure.tutte_set).
CountResult count_perfect_matchings(const UndirectedGraph& graph, const CountOptions& options = {});
/// The same for a graph drawn on a surface (Embedding, graph.hpp: a bipartite graph's right
/// vertex j is num_left() + j): the planner may also count it as 4^g Pfaffians (engine
/// pfaffian-surface, polynomial time, components of genus ≤ 2), where that is predicted faster
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
/// Loop hafnian of a symmetric matrix, lhaf(A) (thewalrus's `hafnian(A, loop=True)`): Σ over the
/// partitions of the vertices into pairs and singletons of Π_pairs a_uv · Π_singletons a_vv — the
/// diagonal as loops, so a term is a matching of any size whose unmatched vertices v weigh a_vv.
/// Any order (an odd one needs a loop; 0×0 gives 1). Split into the connected components of
/// the off-diagonal entries (the product of theirs), each by the hafnian engine's recursion with
/// loops (method "loop-hafnian", O(n²·2^(n/2))): exact integers for integer matrices (primes +
/// CRT), double with its error estimate or double-double with a bound for real ones (the
/// default double counted again exactly or in double-double when its figure shows
/// cancellation), complex double; Method::brute_force sums the loop matchings (blocks up to
/// order 16: the oracle). CPU threads; DimensionMismatch when not square,
/// InvalidArgument when not symmetric or for a method, backend or precision it does not have.
template <class T>
CountResult loop_hafnian(const SparseMatrix<T>& matrix, const CountOptions& options = {});
template <class T>
CountResult loop_hafnian(const DenseMatrix<T>& matrix, const CountOptions& options = {});
/// Hafnian of a matrix with repeated rows and columns (thewalrus's hafnian_repeated(A, rpt)):
/// haf(B) for B the symmetric A with row and column i repeated rpt[i] times, B[(i,a),(j,b)] = a_ij
/// (so a_ii joins two copies of i; rpt[i] = 0 drops i). By predicted time: the copies paired
/// by modes, about Π(count + 1) points over the pair types (exact/hafnian/paired.hpp), the sum
/// over the multiplicities, Π(rpt_i + 1) points (exact/hafnian/repeated.hpp), or the hafnian
/// engine on B. Exact integers for integer A. Otherwise the paired copies in double, the figure
/// an estimate from two runs with different roundings (error_kind "estimate"; counted again with
/// a bound when it exceeds 10⁻⁶ of the value), or, with Precision::double_double or where the
/// paired copies are not the fastest, double-double rounded to double with a bound (error_kind
/// "bound"); method "hafnian_repeated" (or "hafnian" for B), CPU threads. InvalidArgument for a
/// non-square or asymmetric A, rpt of another length or a negative entry, or an option it does
/// not have; ProblemTooLarge past 400 photons or 10^11 points.
template <class T>
CountResult hafnian_repeated(const DenseMatrix<T>& matrix, const std::vector<int>& rpt,
                             const CountOptions& options = {});
/// The loop hafnian of B with mu_i on the diagonal of every copy of i (thewalrus's
/// hafnian_repeated(A, rpt, mu, loop=True); its default mu is A's diagonal).
template <class T>
CountResult loop_hafnian_repeated(const DenseMatrix<T>& matrix, const std::vector<int>& rpt,
                                  const std::vector<T>& mu, const CountOptions& options = {});
/// perm(B) for B the m×n matrix A with row i repeated rows[i] times and column j cols[j] times
/// (thewalrus's permanent_repeated(A, rpt) is rows = cols = rpt); 0 when the totals differ.
/// Ryser's formula grouped by the multiplicities of the side with the fewer Π(m + 1) points.
template <class T>
CountResult permanent_repeated(const DenseMatrix<T>& matrix, const std::vector<int>& rows,
                               const std::vector<int>& cols, const CountOptions& options = {});
/// The torontonian (thewalrus's tor(O); Quesada, Brod and Martín-López 2018) of the 2N×2N matrix O
/// in xxpp order — mode k owns rows and columns k and k + N — with I − O Hermitian positive
/// definite (O = I − Q⁻¹ for a Gaussian state's Q-matrix):
///     Tor(O) = Σ over the sets Z of modes of (−1)^(N−|Z|) / √det(I − O_Z),
/// O_Z keeping the rows and columns of Z's modes. Real for every such O. Double with its rounding
/// error tracked to first order (error_kind "estimate": it follows the actual error within a few
/// per cent, cancellation included); by default counted again in double-double (error_kind
/// "bound") when that figure exceeds 10⁻⁶ of the value; Precision::double_double at once;
/// Method::brute_force: the
/// definition, set by set (N ≤ 12). CPU threads; about 12·2^N multiply-adds. InvalidArgument for
/// an O not square of even order, not Hermitian, or with some I − O_Z not positive definite
/// (the modes named); ProblemTooLarge past 48 modes. T: double or std::complex<double>.
template <class T>
CountResult torontonian(const DenseMatrix<T>& matrix, const CountOptions& options = {});
/// The loop torontonian (thewalrus's ltor(O, gamma)): each term times exp(½ γ_Zᵀ (I − O_Z)⁻¹ γ_Z*),
/// γ_Z the entries of gamma (one per row of O) on Z's rows.
template <class T>
CountResult loop_torontonian(const DenseMatrix<T>& matrix, const std::vector<T>& gamma,
                             const CountOptions& options = {});
/// Batches: the same function of many (small) matrices in one call, the items spread over the
/// CPU threads of options.threads, each item counted on one thread by its function's own entry
/// (checked, planned and reported as alone); the results in the items' order. An item's
/// InvalidArgument, DimensionMismatch or ProblemTooLarge is raised with "item k: " before its
/// message, and no later item starts. options.progress receives the share of items done.
template <class T>
std::vector<CountResult> permanent_batch(const std::vector<DenseMatrix<T>>& matrices,
                                         const CountOptions& options = {});
template <class T>
std::vector<CountResult> hafnian_batch(const std::vector<DenseMatrix<T>>& matrices,
                                       const CountOptions& options = {});
template <class T>
std::vector<CountResult> loop_hafnian_batch(const std::vector<DenseMatrix<T>>& matrices,
                                            const CountOptions& options = {});
/// The loop hafnians of one matrix with each of many diagonals (loop weights, as the
/// displacement vectors of a Gaussian state give them) in place of its own.
template <class T>
std::vector<CountResult> loop_hafnian_batch(const DenseMatrix<T>& matrix,
                                            const std::vector<std::vector<T>>& diagonals,
                                            const CountOptions& options = {});
/// Torontonians, or with gammas (one per matrix) loop torontonians. T: double or complex.
template <class T>
std::vector<CountResult> torontonian_batch(const std::vector<DenseMatrix<T>>& matrices,
                                           const std::vector<std::vector<T>>* gammas = nullptr,
                                           const CountOptions& options = {});
/// Whatever read_input() returned: the graph's count, the matrix's permanent, or its hafnian
/// (Input::hafnian). An input with a declared vertex that no entry touches (Input::isolated)
/// counts 0 at once, the note naming that vertex.
CountResult count(const Input& input, const CountOptions& options = {});

}  // namespace pmcount
