// The steps of a count, shared by the files of lib/count (library-internal). A count runs
//   count.cpp            the public entry points: graphs and matrices to a square matrix
//   count_matrix.cpp     what needs no engine; the planner's settings, plan and evaluation
//   arithmetic.cpp       the precision resolved from the option and the entries; balancing
//   identity.cpp         what a checkpoint must match
//   recount.cpp          the default precision's answer to cancellation
//   rectangular.cpp      non-square permanents through a square extension
//   value_string.cpp     CountResult's decimal text
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "plan/problem.hpp"
#include "pmcount/big_int.hpp"
#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/options.hpp"
#include "pmcount/result.hpp"
#include "run/chunked_run.hpp"
#include "run/session.hpp"

namespace pmcount::counting {

/// DimensionMismatch unless `a` is square; InvalidArgument naming the first entry that differs
/// from its mirror image. `what` names the problem ("a hafnian", "a loop hafnian").
template <class T>
void check_symmetric(const SparseMatrix<T>& a, const char* what);

/// A monomer weight as matchings.cpp reads it ("3", "-1/2", "0.25", "1e-3", within 64 bits), as
/// the nearest double; InvalidArgument when it is none of these.
double monomer_weight_value(const std::string& text);

/// A bipartite graph's 0-1 biadjacency matrix; an undirected graph's 0-1 adjacency matrix.
SparseMatrix<std::int64_t> ones(const BipartiteGraph& graph);
SparseMatrix<std::int64_t> adjacency_matrix(const UndirectedGraph& graph);

/// The connected components of a square matrix's off-diagonal nonzero pattern, each a list of
/// vertices in increasing order, ordered by their least vertex (loop_hafnian.cpp).
template <class T>
std::vector<std::vector<vertex_t>> connected_blocks(const SparseMatrix<T>& a);

/// loop_hafnian of every matrix (complex, automatic precision, CPU), as alone — validated, split
/// into blocks, the same values and figures — but every block counted in vector lanes with the
/// blocks of its order (exact::loop_hafnians_complex): the batches' fast path (loop_hafnian.cpp).
/// An item's error names it ("item k: ").
std::vector<CountResult> complex_loop_hafnian_batch(
    const std::vector<DenseMatrix<std::complex<double>>>& matrices, const CountOptions& options);

/// The engines' run of a count outside the planner: its threads and progress.
run::EngineRun engine_run(const CountOptions& options);

/// An exact integer known without running an engine.
CountResult exact_result(ValueKind kind, const BigInt& value, std::string note);

/// `note`, with `more` after it.
std::string noted(std::string note, const std::string& more);

/// The default precision's double result is counted again when its error figure exceeds this
/// fraction of the value: fewer than six digits are left. Not lower: random dense matrices lose
/// about half of double's digits by order 40 (figure 1.3e-8 of the value on an H200, the actual
/// error 6.4 times less) and must not pay a recount for it (issue 32); the figure holds
/// on cancelling inputs (walk_error.hpp), so a result below this keeps what it states.
constexpr double kCancellationRelError = 1e-6;

/// Every count: what needs no engine, then the planner (structure front end, engines,
/// combination). The stop request that interrupts it is withdrawn as it leaves. `embedding`:
/// the graph's, when it came with one (a permanent's vertices: rows, then columns).
/// T is std::int64_t, double or std::complex<double> (so for every template below).
template <class T>
CountResult count_matrix(ValueKind kind, const SparseMatrix<T>& matrix, plan::Problem problem,
                         const char* row_name, const char* col_name, const CountOptions& options,
                         const Embedding* embedding = nullptr);

/// The arithmetic a problem runs in: the option, or exact for integers and double otherwise.
template <class T>
Precision resolve_precision(Precision requested, ValueKind kind);

/// Floating inputs: every row, then every column, divided by a power of two that brings its
/// largest |entry| into [1/2, 1). Only exponents change, so this is exact (unless an entry is
/// more than 2^1021 times smaller than both its row's and its column's largest), and the
/// engines, reductions and direct formulas then see entries near 1 whatever the input's range:
/// perm(A) = 2^shift · perm(balanced A). T is double or complex.
template <class T>
SparseMatrix<T> balanced_by_powers_of_two(const SparseMatrix<T>& a, std::int64_t& shift);

/// The same for a hafnian, which only allows the symmetric scaling D·A·D (haf(DAD) = Π d_i ·
/// haf(A)): vertex i is divided by 2^e_i, e_i = ⌊E_i/2⌋ with E_i the binary exponent of its largest
/// off-diagonal |entry| m_i < 2^E_i. Since |a_ij| ≤ √(m_i·m_j) < 2^((E_i + E_j)/2), every scaled
/// entry is below 2 in magnitude whatever the input's range; only exponents change (exact).
template <class T>
SparseMatrix<T> balanced_symmetric(const SparseMatrix<T>& a, std::int64_t& shift);

/// What a checkpoint must match: the version, the input's entries (and whether they are read
/// as a permanent's or a hafnian's matrix), the precision and each leaf's engine and order.
template <class T>
run::Identity run_identity(const SparseMatrix<T>& m, bool hafnian, Precision precision,
                           const StructureReport& plan);

/// The default precision's answer to cancellation (kCancellationRelError): the same count again
/// exactly when every entry is an integer (a real matrix of integer values), else in certified
/// arithmetic (real permanents dense Ryser can take), else in double-double, the first of these
/// that the plan predicts within the recount budget; otherwise the double result with a note
/// naming the arithmetic that would settle it and its predicted time. Not under a checkpoint (its
/// records are the double count's) or several MPI ranks.
template <class T>
CountResult recount_after_cancellation(ValueKind kind, const SparseMatrix<T>& matrix,
                                       plan::Problem problem, const char* row_name,
                                       const char* col_name, const CountOptions& options,
                                       CountResult first);

/// The permanent of a non-square matrix: for m < n rows, the sum over the injective maps σ of
/// its rows into its columns of Π_i a_{i,σ(i)}; for m > n that of its transpose. A column
/// without a nonzero entry is in no term, so only the n' columns with one count: n' < m gives
/// 0, otherwise appending n' − m rows of ones J gives a square matrix whose every permutation
/// is such a map completed by one of the (n' − m)! orderings of the columns it misses, so
///     perm([A; J]) = (n' − m)! · perm(A)
/// (Ryser 1963, Combinatorial Mathematics, ch. 2, §3). The extension goes through the planner
/// and every square engine, arithmetic and backend as it is (exact integers by multi-modular
/// CRT, then an exact division), at the cost of a permanent of order n': O(2^n'·n') dense
/// Ryser, whatever m. A 0×n matrix has permanent 1 (the empty map), counted as the 0×0 matrix.
/// `rows` × `cols` is the matrix's shape as declared: `matrix` may lack some lines of the longer
/// side (a file's vertices that no entry touches; they are zero), never of the shorter.
template <class T>
CountResult rectangular_permanent(ValueKind kind, const SparseMatrix<T>& matrix, vertex_t rows,
                                  vertex_t cols, const CountOptions& options);

}  // namespace pmcount::counting
