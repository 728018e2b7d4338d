// The arithmetic a count runs in (the option, checked against the entries) and the floating
// inputs' balancing by powers of two, which keeps the engines' entries near 1 whatever the
// input's range.
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>
#include <vector>

#include "core/names.hpp"
#include "count/pipeline.hpp"
#include "pmcount/error.hpp"

namespace pmcount::counting {

template <class T>
Precision resolve_precision(Precision requested, ValueKind kind) {
    constexpr bool integral = std::is_same_v<T, std::int64_t>;
    const Precision p = requested != Precision::automatic
                            ? requested
                            : (integral ? Precision::exact : Precision::double_precision);
    if (p == Precision::exact && !integral) {
        throw InvalidArgument("exact arithmetic needs integer entries; this matrix is " +
                              std::string(to_string(kind)) + " (use --precision double or dd)");
    }
    if (p == Precision::double_double && std::is_same_v<T, std::complex<double>>) {
        throw InvalidArgument("--precision dd is available for real and integer matrices only");
    }
    if (p == Precision::certified && std::is_same_v<T, std::complex<double>>) {
        throw InvalidArgument(
            "--precision certified is available for real and integer matrices only");
    }
    return p;
}

template <class T>
SparseMatrix<T> balanced_by_powers_of_two(const SparseMatrix<T>& a, std::int64_t& shift) {
    auto size = [](const T& v) {
        if constexpr (std::is_same_v<T, double>) {
            return std::fabs(v);
        } else {
            return std::max(std::fabs(v.real()), std::fabs(v.imag()));
        }
    };
    std::vector<Triplet<T>> entries = a.triplets();
    shift = 0;
    auto balance = [&](auto line_of, vertex_t lines) {
        std::vector<double> largest(static_cast<std::size_t>(lines), 0.0);
        for (const auto& t : entries) {
            double& m = largest[static_cast<std::size_t>(line_of(t))];
            m = std::max(m, size(t.value));
        }
        std::vector<int> exponent(largest.size(), 0);
        for (std::size_t k = 0; k < largest.size(); ++k) {
            if (largest[k] > 0 && std::isfinite(largest[k])) {
                std::frexp(largest[k], &exponent[k]);
                shift += exponent[k];
            }
        }
        for (auto& t : entries) {
            const int e = exponent[static_cast<std::size_t>(line_of(t))];
            if constexpr (std::is_same_v<T, double>) {
                t.value = std::ldexp(t.value, -e);
            } else {
                t.value = {std::ldexp(t.value.real(), -e), std::ldexp(t.value.imag(), -e)};
            }
        }
    };
    balance([](const Triplet<T>& t) { return t.row; }, a.rows());
    balance([](const Triplet<T>& t) { return t.col; }, a.cols());
    return SparseMatrix<T>(a.rows(), a.cols(), std::move(entries));
}

template <class T>
SparseMatrix<T> balanced_symmetric(const SparseMatrix<T>& a, std::int64_t& shift) {
    std::vector<double> largest(static_cast<std::size_t>(a.rows()), 0.0);
    for (const auto& t : a.triplets()) {
        if (t.row != t.col) {
            double& m = largest[static_cast<std::size_t>(t.row)];
            m = std::max(m, std::abs(t.value));
        }
    }
    std::vector<int> exponent(largest.size(), 0);
    shift = 0;
    for (std::size_t k = 0; k < largest.size(); ++k) {
        if (largest[k] > 0 && std::isfinite(largest[k])) {
            int e = 0;
            std::frexp(largest[k], &e);
            exponent[k] = e / 2;
            shift += exponent[k];
        }
    }
    std::vector<Triplet<T>> entries = a.triplets();
    for (auto& t : entries) {
        const int e =
            -exponent[static_cast<std::size_t>(t.row)] - exponent[static_cast<std::size_t>(t.col)];
        if constexpr (std::is_same_v<T, double>) {
            t.value = std::ldexp(t.value, e);
        } else {
            t.value = {std::ldexp(t.value.real(), e), std::ldexp(t.value.imag(), e)};
        }
    }
    return SparseMatrix<T>(a.rows(), a.cols(), std::move(entries));
}

template Precision resolve_precision<std::int64_t>(Precision, ValueKind);
template Precision resolve_precision<double>(Precision, ValueKind);
template Precision resolve_precision<std::complex<double>>(Precision, ValueKind);
template SparseMatrix<double> balanced_by_powers_of_two(const SparseMatrix<double>&, std::int64_t&);
template SparseMatrix<std::complex<double>> balanced_by_powers_of_two(
    const SparseMatrix<std::complex<double>>&, std::int64_t&);
template SparseMatrix<double> balanced_symmetric(const SparseMatrix<double>&, std::int64_t&);
template SparseMatrix<std::complex<double>> balanced_symmetric(
    const SparseMatrix<std::complex<double>>&, std::int64_t&);

}  // namespace pmcount::counting
