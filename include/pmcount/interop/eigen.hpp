// Opt-in adapter from Eigen: pmcount matrices and permanents of dense and sparse Eigen matrices.
// Header-only; the rest of pmcount never includes Eigen, so only code that includes this header
// depends on it.
//
// Scalars map to pmcount's value kinds: every integral type (bool and char types too) to the
// integer kind, std::int64_t; float, double and long double to the real kind, double; and
// std::complex of those to the complex kind, std::complex<double>. long double is narrowed to
// double, since pmcount's real engines compute in double or double-double: the extra bits of the
// input would be rounded away either way. Other scalar types are refused at compile time.
//
// The permanent overloads here take Eigen::MatrixBase / Eigen::SparseMatrixBase, from which a
// pmcount::DenseMatrix or pmcount::SparseMatrix argument cannot be deduced, so those still reach
// the native pmcount::permanent overloads.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "pmcount/count.hpp"
#include "pmcount/error.hpp"
#include "pmcount/matrix.hpp"
#include "pmcount/types.hpp"

namespace pmcount {

namespace detail {

template <class>
inline constexpr bool dependent_false = false;

template <class Scalar, class = void>
struct EigenValue {
    static_assert(dependent_false<Scalar>,
                  "pmcount's Eigen adapter takes integral, float, double, long double and "
                  "std::complex<float | double | long double> scalars");
};
template <class Scalar>
struct EigenValue<Scalar, std::enable_if_t<std::is_integral_v<Scalar>>> {
    using type = std::int64_t;
};
template <class Scalar>
struct EigenValue<Scalar, std::enable_if_t<std::is_floating_point_v<Scalar>>> {
    using type = double;
};
template <class Real>
struct EigenValue<std::complex<Real>, std::enable_if_t<std::is_floating_point_v<Real>>> {
    using type = std::complex<double>;
};

inline std::string eigen_position(Eigen::Index row, Eigen::Index col) {
    return "Eigen matrix entry (" + std::to_string(row) + ", " + std::to_string(col) + ")";
}

/// A real part (or real value) as double: InvalidArgument when it is NaN or infinite, Overflow
/// when a finite long double is beyond double's range.
template <class Real>
double checked_real(Real x, Eigen::Index row, Eigen::Index col) {
    if (!std::isfinite(x)) {
        throw InvalidArgument(eigen_position(row, col) + " is not finite (" +
                              std::to_string(static_cast<double>(x)) + ")");
    }
    const auto narrowed = static_cast<double>(x);
    if (!std::isfinite(narrowed)) {
        throw Overflow(eigen_position(row, col) + " is beyond the range of double");
    }
    return narrowed;
}

/// The pmcount value of one Eigen entry. Integers wider than int64 throw Overflow when they do not
/// fit; floating values are checked by checked_real.
template <class Scalar>
typename EigenValue<Scalar>::type to_pmcount_value(const Scalar& x, Eigen::Index row,
                                                   Eigen::Index col) {
    if constexpr (std::is_integral_v<Scalar>) {
        using Limits = std::numeric_limits<std::int64_t>;
        if constexpr (std::numeric_limits<Scalar>::digits > Limits::digits) {
            const bool below = std::is_signed_v<Scalar> && x < static_cast<Scalar>(Limits::min());
            if (below || x > static_cast<Scalar>(Limits::max())) {
                throw Overflow(eigen_position(row, col) + " does not fit in std::int64_t");
            }
        }
        return static_cast<std::int64_t>(x);
    } else if constexpr (std::is_floating_point_v<Scalar>) {
        return checked_real(x, row, col);
    } else {
        return {checked_real(x.real(), row, col), checked_real(x.imag(), row, col)};
    }
}

/// Eigen's sizes are std::ptrdiff_t; pmcount's rows and columns are vertex_t.
inline vertex_t checked_extent(Eigen::Index extent, const char* what) {
    if (extent > std::numeric_limits<vertex_t>::max()) {
        throw InvalidArgument("the Eigen matrix has " + std::to_string(extent) + " " + what +
                              ", more than pmcount's 32-bit indices can number");
    }
    return static_cast<vertex_t>(extent);
}

}  // namespace detail

/// pmcount's value type for the Eigen scalar type Scalar (see the top of this file).
template <class Scalar>
using eigen_value_t = typename detail::EigenValue<Scalar>::type;

/// The nonzero entries of a dense Eigen matrix or expression (an expression is evaluated once;
/// a plain matrix is read in place, in its storage order). Zeros are not stored.
/// Throws InvalidArgument naming (row, col) for a NaN or infinite entry, Overflow for an integer
/// beyond int64 or a long double beyond double, InvalidArgument for more than 2^31 - 1 rows or
/// columns.
template <class D>
SparseMatrix<eigen_value_t<typename D::Scalar>> to_sparse_matrix(
    const Eigen::MatrixBase<D>& matrix) {
    using Scalar = typename D::Scalar;
    using Plain = typename D::PlainObject;
    // Binds to the matrix itself when D is a plain matrix, else to a temporary evaluation
    // (products, for one, have no coefficient access).
    const Plain& plain = matrix.derived();
    const vertex_t rows = detail::checked_extent(plain.rows(), "rows");
    const vertex_t cols = detail::checked_extent(plain.cols(), "columns");
    std::vector<Triplet<eigen_value_t<Scalar>>> entries;
    for (Eigen::Index outer = 0; outer < plain.outerSize(); ++outer) {
        for (Eigen::Index inner = 0; inner < plain.innerSize(); ++inner) {
            const Eigen::Index row = Plain::IsRowMajor ? outer : inner;
            const Eigen::Index col = Plain::IsRowMajor ? inner : outer;
            const Scalar& x = plain.coeff(row, col);
            if (x == Scalar(0)) {
                continue;  // NaN compares unequal, so it reaches the check below
            }
            entries.push_back({static_cast<vertex_t>(row), static_cast<vertex_t>(col),
                               detail::to_pmcount_value(x, row, col)});
        }
    }
    return SparseMatrix<eigen_value_t<Scalar>>(rows, cols, std::move(entries));
}

/// The stored entries of a sparse Eigen matrix or expression, in any storage order and with any
/// index type; a stored zero stays a structural entry, as in pmcount::SparseMatrix. A
/// SparseMatrix is read in place; other sparse expressions are evaluated into one first.
/// Throws as to_sparse_matrix of a dense matrix does.
template <class D>
SparseMatrix<eigen_value_t<typename D::Scalar>> to_sparse_matrix(
    const Eigen::SparseMatrixBase<D>& matrix) {
    using Plain = typename D::PlainObject;
    const Plain& plain = matrix.derived();
    const vertex_t rows = detail::checked_extent(plain.rows(), "rows");
    const vertex_t cols = detail::checked_extent(plain.cols(), "columns");
    std::vector<Triplet<eigen_value_t<typename D::Scalar>>> entries;
    entries.reserve(static_cast<std::size_t>(plain.nonZeros()));
    for (Eigen::Index outer = 0; outer < plain.outerSize(); ++outer) {
        for (typename Plain::InnerIterator it(plain, outer); it; ++it) {
            entries.push_back({static_cast<vertex_t>(it.row()), static_cast<vertex_t>(it.col()),
                               detail::to_pmcount_value(it.value(), it.row(), it.col())});
        }
    }
    return SparseMatrix<eigen_value_t<typename D::Scalar>>(rows, cols, std::move(entries));
}

/// Permanent of a dense Eigen matrix: pmcount::permanent(to_sparse_matrix(matrix), options).
/// Exact for integral scalars; a non-square matrix gives its rectangular permanent (see
/// pmcount::permanent), a 0×0 one 1. Throws what
/// to_sparse_matrix and pmcount::permanent throw.
template <class D>
CountResult permanent(const Eigen::MatrixBase<D>& matrix, const CountOptions& options = {}) {
    return pmcount::permanent(to_sparse_matrix(matrix), options);
}

/// Permanent of a sparse Eigen matrix: pmcount::permanent(to_sparse_matrix(matrix), options).
/// As for the dense overload.
template <class D>
CountResult permanent(const Eigen::SparseMatrixBase<D>& matrix, const CountOptions& options = {}) {
    return pmcount::permanent(to_sparse_matrix(matrix), options);
}

}  // namespace pmcount
