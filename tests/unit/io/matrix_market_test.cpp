// Matrix Market reader: banner, size line and entries, each malformed case with its exact line;
// coordinate and array layouts expanded from every symmetry kind.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "unit/io/parse_helpers.hpp"

namespace pmcount {
namespace {

using test::data_as;
using test::expect_invalid;
using test::matrix_market_options;
using test::parse;
using Complex = std::complex<double>;
using Edges = std::vector<BipartiteGraph::Edge>;

/// A banner line for the given layout, field and symmetry.
std::string banner(const std::string& rest) {
    return "%%MatrixMarket matrix " + rest + "\n";
}

void expect_mm_invalid(const std::string& text, std::int64_t line, const std::string& fragment) {
    expect_invalid(text, line, fragment, matrix_market_options());
}

// ---- Banner ----------------------------------------------------------------------------------

TEST(MatrixMarketErrors, MissingOrWrongBanner) {
    expect_mm_invalid("3 3 1\n1 1 1\n", 1, "not a Matrix Market banner");
    expect_mm_invalid("%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", 1,
                      "not a Matrix Market banner");
    expect_mm_invalid("%%MatrixMarket matrix coordinate real\n1 1 1\n1 1 1\n", 1,
                      "banner has 4 fields");
    expect_mm_invalid("%%MatrixMarket matrix coordinate real general extra\n", 1,
                      "banner has 6 fields");
    expect_mm_invalid("", 1, "empty file");
    expect_mm_invalid("\n  \n", 2, "empty file");
}

TEST(MatrixMarketErrors, UnknownBannerWords) {
    expect_mm_invalid("%%MatrixMarket vector coordinate real general\n", 1,
                      "unsupported Matrix Market object 'vector'");
    expect_mm_invalid(banner("sparse real general"), 1, "unknown Matrix Market format 'sparse'");
    expect_mm_invalid(banner("coordinate boolean general"), 1,
                      "unknown Matrix Market field 'boolean'");
    expect_mm_invalid(banner("coordinate real upper"), 1, "unknown Matrix Market symmetry 'upper'");
}

TEST(MatrixMarketErrors, InvalidBannerCombinations) {
    expect_mm_invalid(banner("array pattern general") + "1 1\n", 1, "'array pattern'");
    expect_mm_invalid(banner("coordinate pattern skew-symmetric") + "1 1 0\n", 1,
                      "'pattern skew-symmetric'");
    expect_mm_invalid(banner("coordinate real hermitian") + "1 1 0\n", 1,
                      "'hermitian' needs the complex field");
    expect_mm_invalid(banner("array integer hermitian") + "1 1\n", 1, "'hermitian' needs");
}

TEST(MatrixMarketErrors, AutomaticDetectionRoutesBadBannersToTheReader) {
    // The banner word alone selects Matrix Market, so its errors are Matrix Market errors.
    expect_invalid("%%matrixmarket tensor coordinate real general\n", 1,
                   "unsupported Matrix Market object 'tensor'");
    // So does the .mtx extension: without its banner, the size line "4 6 2" would otherwise be
    // read as a weighted edge and the file counted as a different matrix.
    try {
        parse_input("4 6 2\n1 2 3\n3 5 4\n", "m.MTX");
        ADD_FAILURE() << "a .mtx file without a banner was accepted";
    } catch (const InvalidInput& e) {
        EXPECT_EQ(e.line(), 1);
        EXPECT_NE(std::string(e.what()).find("not a Matrix Market banner"), std::string::npos)
            << e.what();
    }
    ReadOptions edge_list;
    edge_list.format = InputFormat::edge_list;
    EXPECT_EQ(parse_input("4 6 2\n1 2 3\n3 5 4\n", "m.mtx", edge_list).nnz(), 3);
}

// ---- Size line -------------------------------------------------------------------------------

TEST(MatrixMarketErrors, MissingSizeLine) {
    expect_mm_invalid(banner("coordinate real general"), 1, "no size line after the banner");
    expect_mm_invalid(banner("coordinate real general") + "% comment\n\n", 3,
                      "no size line after the banner");
}

TEST(MatrixMarketErrors, WrongSizeLineFieldCount) {
    expect_mm_invalid(banner("coordinate real general") + "3 3\n", 2,
                      "size line has 2 fields, expected 'rows cols entries'");
    expect_mm_invalid(banner("coordinate real general") + "%c\n3 3 1 1\n", 3,
                      "size line has 4 fields");
    expect_mm_invalid(banner("array real general") + "3 3 9\n", 2,
                      "size line has 3 fields, expected 'rows cols'");
}

TEST(MatrixMarketErrors, NonNumericOrNegativeSizes) {
    expect_mm_invalid(banner("coordinate real general") + "three 3 1\n", 2,
                      "row count 'three' is not a number");
    expect_mm_invalid(banner("coordinate real general") + "3 3.0 1\n", 2,
                      "column count '3.0' is not an integer");
    expect_mm_invalid(banner("coordinate real general") + "3 3 x\n", 2,
                      "entry count 'x' is not a number");
    expect_mm_invalid(banner("coordinate real general") + "-3 3 1\n", 2,
                      "row count '-3' is negative");
    expect_mm_invalid(banner("coordinate real general") + "2 2 5\n", 2,
                      "declares 5 entries, more than the 4 positions");
    expect_mm_invalid(banner("coordinate real general") + "200000000 1 0\n", 2,
                      "exceeds the supported");
}

TEST(MatrixMarketErrors, NonSquareSymmetricKinds) {
    expect_mm_invalid(banner("coordinate real symmetric") + "2 3 0\n", 2, "must be square");
    expect_mm_invalid(banner("array complex hermitian") + "3 2\n", 2, "must be square");
}

// ---- Coordinate entries ----------------------------------------------------------------------

TEST(MatrixMarketErrors, EntryFieldCounts) {
    expect_mm_invalid(banner("coordinate real general") + "2 2 2\n1 1 1.5\n2 2\n", 4,
                      "too few fields (2), expected 3 for a valued entry");
    expect_mm_invalid(banner("coordinate real general") + "2 2 2\n1 1 1.5 7\n", 3,
                      "too many fields (4), expected 3");
    expect_mm_invalid(banner("coordinate pattern general") + "2 2 1\n1 1 1\n", 3,
                      "too many fields (3), expected 2 for a pattern entry");
    expect_mm_invalid(banner("coordinate complex general") + "2 2 1\n1 1 1.5\n", 3,
                      "too few fields (3), expected 4 for a complex entry");
}

TEST(MatrixMarketErrors, IndicesOutsideTheMatrix) {
    expect_mm_invalid(banner("coordinate pattern general") + "2 3 2\n1 1\n0 1\n", 4,
                      "entry (0, 1) is outside the 2×3 matrix (indices are 1-based)");
    expect_mm_invalid(banner("coordinate pattern general") + "2 3 2\n1 1\n2 4\n", 4,
                      "entry (2, 4) is outside the 2×3 matrix");
    expect_mm_invalid(banner("coordinate pattern general") + "2 3 1\n3 1\n", 3,
                      "entry (3, 1) is outside");
    expect_mm_invalid(banner("coordinate pattern general") + "2 3 1\n-1 1\n", 3,
                      "row index '-1' is negative");
    expect_mm_invalid(banner("coordinate pattern general") + "2 3 1\n1 b\n", 3,
                      "column index 'b' is not a number");
}

TEST(MatrixMarketErrors, TruncatedAndExtraEntries) {
    expect_mm_invalid(banner("coordinate integer general") + "3 3 3\n1 1 1\n2 2 1\n", 4,
                      "truncated file: 2 of the 3 entries declared on line 2");
    expect_mm_invalid(banner("coordinate integer general") + "3 3 3\n", 2,
                      "truncated file: 0 of the 3 entries declared on line 2");
    expect_mm_invalid(banner("coordinate integer general") + "3 3 1\n1 1 1\n% c\n2 2 1\n", 5,
                      "more entries than the 1 declared on line 2");
}

TEST(MatrixMarketErrors, BadValues) {
    const std::string real = banner("coordinate real general") + "2 2 2\n1 1 1\n";
    expect_mm_invalid(real + "2 2 nan\n", 4, "value is NaN");
    expect_mm_invalid(real + "2 2 Inf\n", 4, "value 'Inf' is infinite or beyond double range");
    expect_mm_invalid(real + "2 2 -1e309\n", 4, "beyond double range");
    expect_mm_invalid(real + "2 2 one\n", 4, "value 'one' is not a number");
    const std::string complex = banner("coordinate complex general") + "2 2 1\n";
    expect_mm_invalid(complex + "1 1 1 nan\n", 3, "imaginary part is NaN");
    expect_mm_invalid(complex + "1 1 x 0\n", 3, "real part 'x' is not a number");
    const std::string integer = banner("coordinate integer general") + "2 2 1\n";
    expect_mm_invalid(integer + "1 1 1.5\n", 3, "value '1.5' is not an integer");
    expect_mm_invalid(
        real + "2 2 1e-400\n", 4,
        "value '1e-400' underflows the double range (a nonzero value that reads as 0");
    expect_mm_invalid(complex + "1 1 1 -3e-999\n", 3, "imaginary part '-3e-999' underflows");
    expect_mm_invalid(real + "2 2 1e400\n", 4, "value '1e400' is infinite or beyond double range");
}

TEST(MatrixMarketValues, UnderflowNeverMakesARealInputInteger) {
    // 1e-400 read as 0 made "every value is an integer": an exact 0 for a real input. A
    // subnormal value stays, with a warning, and the input stays real.
    const std::string real = banner("coordinate real general") + "2 2 3\n1 1 1\n2 2 1\n";
    const Input input = parse(real + "1 2 2.5e-310\n", matrix_market_options());
    EXPECT_EQ(data_as<SparseMatrix<double>>(input).values(),
              (std::vector<double>{1.0, 2.5e-310, 1.0}));
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_EQ(input.warnings[0].rfind("g.txt:5: value 2.5e-310 at (1, 2) underflows the normal "
                                      "double range (a subnormal",
                                      0),
              0u)
        << input.warnings[0];
}

TEST(MatrixMarketValues, IntegerBeyondInt64MakesTheInputReal) {
    // As in a real file (and in an edge list): the value is read, the input becomes real.
    const std::string integer = banner("coordinate integer symmetric") + "2 2 2\n1 1 3\n";
    const Input input = parse(integer + "2 1 -9223372036854775809\n", matrix_market_options());
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.values(),
              (std::vector<double>{3.0, -9223372036854775809.0, -9223372036854775809.0}));
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_NE(input.warnings[0].find("g.txt:4: value '-9223372036854775809' is beyond 64-bit "
                                     "integers: every value is read as a real"),
              std::string::npos)
        << input.warnings[0];
    ReadOptions hafnian = matrix_market_options();
    hafnian.interpretation = GraphInterpretation::general;
    const Input symmetric = parse(integer + "2 1 1000000000000000000000000000000\n", hafnian);
    EXPECT_TRUE(symmetric.hafnian);
    EXPECT_EQ(data_as<SparseMatrix<double>>(symmetric).values(), (std::vector<double>{1e30, 1e30}));
}

TEST(MatrixMarketErrors, RepeatedValuedEntriesAreRejected) {
    expect_mm_invalid(banner("coordinate integer general") + "2 2 3\n1 2 5\n2 1 1\n1 2 6\n", 5,
                      "duplicate entry (1, 2), already given on line 3");
    // The mirror image of (2, 1) collides with an explicit (1, 2).
    expect_mm_invalid(banner("coordinate real symmetric") + "2 2 2\n2 1 0.5\n1 2 0.5\n", 4,
                      "duplicate entry (1, 2), already given on line 3");
}

TEST(MatrixMarketErrors, SymmetryViolations) {
    expect_mm_invalid(banner("coordinate integer skew-symmetric") + "2 2 2\n2 1 3\n2 2 4\n", 4,
                      "skew-symmetric matrix with a nonzero diagonal entry at (2, 2)");
    expect_mm_invalid(banner("coordinate complex hermitian") + "2 2 2\n2 1 1 1\n1 1 2 0.5\n", 4,
                      "hermitian matrix with a non-real diagonal entry at (1, 1)");
    // 3×3 skew-symmetric arrays store the 3 values strictly below the diagonal.
    expect_mm_invalid(banner("array real skew-symmetric") + "3 3\n7\n8\n", 4,
                      "truncated file: 2 of the 3 values");
    expect_mm_invalid(
        banner("coordinate integer skew-symmetric") + "2 2 1\n2 1 -9223372036854775808\n", 3,
        "has no 64-bit negation");
}

// ---- Array entries ---------------------------------------------------------------------------

TEST(MatrixMarketErrors, ArrayValueCounts) {
    expect_mm_invalid(banner("array real general") + "2 2\n1\n2\n3\n", 5,
                      "truncated file: 3 of the 4 values the size line 2 implies");
    expect_mm_invalid(banner("array real general") + "2 2\n1\n2\n3\n4\n5\n", 7,
                      "more values than the 4 the size line 2 implies");
    expect_mm_invalid(banner("array real symmetric") + "2 2\n1\n2\n3\n4\n", 6,
                      "more values than the 3");
    expect_mm_invalid(banner("array real general") + "2 2\n1 2\n3\n4\n", 3,
                      "expected 1 value field(s), got 2");
    expect_mm_invalid(banner("array complex general") + "1 1\n1\n", 3,
                      "expected 2 value field(s), got 1");
}

TEST(MatrixMarketErrors, ArraySizeLineBeyondTheFileIsRefusedAtOnce) {
    // Every value takes a character and a line break: 2^52 of them cannot follow in 70 bytes.
    const std::string huge = banner("array real general") + "16777216 16777216\n1\n2\n3\n";
    expect_mm_invalid(huge, 2,
                      "truncated file: the size line implies 281474976710656 values, more than a "
                      "file of " +
                          std::to_string(huge.size()) + " bytes can hold");
    expect_mm_invalid(banner("array real symmetric") + "8192 8192\n1\n", 2,
                      "the size line implies 33558528 values");
    expect_mm_invalid(banner("array complex skew-symmetric") + "100 100\n1 0\n", 2,
                      "the size line implies 4950 values");
}

// ---- Valid input -----------------------------------------------------------------------------

TEST(MatrixMarket, CoordinatePatternGeneral) {
    const Input input =
        parse(banner("coordinate pattern general") + "% a comment\n\n2 3 3\n1 1\n2 3\n1 3\n");
    const auto& g = data_as<BipartiteGraph>(input);
    EXPECT_EQ(g.n_left(), 2);
    EXPECT_EQ(g.n_right(), 3);
    EXPECT_EQ(g.edges(), (Edges{{0, 0}, {0, 2}, {1, 2}}));
    EXPECT_EQ(input.format, InputFormat::matrix_market);
    EXPECT_FALSE(input.directed);
    EXPECT_TRUE(input.warnings.empty());
}

TEST(MatrixMarket, CoordinateIntegerGeneral) {
    const Input input = parse(banner("coordinate integer general") +
                              "2 2 3\n1 1 -7\n2 2 9223372036854775807\n2 1 3\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.at(0, 0), -7);
    EXPECT_EQ(m.at(1, 1), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(m.at(1, 0), 3);
    EXPECT_EQ(m.at(0, 1), 0);
    EXPECT_EQ(m.nnz(), 3);
}

TEST(MatrixMarket, CoordinateRealGeneral) {
    const Input input = parse(banner("coordinate real general") + "2 2 2\n1 2 0.1\n2 1 -3.5e-2\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.at(0, 1), 0.1);
    EXPECT_EQ(m.at(1, 0), -3.5e-2);
    EXPECT_TRUE(input.warnings.empty());
}

TEST(MatrixMarket, IntegralRealValuesBecomeIntegersWithAWarning) {
    const Input input = parse(banner("coordinate real general") + "2 2 2\n1 2 2.0\n2 1 -3\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.at(0, 1), 2);
    EXPECT_EQ(m.at(1, 0), -3);
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_NE(input.warnings[0].find("every value is an integer"), std::string::npos);
}

TEST(MatrixMarket, CoordinateComplexGeneral) {
    const Input input =
        parse(banner("coordinate complex general") + "2 2 2\n1 1 1.5 -2\n2 2 0 0.25\n");
    const auto& m = data_as<SparseMatrix<Complex>>(input);
    EXPECT_EQ(m.at(0, 0), Complex(1.5, -2));
    EXPECT_EQ(m.at(1, 1), Complex(0, 0.25));
    EXPECT_EQ(input.kind(), ValueKind::complex);
}

TEST(MatrixMarket, SymmetricIsMirrored) {
    const Input input =
        parse(banner("coordinate integer symmetric") + "3 3 3\n1 1 4\n2 1 5\n3 2 -6\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.nnz(), 5);
    EXPECT_EQ(m.at(0, 0), 4);
    EXPECT_EQ(m.at(1, 0), 5);
    EXPECT_EQ(m.at(0, 1), 5);
    EXPECT_EQ(m.at(2, 1), -6);
    EXPECT_EQ(m.at(1, 2), -6);
    const Input pattern = parse(banner("coordinate pattern symmetric") + "2 2 2\n2 1\n2 2\n");
    EXPECT_EQ(data_as<BipartiteGraph>(pattern).edges(), (Edges{{0, 1}, {1, 0}, {1, 1}}));
}

TEST(MatrixMarket, SkewSymmetricIsNegatedMirror) {
    const Input input =
        parse(banner("coordinate real skew-symmetric") + "3 3 2\n2 1 1.5\n3 1 -0.25\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.nnz(), 4);
    EXPECT_EQ(m.at(1, 0), 1.5);
    EXPECT_EQ(m.at(0, 1), -1.5);
    EXPECT_EQ(m.at(2, 0), -0.25);
    EXPECT_EQ(m.at(0, 2), 0.25);
    // An explicit zero on the diagonal is allowed.
    const Input zero_diagonal =
        parse(banner("coordinate integer skew-symmetric") + "2 2 2\n2 1 3\n1 1 0\n");
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(zero_diagonal).at(0, 1), -3);
}

TEST(MatrixMarket, HermitianIsConjugatedMirror) {
    const Input input =
        parse(banner("coordinate complex hermitian") + "2 2 3\n1 1 2 0\n2 1 1 -3\n2 2 -1 0\n");
    const auto& m = data_as<SparseMatrix<Complex>>(input);
    EXPECT_EQ(m.nnz(), 4);
    EXPECT_EQ(m.at(1, 0), Complex(1, -3));
    EXPECT_EQ(m.at(0, 1), Complex(1, 3));
    EXPECT_EQ(m.at(0, 0), Complex(2, 0));
    EXPECT_EQ(m.at(1, 1), Complex(-1, 0));
}

TEST(MatrixMarket, ArrayGeneralIsColumnMajor) {
    const Input input = parse(banner("array real general") + "% c\n2 3\n1.5\n2\n3\n0\n5\n6\n");
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.to_dense().data(), (std::vector<double>{1.5, 3, 5, 2, 0, 6}));
    EXPECT_EQ(m.nnz(), 5);  // array zeros are not entries
}

TEST(MatrixMarket, ArraySymmetricStoresTheLowerTriangle) {
    // Columns of the lower triangle: (1,1) (2,1) (3,1) | (2,2) (3,2) | (3,3).
    const Input input = parse(banner("array integer symmetric") + "3 3\n1\n2\n3\n4\n5\n6\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.to_dense().data(), (std::vector<std::int64_t>{1, 2, 3, 2, 4, 5, 3, 5, 6}));
    const Input skew = parse(banner("array integer skew-symmetric") + "3 3\n1\n2\n3\n");
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(skew).to_dense().data(),
              (std::vector<std::int64_t>{0, -1, -2, 1, 0, -3, 2, 3, 0}));
    const Input hermitian = parse(banner("array complex hermitian") + "2 2\n1 0\n2 5\n3 0\n");
    EXPECT_EQ(data_as<SparseMatrix<Complex>>(hermitian).to_dense().data(),
              (std::vector<Complex>{{1, 0}, {2, -5}, {2, 5}, {3, 0}}));
}

TEST(MatrixMarket, EmptyMatrixHasPermanentOne) {
    const Input pattern = parse(banner("coordinate pattern general") + "0 0 0\n");
    EXPECT_EQ(pattern.rows(), 0);
    EXPECT_EQ(count(pattern).exact.to_string(), "1");
    const Input real = parse(banner("coordinate real general") + "0 0 0\n");
    EXPECT_EQ(real.rows(), 0);
    EXPECT_EQ(count(real).exact.to_string(), "1");
    const Input array = parse(banner("array real general") + "0 0\n");
    EXPECT_EQ(count(array).value_string(), "1");
}

TEST(MatrixMarket, CommentsAndBlankLinesBetweenBannerSizeAndEntries) {
    const Input input = parse(banner("coordinate pattern general") +
                              "%\n% more\n   \n1 1 1\n% between entries\n\n1 1\n% trailing\n");
    EXPECT_EQ(input.nnz(), 1);
}

TEST(MatrixMarket, BannerIsCaseInsensitiveAndMayFollowBlankLines) {
    const Input input = parse("%%matrixMARKET Matrix COORDINATE Pattern GENERAL\n1 1 1\n1 1\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).num_edges(), 1);
    const Input later =
        parse("\n\n%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 8\n");
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(later).at(0, 0), 8);
    expect_invalid("\n%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 x\n", 4,
                   "value 'x' is not a number");
    const Input with_bom =
        parse("\xEF\xBB\xBF%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 8\n");
    EXPECT_EQ(with_bom.format, InputFormat::matrix_market);
}

TEST(MatrixMarket, ExplicitZerosAreStructuralEntries) {
    const Input input =
        parse(banner("coordinate integer general") + "2 2 3\n1 1 0\n2 2 1\n1 2 0\n");
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.nnz(), 3);
    EXPECT_EQ(m.pattern().edges(), (Edges{{0, 0}, {0, 1}, {1, 1}}));
}

TEST(MatrixMarket, RepeatedPatternEntriesAreMergedWithAWarning) {
    const Input input = parse(banner("coordinate pattern general") + "2 2 3\n1 2\n2 1\n1 2\n");
    EXPECT_EQ(data_as<BipartiteGraph>(input).num_edges(), 2);
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_EQ(input.warnings[0],
              "g.txt: merged 1 repeated edge(s) of a pattern (line 5 repeats (1, 2) from line 3)");
    // With repeats, a file may list more entries than the matrix has positions.
    const Input repeated = parse(banner("coordinate pattern general") + "1 1 3\n1 1\n1 1\n1 1\n");
    EXPECT_EQ(repeated.nnz(), 1);
    ASSERT_EQ(repeated.warnings.size(), 1u);
}

TEST(MatrixMarket, RepeatedValuedEntriesAreSummedOnRequest) {
    ReadOptions options;
    options.sum_duplicates = true;
    const Input input =
        parse(banner("coordinate integer general") + "2 2 3\n1 2 5\n2 1 1\n1 2 6\n", options);
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(input).at(0, 1), 11);
    const Input complex =
        parse(banner("coordinate complex general") + "1 1 2\n1 1 1 2\n1 1 0.5 -1\n", options);
    EXPECT_EQ(data_as<SparseMatrix<Complex>>(complex).at(0, 0), Complex(1.5, 1));
}

TEST(MatrixMarket, PatternOnlyAndDirectedOptions) {
    ReadOptions pattern_only;
    pattern_only.pattern_only = true;
    const Input pattern =
        parse(banner("coordinate real symmetric") + "2 2 2\n2 1 0.5\n1 1 3\n", pattern_only);
    EXPECT_EQ(data_as<BipartiteGraph>(pattern).edges(), (Edges{{0, 0}, {0, 1}, {1, 0}}));
    ReadOptions directed;
    directed.interpretation = GraphInterpretation::directed;
    const Input digraph =
        parse(banner("coordinate pattern general") + "2 2 2\n1 2\n2 2\n", directed);
    EXPECT_EQ(data_as<Digraph>(digraph).arcs(), (std::vector<Digraph::Arc>{{0, 1}, {1, 1}}));
    EXPECT_TRUE(digraph.directed);
}

ReadOptions hafnian_reading() {
    ReadOptions options;
    options.interpretation = GraphInterpretation::general;
    return options;
}

TEST(MatrixMarket, HafnianReadingOfASymmetricPatternIsAGeneralGraph) {
    const Input input =
        parse(banner("coordinate pattern symmetric") + "3 3 3\n2 1\n3 1\n3 2\n", hafnian_reading());
    const auto& g = data_as<UndirectedGraph>(input);
    EXPECT_EQ(g.edges(), (std::vector<UndirectedGraph::Edge>{{0, 1}, {0, 2}, {1, 2}}));
    EXPECT_TRUE(input.is_general());
    EXPECT_EQ(input.row_label(2), 3);  // 1-based, as the file writes it
    // A general banner holding both halves is the same graph.
    const Input both =
        parse(banner("coordinate pattern general") + "2 2 2\n1 2\n2 1\n", hafnian_reading());
    EXPECT_EQ(data_as<UndirectedGraph>(both).num_edges(), 1);
}

TEST(MatrixMarket, HafnianReadingOfAValuedMatrix) {
    const Input input =
        parse(banner("coordinate real symmetric") + "3 3 4\n1 1 9.5\n2 1 0.5\n3 1 -2.25\n3 3 0\n",
              hafnian_reading());
    EXPECT_TRUE(input.hafnian);
    const auto& m = data_as<SparseMatrix<double>>(input);
    EXPECT_EQ(m.nnz(), 4);  // the diagonal is dropped
    EXPECT_EQ(m.at(0, 0), 0);
    EXPECT_EQ(m.at(0, 1), 0.5);
    EXPECT_EQ(m.at(2, 0), -2.25);
    // One nonzero diagonal entry, named with its line; the explicit zero is not counted.
    ASSERT_EQ(input.warnings.size(), 1u);
    EXPECT_NE(input.warnings[0].find("g.txt:3: 1 nonzero diagonal entry ignored"),
              std::string::npos)
        << input.warnings[0];
    const Input array =
        parse(banner("array integer symmetric") + "2 2\n7\n3\n7\n", hafnian_reading());
    EXPECT_EQ(data_as<SparseMatrix<std::int64_t>>(array).at(1, 0), 3);
    EXPECT_TRUE(array.hafnian);
}

TEST(MatrixMarketErrors, HafnianReadingNeedsASymmetricSquareMatrix) {
    const ReadOptions h = hafnian_reading();
    expect_invalid(banner("coordinate integer general") + "2 2 2\n1 2 3\n2 1 4\n", 3,
                   "not symmetric: entry (1, 2) is 3 but its mirror (2, 1) on line 4 is 4", h);
    expect_invalid(banner("coordinate real general") + "2 2 1\n1 2 0.5\n", 3,
                   "not symmetric: entry (1, 2) has no mirror entry (2, 1)", h);
    expect_invalid(banner("coordinate pattern general") + "3 3 2\n1 3\n2 1\n", 3,
                   "has no mirror entry", h);
    expect_invalid(banner("coordinate integer general") + "2 3 1\n1 2 1\n", 2,
                   "a hafnian needs a square (symmetric) matrix; this one is 2×3", h);
    expect_invalid(banner("coordinate real skew-symmetric") + "2 2 1\n2 1 1\n", 1,
                   "the banner declares it skew-symmetric", h);
    expect_invalid(banner("coordinate complex hermitian") + "2 2 1\n2 1 1 1\n", 1,
                   "the banner declares it hermitian", h);
    expect_invalid(banner("coordinate pattern symmetric") + "2 2 2\n2 1\n2 2\n", 4,
                   "self-loop at vertex 2", h);
}

// ---- Size lines beyond the file ---------------------------------------------------------------
// A side declared larger than the file has bytes keeps only the rows and columns that occur,
// labelled from 1 as the file numbers them; the count is 0 at once, naming an isolated one.

constexpr vertex_t kHuge = vertex_t{1} << 24;

TEST(MatrixMarketBeyondTheFile, CoordinateGeneralKeepsTheRowsAndColumnsThatOccur) {
    const Input input =
        parse(banner("coordinate integer general") + "16777216 16777216 3\n1 2 5\n2 3 6\n3 1 7\n",
              matrix_market_options());
    ASSERT_TRUE(input.isolated.has_value());
    EXPECT_EQ(input.isolated->witness, "row 4 has no entry");
    EXPECT_EQ(input.rows(), kHuge);
    EXPECT_EQ(input.cols(), kHuge);
    const auto& m = data_as<SparseMatrix<std::int64_t>>(input);
    EXPECT_EQ(m.rows(), 3);
    EXPECT_EQ(m.at(0, 1), 5);
    EXPECT_EQ(input.row_label(0), 1);
    EXPECT_EQ(input.col_label(2), 3);
    const CountResult r = count(input);
    EXPECT_EQ(r.exact.to_string(), "0");
    EXPECT_EQ(r.note, "row 4 has no entry: no perfect matching, count is 0");
    // A short side covered, the other not: the witness is a column.
    const Input wide = parse(banner("coordinate pattern general") + "2 16777216 2\n1 1\n2 2\n",
                             matrix_market_options());
    EXPECT_EQ(wide.isolated->witness, "column 3 has no entry");
    EXPECT_EQ(data_as<BipartiteGraph>(wide).n_left(), 2);
    // No entries at all.
    const Input empty =
        parse(banner("array real general") + "16777216 0\n", matrix_market_options());
    EXPECT_EQ(empty.isolated->witness, "row 1 has no entry");
    EXPECT_EQ(empty.rows(), kHuge);
    EXPECT_EQ(empty.cols(), 0);
    // Read as a permanent (real values): that of a matrix of no columns, the empty map, 1.
    const CountResult r_empty = count(empty);
    EXPECT_EQ(r_empty.exact.to_string(), "1");
    EXPECT_NE(r_empty.note.find("16777216×0 matrix is that of its transpose"), std::string::npos)
        << r_empty.note;
}

TEST(MatrixMarketBeyondTheFile, SymmetricStorageHafnianAndCycleCovers) {
    const std::string text =
        banner("coordinate real symmetric") + "16777216 16777216 3\n2 1 0.5\n3 2 1.5\n3 1 2.5\n";
    const Input permanent = parse(text, matrix_market_options());
    EXPECT_EQ(permanent.nnz(), 6);
    EXPECT_EQ(permanent.isolated->witness, "row 4 has no entry");
    EXPECT_EQ(count(permanent).exact.to_string(), "0");

    ReadOptions options = matrix_market_options();
    options.interpretation = GraphInterpretation::general;
    const Input hafnian = parse(text, options);
    EXPECT_TRUE(hafnian.hafnian);
    EXPECT_EQ(hafnian.isolated->witness, "vertex 4 has no entry");
    EXPECT_EQ(data_as<SparseMatrix<double>>(hafnian).rows(), 3);
    EXPECT_EQ(hafnian.left_ids, (std::vector<std::int64_t>{1, 2, 3}));
    EXPECT_EQ(count(hafnian).exact.to_string(), "0");
    // The reader's checks still run on what occurs.
    expect_invalid(banner("coordinate real general") + "16777216 16777216 1\n1 2 1\n", 3,
                   "has no mirror entry (2, 1)", options);

    options.interpretation = GraphInterpretation::directed;
    const Input digraph =
        parse(banner("coordinate pattern general") + "16777216 16777216 2\n1 2\n2 1\n", options);
    EXPECT_EQ(data_as<Digraph>(digraph).num_vertices(), 2);
    EXPECT_EQ(digraph.isolated->witness, "vertex 3 has no entry");
}

}  // namespace
}  // namespace pmcount
