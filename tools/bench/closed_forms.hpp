// Closed forms of lattice counts for the benchmarks' checks (natural logs, long double): one
// place for every bench that compares with Kasteleyn's, MacMahon's or the Aztec formula.
#pragma once

#include <cmath>

namespace pmcount::bench {

/// Domino tilings of the m×n grid, Kasteleyn (1961):
/// Π_{j≤⌈m/2⌉} Π_{k≤⌈n/2⌉} (4cos²(πj/(m+1)) + 4cos²(πk/(n+1))), summed as logs.
inline long double log_grid_tilings(int m, int n) {
    const long double pi = 3.141592653589793238462643383279502884L;
    long double s = 0;
    for (int j = 1; j <= (m + 1) / 2; ++j) {
        const long double cj = std::cos(pi * j / (m + 1));
        for (int k = 1; k <= (n + 1) / 2; ++k) {
            const long double ck = std::cos(pi * k / (n + 1));
            s += std::log(4 * cj * cj + 4 * ck * ck);
        }
    }
    return s;
}

/// Lozenge tilings of the a,b,c hexagon, MacMahon: Π_{i≤a} Π_{j≤b} (i + j + c − 1) / (i + j − 1).
inline long double log_hexagon_tilings(int a, int b, int c) {
    long double s = 0;
    for (int i = 1; i <= a; ++i) {
        for (int j = 1; j <= b; ++j) {
            s += std::log(static_cast<long double>(i + j + c - 1)) -
                 std::log(static_cast<long double>(i + j - 1));
        }
    }
    return s;
}

/// Domino tilings of the Aztec diamond of order k: 2^(k(k+1)/2).
inline long double log_aztec_tilings(int k) {
    return k * (k + 1) / 2 * std::log(2.0L);
}

}  // namespace pmcount::bench
