// Closed forms for permanents of structured 0-1 matrices, computed independently of pmcount (exact
// big integers from recurrences and product formulas), and the matrices they describe.
#pragma once

#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

#include "pmcount/matrix.hpp"

namespace pmcount::test {

using boost::multiprecision::cpp_int;

inline cpp_int factorial(int n) {
    cpp_int f = 1;
    for (int k = 2; k <= n; ++k) {
        f *= k;
    }
    return f;
}

/// perm(J − I): derangements, D(n) = (n − 1)(D(n−1) + D(n−2)), D(0) = 1, D(1) = 0.
inline cpp_int derangements(int n) {
    cpp_int a = 1, b = 0;  // D(0), D(1)
    if (n == 0) {
        return a;
    }
    for (int k = 2; k <= n; ++k) {
        cpp_int c = (k - 1) * (a + b);
        a = b;
        b = c;
    }
    return b;
}

/// perm(J − I − P), P the cyclic shift: the ménage numbers (Touchard's formula, n ≥ 3)
/// U(n) = Σ_k (−1)^k 2n/(2n − k) C(2n − k, k) (n − k)!.
inline cpp_int menage(int n) {
    cpp_int total = 0;
    for (int k = 0; k <= n; ++k) {
        cpp_int binom = 1;  // C(2n − k, k)
        for (int i = 0; i < k; ++i) {
            binom = binom * (2 * n - k - i) / (i + 1);
        }
        cpp_int term = 2 * n * binom * factorial(n - k) / (2 * n - k);
        total += (k % 2 == 0) ? term : cpp_int(-term);
    }
    return total;
}

/// perm of the tridiagonal 0-1 matrix of order n: Fibonacci F(n + 1) (F(1) = F(2) = 1).
inline cpp_int fibonacci(int k) {
    cpp_int a = 0, b = 1;
    for (int i = 0; i < k; ++i) {
        cpp_int c = a + b;
        a = b;
        b = c;
    }
    return a;
}

/// Domino tilings of the m×n grid by Kasteleyn's product formula (1961)
/// Π_{j≤⌈m/2⌉} Π_{k≤⌈n/2⌉} (4cos²(πj/(m+1)) + 4cos²(πk/(n+1))), in long double, rounded
/// (exact while the count is far below 2^64; the tests stay there).
inline std::uint64_t kasteleyn_grid(int m, int n) {
    const long double pi = 3.141592653589793238462643383279502884L;
    long double p = 1;
    for (int j = 1; j <= (m + 1) / 2; ++j) {
        for (int k = 1; k <= (n + 1) / 2; ++k) {
            const long double cj = std::cos(pi * j / (m + 1)), ck = std::cos(pi * k / (n + 1));
            p *= 4 * cj * cj + 4 * ck * ck;
        }
    }
    return static_cast<std::uint64_t>(std::llround(p));
}

inline DenseMatrix<std::int64_t> all_ones(int n) { return DenseMatrix<std::int64_t>(n, n, 1); }

inline DenseMatrix<std::int64_t> ones_minus_identity(int n) {
    DenseMatrix<std::int64_t> a(n, n, 1);
    for (int i = 0; i < n; ++i) {
        a(i, i) = 0;
    }
    return a;
}

inline DenseMatrix<std::int64_t> menage_matrix(int n) {
    DenseMatrix<std::int64_t> a = ones_minus_identity(n);
    for (int i = 0; i < n; ++i) {
        a(i, (i + 1) % n) = 0;
    }
    return a;
}

inline DenseMatrix<std::int64_t> tridiagonal(int n) {
    DenseMatrix<std::int64_t> a(n, n, 0);
    for (int i = 0; i < n; ++i) {
        for (int j = std::max(0, i - 1); j <= std::min(n - 1, i + 1); ++j) {
            a(i, j) = 1;
        }
    }
    return a;
}

/// Biadjacency matrix of the m×n grid graph (black cells = rows, white cells = columns).
inline DenseMatrix<std::int64_t> grid_biadjacency(int m, int n) {
    std::vector<int> index(static_cast<std::size_t>(m * n), -1);
    int black = 0, white = 0;
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < n; ++c) {
            index[static_cast<std::size_t>(r * n + c)] = ((r + c) % 2 == 0) ? black++ : white++;
        }
    }
    DenseMatrix<std::int64_t> a(black, white, 0);
    for (int r = 0; r < m; ++r) {
        for (int c = 0; c < n; ++c) {
            if ((r + c) % 2 != 0) {
                continue;
            }
            const int b = index[static_cast<std::size_t>(r * n + c)];
            const int dr[] = {-1, 1, 0, 0}, dc[] = {0, 0, -1, 1};
            for (int d = 0; d < 4; ++d) {
                const int rr = r + dr[d], cc = c + dc[d];
                if (rr >= 0 && rr < m && cc >= 0 && cc < n) {
                    a(b, index[static_cast<std::size_t>(rr * n + cc)]) = 1;
                }
            }
        }
    }
    return a;
}

}  // namespace pmcount::test
