// Reading and writing edge lists and Matrix Market files.
//
// Edge list (one edge per line: `u v` or `u v weight`; `#` and `%` start comments; blank lines
// are fine). The first data line may be preceded by one header comment:
//   # bipartite L R   u in [0, L) is a left vertex, v in [0, R) a right vertex
//   # directed N      arcs u→v of a digraph on [0, N) (self-loops allowed)
//   # undirected N    an undirected graph on [0, N)
// Without a header the graph is undirected on the ids that occur. An undirected graph is
// 2-coloured component by component into a BipartiteGraph (a weighted one into the matrix of its
// sides); when it has an odd cycle it is a general graph: an UndirectedGraph, or for weighted
// edges the symmetric matrix whose hafnian is wanted (Input::hafnian). A self-loop is an error
// there: no perfect matching can use one. ReadOptions::interpretation = directed reads a digraph
// on the ids that occur, = bipartite insists on a 2-colouring (NotBipartite, naming an odd cycle,
// if that fails), = general never 2-colours.
//
// Matrix Market: coordinate and array; pattern, integer, real, complex; general, symmetric,
// skew-symmetric, hermitian. Read as rows × columns (a permanent), or with interpretation =
// general as a symmetric matrix whose hafnian is wanted: square, every entry equal to its mirror
// image (an error names the first that is not), a pattern's diagonal an error (a self-loop),
// a valued diagonal ignored with a warning (the hafnian does not use it). With ReadOptions::loops
// the diagonal (and an edge list's self-loops) are kept instead, as the loop hafnian's loops.
//
// Every malformed input throws InvalidInput("file:line: problem").
#pragma once

#include <complex>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pmcount/graph.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {

struct DMDecomposition;  // decomposition.hpp

enum class InputFormat { automatic, edge_list, matrix_market };

/// How a file is read (see the file comment): automatic; bipartite (an undirected edge list must
/// 2-colour); directed (a digraph, for cycle covers); general (an undirected graph or symmetric
/// matrix for its perfect matchings / hafnian, never split into sides).
enum class GraphInterpretation { automatic, bipartite, directed, general };

struct ReadOptions {
    InputFormat format = InputFormat::automatic;
    GraphInterpretation interpretation = GraphInterpretation::automatic;
    /// Weighted inputs: add repeated entries instead of rejecting them.
    bool sum_duplicates = false;
    /// Ignore values: read any input as its 0-1 pattern (for counting perfect matchings).
    bool pattern_only = false;
    /// With interpretation = general: keep the diagonal as loops, for the loop hafnian
    /// (Input::loops): an edge list's self-loop u–u and a matrix's diagonal entry are the loop
    /// weights (a pattern's weigh 1), and the input is always a symmetric matrix.
    bool loops = false;
};

/// A vertex that a file declares (by its header or size line) and that no entry touches: every
/// perfect matching, cycle cover, permanent term and hafnian term would have to use it, so every
/// count is 0.
struct IsolatedVertex {
    /// The vertex as the file numbers it, and why: "left vertex 3 has no edge", "row 7 has no
    /// entry".
    std::string witness;
    vertex_t rows = 0;  ///< the declared rows and columns (a general graph: its vertices, twice)
    vertex_t cols = 0;
};

/// A graph or matrix read from a file, ready for count().
struct Input {
    using Data =
        std::variant<BipartiteGraph, Digraph, SparseMatrix<std::int64_t>, SparseMatrix<double>,
                     SparseMatrix<std::complex<double>>, UndirectedGraph>;

