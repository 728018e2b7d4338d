// Exact perfect-matching counts of lattices from their closed forms, computed independently of
// pmcount: Kasteleyn's product formula for grids (in high-precision floating point, rounded),
// the Aztec diamond theorem, MacMahon's box formula for hexagons.
#pragma once

#include <boost/multiprecision/cpp_bin_float.hpp>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>

namespace pmcount::test {

/// Domino tilings of the m×n grid, Kasteleyn (1961) / Temperley–Fisher (1961):
/// Π_{j≤⌈m/2⌉} Π_{k≤⌈n/2⌉} (4cos²(πj/(m+1)) + 4cos²(πk/(n+1))) for mn even (0 otherwise).
/// Evaluated with `Digits` decimal digits and rounded; the count has about 0.127·mn digits, so
/// Digits must exceed that by a margin (the relative rounding error is about mn·10^−Digits).
template <unsigned Digits = 200>
boost::multiprecision::cpp_int kasteleyn_grid_exact(int m, int n) {
    using Float = boost::multiprecision::number<boost::multiprecision::cpp_bin_float<Digits>>;
    if ((m * n) % 2 != 0) {
        return 0;
    }
    const Float pi = boost::math::constants::pi<Float>();
    Float p = 1;
    for (int j = 1; j <= (m + 1) / 2; ++j) {
        const Float cj = cos(pi * j / (m + 1));
        for (int k = 1; k <= (n + 1) / 2; ++k) {
            const Float ck = cos(pi * k / (n + 1));
            p *= 4 * cj * cj + 4 * ck * ck;
        }
    }
    return static_cast<boost::multiprecision::cpp_int>(round(p));
}

/// Domino tilings of the Aztec diamond of order k: 2^(k(k+1)/2) (Elkies–Kuperberg–Larsen–Propp).
inline boost::multiprecision::cpp_int aztec_diamond_count(int k) {
    return boost::multiprecision::cpp_int(1) << (k * (k + 1) / 2);
}

/// Lozenge tilings of the a,b,c hexagon (plane partitions in an a×b×c box), MacMahon:
/// Π_{i≤a} Π_{j≤b} (i + j + c − 1) / (i + j − 1).
inline boost::multiprecision::cpp_int macmahon(int a, int b, int c) {
    boost::multiprecision::cpp_int numerator = 1, denominator = 1;
    for (int i = 1; i <= a; ++i) {
        for (int j = 1; j <= b; ++j) {
            numerator *= i + j + c - 1;
            denominator *= i + j - 1;
        }
    }
    return numerator / denominator;
}

}  // namespace pmcount::test
