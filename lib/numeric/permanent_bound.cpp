#include "numeric/permanent_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "numeric/int128.hpp"

namespace pmcount::numeric {

namespace {

std::uint64_t magnitude(std::int64_t v) noexcept {
    return v < 0 ? ~static_cast<std::uint64_t>(v) + 1 : static_cast<std::uint64_t>(v);
}

// log2 of Brégman's factor (r!)^(1/r) for a 0-1 line with r ones.
long double bregman_log2(std::uint64_t r) {
    return std::lgamma(static_cast<long double>(r) + 1.0L) / static_cast<long double>(r) /
           std::log(2.0L);
}

double bound_from_norms(const std::vector<uint128_t>& row_norm,
                        const std::vector<uint128_t>& col_norm, bool binary) {
    auto norms_log2 = [&](const std::vector<uint128_t>& norms, bool use_bregman) {
        long double sum = 0;
        for (const uint128_t r : norms) {
            if (r == 0) {
                return -std::numeric_limits<long double>::infinity();
            }
            sum += use_bregman ? bregman_log2(static_cast<std::uint64_t>(r))
                               : std::log2(static_cast<long double>(r));
        }
        return sum;
    };
    long double bound = std::min(norms_log2(row_norm, false), norms_log2(col_norm, false));
    if (binary) {
        bound = std::min({bound, norms_log2(row_norm, true), norms_log2(col_norm, true)});
    }
    if (std::isinf(bound)) {
        return -std::numeric_limits<double>::infinity();
    }
    // Each of ≤ 2n terms carries a relative rounding error below 1e-15; 1e-9 relative plus one
    // bit covers it with a wide margin.
    return static_cast<double>(bound + std::fabs(bound) * 1e-9L + 1.0L);
}

}  // namespace

double permanent_bound_log2(const DenseMatrix<std::int64_t>& a, bool binary) {
    const vertex_t n = a.rows();
    std::vector<uint128_t> row_norm(static_cast<std::size_t>(n), 0);
    std::vector<uint128_t> col_norm(static_cast<std::size_t>(n), 0);
    for (vertex_t i = 0; i < n; ++i) {
        for (vertex_t j = 0; j < n; ++j) {
            const std::uint64_t m = magnitude(a(i, j));
            row_norm[static_cast<std::size_t>(i)] += m;
            col_norm[static_cast<std::size_t>(j)] += m;
        }
    }
    return bound_from_norms(row_norm, col_norm, binary);
}

double permanent_bound_log2(const SparseMatrix<std::int64_t>& a, bool binary) {
    std::vector<uint128_t> row_norm(static_cast<std::size_t>(a.rows()), 0);
    std::vector<uint128_t> col_norm(static_cast<std::size_t>(a.cols()), 0);
    for (const auto& t : a.triplets()) {
        row_norm[static_cast<std::size_t>(t.row)] += magnitude(t.value);
        col_norm[static_cast<std::size_t>(t.col)] += magnitude(t.value);
    }
    return bound_from_norms(row_norm, col_norm, binary);
}

double hafnian_bound_log2(const SparseMatrix<std::int64_t>& a, bool binary) {
    std::vector<uint128_t> norm(static_cast<std::size_t>(a.rows()), 0);
    for (const auto& t : a.triplets()) {
        if (t.row != t.col) {
            norm[static_cast<std::size_t>(t.row)] += magnitude(t.value);
        }
    }
    // A symmetric matrix has equal row and column norms.
    double bound = bound_from_norms(norm, norm, binary);
    if (std::isinf(bound)) {
        return bound;
    }
    bound /= 2;
    if (binary) {
        // (n − 1)!! = n! / (2^(n/2) (n/2)!), padded like bound_from_norms.
        const long double n = a.rows();
        const long double double_factorial =
            (std::lgamma(n + 1) - std::lgamma(n / 2 + 1)) / std::log(2.0L) - n / 2;
        bound = std::min(bound, static_cast<double>(double_factorial * (1 + 1e-9L) + 1));
    }
    return bound;
}

double hafnian_bound_log2(const DenseMatrix<std::int64_t>& a, bool binary) {
    return hafnian_bound_log2(SparseMatrix<std::int64_t>(a), binary);
}

double involutions_log2(int n) {
    long double before = 0, last = 0;  // log2 T(k − 2), log2 T(k − 1)
    for (int k = 2; k <= n; ++k) {
        const long double next =
            last + std::log2(1.0L + static_cast<long double>(k - 1) * std::exp2(before - last));
        before = last;
        last = next;
    }
    return static_cast<double>(last);
}

double loop_hafnian_bound_log2(const DenseMatrix<std::int64_t>& a) {
    long double sum = 0;
    for (vertex_t i = 0; i < a.rows(); ++i) {
        std::uint64_t c = 0;
        for (vertex_t j = 0; j < a.cols(); ++j) {
            c = std::max(c, magnitude(a(i, j)));
        }
        if (c == 0) {
            return -std::numeric_limits<double>::infinity();
        }
        sum += std::log2(static_cast<long double>(c));
    }
    return static_cast<double>((sum + involutions_log2(a.rows())) * (1 + 1e-9L) + 1);
}

}  // namespace pmcount::numeric
