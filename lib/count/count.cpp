// The public counting entry points: graphs, digraphs and matrices become the square matrix
// (or a hafnian's symmetric one) that the counting pipeline takes (count/pipeline.hpp); inputs
// whose count needs no pipeline (an isolated vertex, a non-square permanent) are settled here.
#include "pmcount/count.hpp"

#include <algorithm>
#include <complex>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "count/pipeline.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"

namespace pmcount {

using counting::adjacency_matrix;
using counting::count_matrix;
using counting::exact_result;
using counting::ones;
using counting::rectangular_permanent;
using counting::resolve_precision;

namespace {

template <class T>
ValueKind kind_of() {
    if constexpr (std::is_same_v<T, std::int64_t>) {
        return ValueKind::integer;
    } else if constexpr (std::is_same_v<T, double>) {
        return ValueKind::real;
    } else {
        return ValueKind::complex;
    }
}

}  // namespace

SparseMatrix<std::int64_t> counting::ones(const BipartiteGraph& g) {
    std::vector<Triplet<std::int64_t>> entries;
    entries.reserve(static_cast<std::size_t>(g.num_edges()));
    for (const auto& [u, v] : g.edges()) {
        entries.push_back({u, v, 1});
    }
    return {g.n_left(), g.n_right(), std::move(entries)};
}

SparseMatrix<std::int64_t> counting::adjacency_matrix(const UndirectedGraph& graph) {
    std::vector<Triplet<std::int64_t>> entries;
    entries.reserve(graph.adjacency().size());
    for (vertex_t u = 0; u < graph.num_vertices(); ++u) {
        for (const vertex_t v : graph.neighbours(u)) {
            entries.push_back({u, v, 1});
        }
    }
    const vertex_t n = graph.num_vertices();
    return {n, n, std::move(entries)};
}

CountResult count_perfect_matchings(const BipartiteGraph& graph, const CountOptions& options) {
    return count_matrix(ValueKind::binary, ones(graph), plan::Problem::permanent, "left vertex",
                        "right vertex", options);
}

CountResult count_perfect_matchings(const BipartiteGraph& graph, const Embedding& embedding,
                                    const CountOptions& options) {
    return count_matrix(ValueKind::binary, ones(graph), plan::Problem::permanent, "left vertex",
                        "right vertex", options, &embedding);
}

CountResult count_perfect_matchings(const UndirectedGraph& graph, const CountOptions& options) {
    return count_matrix(ValueKind::binary, adjacency_matrix(graph), plan::Problem::hafnian,
                        "vertex", "vertex", options);
}

CountResult count_perfect_matchings(const UndirectedGraph& graph, const Embedding& embedding,
                                    const CountOptions& options) {
    return count_matrix(ValueKind::binary, adjacency_matrix(graph), plan::Problem::hafnian,
                        "vertex", "vertex", options, &embedding);
}

CountResult count_cycle_covers(const Digraph& graph, const CountOptions& options) {
    return count_matrix(ValueKind::binary, ones(graph.as_bipartite()), plan::Problem::permanent,
                        "vertex (out-arcs)", "vertex (in-arcs)", options);
}

namespace {

template <class T>
CountResult permanent_drawn(const SparseMatrix<T>& matrix, const CountOptions& options,
                            const Embedding* embedding) {
    if (!matrix.is_square()) {
        return rectangular_permanent(kind_of<T>(), matrix, matrix.rows(), matrix.cols(), options);
    }
    return count_matrix(kind_of<T>(), matrix, plan::Problem::permanent, "row", "column", options,
                        embedding);
}

template <class T>
CountResult hafnian_drawn(const SparseMatrix<T>& matrix, const CountOptions& options,
                          const Embedding* embedding) {
    counting::check_symmetric(matrix, "a hafnian");
    std::vector<Triplet<T>> off_diagonal;  // the hafnian never uses the diagonal
    for (const auto& t : matrix.triplets()) {
        if (t.row != t.col) {
            off_diagonal.push_back(t);
        }
    }
    return count_matrix(kind_of<T>(),
                        SparseMatrix<T>(matrix.rows(), matrix.cols(), std::move(off_diagonal)),
                        plan::Problem::hafnian, "vertex", "vertex", options, embedding);
}

}  // namespace

template <class T>
void counting::check_symmetric(const SparseMatrix<T>& a, const char* what) {
    if (!a.is_square()) {
        throw DimensionMismatch(std::string(what) + " needs a square matrix, got " +
                                std::to_string(a.rows()) + "×" + std::to_string(a.cols()));
    }
    for (vertex_t r = 0; r < a.rows(); ++r) {
        for (edge_t e = a.row_offsets()[static_cast<std::size_t>(r)];
             e < a.row_offsets()[static_cast<std::size_t>(r) + 1]; ++e) {
            const vertex_t c = a.col_indices()[static_cast<std::size_t>(e)];
            if (a.at(c, r) != a.values()[static_cast<std::size_t>(e)]) {
                throw InvalidArgument(std::string(what) + " needs a symmetric matrix: entry (" +
                                      std::to_string(r) + ", " + std::to_string(c) +
                                      ") differs from entry (" + std::to_string(c) + ", " +
                                      std::to_string(r) + ")");
            }
        }
    }
}

run::EngineRun counting::engine_run(const CountOptions& options) {
    run::EngineRun run;
    run.threads = options.threads;
    run.progress = options.progress;
    run.progress_interval_s = options.progress_interval_s;
    return run;
}

template <class T>
CountResult permanent(const SparseMatrix<T>& matrix, const CountOptions& options) {
    return permanent_drawn(matrix, options, nullptr);
}

template <class T>
CountResult hafnian(const SparseMatrix<T>& matrix, const CountOptions& options) {
    return hafnian_drawn(matrix, options, nullptr);
}

template <class T>
CountResult hafnian(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return hafnian(SparseMatrix<T>(matrix), options);
}

template <class T>
CountResult permanent(const DenseMatrix<T>& matrix, const CountOptions& options) {
    return permanent(SparseMatrix<T>(matrix), options);
}

CountResult count(const Input& input, const CountOptions& options) {
    return std::visit(
        [&](const auto& data) -> CountResult {
            using D = std::decay_t<decltype(data)>;
            if (input.isolated) {
                // The arithmetic asked for must still suit the entries, as for any input.
                if constexpr (std::is_same_v<D, SparseMatrix<double>> ||
                              std::is_same_v<D, SparseMatrix<std::complex<double>>>) {
                    resolve_precision<typename D::value_type>(options.precision, input.kind());
                } else {
                    resolve_precision<std::int64_t>(options.precision, input.kind());
                }
                if constexpr (std::is_same_v<D, SparseMatrix<std::int64_t>> ||
                              std::is_same_v<D, SparseMatrix<double>> ||
                              std::is_same_v<D, SparseMatrix<std::complex<double>>>) {
                    // A non-square permanent: vertices missing from the longer side only are
                    // zero lines, used by no term; the shorter side's are used by every one.
                    const bool tall = input.rows() > input.cols();
                    if (!input.hafnian && !input.directed && !input.two_coloured &&
                        input.rows() != input.cols() &&
                        (tall ? data.cols() == input.cols() : data.rows() == input.rows())) {
                        return rectangular_permanent(input.kind(), data, input.rows(), input.cols(),
                                                     options);
                    }
                }
                CountResult r = exact_result(
                    input.kind(), 0,
                    input.isolated->witness +
                        (input.loops ? ": neither a loop nor an edge, the loop hafnian is 0"
                                     : ": no perfect matching, count is 0"));
                r.stats.n = std::max(input.rows(), input.cols());
                r.stats.nnz = input.nnz();
                r.structure.general = input.is_general();
                return r;
            }
            if constexpr (std::is_same_v<D, BipartiteGraph> || std::is_same_v<D, UndirectedGraph>) {
                return input.embedding ? count_perfect_matchings(data, *input.embedding, options)
                                       : count_perfect_matchings(data, options);
            } else if constexpr (std::is_same_v<D, Digraph>) {
                return count_cycle_covers(data, options);
            } else {
                if (input.loops) {
                    return loop_hafnian(data, options);
                }
                if ((input.directed || input.two_coloured) && !data.is_square()) {
                    // Cycle covers of a digraph, perfect matchings of a graph whose sides the
                    // reader chose: a non-square matrix has none (the note says why), though it
                    // has a permanent.
                    return count_matrix(input.kind(), data, plan::Problem::permanent, "row",
                                        "column", options,
                                        input.embedding ? &*input.embedding : nullptr);
                }
                const Embedding* drawn = input.embedding ? &*input.embedding : nullptr;
                return input.hafnian ? hafnian_drawn(data, options, drawn)
                                     : permanent_drawn(data, options, drawn);
            }
        },
        input.data);
}

template CountResult permanent(const SparseMatrix<std::int64_t>&, const CountOptions&);
template CountResult permanent(const SparseMatrix<double>&, const CountOptions&);
template CountResult permanent(const SparseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<std::int64_t>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<double>&, const CountOptions&);
template CountResult permanent(const DenseMatrix<std::complex<double>>&, const CountOptions&);
template void counting::check_symmetric(const SparseMatrix<std::int64_t>&, const char*);
template void counting::check_symmetric(const SparseMatrix<double>&, const char*);
template void counting::check_symmetric(const SparseMatrix<std::complex<double>>&, const char*);
template CountResult hafnian(const SparseMatrix<std::int64_t>&, const CountOptions&);
template CountResult hafnian(const SparseMatrix<double>&, const CountOptions&);
template CountResult hafnian(const SparseMatrix<std::complex<double>>&, const CountOptions&);
template CountResult hafnian(const DenseMatrix<std::int64_t>&, const CountOptions&);
template CountResult hafnian(const DenseMatrix<double>&, const CountOptions&);
template CountResult hafnian(const DenseMatrix<std::complex<double>>&, const CountOptions&);

}  // namespace pmcount
