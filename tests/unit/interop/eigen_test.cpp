// The Eigen adapter: scalar mapping, dense and sparse conversion (storage orders, index types,
// stored zeros, expressions), permanents against closed forms and brute force, non-finite and
// out-of-range entries, and that pmcount's own matrices still reach the native overloads.
#include "pmcount/interop/eigen.hpp"

#include <gtest/gtest.h>

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <algorithm>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"

namespace pmcount {
namespace {

using Complex = std::complex<double>;
using MatrixXcd = Eigen::Matrix<Complex, Eigen::Dynamic, Eigen::Dynamic>;

static_assert(std::is_same_v<eigen_value_t<bool>, std::int64_t>);
static_assert(std::is_same_v<eigen_value_t<int>, std::int64_t>);
static_assert(std::is_same_v<eigen_value_t<unsigned char>, std::int64_t>);
static_assert(std::is_same_v<eigen_value_t<float>, double>);
static_assert(std::is_same_v<eigen_value_t<long double>, double>);
static_assert(std::is_same_v<eigen_value_t<std::complex<float>>, Complex>);
static_assert(std::is_same_v<eigen_value_t<Complex>, Complex>);

/// Exact count as a decimal string, failing the test when the result is not exact.
std::string exact_count(const CountResult& r) {
    EXPECT_TRUE(r.is_exact);
    return r.exact.to_string();
}

/// The n×n 0-1 tridiagonal matrix, whose permanent is the Fibonacci number F(n + 1).
template <class Sparse>
Sparse tridiagonal(int n) {
    Sparse m(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) {
            m.insert(i, j) = 1;
        }
    }
    m.makeCompressed();
    return m;
}

TEST(EigenInterop, DenseDoublePermanent) {
    Eigen::MatrixXd a(2, 2);
    a << 1, 2, 3, 4;
    const CountResult r = permanent(a);
    EXPECT_EQ(r.kind, ValueKind::real);
    EXPECT_DOUBLE_EQ(r.value, 10.0);
}

TEST(EigenInterop, DenseIntegerPermanentIsExact) {
    const Eigen::MatrixXi ones = Eigen::MatrixXi::Ones(8, 8);
    const CountResult r = permanent(ones);
    EXPECT_EQ(r.kind, ValueKind::integer);
    EXPECT_EQ(exact_count(r), "40320");

    Eigen::Matrix<bool, 3, 3> pattern;
    pattern.setConstant(true);
    pattern(0, 0) = false;  // J_3 minus one corner: 3! − 2! = 4
    EXPECT_EQ(exact_count(permanent(pattern)), "4");
}

TEST(EigenInterop, ComplexPermanentMatchesHandAndBruteForce) {
    MatrixXcd two(2, 2);
    two << Complex(1, 1), 2, 3, Complex(4, -1);
    // (1 + i)(4 − i) + 2·3 = 5 + 3i + 6.
    const CountResult small = permanent(two);
    EXPECT_EQ(small.kind, ValueKind::complex);
    EXPECT_NEAR(small.complex_value.real(), 11.0, 1e-13);
    EXPECT_NEAR(small.complex_value.imag(), 3.0, 1e-13);

    constexpr int n = 6;
    MatrixXcd a(n, n);
    DenseMatrix<Complex> same(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            const Complex z(0.25 * (i + 1) - 0.5 * j, 0.125 * (i * j % 5) - 0.3);
            a(i, j) = z;
            same(i, j) = z;
        }
    }
    CountOptions brute;
    brute.method = Method::brute_force;
    const Complex expected = permanent(same, brute).complex_value;
    const Complex got = permanent(a).complex_value;
    const double tolerance = 1e-11 * std::max(1.0, std::abs(expected));
    EXPECT_NEAR(got.real(), expected.real(), tolerance);
    EXPECT_NEAR(got.imag(), expected.imag(), tolerance);
    EXPECT_GT(std::abs(expected), 1e-3);  // a test that a zero result could not pass trivially

    // std::complex<float> goes the same way.
    const Eigen::Matrix<std::complex<float>, 2, 2> f = two.cast<std::complex<float>>();
    EXPECT_NEAR(permanent(f).complex_value.imag(), 3.0, 1e-6);
}

TEST(EigenInterop, SparseTridiagonalGivesFibonacci) {
    // F(11) = 89, F(21) = 10946.
    EXPECT_DOUBLE_EQ(permanent(tridiagonal<Eigen::SparseMatrix<double>>(10)).value, 89.0);
    const CountResult r = permanent(tridiagonal<Eigen::SparseMatrix<int, Eigen::RowMajor>>(10));
    EXPECT_EQ(r.kind, ValueKind::integer);
    EXPECT_EQ(exact_count(r), "89");
    using WideIndex = Eigen::SparseMatrix<std::int64_t, Eigen::ColMajor, std::int64_t>;
    EXPECT_EQ(exact_count(permanent(tridiagonal<WideIndex>(20))), "10946");
}

TEST(EigenInterop, SparseConversionKeepsStoredZerosAndPositions) {
    // Uncompressed column-major with an explicit zero at (0, 0).
    Eigen::SparseMatrix<double> m(2, 3);
    m.insert(0, 0) = 0.0;
    m.insert(1, 0) = 1.5;
    m.insert(0, 2) = -2.0;
    const SparseMatrix<double> s = to_sparse_matrix(m);
    EXPECT_EQ(s.rows(), 2);
    EXPECT_EQ(s.cols(), 3);
    EXPECT_EQ(s.nnz(), 3);
    EXPECT_EQ(s.col_indices(), (std::vector<vertex_t>{0, 2, 0}));
    EXPECT_EQ(s.values(), (std::vector<double>{0.0, -2.0, 1.5}));
    EXPECT_TRUE(s.pattern().has_edge(0, 0));

    // Row-major storage gives the same matrix.
    const Eigen::SparseMatrix<double, Eigen::RowMajor> row_major = m;
    EXPECT_EQ(to_sparse_matrix(row_major).values(), s.values());
    EXPECT_EQ(to_sparse_matrix(row_major).col_indices(), s.col_indices());
}

