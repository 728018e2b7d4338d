// Reading and writing edge lists and Matrix Market files.
//
// Edge list (one edge per line: `u v` or `u v weight`; `#` and `%` start comments; blank lines
// are fine). The first data line may be preceded by one header comment:
//   # bipartite L R   u in [0, L) is a left vertex, v in [0, R) a right vertex
//   # directed N      arcs u→v of a digraph on [0, N) (self-loops allowed)
//   # undirected N    an undirected graph on [0, N), 2-coloured into sides
// Without a header the graph is undirected on the ids that occur, 2-coloured component by
// component (NotBipartite, naming an odd cycle, if that fails); with ReadOptions::interpretation
// = directed it is a digraph on the ids that occur.
//
// Matrix Market: coordinate and array; pattern, integer, real, complex; general, symmetric,
// skew-symmetric, hermitian.
//
// Every malformed input throws InvalidInput("file:line: problem").
#pragma once

#include <complex>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {

enum class InputFormat { automatic, edge_list, matrix_market };

/// How an edge list without a header is read.
enum class GraphInterpretation { automatic, bipartite, directed };

struct ReadOptions {
    InputFormat format = InputFormat::automatic;
    GraphInterpretation interpretation = GraphInterpretation::automatic;
    /// Weighted inputs: add repeated entries instead of rejecting them.
    bool sum_duplicates = false;
    /// Ignore values: read any input as its 0-1 pattern (for counting perfect matchings).
    bool pattern_only = false;
};

/// A graph or matrix read from a file, ready for count().
struct Input {
    using Data = std::variant<BipartiteGraph, Digraph, SparseMatrix<std::int64_t>,
                              SparseMatrix<double>, SparseMatrix<std::complex<double>>>;

    std::string source;  ///< file name ("<stdin>" for standard input)
    InputFormat format = InputFormat::automatic;
    Data data;
    /// True when the rows and columns are the same vertices (a digraph: cycle covers).
    bool directed = false;
    /// Input ids of the left (row) and right (column) vertices, when they were renumbered.
    std::vector<std::int64_t> left_ids;
    std::vector<std::int64_t> right_ids;
    /// Non-fatal findings (merged duplicates, real values that are all integers, ...).
    std::vector<std::string> warnings;

    ValueKind kind() const noexcept;
    vertex_t rows() const noexcept;
    vertex_t cols() const noexcept;
    edge_t nnz() const noexcept;
    /// The bipartite graph of the nonzero entries (rows = left).
    BipartiteGraph pattern() const;
    /// Row / column index as the file wrote it: the original id of a renumbered vertex, the
    /// 1-based index of a Matrix Market file, the id itself otherwise.
    std::int64_t row_label(vertex_t row) const;
    std::int64_t col_label(vertex_t col) const;
};

/// Reads a file ("-" for standard input).
Input read_input(const std::string& path, const ReadOptions& options = {});
/// Parses text; source_name is used in error messages.
Input parse_input(std::string_view text, const std::string& source_name,
                  const ReadOptions& options = {});

/// Edge list writers; each writes the header that makes the file read back identically.
void write_edge_list(std::ostream& out, const BipartiteGraph& graph);
void write_edge_list(std::ostream& out, const Digraph& graph);
template <class T>
void write_edge_list(std::ostream& out, const SparseMatrix<T>& matrix);

/// Matrix Market coordinate writers (general storage; complex writes two columns).
void write_matrix_market(std::ostream& out, const BipartiteGraph& graph);
template <class T>
void write_matrix_market(std::ostream& out, const SparseMatrix<T>& matrix);

}  // namespace pmcount