    std::string source;  ///< file name ("<stdin>" for standard input)
    InputFormat format = InputFormat::automatic;
    Data data;
    /// True when the rows and columns are the same vertices (a digraph: cycle covers).
    bool directed = false;
    /// True for an undirected graph 2-coloured into its rows and columns: which vertices are
    /// rows is the reader's choice, so only a square matrix's permanent (its perfect matchings)
    /// belongs to the graph; a non-square one has none (count 0, no rectangular permanent).
    bool two_coloured = false;
    /// True when the matrix is symmetric and its hafnian is wanted (a weighted general graph:
    /// the weighted count of its perfect matchings); its diagonal is empty.
    bool hafnian = false;
    /// With hafnian: the diagonal was kept as loops (ReadOptions::loops), and count() computes
    /// the loop hafnian (pmcount::loop_hafnian).
    bool loops = false;
    /// Input ids of the left (row) and right (column) vertices, when they were renumbered (a
    /// general graph or symmetric matrix: the same list twice).
    std::vector<std::int64_t> left_ids;
    std::vector<std::int64_t> right_ids;
    /// Non-fatal findings (merged duplicates, real values that are all integers, ...).
    std::vector<std::string> warnings;
    /// The graph's drawing on a surface, when its source gives one (torus generator specs):
    /// count() lets the planner count it as Pfaffians on that surface.
    std::optional<Embedding> embedding;
    /// Set when the file declares a side of more vertices than it has bytes, beyond anything its
    /// entries could touch (a hostile or mistaken header: `# undirected 67108864` and 3 edges).
    /// Nothing of the declared size is allocated: `data` holds only the vertices that occur,
    /// named by left_ids / right_ids; rows() and cols() are the declared sides; count() and
    /// estimate() answer 0 at once with its witness.
    std::optional<IsolatedVertex> isolated;

    ValueKind kind() const noexcept;
    vertex_t rows() const noexcept;
    vertex_t cols() const noexcept;
    edge_t nnz() const noexcept;
    /// The bipartite graph of the nonzero entries (rows = left; a general graph: its adjacency
    /// matrix, each vertex on both sides); with `isolated`, of the vertices that occur.
    BipartiteGraph pattern() const;
    /// True for an UndirectedGraph or a matrix whose hafnian is wanted: rows and columns are the
    /// same vertices and a perfect matching pairs them up.
    bool is_general() const noexcept;
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

/// Embedding (rotation-system) files: the drawing of an input's graph on a surface, for
/// Input::embedding. One line per vertex that has an edge,
///     VERTEX: NEIGHBOUR NEIGHBOUR ...
/// its neighbours in the cyclic order in which their edges leave it, every vertex turning the
/// same way (see Embedding in graph.hpp); ids as the graph's file writes them (edge list ids;
/// 1-based rows of a Matrix Market file); `#` and `%` start comments. The input must name each
/// vertex once: an undirected edge list (no bipartite or directed header) or a symmetric matrix
/// read as a general graph. Every neighbour must be adjacent in the graph, each edge listed at
/// both ends; InvalidInput("file:line: problem") otherwise. The genus follows from the faces.
/// An optional line `cells ROWS COLS SITES` gives a torus drawing's tiling (Embedding::cells):
/// vertex id q is site q mod SITES of cell q / SITES, cell i·COLS + j, the ids being 0 … n − 1;
/// counting checks that translations by cells map the graph onto itself and factors the four
/// Pfaffians by Fourier transform, else ignores it.
Embedding parse_embedding(std::string_view text, const std::string& source_name,
                          const Input& input);
/// Reads `path` into input.embedding.
void read_embedding(const std::string& path, Input& input);
/// Writes `embedding` in that format, one line `VERTEX: NEIGHBOUR ...` per vertex (ids from 0),
/// after its `cells` line when it has a tiling whose places are the vertex ids.
void write_embedding(std::ostream& out, const Embedding& embedding);

/// Edge list writers; each writes the header that makes the file read back identically.
void write_edge_list(std::ostream& out, const BipartiteGraph& graph);
void write_edge_list(std::ostream& out, const UndirectedGraph& graph);  ///< `# undirected N`
void write_edge_list(std::ostream& out, const Digraph& graph);
template <class T>
void write_edge_list(std::ostream& out, const SparseMatrix<T>& matrix);

/// Matrix Market coordinate writers (general storage; complex writes two columns; a general
/// graph, its adjacency as a symmetric pattern: read back with --hafnian).
void write_matrix_market(std::ostream& out, const BipartiteGraph& graph);
void write_matrix_market(std::ostream& out, const UndirectedGraph& graph);
template <class T>
void write_matrix_market(std::ostream& out, const SparseMatrix<T>& matrix);

/// Graphviz DOT drawing of a Dulmage–Mendelsohn decomposition of `graph` (decomposition.hpp;
/// structure.hpp's dulmage_mendelsohn computes it): one cluster per fine block, matched edges
/// bold, edges between blocks (dropped from every perfect matching) dashed.
void write_dot(std::ostream& out, const BipartiteGraph& graph, const DMDecomposition& dm);

}  // namespace pmcount