TEST(EigenInterop, DenseConversionStoresNonzerosOnly) {
    Eigen::Matrix<double, 2, 3, Eigen::RowMajor> a;
    a << 0, 2.5, 0, -1, 0, -0.0;
    const SparseMatrix<double> s = to_sparse_matrix(a);
    EXPECT_EQ(s.nnz(), 2);
    EXPECT_EQ(s.at(0, 1), 2.5);
    EXPECT_EQ(s.at(1, 0), -1.0);

    const SparseMatrix<std::int64_t> i = to_sparse_matrix(Eigen::Matrix2i::Identity());
    EXPECT_EQ(i.nnz(), 2);
    EXPECT_EQ(i.values(), (std::vector<std::int64_t>{1, 1}));

    // long double is narrowed to double.
    Eigen::Matrix<long double, 1, 1> l;
    l << 0.1L;
    EXPECT_EQ(to_sparse_matrix(l).values(), (std::vector<double>{0.1}));
}

TEST(EigenInterop, ExpressionsAreEvaluated) {
    Eigen::Matrix3d a;
    a << 1, 2, 0, 0, 1, 3, 4, 0, 1;
    // perm(A) = 1·1·1 + 2·3·4 = 25 (the other permutations meet a zero).
    EXPECT_DOUBLE_EQ(permanent(a).value, 25.0);
    EXPECT_DOUBLE_EQ(permanent(a.transpose()).value, 25.0);
    EXPECT_DOUBLE_EQ(permanent(2.0 * a).value, 200.0);
    EXPECT_DOUBLE_EQ(permanent(a * Eigen::Matrix3d::Identity()).value, 25.0);
    EXPECT_DOUBLE_EQ(permanent(a.topLeftCorner(2, 2)).value, 1.0);

    const std::vector<int> data = {1, 1, 1, 1};
    const Eigen::Map<const Eigen::Matrix2i> mapped(data.data());
    EXPECT_EQ(exact_count(permanent(mapped)), "2");

    const Eigen::SparseMatrix<double> s = a.sparseView();
    EXPECT_DOUBLE_EQ(permanent(s.transpose()).value, 25.0);
    EXPECT_DOUBLE_EQ(permanent(3.0 * s).value, 675.0);
}

TEST(EigenInterop, NonFiniteEntryIsRejectedWithItsPosition) {
    Eigen::MatrixXd a = Eigen::MatrixXd::Ones(2, 2);
    a(1, 0) = std::numeric_limits<double>::quiet_NaN();
    try {
        permanent(a);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("(1, 0)"), std::string::npos) << e.what();
    }

    Eigen::SparseMatrix<double> s(3, 3);
    s.insert(2, 1) = -std::numeric_limits<double>::infinity();
    try {
        to_sparse_matrix(s);
        FAIL() << "expected InvalidArgument";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("(2, 1)"), std::string::npos) << e.what();
    }

    MatrixXcd z = MatrixXcd::Identity(2, 2);
    z(0, 1) = Complex(0, std::numeric_limits<double>::infinity());
    EXPECT_THROW(permanent(z), InvalidArgument);
}

TEST(EigenInterop, ValuesBeyondTheTargetTypeOverflow) {
    Eigen::Matrix<std::uint64_t, 1, 2> u;
    u << 1, std::numeric_limits<std::uint64_t>::max();
    EXPECT_THROW(to_sparse_matrix(u), Overflow);
    u(0, 1) = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(to_sparse_matrix(u).values().back(), std::numeric_limits<std::int64_t>::max());

    if constexpr (std::numeric_limits<long double>::max_exponent >
                  std::numeric_limits<double>::max_exponent) {
        Eigen::Matrix<long double, 1, 1> l;
        l << std::numeric_limits<long double>::max();
        EXPECT_THROW(to_sparse_matrix(l), Overflow);
    }
}

TEST(EigenInterop, NonSquareAndEmptyMatrices) {
    // The rectangular permanent: 3·2 injective maps of the rows into the columns.
    const CountResult r = permanent(Eigen::MatrixXd::Ones(2, 3));
    EXPECT_FALSE(r.is_exact);
    EXPECT_NEAR(r.value, 6.0, r.abs_error);
    EXPECT_FALSE(r.note.empty());

    // No nonzero rows for its 2 columns to map into.
    const Eigen::SparseMatrix<int> tall(3, 2);
    EXPECT_EQ(exact_count(permanent(tall)), "0");

    EXPECT_EQ(exact_count(permanent(Eigen::MatrixXi(0, 0))), "1");
}

TEST(EigenInterop, NativeMatricesStillReachTheNativeOverloads) {
    // With eigen.hpp included, pmcount's own matrix types must still pick the native templates.
    const DenseMatrix<double> dense(2, 2, std::vector<double>{1, 2, 3, 4});
    EXPECT_DOUBLE_EQ(permanent(dense).value, 10.0);
    const DenseMatrix<std::int64_t> ones(5, 5, 1);
    CountOptions options;
    options.threads = 1;
    EXPECT_EQ(exact_count(permanent(ones, options)), "120");
    const SparseMatrix<std::int64_t> sparse(2, 2, {{0, 1, 3}, {1, 0, 5}});
    EXPECT_EQ(exact_count(permanent(sparse)), "15");
}

}  // namespace
}  // namespace pmcount
