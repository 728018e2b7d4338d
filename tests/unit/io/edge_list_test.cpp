// Edge-list reader: every malformed input fails with "g.txt:<line>: problem", and every valid
// reading (headers, 2-colouring, general graphs, renumbering, weights) builds exactly the expected
// graph or matrix.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "pmcount/approx.hpp"
#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "unit/io/parse_helpers.hpp"

namespace pmcount {
namespace {

using test::data_as;
using test::expect_invalid;
using test::parse;
using Edges = std::vector<BipartiteGraph::Edge>;
using Ids = std::vector<std::int64_t>;

ReadOptions sum_duplicates() {
    ReadOptions options;
    options.sum_duplicates = true;
    return options;
}

ReadOptions reading(GraphInterpretation interpretation) {
    ReadOptions options;
    options.interpretation = interpretation;
    return options;
}

// ---- Malformed input -------------------------------------------------------------------------

TEST(EdgeListErrors, NonNumericIds) {
    expect_invalid("0 1\n1 x\n", 2, "vertex id 'x' is not a number");
    expect_invalid("a b\n", 1, "vertex id 'a' is not a number");
    expect_invalid("# bipartite 2 2\n0 1\n0x1 1\n", 3, "vertex id '0x1' is not a number");
    expect_invalid("0 1\n1 +\n", 2, "is not a number");
}

TEST(EdgeListErrors, WrongFieldCounts) {
    expect_invalid("0 1\n1 2 3 4\n", 2, "too many fields (4)");
    expect_invalid("0 1 1\n\n1 2 3 4 5\n", 3, "too many fields (5)");
    expect_invalid("0 1\n\n7\n", 3, "too few fields (1)");
    expect_invalid("7 # a lone vertex\n", 1, "too few fields (1)");
}

TEST(EdgeListErrors, NegativeAndNonIntegerIds) {
    expect_invalid("0 1\n-1 2\n", 2, "vertex id '-1' is negative");
    expect_invalid("0 1\n2 -7\n", 2, "vertex id '-7' is negative");
    expect_invalid("0 1\n1.5 2\n", 2, "vertex id '1.5' is not an integer");
    expect_invalid("1e3 2\n", 1, "vertex id '1e3' is not an integer");
    expect_invalid("99999999999999999999 1\n", 1, "does not fit in 64 bits");
}

TEST(EdgeListErrors, IdOutsideTheDeclaredSize) {
    expect_invalid("# bipartite 2 3\n0 0\n2 1\n", 3,
                   "left vertex id 2 is outside [0, 2) declared by the header on line 1");
    expect_invalid("# bipartite 2 3\n1 3\n", 2,
                   "right vertex id 3 is outside [0, 3) declared by the header on line 1");
    expect_invalid("% comment\n# directed 3\n0 1\n1 3\n", 4,
                   "vertex id 3 is outside [0, 3) declared by the header on line 2");
    expect_invalid("# undirected 4\n0 1\n% c\n4 0\n", 4,
                   "vertex id 4 is outside [0, 4) declared by the header on line 1");
    expect_invalid("# bipartite 0 0\n0 0\n", 2, "left vertex id 0 is outside [0, 0)");
}

TEST(EdgeListErrors, NonFiniteWeights) {
    expect_invalid("0 1 1.5\n1 2 nan\n", 2, "weight is NaN");
    expect_invalid("0 1 1.5\n1 2 NaN\n", 2, "weight is NaN");
    expect_invalid("0 1 inf\n", 1, "weight 'inf' is infinite or beyond double range");
    expect_invalid("0 1 2\n1 2 -Infinity\n", 2, "is infinite or beyond double range");
    expect_invalid("0 1 2\n\n1 2 1e400\n", 3, "weight '1e400' is infinite or beyond double range");
    expect_invalid("0 1 2\n1 2 -1e400\n", 2, "beyond double range");
    expect_invalid("0 1 2\n1 2 abc\n", 2, "weight 'abc' is not a number");
    expect_invalid("0 1 2\n1 2 1.5.5\n", 2, "weight '1.5.5' is not a number");
    expect_invalid("0 1 2\n1 2 +-1.5\n", 2, "weight '+-1.5' is not a number");
    expect_invalid("0 1 2\n1 2 ++1\n", 2, "weight '++1' is not a number");
}

TEST(EdgeListErrors, WeightedAndUnweightedLinesMixed) {
    expect_invalid("0 1 2\n1 2\n", 2, "has no weight but line 1 has one");
    expect_invalid("# c\n0 1\n\n1 2 2.5\n", 4, "has a weight but line 2 has none");
}

TEST(EdgeListErrors, EmptyAndCommentOnlyFiles) {
    expect_invalid("", 1, "empty file");
    expect_invalid("\n   \n# just a comment\n% another\n", 4, "no edges and no header");
    expect_invalid("\t\r\n", 1, "no edges and no header");
}

TEST(EdgeListErrors, RepeatedWeightedEdgeNamesBothLines) {
    expect_invalid("# bipartite 2 2\n0 1 2\n1 1 3\n0 1 4\n", 4,
                   "duplicate entry (0, 1), already given on line 2");
    // Undirected: "1 0" is the edge "0 1" again.
    expect_invalid("0 1 2.5\n1 2 3\n1 0 2.5\n", 3,
                   "duplicate entry (0, 1), already given on line 1");
}

TEST(EdgeListErrors, MalformedHeaders) {
    expect_invalid("# bipartite 3\n0 0\n", 1, "malformed header: expected '# bipartite L R'");
    expect_invalid("# directed 3 3\n0 0\n", 1, "malformed header: expected '# directed N'");
    expect_invalid("# undirected 3 1\n", 1, "malformed header: expected '# undirected N'");
    expect_invalid("# bipartite 3 x\n", 1, "header size 'x' is not a number");
    expect_invalid("# bipartite -3 3\n", 1, "header size '-3' is negative");
    // Size-like but not whole numbers: an error, not a comment that silently drops the header.
    expect_invalid("# undirected 4.0\n0 1\n", 1, "header size '4.0' is not an integer");
    expect_invalid("# directed 3.5\n0 1\n1 0\n", 1, "header size '3.5' is not an integer");
    expect_invalid("# bipartite 2.0 2\n0 0\n", 1, "header size '2.0' is not an integer");
    expect_invalid("# bipartite L=2 R=2\n0 0\n", 1, "header size 'L=2' is not a number");
    expect_invalid("# directed 1000000000000\n", 1, "exceeds the supported");
    // The one vertex limit of files and generator specs: 2^24 a side.
    expect_invalid("# bipartite 2 16777217\n", 1,
                   "header size 16777217 exceeds the supported 16777216 vertices");
}

TEST(EdgeListErrors, HeaderAfterDataAndSecondHeader) {
    expect_invalid("0 1\n# bipartite 2 2\n", 2, "header after the first edge (line 1)");
    expect_invalid("# c\n\n2 3\n1 1\n# directed 4\n", 5, "header after the first edge (line 3)");
    expect_invalid("# bipartite 2 2\n# directed 2\n0 1\n", 2,
                   "second header; the first is on line 1");
}

TEST(EdgeListErrors, BinaryData) {
    using namespace std::string_literals;
    expect_invalid("0 1\n1 2\n2\0 3\n"s, 3, "binary data (NUL byte)");
    expect_invalid("\0\0\0"s, 1, "binary data");
    expect_invalid("%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1\0 1\n"s, 3,
                   "binary data");
}

TEST(EdgeListWeights, IntegerBeyondInt64IsReadAsReal) {
    // The Matrix Market reader takes the same token in a real file; an edge list takes it too,
    // and the whole input becomes real (the exact engines take int64 entries), with a warning.
    const Input input = parse(
        "# bipartite 2 2\n0 0 5\n0 1 1000000000000000000000000000000\n"
        "1 0 -9223372036854775809\n1 1 2\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.values(), (std::vector<double>{5.0, 1e30, -9223372036854775809.0, 2.0}));
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_EQ(input.warnings[0],
              "g.txt:3: value '1000000000000000000000000000000' is beyond 64-bit integers: every "
              "value is read as a real (double), and the answer is a double with an error "
              "estimate");
    // With a real weight as well the input is real anyway: no warning about the integer.
    EXPECT_TRUE(parse("0 1 0.5\n1 2 99999999999999999999\n").warnings.empty());
    // A pattern reading ignores the values.
    ReadOptions pattern;
    pattern.pattern_only = true;
    EXPECT_TRUE(parse("0 1 99999999999999999999\n", pattern).warnings.empty());
    // The permanent is the double one, 5·2 + 1e30·(−2^63 − 1), not an exact integer.
    const CountResult r = count(input);
    EXPECT_FALSE(r.is_exact);
    EXPECT_DOUBLE_EQ(r.value, 10.0 - 1e30 * 9223372036854775809.0);
}

TEST(EdgeListErrors, RealWeightUnderflowAndOverflow) {
    expect_invalid("0 1 2\n1 2 1e-400\n", 2,
                   "weight '1e-400' underflows the double range (a nonzero value that reads as 0");
    expect_invalid("0 1 -0.00001e-320\n", 1, "underflows the double range");
    expect_invalid("0 1 2\n1 2 1e400\n", 2, "weight '1e400' is infinite or beyond double range");
    // Zeros written with any exponent are zeros, and an integer-valued file stays exact.
    const Input zeros = parse("# bipartite 1 2\n0 0 0e-400\n0 1 -0.0e999\n");
    EXPECT_TRUE(std::holds_alternative<SparseMatrix<std::int64_t>>(zeros.data));
}

TEST(EdgeListWeights, SubnormalWeightStaysRealWithAWarning) {
    const Input input = parse("# bipartite 1 1\n0 0 1e-310\n");
    EXPECT_EQ(data_as<SparseMatrix<double>>(input).values(), (std::vector<double>{1e-310}));
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_EQ(input.warnings[0].rfind("g.txt:2: value 1e-310 at (0, 0) underflows the normal "
                                      "double range",
                                      0),
              0u)
        << input.warnings[0];
}

TEST(EdgeListErrors, LineNumbersCountCrLfAndMissingFinalNewline) {
    expect_invalid("0 1\r\n1 2\r\n1 x\r\n", 3, "vertex id 'x' is not a number");
    expect_invalid("0 1\n1 2\n2 3 4 5", 3, "too many fields (4)");
}

TEST(EdgeListErrors, MessagesNameTheFile) {
    try {
        parse_input("0 1\nq 1\n", "dir/other name.el");
        ADD_FAILURE() << "accepted";
    } catch (const InvalidInput& e) {
        EXPECT_EQ(std::string(e.what()), "dir/other name.el:2: vertex id 'q' is not a number");
        EXPECT_EQ(e.problem(), "vertex id 'q' is not a number");
    }
}

TEST(EdgeListErrors, ControlBytesAreEscapedInMessages) {
    expect_invalid("0 1\n1 \x01\x02\n", 2, "vertex id '\\x01\\x02' is not a number");
}

// ---- Valid input -----------------------------------------------------------------------------

TEST(EdgeList, CommentsBlankLinesAndInlineComments) {
    const Input input = parse(
        "% KONECT-style comment\n# bipartite 2 3\n\n0 0 # first\n\t1 2\n0 2 % third\n"
        "   # indented comment\n");
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(g.n_left(), 2);
    EXPECT_EQ(g.n_right(), 3);
    EXPECT_EQ(g.edges(), (Edges{{0, 0}, {0, 2}, {1, 2}}));
    EXPECT_TRUE(input.warnings.empty());
    EXPECT_EQ(input.source, "g.txt");
    EXPECT_EQ(input.format, InputFormat::edge_list);
    EXPECT_EQ(input.kind(), ValueKind::binary);
    EXPECT_FALSE(input.directed);
}

TEST(EdgeList, CrLfLineEndingsAndNoFinalNewline) {
    const Input crlf = parse("# bipartite 2 2\r\n0 0\r\n1 1 \r\n0 1\r\n");
    EXPECT_EQ(data_as<BipartiteGraph>(crlf).edges(), (Edges{{0, 0}, {0, 1}, {1, 1}}));
    const Input open_end = parse("# bipartite 2 2\n0 0\n1 1");
    EXPECT_EQ(data_as<BipartiteGraph>(open_end).edges(), (Edges{{0, 0}, {1, 1}}));
}

TEST(EdgeList, ByteOrderMarkIsSkipped) {
    const Input input = parse("\xEF\xBB\xBF# bipartite 1 1\n0 0\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).num_edges(), 1);
    const Input headerless = parse(
        "\xEF\xBB\xBF"
        "0 1\n");
    EXPECT_EQ(headerless.left_ids, (Ids{0}));
}

TEST(EdgeList, SignedWeights) {
    const Input input = parse("# bipartite 1 2\n0 0 +1.5\n0 1 -2\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.at(0, 0), 1.5);
    EXPECT_EQ(m.at(0, 1), -2.0);
}

TEST(EdgeList, BipartiteHeaderKeepsIsolatedVertices) {
    const Input input = parse("# bipartite 3 4\n0 1\n2 3\n");
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(g.n_left(), 3);
    EXPECT_EQ(g.n_right(), 4);
    EXPECT_EQ(g.edges(), (Edges{{0, 1}, {2, 3}}));
    EXPECT_TRUE(input.left_ids.empty());
    EXPECT_TRUE(input.right_ids.empty());
    EXPECT_EQ(input.rows(), 3);
    EXPECT_EQ(input.cols(), 4);
    EXPECT_EQ(input.nnz(), 2);
}

TEST(EdgeList, HeaderOnlyIsAGraphWithoutEdges) {
    const Input input = parse("# bipartite 2 2\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).n_left(), 2);
    EXPECT_EQ(input.nnz(), 0);
    EXPECT_EQ(count(input).exact.to_string(), "0");
    EXPECT_EQ(count(parse("# Bipartite 0 0\n")).exact.to_string(), "1");
}

TEST(EdgeList, HeaderKeywordIsCaseInsensitive) {
    const Input input = parse("# BiParTite 1 2\n0 1\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).n_right(), 2);
}

TEST(EdgeList, CommentsThatOnlyLookLikeHeadersAreIgnored) {
    const Input input = parse("# directed graph from the web\n# bipartite matching test\n0 1\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).n_left(), 1);
}

TEST(EdgeList, DirectedHeaderWithSelfLoopsIsADigraph) {
    const Input input = parse("# directed 4\n0 0\n1 2\n2 1\n2 2\n");
    const auto& d = data_as<Digraph>(input);
    EXPECT_EQ(d.num_vertices(), 4);
    EXPECT_EQ(d.arcs(), (std::vector<Digraph::Arc>{{0, 0}, {1, 2}, {2, 1}, {2, 2}}));
    EXPECT_TRUE(input.directed);
    EXPECT_EQ(input.rows(), 4);
    EXPECT_EQ(input.nnz(), 4);
}

TEST(EdgeList, NoHeaderIsTwoColoured) {
    const Input input = parse("10 20\n20 30\n30 40\n40 10\n");
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(input.left_ids, (Ids{10, 30}));
    EXPECT_EQ(input.right_ids, (Ids{20, 40}));
    EXPECT_EQ(g.edges(), (Edges{{0, 0}, {0, 1}, {1, 0}, {1, 1}}));
    EXPECT_FALSE(input.directed);
    EXPECT_EQ(count(input).exact.to_string(), "2");
}

TEST(EdgeList, IdsThatOccurAreCompacted) {
    // 1-based path 1-2-3-4: left {1, 3}, right {2, 4}.
    const Input input = parse("1 2\n2 3\n3 4\n");
    EXPECT_EQ(input.left_ids, (Ids{1, 3}));
    EXPECT_EQ(input.right_ids, (Ids{2, 4}));
    EXPECT_EQ(data_as<BipartiteGraph>(input).edges(), (Edges{{0, 0}, {1, 0}, {1, 1}}));
    EXPECT_EQ(count(input).exact.to_string(), "1");
    // Ids beyond 32 bits are fine without a header.
    const Input far = parse("1000000000000 5\n");
    EXPECT_EQ(far.left_ids, (Ids{5}));
    EXPECT_EQ(far.right_ids, (Ids{1000000000000}));
}

TEST(EdgeList, UndirectedHeaderKeepsIsolatedVerticesOnTheLeft) {
    const Input input = parse("# undirected 5\n0 1\n2 1\n");
    EXPECT_EQ(input.left_ids, (Ids{0, 2, 3, 4}));
    EXPECT_EQ(input.right_ids, (Ids{1}));
    EXPECT_EQ(data_as<BipartiteGraph>(input).edges(), (Edges{{0, 0}, {1, 0}}));
}

// ---- Headers beyond the file ------------------------------------------------------------------
// A side declared larger than the file has bytes keeps only the vertices that occur: nothing of
// the declared size is allocated, and the count is 0 at once, naming an isolated vertex.

constexpr vertex_t kHuge = vertex_t{1} << 24;

TEST(EdgeListBeyondTheFile, BipartiteHeaderKeepsTheVerticesThatOccur) {
    const Input input = parse("# bipartite 16777216 16777216\n0 1\n1 2\n2 0\n");
    ASSERT_TRUE(input.isolated.has_value());
    EXPECT_EQ(input.isolated->witness, "left vertex 3 has no edge");
    EXPECT_EQ(input.rows(), kHuge);
    EXPECT_EQ(input.cols(), kHuge);
    EXPECT_EQ(input.nnz(), 3);
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(g.n_left(), 3);
    EXPECT_EQ(g.edges(), (Edges{{0, 1}, {1, 2}, {2, 0}}));
    EXPECT_EQ(input.left_ids, (Ids{0, 1, 2}));
    const CountResult r = count(input);
    EXPECT_TRUE(r.is_exact);
    EXPECT_EQ(r.exact.to_string(), "0");
    EXPECT_EQ(r.note, "left vertex 3 has no edge: no perfect matching, count is 0");
    EXPECT_EQ(r.stats.n, kHuge);
    const EstimateResult e = estimate(input);
    EXPECT_EQ(e.value, 0);
    EXPECT_EQ(e.note, "left vertex 3 has no edge: no perfect matching");
    // Ids keep their file values; the first missing one is the witness, on either side.
    const Input sparse = parse("# bipartite 1000 1000\n5 7\n");
    EXPECT_EQ(sparse.left_ids, (Ids{5}));
    EXPECT_EQ(sparse.right_ids, (Ids{7}));
    EXPECT_EQ(sparse.isolated->witness, "left vertex 0 has no edge");
    const Input wide = parse("# bipartite 2 1000\n0 0\n1 1\n");
    EXPECT_EQ(wide.isolated->witness, "right vertex 2 has no edge");
    EXPECT_EQ(wide.rows(), 2);
    EXPECT_EQ(wide.cols(), 1000);
}

TEST(EdgeListBeyondTheFile, ASideAsLargeAsTheFileIsKeptWhole) {
    // Both files are 21 bytes: a side of 21 vertices is allocated, one of 22 is not.
    const std::string kept = "# bipartite 21 1\n0 0\n", compact = "# bipartite 22 1\n0 0\n";
    ASSERT_EQ(kept.size(), 21u);
    ASSERT_EQ(compact.size(), 21u);
    const Input whole = parse(kept);
    EXPECT_FALSE(whole.isolated.has_value());
    EXPECT_EQ(data_as<BipartiteGraph>(whole).n_left(), 21);
    EXPECT_EQ(count(whole).exact.to_string(), "0");
    const Input occurring = parse(compact);
    ASSERT_TRUE(occurring.isolated.has_value());
    EXPECT_EQ(occurring.isolated->witness, "left vertex 1 has no edge");
    EXPECT_EQ(data_as<BipartiteGraph>(occurring).n_left(), 1);
    EXPECT_EQ(occurring.rows(), 22);
}

TEST(EdgeListBeyondTheFile, DirectedAndUndirectedHeaders) {
    const Input digraph = parse("# directed 16777216\n0 1\n1 2\n2 0\n");
    EXPECT_TRUE(digraph.directed);
    EXPECT_EQ(data_as<Digraph>(digraph).num_vertices(), 3);
    EXPECT_EQ(digraph.isolated->witness, "vertex 3 has no edge");
    EXPECT_EQ(digraph.left_ids, (Ids{0, 1, 2}));
    EXPECT_EQ(digraph.right_ids, (Ids{0, 1, 2}));
    EXPECT_EQ(count(digraph).exact.to_string(), "0");

    // A path 2-colours: its sides as without the header, every isolated vertex on the left.
    const Input path = parse("# undirected 16777216\n0 1\n1 2\n2 3\n");
    EXPECT_EQ(path.left_ids, (Ids{0, 2}));
    EXPECT_EQ(path.right_ids, (Ids{1, 3}));
    EXPECT_EQ(path.isolated->witness, "vertex 4 has no edge");
    EXPECT_EQ(path.rows(), kHuge - 2);
    EXPECT_EQ(path.cols(), 2);

    // A triangle stays a general graph, of the declared order.
    const Input triangle = parse("# undirected 16777216\n0 1\n1 2\n2 0\n");
    EXPECT_EQ(data_as<UndirectedGraph>(triangle).num_vertices(), 3);
    EXPECT_EQ(triangle.rows(), kHuge);
    EXPECT_EQ(triangle.isolated->witness, "vertex 3 has no edge");
    const CountResult r = count(triangle);
    EXPECT_EQ(r.exact.to_string(), "0");
    EXPECT_TRUE(r.structure.general);
    // Weighted: the hafnian's matrix.
    const Input weighted = parse("# undirected 16777216\n0 1 2\n1 2 3\n2 0 5\n");
    EXPECT_TRUE(weighted.hafnian);
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(weighted).rows(), 3);
    EXPECT_EQ(count(weighted).exact.to_string(), "0");

    // Read for cycle covers: both arcs of each edge.
    const Input arcs =
        parse("# undirected 16777216\n0 1\n1 2\n", reading(GraphInterpretation::directed));
    EXPECT_EQ(data_as<Digraph>(arcs).num_arcs(), 4);
    EXPECT_EQ(arcs.isolated->witness, "vertex 3 has no edge");
}

TEST(EdgeListBeyondTheFile, BipartiteHeaderReadAsAGeneralGraph) {
    const ReadOptions general = reading(GraphInterpretation::general);
    const Input left = parse("# bipartite 16777216 16777216\n0 0\n1 1\n", general);
    EXPECT_EQ(data_as<UndirectedGraph>(left).num_vertices(), 4);
    EXPECT_EQ(left.left_ids, (Ids{0, 1, kHuge, kHuge + 1}));
    EXPECT_EQ(left.isolated->witness, "left vertex 2 has no edge");
    EXPECT_EQ(left.rows(), 2 * kHuge);
    EXPECT_EQ(count(left).exact.to_string(), "0");
    const Input right = parse("# bipartite 2 16777216\n0 0\n1 1\n", general);
    EXPECT_EQ(right.isolated->witness, "right vertex 2 has no edge");
}

TEST(EdgeListBeyondTheFile, HeaderErrorsAreStillFound) {
    expect_invalid("# bipartite 16777216 16777216\n0 16777216\n", 2,
                   "right vertex id 16777216 is outside [0, 16777216)");
    expect_invalid("# undirected 16777216\n0 1\n1 1\n", 3, "self-loop 1–1");
    expect_invalid("# bipartite 16777216 2\n0 1 2\n0 1 3\n", 3, "already given on line 2");
}

/// Checks that `cycle` is an odd cycle of the undirected graph `edges`.
void expect_odd_cycle(const std::vector<std::int64_t>& cycle,
                      const std::vector<std::pair<int, int>>& edges) {
    ASSERT_FALSE(cycle.empty());
    EXPECT_EQ(cycle.size() % 2, 1u) << "length " << cycle.size();
    std::set<std::pair<std::int64_t, std::int64_t>> adjacent;
    for (const auto& [u, v] : edges) {
        adjacent.insert({u, v});
        adjacent.insert({v, u});
    }
    for (std::size_t k = 0; k < cycle.size(); ++k) {
        const std::int64_t a = cycle[k];
        const std::int64_t b = cycle[(k + 1) % cycle.size()];  // the last closes the cycle
        EXPECT_TRUE(adjacent.count({a, b})) << a << " and " << b << " are not adjacent";
    }
    EXPECT_EQ(std::set<std::int64_t>(cycle.begin(), cycle.end()).size(), cycle.size())
        << "a vertex repeats";
}

TEST(EdgeList, OddCycleIsReportedAsARealCycle) {
    const std::vector<std::vector<std::pair<int, int>>> graphs{
        {{1, 2}, {2, 3}, {3, 1}},
        {{1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 1}},
        {{0, 1}, {0, 2}, {1, 3}, {2, 4}, {3, 4}},
        {{7, 8}, {8, 9}, {9, 10}, {10, 11}, {11, 9}},  // a tail, then a triangle
        {{0, 1}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 2}},  // second component
    };
    for (const auto& edges : graphs) {
        std::string text;
        for (const auto& [u, v] : edges) {
            text += std::to_string(u) + " " + std::to_string(v) + "\n";
        }
        SCOPED_TRACE(text);
        try {
            parse(text, reading(GraphInterpretation::bipartite));
            ADD_FAILURE() << "accepted a graph with an odd cycle";
        } catch (const NotBipartite& e) {
            expect_odd_cycle(e.odd_cycle(), edges);
            EXPECT_EQ(e.file(), "g.txt");
            // The closing edge's line is named, and it is an edge of the cycle.
            ASSERT_GE(e.line(), 1);
            ASSERT_LE(e.line(), static_cast<std::int64_t>(edges.size()));
            const auto [cu, cv] = edges[static_cast<std::size_t>(e.line() - 1)];
            const auto& c = e.odd_cycle();
            EXPECT_NE(std::find(c.begin(), c.end(), cu), c.end());
            EXPECT_NE(std::find(c.begin(), c.end(), cv), c.end());
            EXPECT_EQ(std::string(e.what()).rfind("g.txt:" + std::to_string(e.line()) + ": ", 0),
                      0u);
            EXPECT_NE(std::string(e.what()).find("not bipartite"), std::string::npos);
        }
    }
}

TEST(EdgeListErrors, SelfLoopInAnUndirectedGraph) {
    for (const auto interpretation :
         {GraphInterpretation::automatic, GraphInterpretation::bipartite,
          GraphInterpretation::general}) {
        expect_invalid("0 1\n2 2\n", 2, "self-loop 2–2: no perfect matching can use it",
                       reading(interpretation));
        expect_invalid("# undirected 3\n0 1 2\n1 1 5\n", 3, "self-loop 1–1",
                       reading(interpretation));
    }
    // A digraph's self-loop is a fixed point of a cycle cover, not an error.
    EXPECT_EQ(data_as<Digraph>(parse("0 1\n1 0\n1 1\n", reading(GraphInterpretation::directed)))
                  .num_arcs(),
              3);
}

TEST(EdgeList, LongOddCycleMessageIsCapped) {
    std::string text;
    const int n = 101;  // one odd cycle through 101 vertices
    for (int v = 0; v < n; ++v) {
        text += std::to_string(v) + " " + std::to_string((v + 1) % n) + "\n";
    }
    try {
        parse(text, reading(GraphInterpretation::bipartite));
        ADD_FAILURE() << "accepted an odd cycle";
    } catch (const NotBipartite& e) {
        EXPECT_EQ(e.odd_cycle().size(), 101u);
        EXPECT_NE(std::string(e.what()).find("(61 more)"), std::string::npos) << e.what();
        EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos);
    }
}

TEST(EdgeList, AnOddCycleMakesAGeneralGraphOnTheIdsThatOccur) {
    // A triangle 10–20–30 with a pendant edge 30–41: not bipartite.
    const Input input = parse("10 20\n20 30\n30 10\n30 41\n20 10\n");
    const auto& g = data_as<UndirectedGraph>(input);
    EXPECT_TRUE(input.is_general());
    EXPECT_FALSE(input.hafnian);
    EXPECT_EQ(g.num_vertices(), 4);
    EXPECT_EQ(g.edges(), (std::vector<UndirectedGraph::Edge>{{0, 1}, {0, 2}, {1, 2}, {2, 3}}));
    EXPECT_EQ(input.left_ids, (Ids{10, 20, 30, 41}));
    EXPECT_EQ(input.right_ids, input.left_ids);
    EXPECT_EQ(input.row_label(3), 41);
    EXPECT_EQ(input.rows(), 4);
    EXPECT_EQ(input.nnz(), 8);  // the adjacency matrix's entries
    // "20 10" repeats "10 20" the other way round: merged with a warning naming both lines.
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_NE(input.warnings[0].find("from line 1"), std::string::npos) << input.warnings[0];
}

TEST(EdgeList, UndirectedHeaderKeepsIsolatedVerticesOfAGeneralGraph) {
    const Input input = parse("# undirected 5\n0 1\n1 2\n2 0\n");
    const auto& g = data_as<UndirectedGraph>(input);
    EXPECT_EQ(g.num_vertices(), 5);
    EXPECT_EQ(g.degree(4), 0);
}

TEST(EdgeList, WeightedGeneralGraphIsTheSymmetricMatrixOfAHafnian) {
    const Input input = parse("0 1 2\n1 2 -3\n2 0 5\n2 3 7\n");
    EXPECT_TRUE(input.hafnian);
    EXPECT_TRUE(input.is_general());
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.rows(), 4);
    EXPECT_EQ(m.nnz(), 8);
    EXPECT_EQ(m.at(1, 0), 2);
    EXPECT_EQ(m.at(0, 1), 2);
    EXPECT_EQ(m.at(2, 1), -3);
    EXPECT_EQ(m.at(3, 2), 7);
    EXPECT_EQ(m.at(0, 0), 0);
    const Input real = parse("0 1 0.5\n1 2 1\n2 0 1\n2 3 1\n");
    EXPECT_EQ(data_as<SparseMatrix<double>>(real).at(1, 0), 0.5);
    // Repeated weighted edges, in either orientation, are an error unless summed.
    expect_invalid("0 1 2\n1 2 3\n2 0 1\n1 0 4\n", 4, "duplicate entry");
    const Input summed = parse("0 1 2\n1 2 3\n2 0 1\n1 0 4\n", sum_duplicates());
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(summed).at(0, 1), 6);
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(summed).at(1, 0), 6);
}

TEST(EdgeList, GeneralReadingNeverTwoColours) {
    const ReadOptions general = reading(GraphInterpretation::general);
    // A 4-cycle is bipartite, but read as a general graph it stays one graph on four vertices.
    const Input square_input = parse("0 1\n1 2\n2 3\n3 0\n", general);
    const auto& square = data_as<UndirectedGraph>(square_input);
    EXPECT_EQ(square.num_edges(), 4);
    // A bipartite header's sides become one vertex set: right vertex v is L + v.
    const Input sides_input = parse("# bipartite 2 3\n0 0\n1 2\n", general);
    const auto& sides = data_as<UndirectedGraph>(sides_input);
    EXPECT_EQ(sides.num_vertices(), 5);
    EXPECT_EQ(sides.edges(), (std::vector<UndirectedGraph::Edge>{{0, 2}, {1, 4}}));
    expect_invalid("# bipartite 2 3\n0 3\n", 2, "right vertex id 3 is outside [0, 3)", general);
    expect_invalid("# directed 3\n0 1\n", 1, "'# directed' declares a digraph", general);
    // Weighted and bipartite: still the symmetric matrix of a hafnian.
    EXPECT_TRUE(parse("0 1 3\n1 2 4\n2 3 5\n", general).hafnian);
}

TEST(EdgeList, HugeIntegerTokensMixedWithRealsStayReal) {
    // 2^53 + 1 cannot pass through a double; the file must not become an "exact" integer one.
    const Input input = parse("# bipartite 2 2\n0 0 9007199254740993\n1 1 2.0\n");
    EXPECT_EQ(input.kind(), ValueKind::real);
}

TEST(EdgeList, UnequalColourClassesGiveZeroWithANote) {
    const Input input = parse("0 1\n1 2\n");
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(g.n_left(), 2);
    EXPECT_EQ(g.n_right(), 1);
    const CountResult r = count(input);
    EXPECT_TRUE(r.is_exact);
    EXPECT_EQ(r.exact.to_string(), "0");
    EXPECT_FALSE(r.note.empty());
}

TEST(EdgeList, DirectedInterpretationWithoutHeader) {
    ReadOptions options;
    options.interpretation = GraphInterpretation::directed;
    const Input input = parse("5 7\n7 5\n7 7\n", options);
    const auto& d = data_as<Digraph>(input);
    EXPECT_EQ(d.num_vertices(), 2);
    EXPECT_EQ(d.arcs(), (std::vector<Digraph::Arc>{{0, 1}, {1, 0}, {1, 1}}));
    EXPECT_EQ(input.left_ids, (Ids{5, 7}));
    EXPECT_EQ(input.right_ids, (Ids{5, 7}));
    EXPECT_TRUE(input.directed);
    // A header wins over the option.
    EXPECT_TRUE(
        std::holds_alternative<BipartiteGraph>(parse("# bipartite 1 1\n0 0\n", options).data));
    // An undirected header read for cycle covers: both arcs of each edge (a loop once), not a
    // 2-colouring that a triangle would fail.
    const Input symmetric = parse("# undirected 3\n0 1\n1 2\n2 0\n2 2\n", options);
    const auto& s = data_as<Digraph>(symmetric);
    EXPECT_EQ(s.num_vertices(), 3);
    EXPECT_EQ(s.arcs().size(), 7u);
    EXPECT_EQ(symmetric.warnings.size(), 1u);
}

TEST(EdgeList, IntegerWeightsGiveAnInt64Matrix) {
    const Input input = parse("# bipartite 2 3\n0 0 3\n1 2 -4\n0 1 9223372036854775807\n1 0 +2\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(input.kind(), ValueKind::integer);
    EXPECT_EQ(m.rows(), 2);
    EXPECT_EQ(m.cols(), 3);
    EXPECT_EQ(m.at(0, 0), 3);
    EXPECT_EQ(m.at(0, 1), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(m.at(1, 0), 2);
    EXPECT_EQ(m.at(1, 2), -4);
    EXPECT_EQ(m.nnz(), 4);
    EXPECT_TRUE(input.warnings.empty());
}

TEST(EdgeList, RealWeightsGiveADoubleMatrix) {
    const Input input = parse("# bipartite 2 2\n0 0 0.5\n1 1 -2.25e-3\n0 1 3\n1 0 1e-310\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(input.kind(), ValueKind::real);
    EXPECT_EQ(m.at(0, 0), 0.5);
    EXPECT_EQ(m.at(1, 1), -2.25e-3);
    EXPECT_EQ(m.at(0, 1), 3.0);
    EXPECT_EQ(m.at(1, 0), 1e-310);
    ASSERT_EQ(input.warnings.size(), 1u);  // the subnormal 1e-310, named
    EXPECT_NE(input.warnings[0].find("g.txt:5: value 1e-310 at (1, 0) underflows"),
              std::string::npos)
        << input.warnings[0];
}

TEST(EdgeList, NegativeZeroWeightKeepsItsSign) {
    const Input input = parse("# bipartite 1 2\n0 0 -0\n0 1 0.5\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.nnz(), 2);
    EXPECT_TRUE(std::signbit(m.at(0, 0)));
}

TEST(EdgeList, IntegralRealWeightsBecomeExactIntegersWithAWarning) {
    const Input input = parse("# bipartite 2 2\n0 0 2.0\n1 1 -3e0\n0 1 4\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.at(0, 0), 2);
    EXPECT_EQ(m.at(1, 1), -3);
    EXPECT_EQ(m.at(0, 1), 4);
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_NE(input.warnings[0].find("every value is an integer"), std::string::npos)
        << input.warnings[0];
}

TEST(EdgeList, PatternOnlyIgnoresWeights) {
    ReadOptions options;
    options.pattern_only = true;
    const Input input = parse("# bipartite 2 2\n0 0 2.5\n1 1 7\n0 0 1\n", options);
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(g.edges(), (Edges{{0, 0}, {1, 1}}));
    EXPECT_EQ(input.kind(), ValueKind::binary);
    ASSERT_EQ(input.warnings.size(), 1u);  // the repeat is merged, not rejected
}

TEST(EdgeList, RepeatedPatternEdgesAreMergedWithAWarning) {
    const Input input = parse("# bipartite 2 2\n0 1\n1 1\n0 1\n0 1\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).edges(), (Edges{{0, 1}, {1, 1}}));
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_EQ(input.warnings[0],
              "g.txt: merged 2 repeated edge(s) of a pattern (line 4 repeats (0, 1) from line 2)");
    // Undirected: the reversed pair is the same edge.
    const Input undirected = parse("0 1\n1 0\n");
    EXPECT_EQ(undirected.nnz(), 1);
    ASSERT_EQ(undirected.warnings.size(), 1u);
    EXPECT_NE(undirected.warnings[0].find("line 2 repeats (0, 1) from line 1"), std::string::npos)
        << undirected.warnings[0];
}

TEST(EdgeList, RepeatedWeightedEdgesAreSummedOnRequest) {
    const Input input = parse("# bipartite 2 2\n0 1 2\n1 1 3\n0 1 4\n", sum_duplicates());
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.at(0, 1), 6);
    EXPECT_EQ(m.at(1, 1), 3);
    EXPECT_EQ(m.nnz(), 2);
    const Input real = parse("# bipartite 1 1\n0 0 0.25\n0 0 0.5\n", sum_duplicates());
    EXPECT_EQ(data_as<SparseMatrix<double>>(real).at(0, 0), 0.75);
    expect_invalid("# bipartite 1 1\n0 0 9223372036854775807\n0 0 1\n", 3,
                   "sum of repeated entry (0, 0) overflows 64-bit integers", sum_duplicates());
}

TEST(EdgeList, WeightedDirectedInput) {
    const Input input = parse("# directed 2\n0 1 2.5\n1 0 1\n1 1 0.5\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_TRUE(input.directed);
    EXPECT_EQ(m.at(0, 1), 2.5);
    EXPECT_EQ(m.at(1, 0), 1.0);
    EXPECT_EQ(m.at(1, 1), 0.5);
}

TEST(EdgeList, ExplicitZeroWeightsAreStructuralEntries) {
    const Input input = parse("# bipartite 2 2\n0 0 0\n1 1 5\n");
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(input).nnz(), 2);
}

TEST(EdgeList, ForcedEdgeListFormatReadsABannerAsAComment) {
    ReadOptions options;
    options.format = InputFormat::edge_list;
    const Input input = parse("%%MatrixMarket matrix coordinate pattern general\n0 1\n", options);
    EXPECT_EQ(input.format, InputFormat::edge_list);
    EXPECT_EQ(input.nnz(), 1);
}

}  // namespace
}  // namespace pmcount
