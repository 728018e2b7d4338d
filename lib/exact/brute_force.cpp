#include "exact/brute_force.hpp"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "core/stop.hpp"
#include "numeric/cpp_int_bridge.hpp"
#include "numeric/double_double.hpp"
#include "numeric/int128.hpp"
#include "numeric/permanent_bound.hpp"
#include "pmcount/error.hpp"

namespace pmcount::exact {

namespace {

using numeric::DoubleDouble;

struct ComplexDD {
    DoubleDouble re;
    DoubleDouble im;
    ComplexDD() = default;
    ComplexDD(std::complex<double> v) : re(v.real()), im(v.imag()) {}  // NOLINT
    ComplexDD(DoubleDouble r, DoubleDouble i) : re(r), im(i) {}
};
ComplexDD operator*(const ComplexDD& a, const ComplexDD& b) {
    return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
ComplexDD& operator+=(ComplexDD& a, const ComplexDD& b) {
    a.re += b.re;
    a.im += b.im;
    return a;
}

void check_order(vertex_t rows, vertex_t cols) {
    if (rows != cols) {
        throw DimensionMismatch("brute force needs a square matrix");
    }
    if (rows > kMaxBruteForceOrder) {
        throw ProblemTooLarge("brute force is limited to order " +
                              std::to_string(kMaxBruteForceOrder) + " (n! terms); got order " +
                              std::to_string(rows) + ": use --method ryser");
    }
}

/// Σ over permutations σ of Π_i a(i, σ(i)), accumulating in Ring.
template <class Ring, class T>
Ring permutation_sum(const DenseMatrix<T>& a) {
    const vertex_t n = a.rows();
    Ring total = Ring(0);
    std::vector<Ring> partial(static_cast<std::size_t>(n) + 1, Ring(1));
    std::vector<vertex_t> choice(static_cast<std::size_t>(n), -1);
    std::uint32_t used = 0;
    vertex_t row = 0;
    if (n == 0) {
        return Ring(1);
    }
    // Iterative DFS: choice[row] is the column tried at `row`; advance to the next free nonzero.
    pmcount::detail::StopPoll<> stop;  // 12! = 4.8·10^8 leaves take seconds
    while (row >= 0) {
        if (stop()) {
            pmcount::detail::throw_if_stopped("summing by brute force");
        }
        vertex_t& c = choice[static_cast<std::size_t>(row)];
        if (c >= 0) {
            used &= ~(1U << c);
        }
        ++c;
        while (c < n && (((used >> c) & 1U) != 0 || a(row, c) == T{})) {
            ++c;
        }
        if (c == n) {
            c = -1;
            --row;
            continue;
        }
        partial[static_cast<std::size_t>(row) + 1] =
            partial[static_cast<std::size_t>(row)] * Ring(a(row, c));
        if (row + 1 == n) {
            total += partial[static_cast<std::size_t>(n)];
            continue;
        }
        used |= 1U << c;
        ++row;
    }
    return total;
}

/// Σ over the perfect matchings of {0..n−1} of Π a(u, v), accumulating in Ring: the first free
/// vertex is paired with each later free vertex in turn (iterative, depth n/2).
template <class Ring, class T>
Ring pairing_sum(const DenseMatrix<T>& a) {
    const vertex_t n = a.rows();
    if (n % 2 != 0) {
        return Ring(0);
    }
    if (n == 0) {
        return Ring(1);
    }
    const int pairs = n / 2;
    Ring total = Ring(0);
    std::vector<Ring> partial(static_cast<std::size_t>(pairs) + 1, Ring(1));
    std::vector<vertex_t> first(static_cast<std::size_t>(pairs), -1);
    std::vector<vertex_t> partner(static_cast<std::size_t>(pairs), -1);
    std::uint32_t used = 0;
    int level = 0;
    first[0] = 0;
    used = 1U;
    pmcount::detail::StopPoll<> stop;
    while (level >= 0) {
        if (stop()) {
            pmcount::detail::throw_if_stopped("summing by brute force");
        }
        const vertex_t u = first[static_cast<std::size_t>(level)];
        vertex_t& v = partner[static_cast<std::size_t>(level)];
        if (v > u) {
            used &= ~(1U << v);  // release the partner tried last
        }
        v = std::max(v, u) + 1;
        while (v < n && (((used >> v) & 1U) != 0 || a(u, v) == T{})) {
            ++v;
        }
        if (v == n) {
            v = -1;
            used &= ~(1U << u);
            --level;
            continue;
        }
        used |= 1U << v;
        partial[static_cast<std::size_t>(level) + 1] =
            partial[static_cast<std::size_t>(level)] * Ring(a(u, v));
        if (level + 1 == pairs) {
            total += partial[static_cast<std::size_t>(pairs)];
            continue;
        }
        // The next level pairs the lowest free vertex.
        vertex_t next = 0;
        while (((used >> next) & 1U) != 0) {
            ++next;
        }
        ++level;
        first[static_cast<std::size_t>(level)] = next;
        partner[static_cast<std::size_t>(level)] = -1;  // candidates start after `next`
        used |= 1U << next;
    }
    return total;
}

/// Σ over the loop matchings of the vertices outside `used` (each paired or on its own loop) of
/// Π a(u, v) · Π a(w, w), accumulating in Ring: the first free vertex takes its loop or pairs
/// with each later free vertex (recursive, depth ≤ n).
template <class Ring, class T>
Ring loop_pairing_sum(const DenseMatrix<T>& a, std::uint32_t used,
                      pmcount::detail::StopPoll<>& stop) {
    if (stop()) {
        pmcount::detail::throw_if_stopped("summing by brute force");
    }
    const vertex_t n = a.rows();
    vertex_t u = 0;
    while (u < n && ((used >> u) & 1U) != 0) {
        ++u;
    }
    if (u == n) {
        return Ring(1);
    }
    used |= 1U << u;
    Ring total = Ring(0);
    if (a(u, u) != T{}) {
        total += Ring(a(u, u)) * loop_pairing_sum<Ring>(a, used, stop);
    }
    for (vertex_t v = u + 1; v < n; ++v) {
        if (((used >> v) & 1U) == 0 && a(u, v) != T{}) {
            total += Ring(a(u, v)) * loop_pairing_sum<Ring>(a, used | 1U << v, stop);
        }
    }
    return total;
}

void check_pairings_order(vertex_t rows, vertex_t cols) {
    if (rows != cols) {
        throw DimensionMismatch("brute force over pairings needs a square matrix");
    }
    if (rows > kMaxPairingsOrder) {
        throw ProblemTooLarge("brute force over pairings is limited to order " +
                              std::to_string(kMaxPairingsOrder) + " ((n − 1)!! terms); got order " +
                              std::to_string(rows) + ": use --method hafnian");
    }
}

}  // namespace

BigInt brute_force_exact(const DenseMatrix<std::int64_t>& a) {
    check_order(a.rows(), a.cols());
    // Every partial product and partial sum is bounded by the permanent of |A| ≤ 2^bound; an
    // entry of −2^63 has no int64 absolute value and goes to the big integers at once.
    const bool has_min = std::any_of(a.data().begin(), a.data().end(), [](std::int64_t v) {
        return v == std::numeric_limits<std::int64_t>::min();
    });
    DenseMatrix<std::int64_t> absolute = a;
    for (vertex_t i = 0; i < a.rows() && !has_min; ++i) {
        for (vertex_t j = 0; j < a.cols(); ++j) {
            absolute(i, j) = a(i, j) < 0 ? -a(i, j) : a(i, j);
        }
    }
    if (!has_min && numeric::permanent_bound_log2(absolute, false) < 125) {
        const numeric::int128_t v = permutation_sum<numeric::int128_t>(a);
        const bool negative = v < 0;
        const numeric::uint128_t m =
            negative ? ~static_cast<numeric::uint128_t>(v) + 1 : static_cast<numeric::uint128_t>(v);
        return BigInt::from_limbs(
            negative, {static_cast<std::uint64_t>(m), static_cast<std::uint64_t>(m >> 64)});
    }
    return numeric::from_cpp_int(permutation_sum<numeric::cpp_int>(a));
}

double brute_force(const DenseMatrix<double>& a) {
    check_order(a.rows(), a.cols());
    return permutation_sum<DoubleDouble>(a).to_double();
}

std::complex<double> brute_force(const DenseMatrix<std::complex<double>>& a) {
    check_order(a.rows(), a.cols());
    const ComplexDD v = permutation_sum<ComplexDD>(a);
    return {v.re.to_double(), v.im.to_double()};
}

BigInt hafnian_brute_force_exact(const DenseMatrix<std::int64_t>& a) {
    check_pairings_order(a.rows(), a.cols());
    return numeric::from_cpp_int(pairing_sum<numeric::cpp_int>(a));
}

double hafnian_brute_force(const DenseMatrix<double>& a) {
    check_pairings_order(a.rows(), a.cols());
    return pairing_sum<DoubleDouble>(a).to_double();
}

std::complex<double> hafnian_brute_force(const DenseMatrix<std::complex<double>>& a) {
    check_pairings_order(a.rows(), a.cols());
    const ComplexDD v = pairing_sum<ComplexDD>(a);
    return {v.re.to_double(), v.im.to_double()};
}

BigInt loop_hafnian_brute_force_exact(const DenseMatrix<std::int64_t>& a) {
    check_pairings_order(a.rows(), a.cols());
    pmcount::detail::StopPoll<> stop;
    return numeric::from_cpp_int(loop_pairing_sum<numeric::cpp_int>(a, 0, stop));
}

double loop_hafnian_brute_force(const DenseMatrix<double>& a) {
    check_pairings_order(a.rows(), a.cols());
    pmcount::detail::StopPoll<> stop;
    return loop_pairing_sum<DoubleDouble>(a, 0, stop).to_double();
}

std::complex<double> loop_hafnian_brute_force(const DenseMatrix<std::complex<double>>& a) {
    check_pairings_order(a.rows(), a.cols());
    pmcount::detail::StopPoll<> stop;
    const ComplexDD v = loop_pairing_sum<ComplexDD>(a, 0, stop);
    return {v.re.to_double(), v.im.to_double()};
}

}  // namespace pmcount::exact
