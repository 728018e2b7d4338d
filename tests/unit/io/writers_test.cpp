// Writers: what write_edge_list / write_matrix_market produce reads back (parse_input) to the same
// graph or matrix, doubles bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "pmcount/error.hpp"
#include "pmcount/io.hpp"
#include "unit/io/parse_helpers.hpp"

namespace pmcount {
namespace {

using test::data_as;
using test::parse;
using Complex = std::complex<double>;

std::uint64_t bits(double x) {
    std::uint64_t b;
    std::memcpy(&b, &x, sizeof b);
    return b;
}

template <class Graph>
std::string edge_list_text(const Graph& graph) {
    std::ostringstream out;
    write_edge_list(out, graph);
    return out.str();
}

template <class Data>
std::string matrix_market_text(const Data& data) {
    std::ostringstream out;
    write_matrix_market(out, data);
    return out.str();
}

/// Same shape, positions and values; doubles compared by their bits.
template <class T>
void expect_same_matrix(const SparseMatrix<T>& a, const SparseMatrix<T>& b) {
    ASSERT_EQ(a.rows(), b.rows());
    ASSERT_EQ(a.cols(), b.cols());
    ASSERT_EQ(a.row_offsets(), b.row_offsets());
    ASSERT_EQ(a.col_indices(), b.col_indices());
    for (std::size_t k = 0; k < a.values().size(); ++k) {
        if constexpr (std::is_same_v<T, std::int64_t>) {
            EXPECT_EQ(a.values()[k], b.values()[k]) << "entry " << k;
        } else if constexpr (std::is_same_v<T, double>) {
            EXPECT_EQ(bits(a.values()[k]), bits(b.values()[k]))
                << "entry " << k << ": " << a.values()[k] << " vs " << b.values()[k];
        } else {
            EXPECT_EQ(bits(a.values()[k].real()), bits(b.values()[k].real())) << "entry " << k;
            EXPECT_EQ(bits(a.values()[k].imag()), bits(b.values()[k].imag())) << "entry " << k;
        }
    }
}

/// Doubles that stress the shortest round-trip formatting: thirds, tenths, extremes, subnormals.
std::vector<double> awkward_doubles() {
    std::vector<double> values{0.1,
                               -1.0 / 3.0,
                               2.0 / 3.0,
                               1e-300,
                               -2.5e-310,  // subnormal
                               std::numeric_limits<double>::denorm_min(),
                               std::numeric_limits<double>::min(),
                               std::numeric_limits<double>::max(),
                               -std::numeric_limits<double>::max(),
                               std::numeric_limits<double>::epsilon(),
                               1.0 + std::numeric_limits<double>::epsilon(),
                               123456789.12345679,
                               9007199254740993.0,  // 2^53 + 1 rounds to 2^53
                               1e22,
                               5e-324,
                               -0.0,
                               0.30000000000000004};
    std::mt19937_64 rng(20240611);
    while (values.size() < 200) {
        const double x = std::ldexp(std::uniform_real_distribution<double>(-1, 1)(rng),
                                    std::uniform_int_distribution<int>(-1060, 1023)(rng));
        if (std::isfinite(x)) {
            values.push_back(x);
        }
    }
    return values;
}

TEST(Writers, EdgeListOfABipartiteGraphIsExactText) {
    const BipartiteGraph g(2, 3, {{1, 2}, {0, 1}});
    EXPECT_EQ(edge_list_text(g), "# bipartite 2 3\n0 1\n1 2\n");
    EXPECT_EQ(matrix_market_text(g),
              "%%MatrixMarket matrix coordinate pattern general\n2 3 2\n"
              "1 2\n2 3\n");
}

TEST(Writers, BipartiteGraphRoundTrips) {
    // Isolated vertices on both sides must survive.
    const BipartiteGraph g(4, 3, {{0, 0}, {0, 2}, {2, 1}, {2, 2}});
    for (const std::string& text : {edge_list_text(g), matrix_market_text(g)}) {
        SCOPED_TRACE(text);
        const Input input = parse(text);
        const auto& back = data_as<BipartiteGraph>(input);
        EXPECT_EQ(back.n_left(), 4);
        EXPECT_EQ(back.n_right(), 3);
        EXPECT_EQ(back.edges(), g.edges());
        EXPECT_TRUE(input.warnings.empty());
    }
}

TEST(Writers, EmptyGraphRoundTrips) {
    const BipartiteGraph g;
    for (const std::string& text : {edge_list_text(g), matrix_market_text(g)}) {
        SCOPED_TRACE(text);
        const Input input = parse(text);
        EXPECT_EQ(data_as<BipartiteGraph>(input).n_left(), 0);
        EXPECT_EQ(input.nnz(), 0);
    }
}

TEST(Writers, DigraphRoundTrips) {
    const Digraph d(5, {{0, 0}, {0, 3}, {3, 0}, {2, 4}, {4, 4}});
    const std::string text = edge_list_text(d);
    EXPECT_EQ(text.rfind("# directed 5\n", 0), 0u) << text;
    const Input input = parse(text);
    const auto& back = data_as<Digraph>(input);
    EXPECT_EQ(back.num_vertices(), 5);
    EXPECT_EQ(back.arcs(), d.arcs());
    EXPECT_TRUE(input.directed);
}

TEST(Writers, Int64MatrixRoundTrips) {
    const SparseMatrix<std::int64_t> m(3, 4,
                                       {{0, 0, std::numeric_limits<std::int64_t>::min()},
                                        {0, 3, std::numeric_limits<std::int64_t>::max()},
                                        {1, 1, 0},  // a stored zero stays an entry
                                        {2, 0, -17},
                                        {2, 2, 1}});
    for (const std::string& text : {edge_list_text(m), matrix_market_text(m)}) {
        SCOPED_TRACE(text);
        const Input input = parse(text);
        expect_same_matrix(data_as<SparseMatrix<std::int64_t>>(input), m);
        EXPECT_TRUE(input.warnings.empty());
    }
}

TEST(Writers, DoubleMatrixRoundTripsBitExactly) {
    const std::vector<double> values = awkward_doubles();
    const auto n = static_cast<vertex_t>(values.size());
    std::vector<Triplet<double>> entries;
    for (vertex_t k = 0; k < n; ++k) {
        entries.push_back({k, (k * 7) % n, values[static_cast<std::size_t>(k)]});
    }
    const SparseMatrix<double> m(n, n, entries);
    for (const std::string& text : {edge_list_text(m), matrix_market_text(m)}) {
        const Input input = parse(text);
        expect_same_matrix(data_as<SparseMatrix<double>>(input), m);
        // The one warning: the subnormals read back exactly but below the normal range.
        ASSERT_EQ(input.warnings.size(), 1u);
        EXPECT_NE(input.warnings[0].find("underflows the normal double range"), std::string::npos)
            << input.warnings[0];
    }
}

TEST(Writers, IntegralDoubleMatrixReadsBackAsExactIntegers) {
    // The readers turn a real file whose values are all integers into an integer problem: the
    // edge list holds integer tokens, the Matrix Market file says 'real' and gets a warning.
    const SparseMatrix<double> m(2, 2, {{0, 0, 2.0}, {1, 1, -3.0}});
    for (const std::string& text : {edge_list_text(m), matrix_market_text(m)}) {
        SCOPED_TRACE(text);
        const Input input = parse(text);
        const auto& back = data_as<SparseMatrix<std::int64_t>>(input);
        EXPECT_EQ(back.at(0, 0), 2);
        EXPECT_EQ(back.at(1, 1), -3);
        EXPECT_EQ(input.warnings.size(), input.format == InputFormat::matrix_market ? 1u : 0u);
    }
}

TEST(Writers, ComplexMatrixRoundTripsThroughMatrixMarket) {
    const std::vector<double> values = awkward_doubles();
    std::vector<Triplet<Complex>> entries;
    const vertex_t n = 50;
    for (vertex_t k = 0; k < n; ++k) {
        const auto i = static_cast<std::size_t>(k);
        entries.push_back({k, (k * 3 + 1) % n, {values[i], values[values.size() - 1 - i]}});
    }
    entries.push_back({0, 0, {0.0, 0.0}});
    const SparseMatrix<Complex> m(n, n, entries);
    const Input input = parse(matrix_market_text(m));
    expect_same_matrix(data_as<SparseMatrix<Complex>>(input), m);
}

TEST(Writers, EdgeListCannotHoldComplexValues) {
    const SparseMatrix<Complex> m(1, 1, {{0, 0, {1, 2}}});
    std::ostringstream out;
    EXPECT_THROW(write_edge_list(out, m), InvalidArgument);
}

TEST(Writers, RectangularAndEmptyMatricesKeepTheirShape) {
    const SparseMatrix<std::int64_t> wide(2, 5, {{1, 4, 9}});
    const Input back = parse(edge_list_text(wide));
    EXPECT_EQ(back.rows(), 2);
    EXPECT_EQ(back.cols(), 5);
    const SparseMatrix<double> empty(3, 3, {});
    const Input empty_back = parse(matrix_market_text(empty));
    EXPECT_EQ(empty_back.rows(), 3);
    EXPECT_EQ(empty_back.nnz(), 0);
}

}  // namespace
}  // namespace pmcount
