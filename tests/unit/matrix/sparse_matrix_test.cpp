// SparseMatrix<T> (int64, double, complex) and DenseMatrix<T>: validation, duplicate handling,
// CSR/CSC consistency, and the conversions at(), to_dense(), pattern(), triplets().
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <utility>
#include <vector>

#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {
namespace {

/// A distinct value of each kind for the small integer k (complex ones have a nonzero imaginary
/// part, so a lost imaginary part shows).
template <class T>
T value(int k) {
    if constexpr (std::is_same_v<T, std::complex<double>>) {
        return {static_cast<double>(k), 0.5 * static_cast<double>(k)};
    } else if constexpr (std::is_same_v<T, double>) {
        return static_cast<double>(k) + 0.25;
    } else {
        return static_cast<T>(k);
    }
}

template <class T>
class SparseMatrixTest : public ::testing::Test {};

using ValueTypes = ::testing::Types<std::int64_t, double, std::complex<double>>;
TYPED_TEST_SUITE(SparseMatrixTest, ValueTypes);

/// 3×4 with entries given out of order:
///   [ .  1  .  2 ]
///   [ 3  .  .  . ]
///   [ 4  5  .  6 ]
template <class T>
SparseMatrix<T> example() {
    return SparseMatrix<T>(3, 4,
                           {{2, 3, value<T>(6)},
                            {0, 3, value<T>(2)},
                            {1, 0, value<T>(3)},
                            {2, 0, value<T>(4)},
                            {0, 1, value<T>(1)},
                            {2, 1, value<T>(5)}});
}

TYPED_TEST(SparseMatrixTest, CsrIsSortedByRowThenColumn) {
    using T = TypeParam;
    const SparseMatrix<T> m = example<T>();
    EXPECT_EQ(m.rows(), 3);
    EXPECT_EQ(m.cols(), 4);
    EXPECT_EQ(m.nnz(), 6);
    EXPECT_FALSE(m.is_square());
    EXPECT_EQ(m.row_offsets(), (std::vector<edge_t>{0, 2, 3, 6}));
    EXPECT_EQ(m.col_indices(), (std::vector<vertex_t>{1, 3, 0, 0, 1, 3}));
    EXPECT_EQ(m.values(), (std::vector<T>{value<T>(1), value<T>(2), value<T>(3), value<T>(4),
                                          value<T>(5), value<T>(6)}));
}

TYPED_TEST(SparseMatrixTest, CscAgreesWithCsr) {
    using T = TypeParam;
    const SparseMatrix<T> m = example<T>();
    EXPECT_EQ(m.col_offsets(), (std::vector<edge_t>{0, 2, 4, 4, 6}));
    EXPECT_EQ(m.row_indices(), (std::vector<vertex_t>{1, 2, 0, 2, 0, 2}));
    EXPECT_EQ(m.csc_to_csr(), (std::vector<edge_t>{2, 3, 0, 4, 1, 5}));
    // Every CSC slot names the CSR slot of the same (row, col).
    for (vertex_t c = 0; c < m.cols(); ++c) {
        for (edge_t k = m.col_offsets()[static_cast<std::size_t>(c)];
             k < m.col_offsets()[static_cast<std::size_t>(c) + 1]; ++k) {
            const auto csr = static_cast<std::size_t>(m.csc_to_csr()[static_cast<std::size_t>(k)]);
            const vertex_t r = m.row_indices()[static_cast<std::size_t>(k)];
            EXPECT_EQ(m.col_indices()[csr], c);
            EXPECT_GE(static_cast<edge_t>(csr), m.row_offsets()[static_cast<std::size_t>(r)]);
            EXPECT_LT(static_cast<edge_t>(csr), m.row_offsets()[static_cast<std::size_t>(r) + 1]);
        }
    }
}

TYPED_TEST(SparseMatrixTest, AtReturnsStoredValuesAndZeroElsewhere) {
    using T = TypeParam;
    const SparseMatrix<T> m = example<T>();
    EXPECT_EQ(m.at(0, 1), value<T>(1));
    EXPECT_EQ(m.at(0, 3), value<T>(2));
    EXPECT_EQ(m.at(1, 0), value<T>(3));
    EXPECT_EQ(m.at(2, 3), value<T>(6));
    EXPECT_EQ(m.at(0, 0), T{});
    EXPECT_EQ(m.at(1, 3), T{});
    EXPECT_EQ(m.at(2, 2), T{});
}

TYPED_TEST(SparseMatrixTest, AtOutsideTheShapeIsRejected) {
    using T = TypeParam;
    const SparseMatrix<T> m = example<T>();
    EXPECT_THROW(m.at(3, 0), InvalidArgument);
    EXPECT_THROW(m.at(0, 4), InvalidArgument);
    EXPECT_THROW(m.at(-1, 0), InvalidArgument);
    EXPECT_THROW(m.at(0, -1), InvalidArgument);
}

TYPED_TEST(SparseMatrixTest, ToDenseAndBack) {
    using T = TypeParam;
    const SparseMatrix<T> m = example<T>();
    const DenseMatrix<T> d = m.to_dense();
    ASSERT_EQ(d.rows(), 3);
    ASSERT_EQ(d.cols(), 4);
    const std::vector<T> expected{T{}, value<T>(1), T{},         value<T>(2), value<T>(3), T{}, T{},
                                  T{}, value<T>(4), value<T>(5), T{},         value<T>(6)};
    EXPECT_EQ(d.data(), expected);
    EXPECT_EQ(d(2, 1), value<T>(5));
    const SparseMatrix<T> back(d);
    EXPECT_EQ(back.row_offsets(), m.row_offsets());
    EXPECT_EQ(back.col_indices(), m.col_indices());
    EXPECT_EQ(back.values(), m.values());
    EXPECT_EQ(back.csc_to_csr(), m.csc_to_csr());
}

TYPED_TEST(SparseMatrixTest, PatternAndTriplets) {
    using T = TypeParam;
    const SparseMatrix<T> m = example<T>();
    const BipartiteGraph g = m.pattern();
    EXPECT_EQ(g.n_left(), 3);
    EXPECT_EQ(g.n_right(), 4);
    EXPECT_EQ(g.edges(),
              (std::vector<BipartiteGraph::Edge>{{0, 1}, {0, 3}, {1, 0}, {2, 0}, {2, 1}, {2, 3}}));
    const auto t = m.triplets();
    ASSERT_EQ(t.size(), 6u);
    const std::vector<std::pair<vertex_t, vertex_t>> positions{{0, 1}, {0, 3}, {1, 0},
                                                               {2, 0}, {2, 1}, {2, 3}};
    const std::vector<int> values{1, 2, 3, 4, 5, 6};
    for (std::size_t k = 0; k < t.size(); ++k) {
        EXPECT_EQ(t[k].row, positions[k].first) << k;
        EXPECT_EQ(t[k].col, positions[k].second) << k;
        EXPECT_EQ(t[k].value, value<T>(values[k])) << k;
    }
}

TYPED_TEST(SparseMatrixTest, StoredZerosAreStructuralEntries) {
    using T = TypeParam;
    const SparseMatrix<T> m(2, 2, {{0, 0, T{}}, {1, 1, value<T>(7)}});
    EXPECT_EQ(m.nnz(), 2);
    EXPECT_EQ(m.pattern().num_edges(), 2);
    EXPECT_TRUE(m.pattern().has_edge(0, 0));
    // A dense matrix has no structure: its zeros are not stored.
    EXPECT_EQ(SparseMatrix<T>(m.to_dense()).nnz(), 1);
}

TYPED_TEST(SparseMatrixTest, DuplicatesAreRejectedByDefault) {
    using T = TypeParam;
    try {
        SparseMatrix<T>(2, 3, {{0, 1, value<T>(1)}, {1, 2, value<T>(2)}, {0, 1, value<T>(3)}});
        ADD_FAILURE() << "duplicate accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("(0, 1)"), std::string::npos) << e.what();
    }
}

TYPED_TEST(SparseMatrixTest, DuplicatesAreSummedOnRequest) {
    using T = TypeParam;
    const SparseMatrix<T> m(
        2, 3, {{0, 1, value<T>(1)}, {1, 2, value<T>(2)}, {0, 1, value<T>(3)}, {0, 1, value<T>(4)}},
        Duplicates::sum);
    EXPECT_EQ(m.nnz(), 2);
    EXPECT_EQ(m.at(0, 1), value<T>(1) + value<T>(3) + value<T>(4));
    EXPECT_EQ(m.at(1, 2), value<T>(2));
    EXPECT_EQ(m.col_offsets(), (std::vector<edge_t>{0, 0, 1, 2}));
}

TYPED_TEST(SparseMatrixTest, OutOfRangePositionsAreRejected) {
    using T = TypeParam;
    EXPECT_THROW(SparseMatrix<T>(2, 3, {{2, 0, value<T>(1)}}), InvalidArgument);
    EXPECT_THROW(SparseMatrix<T>(2, 3, {{0, 3, value<T>(1)}}), InvalidArgument);
    EXPECT_THROW(SparseMatrix<T>(2, 3, {{-1, 0, value<T>(1)}}), InvalidArgument);
    EXPECT_THROW(SparseMatrix<T>(2, 3, {{0, -1, value<T>(1)}}), InvalidArgument);
    EXPECT_THROW(SparseMatrix<T>(-1, 3, {}), InvalidArgument);
    EXPECT_THROW(SparseMatrix<T>(3, -1, {}), InvalidArgument);
}

TYPED_TEST(SparseMatrixTest, EmptyMatrices) {
    using T = TypeParam;
    const SparseMatrix<T> none;
    EXPECT_EQ(none.rows(), 0);
    EXPECT_EQ(none.nnz(), 0);
    EXPECT_EQ(none.row_offsets(), std::vector<edge_t>{0});
    EXPECT_EQ(none.col_offsets(), std::vector<edge_t>{0});
    EXPECT_TRUE(none.is_square());
    const SparseMatrix<T> wide(0, 3, {});
    EXPECT_EQ(wide.col_offsets(), (std::vector<edge_t>{0, 0, 0, 0}));
    EXPECT_EQ(wide.to_dense().data().size(), 0u);
    const SparseMatrix<T> zero(2, 2, {});
    EXPECT_EQ(zero.row_offsets(), (std::vector<edge_t>{0, 0, 0}));
    EXPECT_EQ(zero.at(1, 1), T{});
    EXPECT_EQ(zero.pattern().num_edges(), 0);
}

TEST(SparseMatrixInt64, SummingPastSixtyFourBitsIsAnOverflow) {
    const std::int64_t big = std::numeric_limits<std::int64_t>::max() - 1;
    EXPECT_THROW(SparseMatrix<std::int64_t>(1, 1, {{0, 0, big}, {0, 0, 2}}, Duplicates::sum),
                 Overflow);
    const SparseMatrix<std::int64_t> fits(1, 1, {{0, 0, big}, {0, 0, 1}}, Duplicates::sum);
    EXPECT_EQ(fits.at(0, 0), std::numeric_limits<std::int64_t>::max());
}

TEST(DenseMatrix, ShapeChecks) {
    EXPECT_THROW(DenseMatrix<double>(2, 3, std::vector<double>(5)), InvalidArgument);
    EXPECT_THROW(DenseMatrix<double>(2, 3, std::vector<double>(7)), InvalidArgument);
    EXPECT_THROW(DenseMatrix<std::int64_t>(-1, 3), InvalidArgument);
    EXPECT_THROW(DenseMatrix<std::int64_t>(3, -1), InvalidArgument);
    EXPECT_THROW(DenseMatrix<std::int64_t>(-1, -1, std::vector<std::int64_t>(1)), InvalidArgument);
    const DenseMatrix<std::complex<double>> a(2, 3, {1, 2, 3, 4, 5, {6, -1}});
    EXPECT_EQ(a.rows(), 2);
    EXPECT_EQ(a.cols(), 3);
    EXPECT_FALSE(a.is_square());
    EXPECT_EQ(a(0, 2), std::complex<double>(3));
    EXPECT_EQ(a(1, 0), std::complex<double>(4));
    EXPECT_EQ(a(1, 2), std::complex<double>(6, -1));
    const DenseMatrix<double> filled(2, 2, 1.5);
    EXPECT_EQ(filled.data(), (std::vector<double>{1.5, 1.5, 1.5, 1.5}));
    const DenseMatrix<double> empty(0, 0);
    EXPECT_TRUE(empty.data().empty());
    EXPECT_TRUE(empty.is_square());
}

TEST(DenseMatrix, BiadjacencyMatrixOfAGraph) {
    const BipartiteGraph g(2, 3, {{0, 2}, {1, 0}, {1, 1}});
    const DenseMatrix<std::int64_t> a = biadjacency_matrix(g);
    EXPECT_EQ(a.data(), (std::vector<std::int64_t>{0, 0, 1, 1, 1, 0}));
}

}  // namespace
}  // namespace pmcount
