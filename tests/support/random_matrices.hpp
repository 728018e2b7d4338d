// Seeded random matrices for oracle and cross-engine tests (std::mt19937_64: identical on every
// platform for a given seed).
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "pmcount/matrix.hpp"

namespace pmcount::test {

/// 0-1 matrix with each entry 1 with probability `density`.
inline DenseMatrix<std::int64_t> random_binary(int n, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    DenseMatrix<std::int64_t> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = coin(rng) ? 1 : 0;
        }
    }
    return a;
}

/// 0-1 matrix with each entry 1 with probability `density`, plus the entries of a seeded random
/// permutation: it has a perfect matching, so its permanent is at least 1 and no line is empty.
inline DenseMatrix<std::int64_t> random_binary_with_matching(int n, double density, std::uint64_t seed) {
    DenseMatrix<std::int64_t> a = random_binary(n, density, seed);
    std::vector<int> sigma(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
        sigma[static_cast<std::size_t>(i)] = i;
    }
    std::mt19937_64 rng(~seed);
    std::shuffle(sigma.begin(), sigma.end(), rng);
    for (int i = 0; i < n; ++i) {
        a(i, sigma[static_cast<std::size_t>(i)]) = 1;
    }
    return a;
}

/// Integer matrix with entries uniform in [lo, hi], zero with probability 1 − density.
inline DenseMatrix<std::int64_t> random_integer(int n, std::int64_t lo, std::int64_t hi,
                                                double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::uniform_int_distribution<std::int64_t> value(lo, hi);
    DenseMatrix<std::int64_t> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = coin(rng) ? value(rng) : 0;
        }
    }
    return a;
}

/// Real matrix with entries uniform in [lo, hi), zero with probability 1 − density.
inline DenseMatrix<double> random_real(int n, double lo, double hi, double density,
                                       std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::uniform_real_distribution<double> value(lo, hi);
    DenseMatrix<double> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            a(i, j) = coin(rng) ? value(rng) : 0.0;
        }
    }
    return a;
}

/// Complex matrix with real and imaginary parts uniform in [−1, 1).
inline DenseMatrix<std::complex<double>> random_complex(int n, double density, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::bernoulli_distribution coin(density);
    std::uniform_real_distribution<double> value(-1.0, 1.0);
    DenseMatrix<std::complex<double>> a(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) {
            if (coin(rng)) {
                const double re = value(rng);
                a(i, j) = {re, value(rng)};
            }
        }
    }
    return a;
}

}  // namespace pmcount::test
