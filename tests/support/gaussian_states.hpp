// Seeded random Gaussian-state matrices for the torontonian tests: O with I − O Hermitian
// positive definite (xxpp order does not matter to them), and loop vectors γ.
#pragma once

#include <complex>
#include <random>
#include <type_traits>
#include <vector>

#include "pmcount/matrix.hpp"

namespace pmcount::test {

/// I − O = B·B^H/(2N)·s + εI for B with entries uniform in [−1, 1] (complex or real): Hermitian
/// positive definite, smallest eigenvalue at least ε.
template <class T>
DenseMatrix<T> random_o(std::mt19937_64& rng, int modes, double s = 1.0, double eps = 0.2) {
    const int n2 = 2 * modes;
    std::uniform_real_distribution<double> u(-1, 1);
    std::vector<T> b(static_cast<std::size_t>(n2) * n2);
    for (auto& x : b) {
        if constexpr (std::is_same_v<T, double>) {
            x = u(rng);
        } else {
            x = T(u(rng), u(rng));
        }
    }
    DenseMatrix<T> o(n2, n2, T{});
    for (int i = 0; i < n2; ++i) {
        for (int j = 0; j < n2; ++j) {
            T m{};
            for (int k = 0; k < n2; ++k) {
                if constexpr (std::is_same_v<T, double>) {
                    m += b[static_cast<std::size_t>(i) * n2 + k] *
                         b[static_cast<std::size_t>(j) * n2 + k];
                } else {
                    m += b[static_cast<std::size_t>(i) * n2 + k] *
                         std::conj(b[static_cast<std::size_t>(j) * n2 + k]);
                }
            }
            m = m * (s / n2) + (i == j ? T(eps) : T{});
            o(i, j) = (i == j ? T(1) : T{}) - m;
        }
    }
    for (int i = 0; i < n2; ++i) {  // exactly Hermitian
        o(i, i) = T(std::real(o(i, i)));
        for (int j = 0; j < i; ++j) {
            if constexpr (std::is_same_v<T, double>) {
                o(j, i) = o(i, j);
            } else {
                o(j, i) = std::conj(o(i, j));
            }
        }
    }
    return o;
}

template <class T>
std::vector<T> random_gamma(std::mt19937_64& rng, int n2, double s = 0.5) {
    std::uniform_real_distribution<double> u(-s, s);
    std::vector<T> g(static_cast<std::size_t>(n2));
    for (auto& x : g) {
        if constexpr (std::is_same_v<T, double>) {
            x = u(rng);
        } else {
            x = T(u(rng), u(rng));
        }
    }
    return g;
}

}  // namespace pmcount::test
